import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { PayChannel, PendingPayment } from '@wantuo/shared';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount } from '../../test-utils';

const http = vi.hoisted(() => ({
  get: vi.fn(),
  available: vi.fn(async () => false),
}));
vi.mock('../../api/http', () => ({
  get: http.get,
  wechatSandbox: { available: http.available, pay: vi.fn() },
}));

const { PaymentDialog, browserNav } = await import('./payment-dialog');
const { h5PayUrl, safeBackPath, wechatBridge, SANDBOX_BRIDGE_SRC } = await import('./phone-pay');

const UA = {
  wechat:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN',
  phone: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  desktop: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
};
const expires = () => new Date(Date.now() + 3_600_000).toISOString();
const ORDER: Record<PayChannel, PendingPayment> = {
  native: { channel: 'native', out_trade_no: 'P0000000001', amount_fen: 1500, expires_at: expires(), code_url: 'weixin://wxpay/bizpayurl?pr=abc' },
  jsapi: {
    channel: 'jsapi',
    out_trade_no: 'P0000000002',
    amount_fen: 1500,
    expires_at: expires(),
    jsapi: { appId: 'wxsandbox00000001', timeStamp: '1700000000', nonceStr: 'n', package: 'prepay_id=wx1', signType: 'RSA', paySign: 'sig' },
  },
  h5: { channel: 'h5', out_trade_no: 'P0000000003', amount_fen: 1500, expires_at: expires(), h5_url: '/api/dev/wechatpay/h5pay?prepay_id=wx2' },
};

let uaSpy: ReturnType<typeof vi.spyOn>;
const as = (ua: string) => {
  uaSpy = vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(ua);
};
beforeEach(() => {
  http.get.mockReset();
  http.get.mockResolvedValue({ state: 'pending', amount_fen: 1500, out_trade_no: 'x', kind: 'meal', paid_at: null, expires_at: null });
});
afterEach(() => {
  uaSpy?.mockRestore();
  delete window.WeixinJSBridge;
  document.body.innerHTML = '';
});

async function open(props: { phoneChannels?: boolean; wechat: (c: PayChannel) => Promise<PendingPayment> }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const onPaid = vi.fn();
  await mount(
    <QueryClientProvider client={client}>
      <PaymentDialog open title="付款" amountFen={1500} onClose={() => undefined} onPaid={onPaid} {...props} />
    </QueryClientProvider>,
  );
  return { onPaid };
}
const byTestId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);

