#!/usr/bin/env node
// The teacher's and the parent's first screens on a mid-range phone over 4G (issue 26 item 4, "The phone"): the built
// API (apps/api/dist/main.js) serving the built web app (apps/web/dist) on a database of its own with the demo seeded;
// Chromium (playwright-core) in a 375×812 context throttled through the DevTools protocol (150 ms latency, 9 Mbps down,
// 4 Mbps up, CPU ×4; the service worker's own requests throttled alike). Signed in once without throttling (not
// timed); then per run a new context (an empty HTTP cache, no service worker) with that session: a cold navigation to
// the phone route, then, once the phone's service worker controls the page, a second visit (same context, a new tab:
// the worker's precache, the browser's cache and V8's code cache warm). Timed from the navigation's start
// (performance.timeOrigin): the first student row (/m/teacher_today), child's card (/m/parent) or message bubble (/m/parent_chat) on screen (targets
// ≤ 2.0 s cold, ≤ 0.8 s second visit), and "interactive": the time after which no long task (≥ 50 ms) starts within
// 2 s (targets ≤ 2.5 s cold, ≤ 1.2 s second visit). Also the phone entry's and the route's JS, brotli, from the phone
// build's manifest (dist/m-manifest.json; target ≤ 150 KiB).
// /m/parent_chat (issue 40): the guardian's conversation with the school, until its first message bubble (a few
// messages written first through the API), same targets.
// Appends a dated section to BENCHMARKS.md (`--no-write` to leave it alone; `--runs N`, `--route teacher|parent|chat`, or several: `--route chat,parent`).
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { chromium } from 'playwright-core';
import { appendSection, benchDatabase, machineLoad, startDemoApi } from '../../api/bench/bench-lib.mjs';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const RUNS = Number(opt('runs', 3));
const WRITE = !args.includes('--no-write');
const ONLY = opt('route', null);

/** The phone: viewport, network (bytes per second) and CPU slow-down. */
const PHONE = { width: 375, height: 812, latency: 150, down: (9 * 1_000_000) / 8, up: (4 * 1_000_000) / 8, cpu: 4 };
const TARGET = { cold: 2000, warm: 800 };
/** "interactive" (no long task starts within 2 s after it) */
const TARGET_TTI = { cold: 2500, warm: 1200 };
const QUIET_MS = 2000;
/** the phone entry's and the first route's JS, brotli */
const TARGET_JS = 150 * 1024;

const ROUTES = [
  // the first student's name in the list of today's flow
  {
    key: 'teacher',
    account: 'teacher',
    path: '/m/teacher_today',
    module: 'src/phone/teacher/today.tsx',
    selector: '.flow-list .flow-row strong',
    what: 'first student row',
  },
  // the first child's card (name and care class) on the parent's home
  { key: 'parent', account: 'parent', path: '/m/parent', module: 'src/phone/parent/home.tsx', selector: '.child-card', what: "first child's card" },
  // the guardian's conversation with the school (issue 40), its first message bubble: the bench writes a few messages
  // into each of the parent's children's conversations first (through the API), so bubbles exist
  {
    key: 'chat',
    account: 'parent',
    path: '/m/parent_chat',
    module: 'src/phone/conversations/parent-chat.tsx',
    selector: '.cv-list .cv-bubble',
    what: 'first message bubble',
    seed: seedConversation,
  },
].filter((r) => !ONLY || ONLY.split(',').includes(r.key));

