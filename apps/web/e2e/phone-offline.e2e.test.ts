import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { E2E_ROOT } from './db';
import { signedInPhone, smallTargets, type PhoneOptions } from './phone';
import { SHOTS, startStack, type Stack } from './stack';

const WEB = join(E2E_ROOT, 'apps', 'web');
const SW: PhoneOptions = { extra: { serviceWorkers: 'allow' } };

let stack: Stack;
/** this journey's own copy of the built web app (WEB_DIST): a new release is built into it, not into the shared dist */
let dist: string;
beforeAll(async () => {
  dist = join(mkdtempSync(join(tmpdir(), 'wantuo-phone-dist-')), 'dist');
  // copied while no build is writing the shared dist
  execFileSync('flock', ['/tmp/wantuo-build.lock', 'cp', '-a', join(WEB, 'dist'), dist]);
  stack = await startStack({ WEB_DIST: dist });
});
afterAll(async () => {
  await stack?.stop();
  if (dist) rmSync(join(dist, '..'), { recursive: true, force: true });
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `phone-${name}.png`) });

/** Waits until the phone's service worker controls `page` (installed, precached, activated, claimed). */
const controlled = (page: Page) => page.waitForFunction(() => navigator.serviceWorker?.controller?.state === 'activated', null, { timeout: 60_000 });

/** Records in the page every toast's text as it shows (`window.__toasts`): a toast may be gone before a poll sees it. */
const TOASTS = `(() => {
  window.__toasts = [];
  new MutationObserver(() => {
    for (const el of document.querySelectorAll('.adm-toast-main')) {
      if (el.dataset.seen) continue;
      el.dataset.seen = '1';
      window.__toasts.push(el.textContent.trim());
    }
  }).observe(document, { childList: true, subtree: true });
})();`;

/** The build id the page runs (m.html's meta) and the one 我的 shows. */
const buildOf = (page: Page) => page.evaluate(() => document.querySelector<HTMLMetaElement>('meta[name="wantuo-build"]')?.content ?? null);

/** The phone build's own files, from its manifest: m.html, every chunk and style under static/m, the webmanifest and its icon. */
function phoneFiles(): string[] {
  const manifest = JSON.parse(readFileSync(join(dist, 'm-manifest.json'), 'utf8')) as Record<string, { file: string; css?: string[] }>;
  const files = new Set(['/m.html', '/m.webmanifest', '/m-icon.svg']);
  for (const entry of Object.values(manifest)) {
    files.add(`/${entry.file}`);
    for (const css of entry.css ?? []) files.add(`/${css}`);
  }
  return [...files].sort();
}

it('the service worker: installed on the first visit, precaches exactly the phone build, opens every /m path offline', async () => {
  const page = await signedInPhone(stack, 'teacher', '/m/teacher_me', SW);
  await controlled(page);
  const registration = await page.evaluate(async () => {
    const r = await navigator.serviceWorker.getRegistration('/m/');
    return { scope: r?.scope, script: r?.active?.scriptURL };
  });
  expect(registration).toEqual({ scope: `${stack.url}/m/`, script: `${stack.url}/sw.js` });
  // the precache holds the phone build's files, no more (none of the consoles': index.html, static/<hash>.js)
  const precached = await page.evaluate(async () => {
    const name = (await caches.keys()).find((k) => k.startsWith('workbox-precache'));
    if (!name) return [];
    const cache = await caches.open(name);
    return (await cache.keys()).map((r) => new URL(r.url).pathname).sort();
  });
  expect(precached).toEqual(phoneFiles());
  expect(precached.some((p) => p === '/index.html' || /^\/static\/(?!m\/)/.test(p))).toBe(false);

  // offline: any /m path, a page's route or not, opens from the precached shell (no request reaches the server)
  const context = page.context();
  await context.setOffline(true);
  const tab = await context.newPage();
  const answer = await tab.goto(`${stack.url}/m/teacher_tutor`);
  expect(answer?.fromServiceWorker()).toBe(true);
  await tab.locator('.m-top').first().waitFor();
  await tab.locator('.adm-tab-bar-item', { hasText: '辅导' }).waitFor();
  await tab.getByText('网络已断开').first().waitFor();
  const unknown = await tab.goto(`${stack.url}/m/no_such_page`);
  expect(unknown?.fromServiceWorker()).toBe(true);
  await tab.getByText('页面不存在').waitFor();
  // outside /m (the consoles) the worker does not answer: offline, that is the browser's own error
  await expect(tab.goto(`${stack.url}/login`)).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
  await context.setOffline(false);
  await context.close();
});

