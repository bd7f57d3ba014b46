import { Code, LoginResult, UserInfo } from '@wantuo/shared';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { io, type Socket } from 'socket.io-client';
import { DataSource } from 'typeorm';
import { ENV_KEYS } from '../src/core/config/config';
import { dataSourceOptions } from '../src/core/database/data-source';
import { SHUTDOWN } from '../src/core/shutdown/graceful-shutdown';
import { DEMO_PASSWORD, seedDemo } from '../src/seed/demo-seed';
import { REDIS_URL, TEMPLATE_DB, urlFor, withAdmin } from './db';

/**
 * Issue 25: SIGTERM under load loses no acknowledged request. The API runs as in production (its own entry, main.ts,
 * from the sources: test/shutdown/main.js; NODE_ENV=production, PostgreSQL, Redis) in a child process. Lanes of
 * keep-alive connections send sign-ins (POST, a write) and userInfo (GET) back to back; mid-stream the child gets
 * SIGTERM. Every request sent before the signal is answered, every answer is complete and valid, the live socket is
 * told before it is dropped, and the process exits 0 within its bound.
 */

const LANES = 8;

interface Call {
  kind: 'login' | 'userInfo';
  /** performance.now() when it was sent, and when it ended */
  sent: number;
  done: number;
  /** set when an answer began */
  status?: number;
  /** the answer arrived whole and its body is what the action declares */
  ok: boolean;
  /** no answer (or a broken one): the error's code */
  error?: string;
  /** the answer's data */
  data?: unknown;
}

let dbName: string;
let dataDir: string;
let child: ChildProcess | null = null;
let socket: Socket | null = null;
const agent = new Agent({ keepAlive: true, maxSockets: LANES + 2 });
const out: string[] = [];
let err = '';

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

function call(port: number, kind: Call['kind'], token?: string): Promise<Call> {
  const sent = performance.now();
  const body = kind === 'login' ? JSON.stringify({ account: 'admin', password: DEMO_PASSWORD }) : undefined;
  return new Promise((resolve) => {
    let settled = false;
    const end = (c: Omit<Call, 'kind' | 'sent' | 'done'>) => {
      if (settled) return;
      settled = true;
      resolve({ kind, sent, done: performance.now(), ...c });
    };
    const req = request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: kind === 'login' ? 'POST' : 'GET',
        path: `/api/index/${kind}`,
        headers: { ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}), ...(token ? { token } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', () => undefined);
        res.on('close', () => {
          if (!res.complete) return end({ status: res.statusCode, ok: false, error: 'incomplete answer' });
          let json: { code?: unknown; data?: unknown } = {};
          try {
            json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof json;
          } catch {
            return end({ status: res.statusCode, ok: false, error: 'not JSON' });
          }
          const schema = kind === 'login' ? LoginResult : UserInfo;
          end({
            status: res.statusCode,
            ok: res.statusCode === 200 && json.code === Code.Ok && schema.safeParse(json.data).success,
            data: json.data,
          });
        });
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => end({ ok: false, error: e.code ?? e.message }));
    req.end(body);
  });
}

beforeAll(async () => {
  dbName = `wantuo_t_${process.pid}_${Date.now().toString(36)}_shutdown`;
  await withAdmin((c) => c.query(`create database ${dbName} template ${TEMPLATE_DB}`));
  const ds = new DataSource(dataSourceOptions(urlFor(dbName), 1));
  await ds.initialize();
  await seedDemo(ds, { people: false });
  await ds.destroy();
  dataDir = mkdtempSync(join(tmpdir(), 'wantuo-shutdown-'));
});

