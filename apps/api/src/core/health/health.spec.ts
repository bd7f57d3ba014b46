import type { INestApplicationContext } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp, createWorker, type ResolvedConfig } from '../../bootstrap';
import { TEMPLATE_DB, urlFor, withAdmin } from '../../../test/db';
import { eventually, startTestApp } from '../../../test/harness';
import { loadConfig } from '../config/config';
import { MIGRATIONS } from '../database/data-source';
import { createLogger } from '../logging/logger';
import { checkOwnHeartbeat, heartbeatKey } from './heartbeat';

/** A Redis server of this file's own, so stopping it touches no other test. */
class OwnRedis {
  private child: ChildProcess | null = null;
  constructor(readonly port: number) {}

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}): ${out}`));
      });
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/**
 * Runs the worker container's healthcheck (worker-health.ts, as `node apps/api/dist/worker-health.js` runs the built
 * one) in a node process of its own, its TypeScript compiled on the fly (test/ts-hook.js).
 */
async function workerHealth(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  // the tests' one require hook (test/ts-hook.js): TypeScript by swc, @wantuo/shared from its sources
  const hook = `require(${JSON.stringify(join(__dirname, '..', '..', '..', 'test', 'ts-hook.js'))});
require(${JSON.stringify(join(__dirname, '..', '..', 'worker-health.ts'))});`;
  const child = spawn(process.execPath, ['-e', hook], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  return { code, out };
}

/** Redis' own clock in ms, as the heartbeats are scored. */
async function redisNow(redis: Redis): Promise<number> {
  const [s, us] = await redis.time();
  return Number(s) * 1000 + Math.floor(Number(us) / 1000);
}

describe('with Redis: the API expects a worker process', () => {
  const silent = createLogger('silent');
  let redisServer: OwnRedis;
  let redis: Redis;
  let config: ResolvedConfig;
  let app: NestExpressApplication;
  let worker: INestApplicationContext | null = null;
  /** Closes a worker, waiting `ms` at most (see the worker-stopped test). */
  const closeWithin = (w: INestApplicationContext, ms: number) => Promise.race([w.close(), new Promise<void>((r) => setTimeout(r, ms).unref())]);
  let dbName: string;
  const get = (path: string) => request(app.getHttpServer()).get(path);

  beforeAll(async () => {
    redisServer = new OwnRedis(await freePort());
    await redisServer.start();
    redis = new Redis(redisServer.url, { maxRetriesPerRequest: null });
    redis.on('error', () => undefined);
    dbName = `wantuo_health_${process.pid}_${Date.now().toString(36)}`;
    await withAdmin((c) => c.query(`create database ${dbName} template ${TEMPLATE_DB}`));
    config = {
      ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      databaseUrl: urlFor(dbName),
      databasePoolMax: 3,
      redisUrl: redisServer.url,
      queuePrefix: `test:${dbName}`,
      uploadDir: mkdtempSync(join(tmpdir(), 'wantuo-health-')),
    };
    app = await createApp(config, silent, { runJobs: false });
    await app.init();
  });

  afterAll(async () => {
    if (worker) await closeWithin(worker, 20_000);
    await app?.close();
    redis?.disconnect();
    await redisServer?.stop();
    if (dbName) await withAdmin((c) => c.query(`drop database if exists ${dbName} with (force)`));
    if (config) rmSync(config.uploadDir, { recursive: true, force: true });
  });

  it('live answers 200 with nothing checked', async () => {
    const res = await get('/api/health/live');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ status: 'live', uptime_s: expect.any(Number) });
  });

  it('ready names the worker until a worker process beats, then answers 200 with every check', async () => {
    const none = await get('/api/health/ready');
    expect(none.status).toBe(503);
    expect(none.body.data).toMatchObject({ status: 'not ready', failing: ['worker'], checks: { worker: { status: 'missing' } } });

    worker = await createWorker(config, silent);
    await worker.init();
    const res = await get('/api/health/ready');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      status: 'ready',
      failing: [],
      checks: {
        database: { status: 'up' },
        redis: { status: 'up' },
        migrations: { status: 'up', applied: MIGRATIONS.length, pending: [] },
        worker: { status: 'up', workers: 1, last_seen_s: expect.any(Number) },
      },
      uptime_s: expect.any(Number),
    });
    // the worker container's own healthcheck (worker-health.ts) finds its heartbeat; another host's does not
    expect(await checkOwnHeartbeat(redis, config.queuePrefix)).toMatchObject({ ok: true });
    expect(await checkOwnHeartbeat(redis, config.queuePrefix, 'another-host')).toMatchObject({ ok: false });
    const healthy = await workerHealth({ REDIS_URL: config.redisUrl!, QUEUE_PREFIX: config.queuePrefix });
    expect(healthy).toEqual({ code: 0, out: expect.stringMatching(/beat \d+ s ago/) });
    // the old /api/health is unchanged: the database and Redis
    expect((await get('/api/health')).body.data).toMatchObject({ status: 'ok', database: 'up', redis: 'up' });
  });

  // an error that escaped ioredis or BullMQ here (unhandled rejection, uncaught exception) would fail the test: jest
  // reports them against the running test
  it('Redis stopped: ready answers 503 naming redis while live holds; Redis back: ready recovers', async () => {
    expect(worker).not.toBeNull();
    await redisServer.stop();
    const down = await eventually(async () => {
      const res = await get('/api/health/ready');
      return res.status === 503 ? res : null;
    });
    expect(down.body.data).toMatchObject({
      status: 'not ready',
      failing: ['redis'],
      checks: { redis: { status: 'down' }, database: { status: 'up' } },
    });
    const live = await get('/api/health/live');
    expect(live.status).toBe(200);
    expect((await get('/api/health')).status).toBe(503);

    // a Redis restarted without persistence lost the heartbeats: the worker writes its own again once reconnected
    await redisServer.start();
    const back = await eventually(async () => {
      const res = await get('/api/health/ready');
      return res.status === 200 ? res : null;
    }, 10_000);
    expect(back.body.data).toMatchObject({ status: 'ready', checks: { redis: { status: 'up' }, worker: { status: 'up', workers: 1 } } });
  });

  // In one of this stop's two fresh-clone CI runs (loaded 2-core machine) the worker's close did not finish after the Redis restart
  // above (BullMQ's close waits for its jobs; which one waited is not known yet: it closes in about a second here). Its
  // heartbeat is removed first (onModuleDestroy), which is what this test is about: the close is waited for 20 s at most.
  it('a worker that stops is missing at once; a heartbeat older than 60 s is stale', async () => {
    await closeWithin(worker!, 20_000);
    worker = null;
    const gone = await get('/api/health/ready');
    expect(gone.status).toBe(503);
    expect(gone.body.data).toMatchObject({ failing: ['worker'], checks: { worker: { status: 'missing' } } });
    const unhealthy = await workerHealth({ REDIS_URL: config.redisUrl!, QUEUE_PREFIX: config.queuePrefix });
    expect(unhealthy).toEqual({ code: 1, out: expect.stringContaining('no heartbeat of a worker on') });

    // a worker whose last heartbeat was 61 s ago (Redis' clock)
    const key = heartbeatKey(config.queuePrefix);
    await redis.zadd(key, (await redisNow(redis)) - 61_000, 'old-host:7');
    const stale = await get('/api/health/ready');
    expect(stale.status).toBe(503);
    expect(stale.body.data).toMatchObject({ failing: ['worker'], checks: { worker: { status: 'stale', workers: 0 } } });
    expect(stale.body.data.checks.worker.last_seen_s).toBeGreaterThanOrEqual(61);
    expect(stale.body.data.checks.worker.last_seen_s).toBeLessThan(120);
    expect(await checkOwnHeartbeat(redis, config.queuePrefix, 'old-host')).toMatchObject({ ok: false });

    // the same worker seen 50 s ago counts
    await redis.zadd(key, (await redisNow(redis)) - 50_000, 'old-host:7');
    const fresh = await get('/api/health/ready');
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.checks.worker).toMatchObject({ status: 'up', workers: 1 });
    expect(await checkOwnHeartbeat(redis, config.queuePrefix, 'old-host')).toMatchObject({ ok: true });
  }, 90_000);

  it('a migration the database has not applied: ready answers 503 naming it', async () => {
    const last = new MIGRATIONS[MIGRATIONS.length - 1]().name!;
    const sql = (q: string, p: unknown[] = []) => app.get(DataSource).query(q, p);
    const [row] = await sql(`select id, timestamp, name from migrations where name = $1`, [last]);
    await sql(`delete from migrations where id = $1`, [row.id]);
    try {
      const res = await get('/api/health/ready');
      expect(res.status).toBe(503);
      expect(res.body.data).toMatchObject({ failing: ['migrations'], checks: { migrations: { status: 'pending', pending: [last] } } });
    } finally {
      await sql(`insert into migrations (id, timestamp, name) values ($1, $2, $3)`, [row.id, row.timestamp, row.name]);
    }
    expect((await get('/api/health/ready')).status).toBe(200);
  });
});

describe('without Redis (npm start): the API runs the jobs itself', () => {
  it('ready answers 200 with Redis not configured and the worker in-process', async () => {
    const t = await startTestApp({ redis: false });
    try {
      const res = await t.get('/api/health/ready');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        status: 'ready',
        failing: [],
        checks: { database: { status: 'up' }, redis: { status: 'not configured' }, migrations: { status: 'up' }, worker: { status: 'in-process' } },
      });
      expect((await t.get('/api/health/live')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
