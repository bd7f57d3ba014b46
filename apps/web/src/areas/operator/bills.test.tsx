import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { BillCheckRow, BillDifferenceRow } from '@wantuo/shared';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback, type Feedback } from '../../api/feedback';
import { fetchTransport, useTransport, type Transport } from '../../api/http';
import { localDay } from '../../lib/school-time';
import { usePreferences } from '../../stores/preferences';
import { mount } from '../../test-utils';

const { default: OperatorBills } = await import('./bills');

const CHECKS: BillCheckRow[] = [
  {
    id: 2,
    bill_date: '2026-12-05',
    sub_mchid: '1900000301',
    school_id: 7,
    school_name: '星星晚托',
    state: 'differences',
    bill_lines: 3,
    payments_fen: 123_450,
    refunds_fen: 1_000,
    differences: 2,
    error: null,
    checked_at: '2026-12-06T02:30:00.000Z',
  },
  {
    id: 1,
    bill_date: '2026-12-05',
    sub_mchid: '1900000100',
    school_id: null,
    school_name: null,
    state: 'matched',
    bill_lines: 1,
    payments_fen: 19_900,
    refunds_fen: 0,
    differences: 0,
    error: null,
    checked_at: '2026-12-06T02:30:00.000Z',
  },
];
const diff = (over: Partial<BillDifferenceRow>): BillDifferenceRow => ({
  id: 1,
  check_id: 2,
  bill_date: '2026-12-05',
  sub_mchid: '1900000301',
  school_id: 7,
  school_name: '星星晚托',
  kind: 'missing_here',
  line: 'payment',
  out_trade_no: 'P20261205abc',
  out_refund_no: null,
  ours_fen: null,
  theirs_fen: 1_600,
  state: 'open',
  resolution: null,
  resolved_at: null,
  resolved_by_name: null,
  created_at: '2026-12-06T02:30:00.000Z',
  ...over,
});
const DIFFS: BillDifferenceRow[] = [
  diff({}),
  diff({ id: 2, kind: 'amount_differs', line: 'refund', out_refund_no: 'R1', ours_fen: 500, theirs_fen: 600 }),
  diff({
    id: 3,
    kind: 'missing_there',
    ours_fen: 2_000,
    theirs_fen: null,
    state: 'resolved',
    resolution: '已补单',
    resolved_by_name: '运营甲',
    resolved_at: '2026-12-06T03:00:00.000Z',
  }),
];

/** The API as the page sees it: every read with its parameters, every write with its body. */
let reads: Array<{ action: string; params: Record<string, unknown> }> = [];
let posts: Array<{ action: string; body: Record<string, unknown> }> = [];
let failChecks = false;
const page = <T,>(list: T[]) => ({ list, total: list.length, page: 1, limit: 20 });
const ok = (data: unknown) => ({ status: 200, data: { code: 200, msg: 'ok', data } });
const transport: Transport = async (req) => {
  const action = req.url.replace('/index/', '');
  if (req.method === 'POST') {
    const body = JSON.parse(req.body as string) as Record<string, unknown>;
    posts.push({ action, body });
    if (action === 'resolveBillDifference') return ok({ ...DIFFS[0], state: 'resolved', resolution: body.resolution });
    if (action === 'checkBill') return ok({ ...CHECKS[1], bill_date: body.bill_date, state: 'matched' });
  }
  const params = (req.params ?? {}) as Record<string, unknown>;
  reads.push({ action, params });
  if (action === 'billChecks') {
    if (failChecks) return { status: 500, data: { code: 500, msg: 'down', data: null } };
    return ok(page(CHECKS.filter((c) => !params.state || c.state === params.state)));
  }
  if (action === 'billDifferences') return ok(page(DIFFS.filter((d) => !params.state || d.state === params.state)));
  if (action === 'schoolList') return ok(page([{ id: 7, name: '星星晚托' }]));
  throw new Error(`unexpected ${req.method} ${req.url}`);
};

const messages: string[] = [];
const said = (m: unknown) => void messages.push(typeof m === 'string' ? m : String((m as { content?: unknown }).content));
const fb = {
  message: { error: said, success: said, info: said },
  notification: { error: said, success: said, info: said },
  modal: { confirm: vi.fn() },
};

beforeAll(() => {
  useTransport(transport);
  setFeedback(fb as unknown as Feedback);
});
afterAll(() => {
  useTransport(fetchTransport);
  setFeedback(null);
});
beforeEach(() => {
  usePreferences.setState({ lang: 'zh-CN' });
  reads = [];
  posts = [];
  failChecks = false;
  messages.length = 0;
});
afterEach(() => {
  document.body.innerHTML = '';
});

async function open() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await mount(
    <QueryClientProvider client={client}>
      <OperatorBills />
    </QueryClientProvider>,
  );
}
const $ = <E extends HTMLElement = HTMLElement>(sel: string) => document.querySelector<E>(sel);
const rowsOf = (testId: string) => [...document.querySelectorAll(`[data-testid="${testId}"] tbody tr.ant-table-row`)].map((r) => r.textContent ?? '');
const buttonNamed = (text: string, root: ParentNode = document) =>
  [...root.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.replace(/\s/g, '') === text);
