import type { JsapiPayParams } from '@wantuo/shared';
import { wechatSandbox } from '../../api/http';

/** The page path an H5 payment comes back to (the result page polls the payment's state). */
export const PAY_RESULT_PATH = '/pay/result';

/** Where the sandbox serves its WeixinJSBridge stand-in (outside production only). */
export const SANDBOX_BRIDGE_SRC = '/api/dev/wechatpay/jsbridge.js';

/** How long to wait for WeChat's bridge to be ready before saying it is not there. */
export const BRIDGE_READY_MS = 8_000;

/** The part of WeChat's in-page bridge a payment uses. */
export interface WeixinJSBridge {
  invoke(name: 'getBrandWCPayRequest', params: JsapiPayParams, cb: (res: { err_msg?: string }) => void): void;
}

declare global {
  interface Window {
    WeixinJSBridge?: WeixinJSBridge;
  }
}

/**
 * The page of WeChat's cashier for an H5 order and its way back: the h5_url with `redirect_url` to the result page of
 * this order, which links back to `backPath`. WeChat's cashier (an absolute h5_url) returns to an absolute URL of this
 * origin; the sandbox's (a path: it is served on the page's own origin, through whatever proxy) returns by path.
 */
export function h5PayUrl(h5Url: string, outTradeNo: string, origin: string, backPath: string): string {
  const cashier = new URL(h5Url, origin).toString();
  const path = `${PAY_RESULT_PATH}?out_trade_no=${encodeURIComponent(outTradeNo)}&back=${encodeURIComponent(backPath)}`;
  const result = h5Url.startsWith('/') ? path : `${origin}${path}`;
  return `${cashier}${cashier.includes('?') ? '&' : '?'}redirect_url=${encodeURIComponent(result)}`;
}

/** A path of this app to go back to (never another origin: `//host` and the like are refused). */
export function safeBackPath(back: string | null, fallback: string): string {
  return back && /^\/(?![/\\])/.test(back) ? back : fallback;
}

/**
 * WeChat's bridge, once ready: inside WeChat it is there (or comes with the WeixinJSBridgeReady event); outside
 * production the sandbox's stand-in is loaded when there is none. Rejects when no bridge appears in time.
 */
export async function wechatBridge(win: Window = window, timeoutMs = BRIDGE_READY_MS): Promise<WeixinJSBridge> {
  if (win.WeixinJSBridge) return win.WeixinJSBridge;
  const doc = win.document;
  const ready = new Promise<WeixinJSBridge>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      if (win.WeixinJSBridge) resolve(win.WeixinJSBridge);
      else reject(new Error('WeixinJSBridge is not available'));
    };
    const timer = setTimeout(() => {
      doc.removeEventListener('WeixinJSBridgeReady', done);
      if (win.WeixinJSBridge) resolve(win.WeixinJSBridge);
      else reject(new Error('WeixinJSBridge is not available'));
    }, timeoutMs);
    doc.addEventListener('WeixinJSBridgeReady', done, { once: true });
  });
  if (!doc.querySelector(`script[src="${SANDBOX_BRIDGE_SRC}"]`) && (await wechatSandbox.available()) && !win.WeixinJSBridge) {
    const script = doc.createElement('script');
    script.src = SANDBOX_BRIDGE_SRC;
    script.async = true;
    doc.head.appendChild(script);
  }
  return win.WeixinJSBridge ?? ready;
}

/** What getBrandWCPayRequest answered: ok, cancel or fail (WeChat's err_msg). The server still decides if it is paid. */
export type BridgeOutcome = 'ok' | 'cancel' | 'fail';

export function bridgeOutcome(errMsg: string | undefined): BridgeOutcome {
  if (errMsg === 'get_brand_wcpay_request:ok') return 'ok';
  if (errMsg === 'get_brand_wcpay_request:cancel') return 'cancel';
  return 'fail';
}

/** Opens WeChat's payment sheet for a JSAPI order. */
export function requestPayment(bridge: WeixinJSBridge, params: JsapiPayParams): Promise<BridgeOutcome> {
  return new Promise((resolve) => {
    try {
      bridge.invoke('getBrandWCPayRequest', params, (res) => resolve(bridgeOutcome(res?.err_msg)));
    } catch {
      resolve('fail');
    }
  });
}