afterAll(async () => {
  socket?.close();
  agent.destroy();
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`test:${dbName}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
  await withAdmin((c) => c.query(`drop database if exists ${dbName} with (force)`));
  rmSync(dataDir, { recursive: true, force: true });
});

it('SIGTERM under load: every request sent before it is answered, every answer whole, sockets told, exit 0', async () => {
  const port = await freePort();
  // the test run's own settings (DATABASE_URL, NODE_ENV=test, ...) stay out: the child reads only these
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(ENV_KEYS as string[]).includes(k)));
  Object.assign(env, {
    NODE_ENV: 'production',
    DATABASE_URL: urlFor(dbName),
    REDIS_URL,
    QUEUE_PREFIX: `test:${dbName}`,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    WEB_DIST: join(dataDir, 'no-web'),
    SEED_DEMO: '0',
    WECHATPAY_SANDBOX: '1',
    PICKUP_KEYS_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 3).toString('base64')}`,
    // many sign-ins from one address
    RATE_LIMIT_FACTOR: '0',
    LOG_LEVEL: 'info',
  });
  const proc = spawn(process.execPath, [join(__dirname, 'shutdown', 'main.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child = proc;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
  );
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    let buf = '';
    proc.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const line of lines) {
        out.push(line);
        if (line.includes('"msg":"listening on')) resolve();
      }
    });
    void exited.then(({ code }) => reject(new Error(`the API exited (${code}) before listening: ${err}`)));
  });

  // a live socket, as a board keeps open
  const login = await call(port, 'login');
  expect(login).toMatchObject({ status: 200, ok: true });
  const token = (login.data as LoginResult).userinfo.token;
  const live = io(`http://127.0.0.1:${port}`, { path: '/socket.io', transports: ['websocket'], auth: { token }, reconnection: false });
  socket = live;
  const told: unknown[] = [];
  live.on('flow.error', (e: unknown) => told.push(e));
  const dropped = new Promise<string>((resolve) => live.once('disconnect', resolve));
  await new Promise<void>((resolve, reject) => {
    live.once('connect', resolve);
    live.once('connect_error', reject);
  });

  // the stream: each lane sends its next request as soon as the last one ended, until one gets no answer
  const calls: Call[] = [];
  let inFlight = 0;
  const lane = async (i: number) => {
    for (let n = i; ; n++) {
      inFlight++;
      const c = await call(port, n % 2 ? 'userInfo' : 'login', token);
      inFlight--;
      calls.push(c);
      if (c.status === undefined) return;
    }
  };
  const lanes = Array.from({ length: LANES }, (_, i) => lane(i));
  const warm = performance.now();
  while (calls.length < 40 || performance.now() - warm < 300) {
    if (performance.now() - warm > 10_000) throw new Error(`the stream stalled: ${calls.length} answers`);
    await new Promise((r) => setTimeout(r, 10));
  }

  const readiness = async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/health/ready`, { headers: { connection: 'close' } });
    return { status: res.status, failing: ((await res.json()) as { data: { failing: string[] } }).data.failing };
  };
  expect((await readiness()).failing).not.toContain('shutting_down');

  const signalAt = performance.now();
  const inFlightAtSignal = inFlight;
  proc.kill('SIGTERM');
  // while it drains, the API tells the load balancer it is not ready (within the grace, when it still answers)
  await new Promise((r) => setTimeout(r, 100));
  const draining = await readiness();
  const exit = await exited;
  await Promise.all(lanes);

  const show = (c: Call) => `${c.kind} sent ${Math.round(c.sent - signalAt)} ms after the signal: ${c.error ?? c.status}`;
  // requests were in flight when the signal came, and the stream went on after it
  expect(inFlightAtSignal).toBeGreaterThan(0);
  const before = calls.filter((c) => c.sent < signalAt);
  expect(before.length).toBeGreaterThanOrEqual(40);
  // every request sent before the signal was answered, completely and validly
  expect(before.filter((c) => !c.ok).map(show)).toEqual([]);
  // any request that got an answer at all (also after the signal) got a whole, valid one
  expect(calls.filter((c) => c.status !== undefined && !c.ok).map(show)).toEqual([]);
  // during the grace the API still answered new requests (each on its own connection then)
  expect(calls.filter((c) => c.sent > signalAt && c.ok).length).toBeGreaterThan(0);
  // the socket was told the server is going away, then dropped by the server (the web app reconnects with `since`)
  expect(told).toEqual([{ code: 503 }]);
  expect(await dropped).toBe('io server disconnect');
  expect(draining).toMatchObject({ status: 503, failing: expect.arrayContaining(['shutting_down']) });
  // a clean exit, within the bound
  expect({ code: exit.code, signal: exit.signal, ...(exit.code === 0 ? {} : { stderr: err }) }).toEqual({ code: 0, signal: null });
  expect(exit.at - signalAt).toBeLessThan(SHUTDOWN.graceMs + SHUTDOWN.drainMs);
  const msgs = out.filter((l) => l.startsWith('{')).map((l) => (JSON.parse(l) as { msg: string }).msg);
  expect(msgs).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
  expect(msgs.indexOf('stopped')).toBeGreaterThan(msgs.indexOf('shutting down'));
});