/** the open dialog's OK (primary) button */
const okButton = () => $('.ant-modal .ant-modal-footer .ant-btn-primary')!;
const click = (el: HTMLElement) => act(async () => el.click());
/** picks `label` in the antd Select that has `ariaLabel` */
async function pick(ariaLabel: string, label: string) {
  const input = $<HTMLInputElement>(`input[aria-label="${ariaLabel}"]`)!;
  const selector = input.closest('.ant-select')!;
  await act(async () => selector.dispatchEvent(new MouseEvent('mousedown', { bubbles: true })));
  await vi.waitFor(() => expect([...document.querySelectorAll('.ant-select-item-option')].some((o) => o.textContent === label)).toBe(true));
  const option = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find((o) => o.textContent === label)!;
  await click(option);
}

describe('对账 (/operator_bills)', { timeout: 30_000 }, () => {
  it('the daily checks: merchant (平台自营 for the platform’s own), state in words, yuan, differences; filtered by state', async () => {
    await open();
    await vi.waitFor(() => expect(rowsOf('bill-checks')).toHaveLength(2));
    const [school, platform] = rowsOf('bill-checks');
    expect(school).toContain('星星晚托');
    expect(school).toContain('1900000301');
    expect(school).toContain('有差异');
    expect(school).toContain('1234.50');
    expect(school).toContain('10.00');
    expect(platform).toContain('平台自营');
    expect(platform).toContain('一致');
    expect(platform).toContain('199.00');
    expect(reads.find((r) => r.action === 'billChecks')!.params).toEqual({ page: 1, limit: 20 });
    // the open differences are counted on their tab
    await vi.waitFor(() => expect(document.body.textContent).toContain('差异（2 条未处理）'));

    await pick('状态', '有差异');
    await vi.waitFor(() => expect(rowsOf('bill-checks')).toHaveLength(1));
    expect(reads.filter((r) => r.action === 'billChecks').at(-1)!.params).toEqual({ state: 'differences', page: 1, limit: 20 });
  });

  it('a failed read: the error state with a retry', async () => {
    failChecks = true;
    await open();
    await vi.waitFor(() => expect(buttonNamed('重试') ?? buttonNamed('重新加载')).toBeTruthy());
  });

  it('a check’s differences count opens its differences: kind and line in words, ours and theirs in yuan; resolved with a note', async () => {
    await open();
    await vi.waitFor(() => expect(rowsOf('bill-checks')).toHaveLength(2));
    await click($('[data-testid="bill-checks"] button[aria-label="查看差异"]')!);
    await vi.waitFor(() => expect(rowsOf('bill-differences')).toHaveLength(3));
    expect(reads.filter((r) => r.action === 'billDifferences').at(-1)!.params).toEqual({ check_id: 2, page: 1, limit: 20 });
    expect(document.body.textContent).toContain('2026-12-05 星星晚托 的差异');
    const [here, amount, there] = rowsOf('bill-differences');
    expect(here).toContain('微信有、本平台无');
    expect(here).toContain('支付');
    expect(here).toContain('P20261205abc');
    expect(here).toContain('16.00');
    expect(amount).toContain('金额不一致');
    expect(amount).toContain('退款');
    expect(amount).toContain('R1');
    expect(amount).toContain('5.00');
    expect(amount).toContain('6.00');
    expect(there).toContain('本平台有、微信无');
    expect(there).toContain('已补单');
    expect(there).toContain('运营甲');
    // a resolved one has nothing left to do
    const resolveButtons = [...document.querySelectorAll<HTMLButtonElement>('[data-testid="bill-differences"] tbody tr.ant-table-row button')].filter(
      (b) => b.textContent?.replace(/\s/g, '') === '处理',
    );
    expect(resolveButtons).toHaveLength(2);

    await click(resolveButtons[0]);
    await vi.waitFor(() => expect($('.ant-modal textarea')).not.toBeNull());
    const ta = $<HTMLTextAreaElement>('.ant-modal textarea')!;
    await click(okButton());
    await vi.waitFor(() => expect($('.ant-modal')!.textContent).toContain('请填写处理说明'));
    expect(posts).toEqual([]);
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(ta, '已向微信核实，退款补记');
      ta.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await click(okButton());
    await vi.waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({ action: 'resolveBillDifference', body: { id: 1, resolution: '已向微信核实，退款补记' } });
    await vi.waitFor(() => expect(messages).toContain('已标记为已处理'));
  });

  it('重新对账: a past day only, the platform’s own merchant without a school', async () => {
    await open();
    await click($('[data-testid="bills-recheck"]')!);
    await vi.waitFor(() => expect($('.ant-modal .ant-picker input')).not.toBeNull());
    // nothing sent without a date
    await click(okButton());
    await vi.waitFor(() => expect($('.ant-modal')!.textContent).toContain('请选择已结束的日期'));
    await act(async () => $('.ant-modal .ant-picker input')!.dispatchEvent(new MouseEvent('mousedown', { bubbles: true })));
    await click($('.ant-modal .ant-picker input')!);
    const today = localDay();
    const yesterday = localDay(new Date(Date.now() - 86_400_000));
    await vi.waitFor(() => expect($(`td[title="${yesterday}"]`)).not.toBeNull());
    expect($(`td[title="${today}"]`)!.className).toContain('disabled');
    await click($(`td[title="${yesterday}"]`)!);
    await click(okButton());
    await vi.waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({ action: 'checkBill', body: { bill_date: yesterday } });
    await vi.waitFor(() => expect(messages).toContain(`${yesterday} 对账完成：一致`));
  });
});
