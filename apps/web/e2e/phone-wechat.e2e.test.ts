import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { phoneContext } from './phone';
import { SHOTS, startStack, type Stack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

/** WeChat's browser on an Android phone (it checks the signature against the current URL, iOS against the entry one). */
const ANDROID_WECHAT_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.134 Mobile Safari/537.36 XWEB/1260117 MMWEBSDK/20240501 MMWEBID/2247 MicroMessenger/8.0.54.2660(0x28003637) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64';

/** The phone app's chunk of src/phone/wechat/jssdk.ts in the built app (its name carries a hash: looked up when used). */
function jssdkChunk(): string {
  const dir = fileURLToPath(new URL('../dist/static/m', import.meta.url));
  const file = readdirSync(dir).find((f) => /^jssdk-[\w-]+\.js$/.test(f));
  if (!file) throw new Error('no jssdk chunk in dist/static/m: build the web app (npm run build)');
  return `/static/m/${file}`;
}

/**
 * A phone inside "WeChat": WeChat's user agent, and the sandbox's WeixinJSBridge injected into every page before the
 * page's own scripts, as WeChat's client provides it.
 */
async function inWechat(ua?: string): Promise<BrowserContext> {
  const context = await phoneContext(stack, { wechat: true, extra: ua ? { userAgent: ua } : undefined });
  const bridge = await (await fetch(`${stack.url}/api/dev/wechat/jsbridge.js`)).text();
  await context.addInitScript({ content: bridge });
  return context;
}

/** Signs in at the sign-in page (the mobile way, not the official account's), with no redirect: the phone app's home. */
async function signIn(context: BrowserContext, account: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${stack.url}/login?wx=skip`);
  await page.getByPlaceholder('用户名 / 手机号 / 邮箱').fill(account);
  await page.getByPlaceholder('密码', { exact: true }).fill('Demo@2026');
  await page.locator('form button[type=submit]').tap();
  await page.waitForURL((u) => u.pathname.startsWith('/m/'));
  await page.locator('.m-top').first().waitFor();
  return page;
}

type WxWindow = Window & {
  __wxScanResult?: string | null;
  __wxConfig?: { errMsg: string; url: string };
  __wxShared?: Record<string, { title: string; desc?: string; link: string; imgUrl: string }>;
  __wxScans?: number;
};

/**
 * Runs `call` on the page's own module (the chunk the pages load). Given as source text: the test runner rewrites an
 * import() written in a function here, which the page would not understand.
 */
const withJs = <T>(page: Page, call: string): Promise<T> =>
  page.evaluate(`import(${JSON.stringify(jssdkChunk())}).then((js) => ${call})`) as Promise<T>;
/** wechatScan(), with `read` as what WeChat's scanner reads (null: the user cancels). */
const scan = async (page: Page, read: string | null) => {
  await page.evaluate((text) => ((window as WxWindow).__wxScanResult = text), read);
  return withJs<string | null>(page, 'js.wechatScan()');
};
const share = (page: Page, card: { title: string; desc: string; link: string; imgUrl?: string }) =>
  withJs<boolean>(page, `js.wechatShare(${JSON.stringify(card)})`);
const wx = (page: Page) =>
  page.evaluate(() => {
    const w = window as WxWindow;
    return { config: w.__wxConfig ?? null, shared: w.__wxShared ?? {}, scans: w.__wxScans ?? 0 };
  });

/** What the sandbox's WeChat client answers this config for this page (it recomputes the signature from its tickets). */
async function verify(config: { appId: string; timestamp: number; nonceStr: string; signature: string }, url: string): Promise<string> {
  const res = await fetch(`${stack.url}/api/dev/wechat/js/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...config, url }),
  });
  return ((await res.json()) as { errMsg: string }).errMsg;
}

/**
 * Issue 35's JS-SDK inside WeChat, at 375 px: a teacher signed in inside WeChat lands on the phone app; the page's
 * wx.config (signed by wechatJsConfig with the sandbox's jsapi_ticket) is verified by WeChat's client, 扫一扫's result
 * reaches the page, a cancel is null, the share card is set; a tampered signature is refused (config:invalid
 * signature) and the scan answers null, so the page takes its camera path; on Android a route change signs again.
 */
