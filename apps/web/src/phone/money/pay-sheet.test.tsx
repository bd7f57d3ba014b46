import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { PayChannel, PendingPayment } from '@wantuo/shared';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, unmountAll } from '../../test-utils';

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
const ONLINE = { online: true, school_name: '阳光晚托中心', contact_phone: '13800000001' };
/** parentPayOptions as the test sets it; every other read (paymentState) answers `state` */
let options: unknown = ONLINE;
let state: unknown = pending;

let uaSpy: ReturnType<typeof vi.spyOn> | undefined;
const as = (ua: string) => {
  uaSpy = vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(ua);
};
beforeEach(() => {
  options = ONLINE;
  state = pending;
  http.get.mockReset();
  http.get.mockImplementation(async (action: string) => (action === 'parentPayOptions' ? options : state));
});
afterEach(() => {
  uaSpy?.mockRestore();
  delete window.WeixinJSBridge;
  document.body.innerHTML = '';
});

async function open(start: (c: PayChannel) => Promise<PendingPayment>, client = new QueryClient({ defaultOptions: { queries: { retry: false } } })) {
  const onPaid = vi.fn();
  await mount(
    <QueryClientProvider client={client}>
      <PaySheet open title="支付晚餐" amountFen={1600} start={start} onPaid={onPaid} onClose={() => undefined} />
    </QueryClientProvider>,
  );
  // the sheet reads parentPayOptions before it shows a pay button
  for (let i = 0; i < 50 && document.body.textContent?.includes('正在读取缴费方式'); i++) await act(() => new Promise((r) => setTimeout(r, 10)));
  return { onPaid, client };
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
    state = { ...pending, state: 'paid', out_trade_no: 'P2', paid_at: 'now' };
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

describe('a school without its WeChat Pay sub-merchant (issue 36): pay at the desk', () => {
  const deskOnly = () => byTestId('pay-desk-only');

  it('parentPayOptions says no online payment: the desk, the school and its phone, no pay button, nothing started', async () => {
    as(UA.wechat);
    options = { online: false, school_name: '阳光晚托中心', contact_phone: '138 0000 0001' };
    const start = vi.fn(async (c: PayChannel) => ORDER[c]);
    await open(start);
    await vi.waitFor(() => expect(deskOnly()).not.toBeNull());
    const text = deskOnly()!.textContent ?? '';
    expect(text).toContain('本校尚未开通微信在线缴费，请到学校前台缴费');
    expect(text).toContain('阳光晚托中心');
    expect(byTestId('pay-desk-phone')!.getAttribute('href')).toBe('tel:13800000001');
    expect(byTestId('wechat-jsapi-pay')).toBeNull();
    expect(byTestId('wechat-h5-pay')).toBeNull();
    expect(start).not.toHaveBeenCalled();
    // the amount owed stays in sight: it is what to pay at the desk
    expect(document.body.textContent).toContain('¥16.00');
  });

  it('a school without a phone: the desk only, no tel: link', async () => {
    as(UA.phone);
    options = { online: false, school_name: '阳光晚托中心', contact_phone: null };
    await open(vi.fn());
    await vi.waitFor(() => expect(deskOnly()).not.toBeNull());
    expect(byTestId('pay-desk-phone')).toBeNull();
    expect(deskOnly()!.textContent).toContain('学校暂未留联系电话');
  });

  it('a start refused with payments.school_no_merchant (withdrawn since the options were read): the same desk', async () => {
    as(UA.phone);
    const start = vi.fn(async () => {
      throw new Error('本校尚未开通微信在线缴费，请到学校前台缴费');
    });
    const { client } = await open(start);
    // the options asked again do not answer: the refusal alone shows the desk
    http.get.mockImplementation((action: string) => (action === 'parentPayOptions' ? new Promise(() => undefined) : Promise.resolve(state)));
    await act(async () => byTestId('wechat-h5-pay')!.click());
    await vi.waitFor(() => expect(deskOnly()).not.toBeNull());
    expect(byTestId('wechat-h5-pay')).toBeNull();
    expect(deskOnly()!.textContent).toContain('阳光晚托中心');
    expect((client.getQueryData(['parentPayOptions']) as { online: boolean }).online).toBe(false);
  });

  it('another refusal asks the options again: a school that has none now gets the desk', async () => {
    as(UA.phone);
    const start = vi.fn(async () => {
      throw new Error('some other wording');
    });
    await open(start);
    options = { ...ONLINE, online: false };
    await act(async () => byTestId('wechat-h5-pay')!.click());
    await vi.waitFor(() => expect(deskOnly()).not.toBeNull());
    expect(http.get.mock.calls.filter(([a]) => a === 'parentPayOptions')).toHaveLength(2);
  });

  it('the options are read once for every sheet (cached), and a read that fails does not stop a payment', async () => {
    as(UA.phone);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await open(vi.fn(), client);
    await vi.waitFor(() => expect(byTestId('wechat-h5-pay')).not.toBeNull());
    await unmountAll();
    await open(vi.fn(), client);
    await vi.waitFor(() => expect(byTestId('wechat-h5-pay')).not.toBeNull());
    expect(http.get.mock.calls.filter(([a]) => a === 'parentPayOptions')).toHaveLength(1);

    await unmountAll();
    http.get.mockImplementation(async (action: string) => {
      if (action === 'parentPayOptions') throw new Error('offline');
      return state;
    });
    await open(vi.fn());
    await vi.waitFor(() => expect(byTestId('wechat-h5-pay')).not.toBeNull());
    expect(deskOnly()).toBeNull();
  });
});