it('offline: 今日 opens from the cache (shell, code, last board), a step waits in the queue and is sent when the network is back', async () => {
  const [xiaoyu] = await stack.sql<{ id: number }>(`select id from students where name = '陈小雨'`);
  const events = async () =>
    (
      await stack.sql<{ n: number }>(
        `select count(*)::int as n from flow_events where student_id = $1 and type <> 'event.voided' and day = (now() at time zone 'Asia/Shanghai')::date`,
        [xiaoyu.id],
      )
    )[0].n;
  const page = await signedInPhone(stack, 'teacher', '/m/teacher_today', SW);
  await page.locator('.flow-list .flow-row strong').first().waitFor();
  await controlled(page);
  // the board this first visit read (before the worker controlled the page) is asked again through it and kept
  await expect
    .poll(() => page.evaluate(async () => (await (await caches.open('wantuo-offline-data')).keys()).map((r) => new URL(r.url).pathname)))
    .toContain('/api/index/flowBoard');
  const before = await events();

  // no network: the app opens in a new tab from the phone's copies (shell, the page's code, the last board)
  const context = page.context();
  await context.setOffline(true);
  const tab = await context.newPage();
  const opened = await tab.goto(`${stack.url}/m/teacher_today`);
  expect(opened?.fromServiceWorker()).toBe(true);
  const row = tab.locator('.flow-list .flow-row', { hasText: '陈小雨' });
  await row.waitFor();
  await tab.getByText('网络已断开，显示的是上次加载的内容').waitFor();
  expect(await smallTargets(tab)).toEqual([]);

  // a step tapped offline waits in the queue
  await row.tap();
  await expect.poll(() => row.getAttribute('aria-checked')).toBe('true');
  await tab.locator('[data-step=shuttle]').tap();
  const pending = tab.getByTestId('flow-pending');
  await expect.poll(() => pending.innerText()).toBe('有 1 条操作等待网络恢复后发送');
  await shot(tab, 'teacher-today-offline');
  expect(await events()).toBe(before);

  // the network is back: the queue is sent, the board reloads with the step, the notice goes
  await context.setOffline(false);
  await expect.poll(() => pending.count()).toBe(0);
  await expect.poll(() => events()).toBe(before + 1);
  await expect.poll(() => row.locator('.adm-tag').first().innerText()).toBe('已接到');
  await context.close();
});

it('a new release reaches the phone on its next open: the new shell, said so once, its build id in 我的', async () => {
  const page = await signedInPhone(stack, 'teacher', '/m/teacher_me', SW);
  await controlled(page);
  const before = await buildOf(page);
  expect(before).toBeTruthy();
  await expect.poll(() => page.locator('.m-build').innerText()).toBe(`版本 ${before}`);

  // the next release: the phone app built again into the served copy, with its own build id
  const next = `e2e-${Date.now().toString(36)}`;
  await promisify(execFile)('npx', ['vite', 'build', '-c', 'vite.phone.config.ts', '--outDir', dist, '--logLevel', 'warn'], {
    cwd: WEB,
    // as a deploy builds it (vitest's NODE_ENV=test would make a development build)
    env: { ...process.env, NODE_ENV: 'production', WANTUO_BUILD: next },
    timeout: 180_000,
  });
  expect(readFileSync(join(dist, 'm.html'), 'utf8')).toContain(`<meta name="wantuo-build" content="${next}">`);

  // the phone opens the app again: the old shell from the cache at first, then the new worker takes over and the page
  // reloads onto the new shell, saying so
  const tab = await page.context().newPage();
  await tab.addInitScript(TOASTS);
  await tab.goto(`${stack.url}/m/teacher_me`);
  await expect.poll(() => buildOf(tab).catch(() => null), { timeout: 60_000 }).toBe(next);
  await expect.poll(() => tab.evaluate(() => (window as unknown as { __toasts: string[] }).__toasts).catch(() => [])).toEqual(['已更新到新版本']);
  await expect.poll(() => tab.locator('.m-build').innerText()).toBe(`版本 ${next}`);
  await shot(tab, 'me-updated');
  expect(await smallTargets(tab)).toEqual([]);
  // the new shell is the one kept: a later open, offline, still shows it
  await tab.context().setOffline(true);
  const again = await tab.context().newPage();
  await again.addInitScript(TOASTS);
  await again.goto(`${stack.url}/m/teacher_me`);
  await expect.poll(() => again.locator('.m-build').innerText()).toBe(`版本 ${next}`);
  // said once: no second reload, no second toast
  await again.waitForTimeout(1000);
  expect(await again.evaluate(() => (window as unknown as { __toasts: string[] }).__toasts)).toEqual([]);
  await tab.context().setOffline(false);
  await tab.context().close();
});
