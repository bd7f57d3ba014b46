import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { chromium, type Browser, type Page } from 'playwright-core';

const root = join(__dirname, '..', '..', '..');
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SHOTS = join(root, 'apps', 'web', 'reports', 'screenshots');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function admin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export interface Stack {
  url: string;
  browser: Browser;
  /** runs SQL on the stack's database (test setup only: the journeys themselves go through the screens) */
  sql<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  stop(): Promise<void>;
}

/**
 * The production build as `npm start` runs it with PostgreSQL and Redis set: API (serving the built web app)
 * plus the job worker, on a database of its own with the demo seeded.
 */
export async function startStack(): Promise<Stack> {
  for (const f of ['apps/api/dist/main.js', 'apps/web/dist/index.html']) {
    if (!existsSync(join(root, f))) throw new Error(`${f} is missing: build first (npm run build)`);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
  const db = `wantuo_e2e_${process.pid}_${Date.now().toString(36)}`;
  await admin((c) => c.query(`create database ${db}`));
  const u = new URL(ADMIN_URL);
  u.pathname = `/${db}`;
  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    DATABASE_URL: u.toString(),
    REDIS_URL,
    QUEUE_PREFIX: `e2e:${db}`,
    SEED_DEMO: '1',
    LOG_LEVEL: 'warn',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'wantuo-e2e-')),
  };
  const procs: ChildProcess[] = [];
  const api = spawn(process.execPath, [join(root, 'apps/api/dist/main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  procs.push(api);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 200 || api.exitCode !== null) throw new Error('the API did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  procs.push(spawn(process.execPath, [join(root, 'apps/api/dist/worker.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] }));
  mkdirSync(SHOTS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  return {
    url,
    browser,
    async sql<R>(text: string, params: unknown[] = []) {
      const c = new Client({ connectionString: u.toString() });
      await c.connect();
      try {
        return (await c.query(text, params)).rows as R[];
      } finally {
        await c.end();
      }
    },
    async stop() {
      await browser.close();
      for (const p of procs) p.kill('SIGTERM');
      await Promise.all(procs.map((p) => (p.exitCode !== null ? null : new Promise((r) => p.once('exit', r)))));
      await admin((c) => c.query(`drop database if exists ${db} with (force)`));
    },
  };
}

/** A new browser context of this size, signed in with the demo password as `account`, then at `path`. */
export async function signedIn(stack: Stack, account: string, width: number, height: number, path: string): Promise<Page> {
  const context = await stack.browser.newContext({ viewport: { width, height }, locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto(`${stack.url}/login`);
  await page.getByPlaceholder('用户名 / 手机号 / 邮箱').fill(account);
  await page.getByPlaceholder('密码', { exact: true }).fill('Demo@2026');
  await page.locator('form button[type=submit]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  await page.goto(`${stack.url}${path}`);
  return page;
}