for (const f of [join(web, 'dist', 'index.html'), join(web, 'dist', 'm-manifest.json'), join(web, '..', 'api', 'dist', 'main.js')]) {
  if (!existsSync(f)) throw new Error(`${f} is missing: build first (npx turbo run build)`);
}
if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}`);

/**
 * Records, in the page, when `selector` first matches an element with a box on screen (performance.now(), i.e. ms
 * since the navigation started): a check at each DOM change and each frame, so the mark is not late by a poll.
 */
const markScript = (selector) => `(() => {
  const sel = ${JSON.stringify(selector)};
  window.__long = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  const check = () => {
    if (window.__shown) return true;
    const el = document.querySelector(sel);
    if (!el) return false;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && r.top < innerHeight) { window.__shown = performance.now(); return true; }
    return false;
  };
  const start = () => {
    const mo = new MutationObserver(() => { if (check()) mo.disconnect(); });
    mo.observe(document, { childList: true, subtree: true, attributes: true });
    const frame = () => { if (!check()) requestAnimationFrame(frame); };
    requestAnimationFrame(frame);
  };
  if (document.documentElement) start(); else document.addEventListener('readystatechange', start, { once: true });
})();`;

/**
 * The service workers' own requests (the precache, the offline reads' network-first fetches) throttled like the
 * page's: DevTools' per-page throttling does not reach a worker's target, so each worker target is attached (a
 * browser-level DevTools session) and throttled as it appears. Answers how many workers were throttled.
 */
async function throttleWorkers(browser) {
  const cdp = await browser.newBrowserCDPSession();
  let id = 0;
  const throttled = new Set();
  const throttle = async (info) => {
    if (info.type !== 'service_worker' || throttled.has(info.targetId)) return;
    throttled.add(info.targetId);
    try {
      const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: info.targetId, flatten: false });
      const send = (method, params) => cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: ++id, method, params }) });
      await send('Network.enable', {});
      await send('Network.emulateNetworkConditions', {
        offline: false,
        latency: PHONE.latency,
        downloadThroughput: PHONE.down,
        uploadThroughput: PHONE.up,
      });
    } catch {
      throttled.delete(info.targetId);
    }
  };
  cdp.on('Target.targetCreated', (e) => void throttle(e.targetInfo));
  cdp.on('Target.targetInfoChanged', (e) => void throttle(e.targetInfo));
  await cdp.send('Target.setDiscoverTargets', { discover: true });
  return { count: () => throttled.size, detach: () => cdp.detach().catch(() => {}) };
}

/** When the page became interactive: the end of the last long task before a quiet 2 s (no long task starting), from `shown` on. */
function interactiveAt(shown, longTasks) {
  let t = shown;
  for (const [start, duration] of [...longTasks].sort((a, b) => a[0] - b[0])) {
    if (start > t + QUIET_MS) break;
    t = Math.max(t, start + duration);
  }
  return t;
}

/** A throttled tab in `context`: the network log (per request: URL, type, bytes on the wire, start and end). */
async function phoneTab(context) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PHONE.latency,
    downloadThroughput: PHONE.down,
    uploadThroughput: PHONE.up,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpu });
  const requests = new Map();
  cdp.on('Network.requestWillBeSent', (e) => {
    if (!requests.has(e.requestId)) requests.set(e.requestId, { url: e.request.url, type: e.type, start: e.timestamp, wall: e.wallTime });
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (r)
      Object.assign(r, {
        status: e.response.status,
        cached: e.response.fromDiskCache || e.response.fromMemoryCache || e.response.fromServiceWorker,
        sw: e.response.fromServiceWorker,
        encoding: e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'],
      });
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.cached = true;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r) Object.assign(r, { end: e.timestamp, bytes: e.encodedDataLength });
  });
  return { page, cdp, requests };
}

/** One visit: navigate, wait for the selector on screen, read the mark and the network log relative to the document's request. */
async function visit(context, base, route) {
  const { page, cdp, requests } = await phoneTab(context);
  await page.addInitScript({ content: markScript(route.selector) });
  await page.goto(`${base}${route.path}`, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__shown !== undefined, null, { timeout: 60_000, polling: 100 });
  const shown = await page.evaluate(() => window.__shown);
  // interactive: wait until 2 s have passed with no long task starting (or 30 s)
  let interactive = shown;
  for (const until = Date.now() + 30_000; Date.now() < until; await page.waitForTimeout(250)) {
    const { now, long } = await page.evaluate(() => ({ now: performance.now(), long: window.__long }));
    interactive = interactiveAt(shown, long);
    if (now >= interactive + QUIET_MS) break;
  }
  const longTasks = await page.evaluate(() => window.__long.length);
  // let the requests the screen starts at once finish, for the log
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => {});
  // the next visit is a returning phone's: the service worker installed (precache done) and controlling
  const controlled = await page
    .waitForFunction(() => navigator.serviceWorker?.controller?.state === 'activated', null, { timeout: 60_000 })
    .then(() => true)
    .catch(() => false);
  await cdp.detach().catch(() => {});
  const list = [...requests.values()];
  const doc = list.find((r) => r.type === 'Document') ?? list[0];
  const t0 = doc.start;
  const log = list
    .filter((r) => r.url.startsWith(base) && !r.url.includes('/socket.io/'))
    .map((r) => ({
      path: r.url.slice(base.length).replace(/\?.*$/, (q) => (q.length > 40 ? `${q.slice(0, 40)}…` : q)),
      type: r.type,
      bytes: r.bytes ?? 0,
      cached: !!r.cached,
      sw: !!r.sw,
      encoding: r.encoding ?? '',
      start: Math.round((r.start - t0) * 1000),
      end: r.end ? Math.round((r.end - t0) * 1000) : null,
    }))
    .sort((a, b) => a.start - b.start);
  await page.close();
  return { shown: Math.round(shown), interactive: Math.round(interactive), longTasks, controlled, log };
}

async function signIn(browser, base, account) {
  const context = await browser.newContext({ viewport: { width: PHONE.width, height: PHONE.height }, locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.getByPlaceholder('用户名 / 手机号 / 邮箱').fill(account);
  await page.getByPlaceholder('密码', { exact: true }).fill('Demo@2026');
  await page.locator('form button[type=submit]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  const state = await context.storageState();
  await context.close();
  return state;
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A few messages in each of the parent's children's conversations, the admin's and the parent's, through the API. */
async function seedConversation(api) {
  const post = (token, action, body) =>
    fetch(`${api.base}/api/index/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  const parent = await api.login('parent');
  const school = await api.login('admin');
  const { rows } = await api.sql.query(
    `select g.student_id from student_guardians g join users u on u.id = g.user_id where u.username = 'parent' order by g.student_id`,
  );
  const texts = [
    [school, '今天孩子在托管班表现很好，作业已经完成。'],
    [parent, '谢谢老师！今天由外婆来接，五点半到。'],
    [school, '好的，收到。晚饭吃了米饭和青菜。'],
    [school, '明天记得带水彩笔，美术课要用。'],
  ];
  let n = 0;
  for (const { student_id } of rows) {
    for (const [who, text] of texts) {
      const res = await post(who.token, 'conversationSend', { student_id, text, request_id: `phonebench-${student_id}-${n++}` });
      if (res.code !== 200) throw new Error(`conversationSend: ${JSON.stringify(res).slice(0, 300)}`);
    }
  }
  return `${texts.length} messages in each of the parent's ${rows.length} children's conversations`;
}

