import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { SchoolSubMerchant, SubMerchantRecord } from '@wantuo/shared';
import type { ModalFuncProps } from 'antd';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback, type Feedback } from '../../api/feedback';
import { fetchTransport, useTransport, type Transport } from '../../api/http';
import { usePreferences } from '../../stores/preferences';
import { mount } from '../../test-utils';
import { SubMerchantDrawer } from './sub-merchant';

const SCHOOL = { id: 7, name: '星星晚托' };
const record = (id: number, sub_mchid: string, ended_at: string | null = null): SubMerchantRecord => ({
  id,
  sub_mchid,
  sub_appid: null,
  note: '进件完成',
  recorded_at: '2026-11-02T02:00:00.000Z',
  recorded_by_name: '平台运营',
  ended_at,
});
const stateOf = (history: SubMerchantRecord[]): SchoolSubMerchant => {
  const current = history.find((r) => r.ended_at === null) ?? null;
  return { school_id: SCHOOL.id, state: current ? 'active' : 'none', current, history };
};

/** The API as the drawer sees it: the school's records, what was posted, and the sandbox's status. */
let answer: SchoolSubMerchant;
let setAnswer: (body: Record<string, unknown>) => { code: number; msg: string; data: unknown };
let posts: Array<Record<string, unknown>> = [];
let reads = 0;
let sandbox = false;
let onboarded: Array<Record<string, unknown>> = [];
const transport: Transport = async (req) => {
  if (req.url === '/dev/wechatpay/status') return { status: 200, data: { code: 200, msg: 'ok', data: { sandbox } } };
  if (req.method === 'POST' && req.url === '/dev/wechatpay/subMerchants') {
    const body = JSON.parse(req.body as string) as Record<string, unknown>;
    onboarded.push(body);
    return { status: 200, data: { code: 200, msg: 'ok', data: { ...body, balance_fen: 0 } } };
  }
  const action = req.url.replace('/index/', '');
  if (req.method === 'GET' && action === 'schoolSubMerchant') {
    reads++;
    expect(req.params).toEqual({ school_id: SCHOOL.id });
    return { status: 200, data: { code: 200, msg: 'ok', data: answer } };
  }
  if (req.method === 'POST' && action === 'setSchoolSubMerchant') {
    const body = JSON.parse(req.body as string) as Record<string, unknown>;
    posts.push(body);
    return { status: 200, data: setAnswer(body) };
  }
  throw new Error(`unexpected ${req.method} ${req.url}`);
};

const messages: string[] = [];
/** a toast's text: the pages pass a string, the request wrapper `{ content, duration }` */
const said = (m: unknown) => void messages.push(typeof m === 'string' ? m : String((m as { content?: unknown }).content));
let confirmed: { title: unknown; content: unknown } | null = null;
const fb: Feedback = {
  message: { error: said, success: said, info: said },
  notification: { error: vi.fn(), success: vi.fn(), info: vi.fn() },
  modal: {
    confirm(config: ModalFuncProps) {
      confirmed = { title: config.title, content: config.content };
      void config.onOk?.();
      return undefined;
    },
  },
} as unknown as Feedback;

beforeAll(() => {
  useTransport(transport);
  setFeedback(fb);
});
afterAll(() => {
  useTransport(fetchTransport);
  setFeedback(null);
});
beforeEach(() => {
  usePreferences.setState({ lang: 'zh-CN' });
  posts = [];
  reads = 0;
  sandbox = false;
  messages.length = 0;
  confirmed = null;
});
afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

const flush = () => act(() => new Promise((r) => setTimeout(r, 0)));
async function open() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await mount(
    <QueryClientProvider client={client}>
      <SubMerchantDrawer school={SCHOOL} onClose={() => undefined} />
    </QueryClientProvider>,
  );
  await vi.waitFor(() => expect(document.querySelector('[data-testid="sub-merchant-state"]')).not.toBeNull());
}
const panel = () => document.querySelector<HTMLElement>('[data-testid="sub-merchant"]')!;
const byTestId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
function type(id: string, value: string) {
  const el = document.getElementById(id) as HTMLInputElement;
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
}
const click = (el: HTMLElement) => act(async () => el.click());

