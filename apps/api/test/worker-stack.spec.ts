import type { NestExpressApplication } from '@nestjs/platform-express';
import { Code } from '@wantuo/shared';
import { Redis } from 'ioredis';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { createApp } from '../src/bootstrap';
import { ENV_KEYS, loadConfig } from '../src/core/config/config';
import { JobsService } from '../src/core/jobs/jobs.service';
import { createLogger } from '../src/core/logging/logger';
import { DEMO_PASSWORD } from '../src/seed/demo-seed';
import { prepareDatabase } from '../src/runtime';
import { eventually } from './harness';
import { REDIS_URL, urlFor, withAdmin } from './db';

/**
 * Issue 34 item 12: the demo stack (DATABASE_URL, REDIS_URL, WeChat Pay and the official account on the API's local
 * sandboxes) with a separate worker process started before the API has migrated. The worker waits for the migrations
 * (its sweeps once ran on missing tables) and finds the API's sandbox by the one rule (API_INTERNAL_URL, default
 * http://127.0.0.1:PORT), so its payments.check credits a top-up whose notify was lost (it once failed every attempt:
 * "the WeChat Pay sandbox needs WECHATPAY_BASE_URL in a process without an HTTP server").
 */
const dbName = `wantuo_t_stack_${process.pid}_${Date.now().toString(36)}`;
const prefix = `test:${dbName}`;
const dataDir = mkdtempSync(join(tmpdir(), 'wantuo-stack-'));
let worker: ChildProcess | null = null;
let app: NestExpressApplication | null = null;
let sql: Client | null = null;
let log = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const exited = new Promise((r) => worker!.once('exit', r));
    worker.kill('SIGTERM');
    await exited;
  }
  await app?.close();
  await sql?.end();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
  await withAdmin((c) => c.query(`drop database if exists ${dbName} with (force)`));
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

it('a worker started before the API waits for its migrations, and its payments.check credits a top-up whose notify was lost', async () => {
  await withAdmin((c) => c.query(`create database ${dbName}`));
  const port = await freePort();
  // the test run's own settings (NODE_ENV=test, …) stay out: the processes read only these, as on the demo stack
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(ENV_KEYS as string[]).includes(k)));
  Object.assign(env, {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: urlFor(dbName),
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    DATA_DIR: dataDir,
    WEB_DIST: join(dataDir, 'no-web'),
    WECHATPAY_SANDBOX: '1',
    WECHAT_OA_SANDBOX: '1',
    LOG_LEVEL: 'info',
    PICKUP_KEYS_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  });
  worker = spawn(process.execPath, [join(__dirname, 'ts-run.js'), 'src/worker.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  worker.stdout!.on('data', (b: Buffer) => (log += b.toString()));
  worker.stderr!.on('data', (b: Buffer) => (log += b.toString()));
  // the worker is up (and waiting) before the API migrates
  await eventually(
    async () => (/waiting for the migrations|workers started|worker running/.test(log) || worker!.exitCode !== null ? true : null),
    30_000,
  );
  await new Promise((r) => setTimeout(r, 1500));
  expect([worker.exitCode, log.slice(-2000)]).toEqual([null, expect.any(String)]);

  // the API's start: migrate, seed the demo, listen on PORT (runs no jobs: the worker does)
  const config = { ...loadConfig({ ...env, SEED_DEMO: '1', LOG_LEVEL: 'silent' }, { api: true }), databaseUrl: urlFor(dbName) };
  const silent = createLogger('silent');
  await prepareDatabase(config, silent);
  app = await createApp(config, silent, { runJobs: false });
  await app.listen(port, '127.0.0.1');
  sql = new Client({ connectionString: config.databaseUrl });
  await sql.connect();
  const server = app.getHttpServer();

  const login = await request(server).post('/api/index/login').send({ account: 'admin', password: DEMO_PASSWORD });
  const admin = login.body.data.userinfo.token as string;
  const res = await request(server).post('/api/index/recharge').set('token', admin).send({ amount_fen: 2300 });
  expect(res.body).toMatchObject({ code: Code.Ok, data: { amount_fen: 2300 } });
  const no = res.body.data.out_trade_no as string;
  // paid at the sandbox, but its notify goes nowhere
  await sql.query(`update wechatpay_sandbox_orders set notify_url = 'http://127.0.0.1:9/nowhere' where out_trade_no = $1`, [no]);
  const sim = await request(server).post('/api/dev/wechatpay/simulate').send({ out_trade_no: no });
  expect(sim.body).toMatchObject({ code: Code.Ok, data: { trade_state: 'SUCCESS', notify_status: null } });
  expect((await sql.query(`select state from payments where out_trade_no = $1`, [no])).rows[0].state).toBe('pending');

  // the check the API queued runs a minute later: queued now, the worker runs it
  await app.get(JobsService).enqueue('payments.check', { out_trade_no: no });
  const state = await eventually(async () => {
    const { rows } = await sql!.query(`select state from payments where out_trade_no = $1`, [no]);
    return rows[0].state === 'paid' ? rows[0].state : null;
  }, 20_000).catch(() => `still ${'pending'}; worker log:\n${log.slice(-3000)}`);
  expect(state).toBe('paid');
  const { rows } = await sql.query(`select balance_fen::int as b from schools where id = (select school_id from payments where out_trade_no = $1)`, [
    no,
  ]);
  expect(rows[0].b).toBeGreaterThanOrEqual(2300);
  expect(log).not.toMatch(/needs WECHATPAY_BASE_URL|does not exist/);
}, 120_000);
