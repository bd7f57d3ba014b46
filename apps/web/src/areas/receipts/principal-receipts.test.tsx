import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Identity, Role } from '@wantuo/shared';
import { act } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, pageReply as page, signedIn, type Reply } from '../../phone/privacy/fake-server';
import { mount } from '../../test-utils';
import { receiptRow } from './fixtures';

const downloads = vi.hoisted(() => [] as Array<{ action: string; params: unknown; filename: string }>);
vi.mock('../../api/download', () => ({
  download: async (action: string, params: unknown, filename: string) => {
    downloads.push({ action, params, filename });
  },
}));

const { default: PrincipalReceipts } = await import('./principal-receipts');

const waitFor = <T,>(check: () => T) => vi.waitFor(check, { timeout: 10_000 });
const $ = <E extends HTMLElement = HTMLElement>(sel: string) => document.querySelector<E>(sel);
const text = () => document.body.textContent ?? '';
const rows = () => [...document.querySelectorAll<HTMLElement>('[data-testid="receipts-table"] tbody tr.ant-table-row')];
const click = (el: HTMLElement) => act(async () => el.click());
const buttonNamed = (label: string, root: ParentNode = document) =>
  [...root.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.replace(/\s/g, '') === label);

beforeEach(() => {
  downloads.length = 0;
  signedIn({ id: 1, role: Role.Admin, nickname: '校长', avatar_text: '校', school_id: 1 }, Identity.Principal);
});

const noStamp = () => ({ data: { school_name: '阳光晚托中心', stamp: null } });
async function open(answers: Record<string, (input: Record<string, unknown>) => Reply>) {
  const server = fakeServer({ adminReceiptStampInfo: noStamp, ...answers });
  await mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <PrincipalReceipts />
    </QueryClientProvider>,
  );
  return server;
}

describe('/principal_receipts 收据管理', { timeout: 30_000 }, () => {
  it('lists the month’s receipts from the server, a refund with its original; downloads a row; exports the month', async () => {
    const server = await open({
      adminReceiptList: () =>
        page([receiptRow(2, { kind: 'refund', amount_fen: 50000, original_receipt_no: '2026-000001' }), receiptRow(1, { method: 'cash' })], 45),
    });
    await waitFor(() => expect(rows()).toHaveLength(2));
    const first = server.of('adminReceiptList')[0];
    expect(first).toMatchObject({ page: 1, limit: 20 });
    expect(String(first.month)).toMatch(/^\d{4}-\d{2}$/);
    const [refund, paid] = rows().map((r) => r.textContent ?? '');
    expect(refund).toContain('2026-000002');
    expect(refund).toContain('退款');
    expect(refund).toContain('-¥500.00');
    expect(refund).toContain('2026-000001');
    expect(paid).toContain('¥1,234.56');
    expect(paid).toContain('现金');
    expect(paid).toContain('2026-12-07 16:05');
    // 45 receipts: three server pages
    expect($('.ant-pagination-item-3')).not.toBeNull();

    await click(buttonNamed('下载', rows()[1])!);
    await waitFor(() => expect(downloads).toEqual([{ action: 'receiptDownload', params: { id: 1 }, filename: '收据-2026-000001.pdf' }]));
    await click($('[data-testid="receipts-export"]')!);
    await waitFor(() => expect(downloads[1]).toMatchObject({ action: 'adminReceiptExport', params: { month: first.month } }));
    expect(downloads[1].filename).toBe(`收据-${String(first.month)}.xlsx`);
  });

  it('says when no stamp is uploaded; shows the stamp when there is one; an empty month says so', async () => {
    await open({ adminReceiptList: () => page([]) });
    await waitFor(() => expect($('[data-testid="stamp-missing"]')).not.toBeNull());
    expect(text()).toContain('尚未上传印章');
    expect(buttonNamed('上传印章')).toBeTruthy();
    await waitFor(() => expect(text()).toContain('这个月还没有收据'));
  });

  it('previews an uploaded stamp', async () => {
    await open({
      adminReceiptList: () => page([]),
      adminReceiptStampInfo: () => ({
        data: {
          school_name: '阳光晚托中心',
          stamp: {
            file_id: 'f1',
            url: '/uploads/2026-12/s.png',
            name: '印章.png',
            mime: 'image/png',
            size: 1200,
            uploaded_at: '2026-12-07T08:00:00.000Z',
          },
        },
      }),
    });
    await waitFor(() => expect($<HTMLImageElement>('[data-testid="stamp-card"] img')?.getAttribute('src')).toBe('/uploads/2026-12/s.png'));
    expect($('[data-testid="stamp-missing"]')).toBeNull();
    expect(buttonNamed('更换印章')).toBeTruthy();
  });
});
