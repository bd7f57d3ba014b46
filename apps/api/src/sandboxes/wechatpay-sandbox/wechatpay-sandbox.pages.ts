/**
 * What the WeChat Pay sandbox serves to browsers (outside production only): the H5 cashier page an `h5_url` opens, and
 * the `WeixinJSBridge` stand-in a page inside "WeChat" loads when the sandbox is on. Neither has inline script (the
 * CSP allows scripts from this origin only): the cashier page is a plain form, the bridge a script file.
 */

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const yuan = (fen: number) => (fen / 100).toFixed(2);

const PAGE_STYLE = `
  *{box-sizing:border-box}body{margin:0;font-family:-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f2f2f2;color:#111}
  main{max-width:375px;margin:0 auto;min-height:100vh;background:#fff;padding:32px 20px;display:flex;flex-direction:column;gap:16px;text-align:center}
  .brand{color:#07c160;font-weight:600}.desc{color:#666;font-size:14px;word-break:break-all}
  .amount{font-size:40px;font-weight:600;margin:8px 0}.amount small{font-size:24px}
  button,a.btn{display:block;width:100%;padding:14px 0;border:0;border-radius:8px;background:#07c160;color:#fff;font-size:17px;text-decoration:none;cursor:pointer}
  a.back{color:#576b95;font-size:14px}.note{color:#999;font-size:12px}
`;

/** The cashier page of an H5 order: amount, description, 确认支付 (a form posted back here). */
export function h5CashierPage(o: { prepayId: string; redirectUrl: string | null; amountFen: number; description: string; state: string }): string {
  const paid = o.state === 'SUCCESS' || o.state === 'REFUND';
  const open = o.state === 'NOTPAY' || o.state === 'PAYERROR';
  const body = open
    ? `<form method="post" action="/api/dev/wechatpay/h5pay">
         <input type="hidden" name="prepay_id" value="${esc(o.prepayId)}">
         <input type="hidden" name="redirect_url" value="${esc(o.redirectUrl ?? '')}">
         <button type="submit" data-testid="h5-confirm">确认支付</button>
       </form>`
    : `<p>${paid ? '订单已支付' : '订单已关闭'}</p>`;
  const back = o.redirectUrl ? `<a class="back" href="${esc(o.redirectUrl)}" data-testid="h5-back">返回商户页面</a>` : '';
  return page(
    '微信支付',
    `<div class="brand">微信支付 · 沙箱</div>
     <div class="desc">${esc(o.description)}</div>
     <div class="amount" data-testid="h5-amount"><small>¥</small>${yuan(o.amountFen)}</div>
     ${body}
     ${back}
     <p class="note">本地沙箱收银台：确认后订单即支付，并按真实服务发送签名的支付通知。</p>`,
  );
}

