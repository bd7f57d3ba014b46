import { JSBRIDGE_JS } from '../wechatpay-sandbox/wechatpay-sandbox.pages';

/**
 * The sandbox's `WeixinJSBridge` for a page inside "WeChat" (issue 35): what WeChat's client answers the JS-SDK
 * (weixin-js-sdk 1.6.5 calls `WeixinJSBridge.invoke(name, params, cb)` with the config's `verifyAppId`,
 * `verifyTimestamp`, `verifyNonceStr`, `verifySignature` added to every call's params, and reads `err_msg`):
 *
 * - `preVerifyJSAPI` (wx.config): posts the config and the page's URL (iOS: the URL the page was entered by, as
 *   WeChat on iOS signs; elsewhere the current one, without the #fragment) to `js/verify`, which recomputes the
 *   signature from the tickets the sandbox issued: `config:ok`, or `config:invalid signature` /
 *   `config:invalid url domain`. The last verification is in `window.__wxConfig` ({ errMsg, url }).
 * - `scanQRCode`: with `window.__wxScanResult` (set by the test) as the code read; unset or null is the user's
 *   cancel. On iOS `resultStr` is WeChat's JSON (`scan_code.scan_result`), elsewhere the text itself.
 * - `updateAppMessageShareData`, `updateTimelineShareData`: the card (title, desc, link, imgUrl) kept in
 *   `window.__wxShared[name]`; a link off the page's own origin is refused `invalid url domain`.
 * - Each of those is refused `permission denied` unless the last config was verified for this page and listed it.
 * - `getBrandWCPayRequest`: the WeChat Pay sandbox's sheet (wechatpay-sandbox.pages.ts, which extends this bridge).
 * - Anything else: `<name>:fail_not_supported`. The legacy `on('menu:share:…')` listeners are kept, never fired.
 * - Calls made while a config is being verified are answered after it, in order (as WeChat's client handles them).
 *
 * Defines itself once (never over a real bridge), then fires `WeixinJSBridgeReady` on document.
 */
const JSSDK_BRIDGE_JS = `(function () {
  'use strict';
  if (window.WeixinJSBridge) return;
  var BASE = '/api/dev/wechat/';
  var ios = /iphone|ipad|ipod/i.test(navigator.userAgent);
  var entryUrl = location.href.split('#')[0];
  var handlers = {};
  var listeners = {};
  var verified = null;
  var verifying = null;
  window.__wxShared = window.__wxShared || {};
  function pageUrl() { return ios ? entryUrl : location.href.split('#')[0]; }
  function reply(cb, res) {
    setTimeout(function () {
      if (typeof cb !== 'function') return;
      try { cb(res); } catch (e) { setTimeout(function () { throw e; }); }
    });
  }
  function allowed(name) {
    return !!verified && verified.url === pageUrl() && verified.apis.indexOf(name) !== -1;
  }
  handlers.preVerifyJSAPI = function (p, cb) {
    verified = null;
    var url = pageUrl();
    var body = { appId: p.verifyAppId, timestamp: p.verifyTimestamp, nonceStr: p.verifyNonceStr, signature: p.verifySignature, url: url };
    verifying = fetch(BASE + 'js/verify', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
      .then(function (r) { return r.json(); })
      .then(function (a) {
        var msg = a && typeof a.errMsg === 'string' ? a.errMsg : 'config:fail';
        if (msg === 'config:ok') verified = { url: url, apis: Array.isArray(p.verifyJsApiList) ? p.verifyJsApiList.slice() : [] };
        window.__wxConfig = { errMsg: msg, url: url };
        reply(cb, { err_msg: msg });
      })
      .catch(function () {
        window.__wxConfig = { errMsg: 'config:fail', url: url };
        reply(cb, { err_msg: 'config:fail' });
      })
      .then(function () { verifying = null; });
  };
  handlers.scanQRCode = function (p, cb) {
    if (!allowed('scanQRCode')) return reply(cb, { err_msg: 'scanQRCode:permission denied' });
    window.__wxScans = (window.__wxScans || 0) + 1;
    var read = window.__wxScanResult;
    if (read === undefined || read === null) return reply(cb, { err_msg: 'scanQRCode:cancel' });
    if (String(p.needResult) !== '1') return reply(cb, { err_msg: 'scanQRCode:ok' });
    var text = String(read);
    reply(cb, { err_msg: 'scanQRCode:ok', resultStr: ios ? JSON.stringify({ scan_code: { scan_type: 'QR_CODE', scan_result: text } }) : text });
  };
  function share(name) {
    return function (p, cb) {
      if (!allowed(name)) return reply(cb, { err_msg: name + ':permission denied' });
      var link = typeof p.link === 'string' ? p.link : '';
      var own = false;
      try { own = new URL(link).origin === location.origin; } catch (e) { own = false; }
      if (!own) return reply(cb, { err_msg: name + ':invalid url domain' });
      window.__wxShared[name] = { title: p.title, desc: p.desc, link: link, imgUrl: p.imgUrl };
      reply(cb, { err_msg: name + ':ok' });
    };
  }
  handlers.updateAppMessageShareData = share('updateAppMessageShareData');
  handlers.updateTimelineShareData = share('updateTimelineShareData');
  window.WeixinJSBridge = {
    sandbox: true,
    jssdk: true,
    invoke: function (name, params, cb) {
      var h = handlers[name];
      if (!h) return reply(cb, { err_msg: name + ':fail_not_supported' });
      if (verifying && name !== 'preVerifyJSAPI') {
        verifying.then(function () { h(params || {}, cb); });
        return;
      }
      h(params || {}, cb);
    },
    on: function (name, fn) { listeners[name] = fn; },
    call: function () {},
    extend: function (name, fn) { handlers[name] = fn; },
  };
})();
`;

const READY_JS = `(function () {
  var b = window.WeixinJSBridge;
  if (!b || !b.jssdk || b.readyFired) return;
  b.readyFired = true;
  var ready;
  try { ready = new Event('WeixinJSBridgeReady'); } catch (e) { ready = document.createEvent('Event'); ready.initEvent('WeixinJSBridgeReady', false, false); }
  document.dispatchEvent(ready);
})();
`;

/** GET /api/dev/wechat/jsbridge.js: the JS-SDK's side, WeChat Pay's sheet added to it, then WeixinJSBridgeReady. */
export const WECHAT_JSBRIDGE_JS = `${JSSDK_BRIDGE_JS}${JSBRIDGE_JS}${READY_JS}`;
