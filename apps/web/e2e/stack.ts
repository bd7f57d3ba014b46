import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { adminSql, E2E_ROOT as root, withDatabase } from './db';

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

export interface Stack {
  url: string;
  browser: Browser;
  /** runs SQL on the stack's database (test setup only: the journeys themselves go through the screens) */
  sql<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** the stack's data folder (its uploads are served at /uploads) */
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * The production build as `npm start` runs it with PostgreSQL and Redis set: API (serving the built web app)
 * plus the job worker, on a database of its own with the demo seeded: a copy of the run's template database and its
 * data folder (e2e/global-setup.ts), so the API starts on a migrated, seeded database. `extraEnv` is merged into the
 * API's and the worker's environment over the defaults (e.g. `{ NATIONAL_HOLIDAYS_FILE: path }`, a file the journey
 * wrote before).
 */
export async function startStack(extraEnv: NodeJS.ProcessEnv = {}): Promise<Stack> {
  for (const f of ['apps/api/dist/main.js', 'apps/web/dist/index.html']) {
    if (!existsSync(join(root, f))) throw new Error(`${f} is missing: build first (npm run build)`);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
  const template = inject('e2eTemplate');
  const db = `wantuo_e2e_${process.pid}_${Date.now().toString(36)}`;
  await adminSql(`create database ${db} template ${template.db}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'wantuo-e2e-'));
  cpSync(template.dataDir, dataDir, { recursive: true });
  const dbUrl = withDatabase(db);
  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    DATABASE_URL: dbUrl,
    REDIS_URL,
    QUEUE_PREFIX: `e2e:${db}`,
    SEED_DEMO: '1',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    // the links in messages and share links point at this stack
    WEB_PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...extraEnv,
  };
  const procs: ChildProcess[] = [];
  const api = spawn(process.execPath, [join(root, 'apps/api/dist/main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  procs.push(api);
  mkdirSync(SHOTS, { recursive: true });
  const launching = chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 200 || api.exitCode !== null) {
      for (const p of procs) p.kill('SIGTERM');
      await (await launching).close();
      throw new Error('the API did not start');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const browser = await launching;
  // the worker has no HTTP server: it reaches the API's WeChat sandbox by address (as docker-compose.yml's worker does)
  const workerEnv = { ...env, WECHAT_OA_API_URL: `${url}/api/dev/wechat/` };
  procs.push(spawn(process.execPath, [join(root, 'apps/api/dist/worker.js')], { env: workerEnv, stdio: ['ignore', 'ignore', 'inherit'] }));
  return {
    url,
    browser,
    async sql<R>(text: string, params: unknown[] = []) {
      const c = new Client({ connectionString: dbUrl });
      await c.connect();
      try {
        return (await c.query(text, params)).rows as R[];
      } finally {
        await c.end();
      }
    },
    dataDir,
    async stop() {
      await browser.close();
      for (const p of procs) p.kill('SIGTERM');
      await Promise.all(procs.map((p) => (p.exitCode !== null ? null : new Promise((r) => p.once('exit', r)))));
      await adminSql(`drop database if exists ${db} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * How every journey's browser context is made: Chinese, and asking for reduced motion as an accessibility setting would,
 * so antd's dialogs, drawers and dropdowns open without animating (nothing moves under a click, and no frames are spent
 * on motion; the app honours the setting for every user who has it on).
 */
export const CONTEXT = { locale: 'zh-CN', reducedMotion: 'reduce' } as const;

/** A new browser context of this size, signed in with the demo password as `account`, then at `path`. */
export async function signedIn(stack: Stack, account: string, width: number, height: number, path: string): Promise<Page> {
  const context = await stack.browser.newContext({ viewport: { width, height }, ...CONTEXT });
  const page = await context.newPage();
  // the sign-in page sends the user on to `redirect` inside the app: one page load instead of two (the login page's
  // and the destination's), as a user following a link while signed out would go
  await page.goto(`${stack.url}/login?redirect=${encodeURIComponent(path)}`);
  await page.getByPlaceholder('用户名 / 手机号 / 邮箱').fill(account);
  await page.getByPlaceholder('密码', { exact: true }).fill('Demo@2026');
  await page.locator('form button[type=submit]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  return page;
}

/**
 * Waits until no antd motion (a dialog's zoom, a drawer's slide, a dropdown's slide) is running, so a click lands on
 * an element that has stopped moving (a dropdown opened while its dialog still zooms in moves under the pointer).
 */
export async function motionDone(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[class*="-appear-active"], [class*="-enter-active"], [class*="-leave-active"]'), null, {
    timeout: 10_000,
  });
}

/**
 * Picks `option` in the antd Select `select`, then waits until `took()` says the pick landed (e.g. the button it
 * enables is enabled). A list that re-rendered under the click on a busy machine (a query answering meanwhile) is
 * opened and picked again, at most three times, and then the journey fails with what did not take.
 */
export async function choose(page: Page, select: Locator, option: string, took: () => Promise<boolean>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await select.click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
    for (const until = Date.now() + 5_000; Date.now() < until; await page.waitForTimeout(100)) {
      if (await took()) return;
    }
    if (attempt === 3) throw new Error(`choosing "${option}" did not take`);
  }
}