it('WeChat JS-SDK: config verified, scan reaches the page, share card set; a bad signature refused; Android signs each route', async () => {
  const context = await inWechat();
  const page = await signIn(context, 'teacher');
  // inside WeChat, no redirect: the phone app's home of a teacher
  expect(new URL(page.url()).pathname).toBe('/m/teacher_today');
  await page.screenshot({ path: join(SHOTS, 'phone-wechat-teacher-today.png') });

  // 1. the config: asked for this page's URL, verified by WeChat's client against the ticket it issued
  const asked = page.waitForResponse((r) => r.url().includes('/api/index/wechatJsConfig'));
  expect(await scan(page, 'PKUP.e2e-code-0001')).toBe('PKUP.e2e-code-0001');
  const configRes = await asked;
  const pageUrl = page.url().split('#')[0];
  expect(new URL(configRes.url()).searchParams.get('url')).toBe(pageUrl);
  const config = ((await configRes.json()) as { code: number; data: { appId: string; timestamp: number; nonceStr: string; signature: string } }).data;
  expect(config).toMatchObject({ appId: expect.stringMatching(/^wx/), nonceStr: expect.stringMatching(/^[A-Za-z0-9]{16}$/) });
  expect((await wx(page)).config).toEqual({ errMsg: 'config:ok', url: pageUrl });
  expect(await verify(config, pageUrl)).toBe('config:ok');
  expect(await verify({ ...config, nonceStr: 'x'.repeat(16) }, pageUrl)).toBe('config:invalid signature');

  // 2. the same page again: no new config; the user cancelling the scanner is null
  let configs = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/index/wechatJsConfig')) configs++;
  });
  expect(await scan(page, null)).toBeNull();
  expect(await scan(page, 'PKUP.e2e-code-0002')).toBe('PKUP.e2e-code-0002');
  expect((await wx(page)).scans).toBe(3);

  // 3. the share card for friends and Moments
  const link = `${stack.url}/m/teacher_today`;
  expect(await share(page, { title: '晚托今日', desc: '今天的到离园记录', link })).toBe(true);
  const { shared } = await wx(page);
  expect(shared.updateAppMessageShareData).toEqual({ title: '晚托今日', desc: '今天的到离园记录', link, imgUrl: `${stack.url}/m-icon.svg` });
  expect(shared.updateTimelineShareData).toMatchObject({ title: '晚托今日', link });
  // a card off this site is refused by WeChat
  expect(await share(page, { title: 'x', desc: 'y', link: 'https://evil.example.com/' })).toBe(false);
  expect(configs).toBe(0);

  // 4. the pick-up scan page: WeChat's scanner first, and what it reads reaches the page (a text that is no pick-up code
  // of a child here is refused on the page)
  await page.goto(`${stack.url}/m/teacher_pickup`);
  const wechatScanButton = page.getByTestId('pickup-scan-wechat');
  await wechatScanButton.waitFor();
  await page.evaluate(() => ((window as WxWindow).__wxScanResult = 'not-a-pickup-code'));
  await wechatScanButton.tap();
  await page.getByTestId('pickup-refused').waitFor();
  expect(await wx(page)).toMatchObject({ config: { errMsg: 'config:ok', url: `${stack.url}/m/teacher_pickup` }, scans: 1 });
  await page.screenshot({ path: join(SHOTS, 'phone-wechat-pickup-scan.png') });

  // 5. a signature that is not the API's: WeChat refuses the config, its scanner is not opened, the page takes the
  // camera path (this headless browser has none: the photo way is offered)
  const jsConfigUrl = (u: URL) => u.pathname === '/api/index/wechatJsConfig';
  await page.route(jsConfigUrl, async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { data: { signature: string } };
    body.data.signature = body.data.signature.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    await route.fulfill({ response: res, json: body });
  });
  await page.reload();
  await wechatScanButton.waitFor();
  await page.evaluate(() => ((window as WxWindow).__wxScanResult = 'PKUP.e2e-code-0003'));
  await wechatScanButton.tap();
  await page.locator('video.m-video').or(page.getByText('无法使用摄像头，请从相册选择接送码照片')).first().waitFor();
  expect(await wx(page)).toMatchObject({ config: { errMsg: 'config:invalid signature' }, scans: 0 });
  await page.screenshot({ path: join(SHOTS, 'phone-wechat-pickup-fallback.png') });
  // the module asked again: refused again, null
  expect(await scan(page, 'PKUP.e2e-code-0003')).toBeNull();
  expect((await wx(page)).scans).toBe(0);
  await page.unroute(jsConfigUrl);
  // configured again on the next try, with the API's own signature
  expect(await scan(page, 'PKUP.e2e-code-0004')).toBe('PKUP.e2e-code-0004');
  expect((await wx(page)).config?.errMsg).toBe('config:ok');
  await context.close();

  // 6. Android: WeChat checks the current URL, so a route change (pushState) is configured again for the new URL
  const android = await inWechat(ANDROID_WECHAT_UA);
  const phone = await signIn(android, 'teacher');
  const urls: string[] = [];
  phone.on('request', (r) => {
    if (r.url().includes('/api/index/wechatJsConfig')) urls.push(new URL(r.url()).searchParams.get('url')!);
  });
  expect(await scan(phone, 'PKUP.e2e-code-0005')).toBe('PKUP.e2e-code-0005');
  await phone.evaluate(() => history.pushState(null, '', '/m/teacher_today?view=2#list'));
  expect(await scan(phone, 'PKUP.e2e-code-0006')).toBe('PKUP.e2e-code-0006');
  expect(urls).toEqual([`${stack.url}/m/teacher_today`, `${stack.url}/m/teacher_today?view=2`]);
  expect((await wx(phone)).config).toEqual({ errMsg: 'config:ok', url: `${stack.url}/m/teacher_today?view=2` });
  await android.close();
});