const { dbName, dbUrl } = benchDatabase('phone_bench');
const api = await startDemoApi({ dbName, dbUrl, env: { NODE_ENV: 'development' } });
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const results = [];
const chromiumVersion = browser.version();
const workers = await throttleWorkers(browser);
try {
  for (const route of ROUTES) {
    if (route.seed) route.seeded = await route.seed(api);
    const state = await signIn(browser, api.base, route.account);
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({
        viewport: { width: PHONE.width, height: PHONE.height },
        locale: 'zh-CN',
        storageState: state,
        isMobile: true,
        hasTouch: true,
        serviceWorkers: 'allow',
      });
      const cold = await visit(context, api.base, route);
      const warm = await visit(context, api.base, route);
      await context.close();
      runs.push({ cold, warm, load: machineLoad('phone.bench.mjs').load });
      console.log(
        `${route.path} run ${i + 1}: on screen cold ${s(cold.shown)}, second visit ${s(warm.shown)}; interactive cold ${s(cold.interactive)} (${cold.longTasks} long tasks), second visit ${s(warm.interactive)} (${warm.longTasks}); worker controlling ${cold.controlled ? 'yes' : 'NO'} (load ${runs.at(-1).load})`,
      );
    }
    results.push({ route, runs });
  }
} finally {
  await workers.detach();
  await browser.close();
  await api.stop();
}

