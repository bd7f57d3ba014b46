import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Identity, Role, type ContractRow, type ParentChild } from '@wantuo/shared';
import { act } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { receiptRow } from '../../areas/receipts/fixtures';
import { mount } from '../../test-utils';
import { fakeServer, pageReply as page, signedIn, type Reply } from '../privacy/fake-server';

const downloads = vi.hoisted(() => [] as Array<{ action: string; params: unknown; filename: string }>);
vi.mock('../../api/download', () => ({
  download: async (action: string, params: unknown, filename: string) => {
    downloads.push({ action, params, filename });
  },
}));

const { default: ParentContractsPhone } = await import('./contracts');

const $ = <E extends HTMLElement = HTMLElement>(sel: string) => document.querySelector<E>(sel);
const text = () => document.body.textContent ?? '';
const click = (el: HTMLElement) => act(async () => el.click());
const waitFor = <T,>(check: () => T) => vi.waitFor(check, { timeout: 10_000 });

const kid: ParentChild = {
  id: 7,
  name: '陈小雨',
  gender: 2,
  day_school: '实验小学',
  grade: '三年级',
  class_name: '2班',
  photo_url: null,
  relation: '母亲',
  care_class: { id: 3, name: '阳光一班', head_teacher_name: '张班主任' },
};
const contract = (id: number, over: Partial<ContractRow> = {}): ContractRow => ({
  id,
  no: `HT2026120100${id}`,
  student_id: 7,
  student_name: '陈小雨',
  class_name: '阳光一班',
  package_id: 1,
  package_name: '学期托管',
  kind: 'term',
  start_day: '2026-09-01',
  end_day: '2027-01-15',
  units_total: null,
  units_used: 0,
  units_left: null,
  price_fen: 123456,
  list_price_fen: 123456,
  paid_fen: 123456,
  refunded_fen: 0,
  status: 'active',
  state: 'active',
  auto_renew: false,
  guardian_name: '陈家长',
  renewed_from: null,
  created_at: '2026-08-30T02:00:00.000Z',
  version: 2,
  ...over,
});

beforeEach(() => {
  downloads.length = 0;
  signedIn({ id: 9, role: Role.Parent, nickname: '陈家长', avatar_text: '陈', school_id: 1 }, Identity.None);
});

async function open(answers: Record<string, (input: Record<string, unknown>) => Reply>) {
  const server = fakeServer({
    parentChildren: () => ({ data: { list: [kid] } }),
    studentContractList: () => page([contract(11), contract(12, { status: 'unpaid', state: 'unpaid', paid_fen: 0 })]),
    ...answers,
  });
  await mount(
    <MemoryRouter>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ParentContractsPhone />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return server;
}

describe('/m/parent_contracts 缴费: receipts', { timeout: 30_000 }, () => {
  it('a paid contract shows its receipt and its refund’s; the child’s receipts are listed; a tap downloads the PDF', async () => {
    const server = await open({
      parentReceiptList: () =>
        page([
          receiptRow(2, { kind: 'refund', amount_fen: 50000, original_receipt_no: '2026-000001', contract_id: 11 }),
          receiptRow(1, { contract_id: 11 }),
        ]),
    });
    await waitFor(() => expect($('[data-testid="contract-11"] [data-testid="receipt-buttons"]')).not.toBeNull());
    expect(server.of('parentReceiptList')[0]).toEqual({ student_id: 7, page: 1, limit: 100 });
    const paid = $('[data-testid="contract-11"]')!.textContent ?? '';
    expect(paid).toContain('收据 2026-000001');
    expect(paid).toContain('退款收据 2026-000002');
    // the unpaid one has none
    expect($('[data-testid="contract-12"] [data-testid="receipt-buttons"]')).toBeNull();
    const list = $('[data-testid="receipt-list"]')!.textContent ?? '';
    expect(list).toContain('¥1,234.56');
    expect(list).toContain('¥500.00');
    expect(list).toContain('冲减 2026-000001');
    expect(list).toContain('2026-12-07 16:05');

    const button = [...$('[data-testid="contract-11"]')!.querySelectorAll<HTMLElement>('button')].find((b) => b.textContent?.includes('退款收据'))!;
    await click(button);
    await waitFor(() => expect(downloads).toEqual([{ action: 'receiptDownload', params: { id: 2 }, filename: '退款收据-2026-000002.pdf' }]));
    await click($('[data-testid="receipt-1"]')!);
    await waitFor(() => expect(downloads[1]).toEqual({ action: 'receiptDownload', params: { id: 1 }, filename: '收据-2026-000001.pdf' }));
  });

  it('no receipts yet says so', async () => {
    await open({ parentReceiptList: () => page([]) });
    await waitFor(() => expect(text()).toContain('还没有收据：付款后自动开具'));
  });

  it('a failed list offers a retry', async () => {
    await open({ parentReceiptList: () => ({ code: 100, msg: '服务器开小差了' }) });
    await waitFor(() => expect($('[data-testid="receipt-list"]')).toBeNull());
    await waitFor(() => expect(text()).toContain('服务器开小差了'));
  });
});