/** A page saying the order is not there (an unknown or malformed prepay_id). */
export function h5NotFoundPage(): string {
  return page('微信支付', `<div class="brand">微信支付 · 沙箱</div><p>订单不存在或已失效</p>`);
}

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>${PAGE_STYLE}</style></head>
<body><main>${content}</main></body></html>`;
}

/**
 * The `WeixinJSBridge` stand-in: `invoke('getBrandWCPayRequest', params, cb)` shows an overlay with the order's amount,
 * 确认支付 (`jsapi-confirm`) and 取消 (`jsapi-cancel`); confirming posts the params to `jsapi/pay`, which verifies the
 * paySign with the merchant's public key and pays the order; the callback gets `get_brand_wcpay_request:ok`, `:fail`
 * or `:cancel` as WeChat's would. Defines itself once, then fires `WeixinJSBridgeReady` on document; over the official
 * account sandbox's bridge (wechat-sandbox/jssdk-bridge.ts, which has `extend`) it adds getBrandWCPayRequest to it.
 */
export const JSBRIDGE_JS = `(function () {
  'use strict';
  var host = window.WeixinJSBridge;
  if (host && typeof host.extend !== 'function') return;
  var BASE = '/api/dev/wechatpay/';
  function el(tag, style, text) {
    var e = document.createElement(tag);
    if (style) e.setAttribute('style', style);
    if (text) e.textContent = text;
    return e;
  }
  function overlay(amountText, description, done) {
    var mask = el('div', 'position:fixed;inset:0;background:rgba(0,0,0,.5);z-index:2147483647;display:flex;align-items:flex-end;justify-content:center;font-family:-apple-system,"PingFang SC",sans-serif');
    mask.setAttribute('data-testid', 'jsapi-sheet');
    var sheet = el('div', 'width:100%;max-width:375px;background:#fff;border-radius:12px 12px 0 0;padding:24px 20px;display:flex;flex-direction:column;gap:12px;text-align:center');
    sheet.appendChild(el('div', 'color:#07c160;font-weight:600', '微信支付 · 沙箱'));
    if (description) sheet.appendChild(el('div', 'color:#666;font-size:14px', description));
    var amount = el('div', 'font-size:36px;font-weight:600', amountText);
    amount.setAttribute('data-testid', 'jsapi-amount');
    sheet.appendChild(amount);
    var ok = el('button', 'padding:14px 0;border:0;border-radius:8px;background:#07c160;color:#fff;font-size:17px', '确认支付');
    ok.setAttribute('data-testid', 'jsapi-confirm');
    var cancel = el('button', 'padding:12px 0;border:0;background:none;color:#576b95;font-size:15px', '取消');
    cancel.setAttribute('data-testid', 'jsapi-cancel');
    sheet.appendChild(ok);
    sheet.appendChild(cancel);
    mask.appendChild(sheet);
    document.body.appendChild(mask);
    var finished = false;
    function end(result) {
      if (finished) return;
      finished = true;
      mask.remove();
      done(result);
    }
    ok.addEventListener('click', function () {
      ok.disabled = true;
      ok.textContent = '支付中…';
      end('confirm');
    });
    cancel.addEventListener('click', function () { end('cancel'); });
  }
  function pay(params, cb) {
    var reply = function (msg) { try { cb && cb({ err_msg: msg }); } catch (e) { setTimeout(function () { throw e; }); } };
    var prepay = String((params && params['package']) || '').replace(/^prepay_id=/, '');
    fetch(BASE + 'jsapi/order?prepay_id=' + encodeURIComponent(prepay), { credentials: 'same-origin' })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (o) {
        var text = o && typeof o.amount_fen === 'number' ? '¥' + (o.amount_fen / 100).toFixed(2) : '¥—';
        overlay(text, o && o.description, function (choice) {
          if (choice === 'cancel') return reply('get_brand_wcpay_request:cancel');
          fetch(BASE + 'jsapi/pay', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(params || {}) })
            .then(function (r) { return r.json().catch(function () { return {}; }); })
            .then(function (a) { reply(a && a.err_msg === 'get_brand_wcpay_request:ok' ? a.err_msg : 'get_brand_wcpay_request:fail'); })
            .catch(function () { reply('get_brand_wcpay_request:fail'); });
        });
      })
      .catch(function () { reply('get_brand_wcpay_request:fail'); });
  }
  if (host) return host.extend('getBrandWCPayRequest', pay);
  window.WeixinJSBridge = {
    sandbox: true,
    invoke: function (name, params, cb) {
      if (name === 'getBrandWCPayRequest') return pay(params, cb);
      setTimeout(function () { cb && cb({ err_msg: name + ':fail_not_supported' }); });
    },
    on: function () {},
    call: function () {},
  };
  var ready;
  try { ready = new Event('WeixinJSBridgeReady'); } catch (e) { ready = document.createEvent('Event'); ready.initEvent('WeixinJSBridgeReady', false, false); }
  document.dispatchEvent(ready);
})();
`;