describe('收款商户 (the operator records a school’s WeChat Pay sub-merchant)', { timeout: 30_000 }, () => {
  it('a school without one: 未开通 and what it is; a number of 8-12 digits is recorded with expected_id null', async () => {
    answer = stateOf([]);
    setAnswer = (b) => {
      answer = stateOf([record(11, b.sub_mchid as string)]);
      return { code: 200, msg: 'ok', data: answer };
    };
    await open();
    expect(byTestId('sub-merchant-state')!.textContent).toContain('未开通');
    expect(panel().textContent).toContain('机构在微信支付完成特约商户进件后，将微信分配的特约商户号登记于此');
    expect(byTestId('sub-merchant-withdraw')).toBeNull();
    // no sandbox here: no 在沙箱中完成进件
    expect(byTestId('sub-merchant-sandbox')).toBeNull();

    await act(async () => type('sub_mchid', '12345'));
    await click(byTestId('sub-merchant-save')!);
    await vi.waitFor(() => expect(panel().textContent).toContain('特约商户号为 8-12 位数字'));
    await act(async () => type('sub_appid', 'wx123'));
    await click(byTestId('sub-merchant-save')!);
    await vi.waitFor(() => expect(panel().textContent).toContain('公众号 AppID 以 wx 开头，共 18 位'));
    expect(posts).toEqual([]);

    await act(async () => type('sub_mchid', '1900000999'));
    await act(async () => type('sub_appid', ''));
    await act(async () => type('note', '已完成进件'));
    await click(byTestId('sub-merchant-save')!);
    await vi.waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({ school_id: SCHOOL.id, sub_mchid: '1900000999', sub_appid: null, note: '已完成进件', expected_id: null });
    await vi.waitFor(() => expect(byTestId('sub-merchant-state')!.textContent).toContain('1900000999'));
    expect(byTestId('sub-merchant-state')!.textContent).toContain('已开通');
    expect(byTestId('sub-merchant-state')!.textContent).toContain('平台运营');
    expect(messages).toContain('已登记，家长可在线缴费');
  });

  it('停用 asks first, saying parents’ online payments stop, and sends sub_mchid null with the record it saw', async () => {
    answer = stateOf([record(12, '1900000302'), record(9, '1900000301', '2026-11-01T00:00:00.000Z')]);
    setAnswer = () => {
      answer = stateOf(answer.history.map((r) => ({ ...r, ended_at: r.ended_at ?? '2026-12-01T00:00:00.000Z' })));
      return { code: 200, msg: 'ok', data: answer };
    };
    await open();
    // the history, newest first, the current one in use
    const rows = [...byTestId('sub-merchant-history')!.querySelectorAll('tbody tr.ant-table-row')].map((r) => r.textContent ?? '');
    expect(rows[0]).toContain('1900000302');
    expect(rows[0]).toContain('使用中');
    expect(rows[1]).toContain('1900000301');
    await click(byTestId('sub-merchant-withdraw')!);
    expect(String(confirmed?.content)).toContain('家长将无法在线缴纳合同和餐费');
    await vi.waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({ school_id: SCHOOL.id, sub_mchid: null, note: '', expected_id: 12 });
    await vi.waitFor(() => expect(byTestId('sub-merchant-state')!.textContent).toContain('未开通'));
  });

  it('someone else changed it meanwhile (payments.sub_merchant_changed): the message, and the record read again', async () => {
    answer = stateOf([]);
    setAnswer = () => {
      // the other operator's record is what the server now holds
      answer = stateOf([record(13, '1900000777')]);
      return { code: 100, msg: '该机构的收款商户刚被他人修改，请刷新后再试', data: null };
    };
    await open();
    expect(reads).toBe(1);
    await act(async () => type('sub_mchid', '1900000999'));
    await click(byTestId('sub-merchant-save')!);
    await vi.waitFor(() => expect(messages).toContain('该机构的收款商户刚被他人修改，请刷新后再试'));
    await vi.waitFor(() => expect(reads).toBe(2));
    await vi.waitFor(() => expect(byTestId('sub-merchant-state')!.textContent).toContain('1900000777'));
  });

  it('another refusal (a number another school has) is only shown: nothing read again', async () => {
    answer = stateOf([]);
    setAnswer = () => ({ code: 100, msg: '该特约商户号已登记给另一家机构', data: null });
    await open();
    await act(async () => type('sub_mchid', '1900000999'));
    await click(byTestId('sub-merchant-save')!);
    await vi.waitFor(() => expect(messages).toContain('该特约商户号已登记给另一家机构'));
    await flush();
    expect(reads).toBe(1);
  });

  it('in the sandbox: 在沙箱中完成进件 onboards the entered number there (POST /api/dev/wechatpay/subMerchants)', async () => {
    sandbox = true;
    answer = stateOf([]);
    onboarded = [];
    await open();
    await vi.waitFor(() => expect(byTestId('sub-merchant-sandbox')).not.toBeNull());
    // the number is checked first
    await click(byTestId('sub-merchant-sandbox')!);
    await vi.waitFor(() => expect(panel().textContent).toContain('特约商户号为 8-12 位数字'));
    expect(onboarded).toEqual([]);
    await act(async () => type('sub_mchid', '1900000999'));
    await click(byTestId('sub-merchant-sandbox')!);
    await vi.waitFor(() => expect(onboarded).toEqual([{ sub_mchid: '1900000999', name: SCHOOL.name }]));
    await vi.waitFor(() => expect(messages).toContain('沙箱已为 1900000999 完成进件'));
    // onboarding is not recording: that is still the operator's 登记
    expect(posts).toEqual([]);
  });
});
