import type { WechatJsConfigAnswer } from '@wantuo/shared';
import { get } from '../../api/http';
import { inWechat, userAgent } from '../../lib/wechat-env';

/**
 * WeChat's JS-SDK inside WeChat (issue 35): 扫一扫 and the share card of a page. weixin-js-sdk is loaded (a dynamic
 * import, its own chunk) only inside WeChat's browser; the page's URL is signed by the API (`wechatJsConfig`, the
 * official account's jsapi_ticket) and handed to `wx.config`, once per signed URL: a route change signs again.
 *
 * Which URL WeChat checks the signature against: on iOS the URL the page was entered by (the document's navigation,
 * whatever pushState did since), elsewhere the current one; both without the #fragment.
 *
 * Everything here answers instead of throwing: null / false outside WeChat, when the config is refused (a bad
 * signature, WeChat or the API unavailable, no bridge in time) or when the user cancels; the page then offers its own
 * way (the camera, a copied link).
 */

/** What a JS-SDK call answers its callbacks. */
interface WxResult {
  errMsg?: string;
  resultStr?: string;
}
interface WxCallbacks {
  success?(res: WxResult): void;
  fail?(res: WxResult): void;
  cancel?(res: WxResult): void;
}

/**
 * The part of weixin-js-sdk (1.6.5) used here. Its own typings are not loaded: they declare `Window.WeixinJSBridge`
 * as `any`, which clashes with the payment's declaration (areas/money/phone-pay.ts).
 */
export interface WxSdk {
  config(c: WechatJsConfigAnswer & { jsApiList: string[] }): void;
  ready(fn: () => void): void;
  error(fn: (res: { errMsg: string }) => void): void;
  scanQRCode(p: WxCallbacks & { needResult: 0 | 1; scanType: Array<'qrCode' | 'barCode'> }): void;
  updateAppMessageShareData(p: WxCallbacks & { title: string; desc: string; link: string; imgUrl: string }): void;
  updateTimelineShareData(p: WxCallbacks & { title: string; link: string; imgUrl: string }): void;
}

/** The JS-SDK interfaces the phone app asks for in wx.config. */
export const JS_API_LIST = ['scanQRCode', 'updateAppMessageShareData', 'updateTimelineShareData'];
/** How long a config may take (the bridge's WeixinJSBridgeReady, the API, WeChat's check) before it counts as refused. */
export const CONFIG_TIMEOUT_MS = 10_000;

/** A share card: the title, a line under it, the link (a page of this site) and its picture (default the app's icon). */
export interface ShareCard {
  title: string;
  desc: string;
  link: string;
  imgUrl?: string;
}

let sdk: Promise<WxSdk> | null = null;
/** the config WeChat holds now: the URL it was signed for, and its outcome */
let current: { url: string; ready: Promise<WxSdk | null> } | null = null;
/** the config waiting for WeChat's verdict (wx.error is registered once and goes to it) */
let waiting: { url: string; fail(errMsg: string): void } | null = null;

function loadSdk(): Promise<WxSdk> {
  // `as string`: TypeScript does not load the package's typings (see WxSdk); the bundler still sees the literal
  sdk ??= import('weixin-js-sdk' as string).then((m: { default?: WxSdk } & Partial<WxSdk>) => {
    const wx = (m.default ?? m) as WxSdk;
    wx.error((res) => {
      if (waiting) waiting.fail(res?.errMsg ?? 'config:fail');
      // a re-config is answered ready at once by the SDK: its refusal comes afterwards and ends it here
      else if (current) current = null;
    });
    return wx;
  });
  return sdk;
}

/** The URL WeChat compares the signature with (see above). */
export function signedUrl(ua: string = userAgent()): string {
  let url = location.href;
  if (/iPhone|iPad|iPod/i.test(ua)) {
    const entry = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
    if (entry?.name) url = entry.name;
  }
  return url.split('#')[0];
}

function configure(wx: WxSdk, url: string): Promise<WxSdk | null> {
  return new Promise<WxSdk | null>((resolve) => {
    let done = false;
    const finish = (ok: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (waiting?.url === url) waiting = null;
      resolve(ok ? wx : null);
    };
    const timer = setTimeout(() => finish(false), CONFIG_TIMEOUT_MS);
    waiting = { url, fail: () => finish(false) };
    get('wechatJsConfig', { url }, { silent: true }).then(
      (c) => {
        if (done) return;
        wx.config({ appId: c.appId, timestamp: c.timestamp, nonceStr: c.nonceStr, signature: c.signature, jsApiList: [...JS_API_LIST] });
        wx.ready(() => finish(true));
      },
      () => finish(false),
    );
  });
}

/**
 * The JS-SDK configured for this page: null outside WeChat or when the config was refused. One config per signed
 * URL (asked again after a refusal, or once the URL WeChat checks has changed).
 */
export async function wechatJs(ua: string = userAgent()): Promise<WxSdk | null> {
  if (!inWechat(ua)) return null;
  const url = signedUrl(ua);
  if (current?.url === url) return current.ready;
  let wx: WxSdk;
  try {
    wx = await loadSdk();
  } catch {
    sdk = null;
    return null;
  }
  if (current?.url === url) return current.ready;
  const mine = { url, ready: configure(wx, url) };
  current = mine;
  const outcome = await mine.ready;
  // refused: the next call asks again
  if (!outcome && current === mine) current = null;
  return outcome;
}

/** A refusal that says the config does not hold (another page's, or none): the next call configures again. */
function forget(res: WxResult | undefined): void {
  if (res?.errMsg && /permission denied|invalid signature/i.test(res.errMsg)) current = null;
}

/** WeChat's 扫一扫 for a QR code: the text it read; null outside WeChat, when the config is refused or the user cancels. */
export async function wechatScan(ua: string = userAgent()): Promise<string | null> {
  const wx = await wechatJs(ua);
  if (!wx) return null;
  return new Promise<string | null>((resolve) => {
    wx.scanQRCode({
      needResult: 1,
      scanType: ['qrCode'],
      success: (res) => resolve(typeof res?.resultStr === 'string' && res.resultStr ? res.resultStr : null),
      cancel: () => resolve(null),
      fail: (res) => {
        forget(res);
        resolve(null);
      },
    });
  });
}

/** The card WeChat shows when the page is sent to a friend or to Moments; false when either could not be set. */
export async function wechatShare(card: ShareCard, ua: string = userAgent()): Promise<boolean> {
  const wx = await wechatJs(ua);
  if (!wx) return false;
  const imgUrl = card.imgUrl ?? new URL('/m-icon.svg', location.origin).toString();
  const set = (call: (cb: WxCallbacks) => void) =>
    new Promise<boolean>((resolve) =>
      call({
        success: () => resolve(true),
        cancel: () => resolve(false),
        fail: (res) => {
          forget(res);
          resolve(false);
        },
      }),
    );
  const [friend, moments] = await Promise.all([
    set((cb) => wx.updateAppMessageShareData({ title: card.title, desc: card.desc, link: card.link, imgUrl, ...cb })),
    set((cb) => wx.updateTimelineShareData({ title: card.title, link: card.link, imgUrl, ...cb })),
  ]);
  return friend && moments;
}

/** Tests: forget the loaded SDK and its config. */
export function resetWechatJs(): void {
  sdk = null;
  current = null;
  waiting = null;
}
