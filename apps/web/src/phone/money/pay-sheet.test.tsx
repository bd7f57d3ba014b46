import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { PayChannel, PendingPayment } from '@wantuo/shared';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount } from '../../test-utils';

const http = vi.hoisted(() => ({ get: vi.fn(), available: vi.fn(async () => false), pay: vi.fn() }));
vi.mock('../../api/http', () => ({ get: http.get, wechatSandbox: { available: http.available, pay: http.pay } }));

const { PaySheet } = await import('./pay-sheet');
const { browserNav } = await import('../../areas/money/pay-flow');

const UA = {
  wechat:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.54(0x1800362c) NetType/4G Language/zh_CN',
  phone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  desktop: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
};
const expires = () => new Date(Date.now() + 3_600_000).toISOString();
const ORDER: Record<PayChannel, PendingPayment> = {
  native: { channel: 'native', out_trade_no: 'P1', amount_fen: 1600, expires_at: expires(), code_url: 'weixin://wxpay/bizpayurl?pr=abc' },
  jsapi: {
    channel: 'jsapi',
    out_trade_no: 'P2',
    amount_fen: 1600,
    expires_at: expires(),
    jsapi: { appId: 'wxsandbox00000001', timeStamp: '1700000000', nonceStr: 'n', package: 'prepay_id=wx1', signType: 'RSA', paySign: 'sig' },
  },
  h5: { channel: 'h5', out_trade_no: 'P3', amount_fen: 1600, expires_at: expires(), h5_url: '/api/dev/wechatpay/h5pay?prepay_id=wx2' },
};
const pending = { state: 'pending', amount_fen: 1600, out_trade_no: 'x', kind: 'meal', paid_at: null, expires_at: null };

let uaSpy: ReturnType<typeof vi.spyOn> | undefined;
const as = (ua: string) => {
  uaSpy = vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(ua);
};
beforeEach(() => {
  http.get.mockReset();
  http.get.mockResolvedValue(pending);
});
afterEach(() => {
  uaSpy?.mockRestore();
  delete window.WeixinJSBridge;
  document.body.innerHTML = '';
});

async function open(start: (c: PayChannel) => Promise<PendingPayment>) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const onPaid = vi.fn();
  await mount(
    <QueryClientProvider client={client}>
      <PaySheet open title="支付晚餐" amountFen={1600} start={start} onPaid={onPaid} onClose={() => undefined} />
    </QueryClientProvider>,
  );
  return { onPaid };
}
const byTestId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);

describe('the phone pay sheet pays the way the place it runs allows (pay-flow.ts, as the desktop dialog)', () => {
  it('inside WeChat: one JSAPI order, the bridge opened, paid when the server says so', async () => {
    as(UA.wechat);
    const invoke = vi.fn((_n: string, _p: unknown, cb: (r: { err_msg: string }) => void) => cb({ err_msg: 'get_brand_wcpay_request:ok' }));
    window.WeixinJSBridge = { invoke };
    const start = vi.fn(async (c: PayChannel) => ORDER[c]);
    const { onPaid } = await open(start);
    expect(document.body.textContent).toContain('¥16.00');
    expect(byTestId('wechat-h5-pay')).toBeNull();
    await act(async () => byTestId('wechat-jsapi-pay')!.click());
    await vi.waitFor(() => expect(invoke).toHaveBeenCalledTimes(1));
    expect(start).toHaveBeenCalledWith('jsapi');
    expect(onPaid).not.toHaveBeenCalled();
    http.get.mockResolvedValue({ ...pending, state: 'paid', out_trade_no: 'P2', paid_at: 'now' });
    await vi.waitFor(() => expect(onPaid).toHaveBeenCalledTimes(1), { timeout: 5_000 });
    await vi.waitFor(() => expect(document.body.textContent).toContain('支付成功'));
  });

  it('in a phone browser: an H5 order, off to its cashier and back to /pay/result of this page', async () => {
    as(UA.phone);
    const assign = vi.spyOn(browserNav, 'assign').mockImplementation(() => undefined);
    const start = vi.fn(async (c: PayChannel) => ORDER[c]);
    await open(start);
    expect(byTestId('wechat-jsapi-pay')).toBeNull();
    await act(async () => byTestId('wechat-h5-pay')!.click());
    await vi.waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(start).toHaveBeenCalledWith('h5');
    const redirect = new URL(assign.mock.calls[0][0], 'http://x').searchParams.get('redirect_url')!;
    expect(redirect).toContain('/pay/result?out_trade_no=P3');
    assign.mockRestore();
  });

  it('a failed start says so and offers to try again', async () => {
    as(UA.phone);
    const start = vi.fn(async () => {
      throw new Error('refused');
    });
    await open(start);
    await act(async () => byTestId('wechat-h5-pay')!.click());
    await vi.waitFor(() => expect(document.body.textContent).toContain('未能完成微信支付'));
  });

  it('a desktop browser: the QR of a Native order, drawn without antd', async () => {
    as(UA.desktop);
    const start = vi.fn(async (c: PayChannel) => ORDER[c]);
    await open(start);
    await vi.waitFor(() => expect(document.querySelector('[data-testid="pay-sheet"] svg[role="img"]')).not.toBeNull());
    expect(start).toHaveBeenCalledWith('native');
    expect(document.querySelector('.ant-qrcode')).toBeNull();
  });
});