describe('the dialog chooses how to pay by where it runs', () => {
  it('a desktop shows the QR of a Native order', async () => {
    as(UA.desktop);
    const wechat = vi.fn(async (c: PayChannel) => ORDER[c]);
    await open({ wechat, phoneChannels: true });
    await vi.waitFor(() => expect(document.querySelector('.ant-qrcode')).not.toBeNull());
    expect(wechat).toHaveBeenCalledWith('native');
    expect(byTestId('wechat-jsapi-pay')).toBeNull();
    expect(byTestId('wechat-h5-pay')).toBeNull();
  });

  it('a school without online payments (payments.school_no_merchant): where to pay instead, no QR and nothing to retry', async () => {
    as(UA.desktop);
    const { moneyStrings } = await import('./strings');
    const wechat = vi.fn(async (): Promise<PendingPayment> => {
      throw new Error(moneyStrings.t('pay.no_merchant'));
    });
    await open({ wechat, phoneChannels: true });
    await vi.waitFor(() => expect(document.body.textContent).toContain('本校尚未开通微信在线缴费，请到学校前台缴费'));
    expect(document.querySelector('.ant-qrcode')).toBeNull();
    expect(document.body.textContent).not.toContain('支付二维码生成失败');
  });

  it('a kind without phone channels is the QR inside WeChat and on a phone too', async () => {
    for (const ua of [UA.wechat, UA.phone]) {
      as(ua);
      const wechat = vi.fn(async (c: PayChannel) => ORDER[c]);
      await open({ wechat });
      await vi.waitFor(() => expect(wechat).toHaveBeenCalledWith('native'));
      expect(byTestId('wechat-jsapi-pay')).toBeNull();
      document.body.innerHTML = '';
      uaSpy.mockRestore();
    }
  });

  it('inside WeChat: 微信支付 starts a JSAPI order, opens the bridge, and the server’s state (not the bridge) says paid', async () => {
    as(UA.wechat);
    const invoke = vi.fn((_n: string, _p: unknown, cb: (r: { err_msg: string }) => void) => cb({ err_msg: 'get_brand_wcpay_request:ok' }));
    window.WeixinJSBridge = { invoke };
    const wechat = vi.fn(async (c: PayChannel) => ORDER[c]);
    const { onPaid } = await open({ wechat, phoneChannels: true });
    expect(wechat).not.toHaveBeenCalled(); // nothing starts before the tap
    await act(async () => byTestId('wechat-jsapi-pay')!.click());
    await vi.waitFor(() => expect(invoke).toHaveBeenCalledTimes(1));
    expect(wechat).toHaveBeenCalledWith('jsapi');
    expect(invoke.mock.calls[0][0]).toBe('getBrandWCPayRequest');
    expect(invoke.mock.calls[0][1]).toEqual((ORDER.jsapi as Extract<PendingPayment, { channel: 'jsapi' }>).jsapi);
    // the bridge said ok, the server still says pending: not paid
    await vi.waitFor(() => expect(http.get).toHaveBeenCalledWith('paymentState', { out_trade_no: 'P0000000002' }, { silent: true }));
    expect(onPaid).not.toHaveBeenCalled();
    http.get.mockResolvedValue({ state: 'paid', amount_fen: 1500, out_trade_no: 'P0000000002', kind: 'meal', paid_at: 'now', expires_at: null });
    await vi.waitFor(() => expect(onPaid).toHaveBeenCalledWith('wechat'), { timeout: 5_000 });
  });

  it('inside WeChat: a cancelled sheet offers to pay again with the same order', async () => {
    as(UA.wechat);
    const invoke = vi.fn((_n: string, _p: unknown, cb: (r: { err_msg: string }) => void) => cb({ err_msg: 'get_brand_wcpay_request:cancel' }));
    window.WeixinJSBridge = { invoke };
    const wechat = vi.fn(async (c: PayChannel) => ORDER[c]);
    await open({ wechat, phoneChannels: true });
    await act(async () => byTestId('wechat-jsapi-pay')!.click());
    await vi.waitFor(() => expect(document.body.textContent).toContain('已取消支付'));
    await act(async () => byTestId('wechat-jsapi-pay')!.click());
    await vi.waitFor(() => expect(invoke).toHaveBeenCalledTimes(2));
    expect(wechat).toHaveBeenCalledTimes(1);
  });

  it('in a phone browser: 微信支付 starts an H5 order and goes to its cashier page, which comes back to /pay/result', async () => {
    as(UA.phone);
    const assign = vi.spyOn(browserNav, 'assign').mockImplementation(() => undefined);
    const wechat = vi.fn(async (c: PayChannel) => ORDER[c]);
    await open({ wechat, phoneChannels: true });
    await act(async () => byTestId('wechat-h5-pay')!.click());
    await vi.waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(wechat).toHaveBeenCalledWith('h5');
    const url = new URL(assign.mock.calls[0][0]);
    expect(url.pathname).toBe('/api/dev/wechatpay/h5pay');
    expect(url.searchParams.get('prepay_id')).toBe('wx2');
    // the sandbox's cashier is on this origin: it comes back by path
    expect(url.searchParams.get('redirect_url')).toMatch(/^\/pay\/result\?/);
    const back = new URL(url.searchParams.get('redirect_url')!, window.location.origin);
    expect(back.pathname).toBe('/pay/result');
    expect(back.searchParams.get('out_trade_no')).toBe('P0000000003');
    expect(back.searchParams.get('back')).toBe(window.location.pathname + window.location.search);
    assign.mockRestore();
  });
});

describe('the H5 way back', () => {
  it('h5PayUrl keeps an absolute cashier URL and adds the result page', () => {
    const u = h5PayUrl('https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx9&package=1', 'P1', 'https://x.example', '/parent_meals');
    expect(u).toBe(
      'https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx9&package=1&redirect_url=' +
        encodeURIComponent('https://x.example/pay/result?out_trade_no=P1&back=%2Fparent_meals'),
    );
  });
  it.each([
    ['/parent_meals', '/parent_meals'],
    ['/parent_contracts?x=1', '/parent_contracts?x=1'],
    ['//evil.example/', '/parent'],
    ['/\\evil.example', '/parent'],
    ['https://evil.example/', '/parent'],
    [null, '/parent'],
  ])('back %s → %s', (back, to) => {
    expect(safeBackPath(back, '/parent')).toBe(to);
  });
});

describe('WeChat’s bridge', () => {
  const scripts = () => document.querySelectorAll(`script[src="${SANDBOX_BRIDGE_SRC}"]`).length;
  afterEach(() => document.querySelectorAll('script').forEach((x) => x.remove()));

  it('inside WeChat the bridge is used as it is: no stand-in is asked for', async () => {
    const bridge = { invoke: vi.fn() };
    window.WeixinJSBridge = bridge;
    http.available.mockClear();
    await expect(wechatBridge(window, 50)).resolves.toBe(bridge);
    expect(http.available).not.toHaveBeenCalled();
    expect(scripts()).toBe(0);
  });

  it('with the sandbox on and no bridge, the stand-in is loaded and its WeixinJSBridgeReady awaited', async () => {
    http.available.mockResolvedValueOnce(true);
    const pending = wechatBridge(window, 2_000);
    await vi.waitFor(() => expect(scripts()).toBe(1));
    const bridge = { invoke: vi.fn() };
    window.WeixinJSBridge = bridge;
    document.dispatchEvent(new Event('WeixinJSBridgeReady'));
    await expect(pending).resolves.toBe(bridge);
  });

  it('without the sandbox and without a bridge, nothing is loaded and it gives up', async () => {
    http.available.mockResolvedValueOnce(false);
    await expect(wechatBridge(window, 50)).rejects.toThrow(/not available/);
    expect(scripts()).toBe(0);
  });
});