/** The phone entry's JS (m.html's chunk and its static imports) plus the route page's chunk and its static imports. */
const phoneManifest = JSON.parse(readFileSync(join(web, 'dist', 'm-manifest.json'), 'utf8'));
function closure(key, seen = new Set()) {
  if (seen.has(key) || !phoneManifest[key]) return seen;
  seen.add(key);
  for (const dep of phoneManifest[key].imports ?? []) closure(dep, seen);
  return seen;
}
const br = (f) => brotliCompressSync(readFileSync(join(web, 'dist', f)), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
function routeJs(route) {
  const entry = Object.keys(phoneManifest).find((k) => phoneManifest[k].isEntry);
  const keys = new Set([...closure(entry), ...closure(route.module)]);
  const files = [...keys].map((k) => phoneManifest[k].file);
  return { files, bytes: files.reduce((n, f) => n + br(f), 0), entryBytes: [...closure(entry)].reduce((n, k) => n + br(phoneManifest[k].file), 0) };
}

// the report: per route the three runs, then the requests of the last run (cold and second visit)
const date = new Date().toISOString().slice(0, 10);
const load = machineLoad('phone.bench.mjs');
const lines = [
  `## Web: the teacher's and the parent's first screen on a 4G phone (${date})`,
  '',
  `\`npm run bench:phone -w apps/web\` (apps/web/scripts/phone.bench.mjs): the built API serving the built web app on a database of its own (demo seeded), Chromium ${chromiumVersion} 375×812, DevTools throttling: ${PHONE.latency} ms latency, 9 Mbps down, 4 Mbps up, CPU ×${PHONE.cpu} (the service worker's requests throttled alike: ${workers.count()} worker targets). Signed in beforehand (not timed); each run a new browser context (empty HTTP cache, no service worker): a cold navigation, then, once the phone's service worker controls the page, a second visit in a new tab. Time from the navigation's start to the element on screen, and to "interactive" (after it, no long task of ≥ 50 ms starts within 2 s). Machine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; load ${load.load} (${load.others} other bench/test processes).`,
  '',
  '| route | until | cold (3 runs) | second visit (3 runs) | target | met |',
  '|---|---|---|---|---|---|',
];
for (const { route, runs } of results) {
  const cold = runs.map((r) => r.cold.shown);
  const warm = runs.map((r) => r.warm.shown);
  const met = Math.max(...cold) <= TARGET.cold && Math.max(...warm) <= TARGET.warm;
  lines.push(
    `| ${route.path} | ${route.what} | ${cold.map(s).join(' / ')} | ${warm.map(s).join(' / ')} | ≤ ${s(TARGET.cold)} / ≤ ${s(TARGET.warm)} | ${met ? 'yes' : '**no**'} |`,
  );
  const tCold = runs.map((r) => r.cold.interactive);
  const tWarm = runs.map((r) => r.warm.interactive);
  const tMet = Math.max(...tCold) <= TARGET_TTI.cold && Math.max(...tWarm) <= TARGET_TTI.warm;
  lines.push(
    `| ${route.path} | interactive | ${tCold.map(s).join(' / ')} | ${tWarm.map(s).join(' / ')} | ≤ ${s(TARGET_TTI.cold)} / ≤ ${s(TARGET_TTI.warm)} | ${tMet ? 'yes' : '**no**'} |`,
  );
}
lines.push('');
for (const { route } of results) if (route.seeded) lines.push(`${route.path}: before the runs, ${route.seeded} (conversationSend).`, '');
for (const { route } of results) {
  const js = routeJs(route);
  lines.push(
    `${route.path}: the phone entry and the route's JS ${kib(js.bytes)} brotli (entry ${kib(js.entryBytes)}; ${js.files.length} chunks), target ≤ ${kib(TARGET_JS)}: ${js.bytes <= TARGET_JS ? 'within' : '**over**'}.`,
  );
}
for (const { route, runs } of results) {
  for (const [label, v] of [
    ['cold', runs.at(-1).cold],
    ['second visit', runs.at(-1).warm],
  ]) {
    const js = v.log.filter((r) => r.type === 'Script');
    const data = v.log.filter((r) => r.path.startsWith('/api/'));
    const total = v.log.reduce((n, r) => n + r.bytes, 0);
    lines.push(
      '',
      `${route.path}, ${label} (last run): on screen at ${s(v.shown)}; ${v.log.length} requests, ${kib(total)} on the wire; ${js.length} JS chunks (${kib(js.reduce((n, r) => n + r.bytes, 0))}${js.some((r) => r.cached) ? `; ${js.filter((r) => r.cached).length} from the cache, not listed` : ''}); the document, styles, chunks fetched and data requests:`,
      '',
      '| request | bytes | start–end (ms) | note |',
      '|---|---|---|---|',
      // chunks the browser had in its cache (a second visit) are counted above, not listed
      ...[...v.log.filter((r) => r.type === 'Document' || r.type === 'Stylesheet'), ...js.filter((r) => !r.cached), ...data].map(
        (r) =>
          `| ${r.path} | ${r.cached ? (r.sw ? 'service worker' : 'cache') : kib(r.bytes)} | ${r.start}–${r.end ?? '?'} | ${[r.type, r.encoding].filter(Boolean).join(', ')} |`,
      ),
    );
  }
}
const section = `${lines.join('\n')}\n`;
if (WRITE) appendSection(`\n${section}`);
else console.log(section);
const allMet = results.every(
  ({ route, runs }) =>
    routeJs(route).bytes <= TARGET_JS &&
    runs.every(
      (r) =>
        r.cold.shown <= TARGET.cold && r.warm.shown <= TARGET.warm && r.cold.interactive <= TARGET_TTI.cold && r.warm.interactive <= TARGET_TTI.warm,
    ),
);
process.exit(allMet ? 0 : 1);
