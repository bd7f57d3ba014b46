import type { ReceiptRow } from '@wantuo/shared';

/** A receipt row as the API answers it (the receipts' tests). */
export const receiptRow = (id: number, over: Partial<ReceiptRow> = {}): ReceiptRow => ({
  id,
  receipt_no: `2026-${String(id).padStart(6, '0')}`,
  kind: 'contract',
  item_kind: 'contract',
  student_id: 7,
  student_name: '陈小雨',
  item: '学期托管（合同 HT20261201001）',
  period_start: '2026-09-01',
  period_end: '2027-01-15',
  amount_fen: 123456,
  method: 'wechat',
  txn_no: '4200001234',
  issued_at: '2026-12-07T08:05:00.000Z',
  contract_id: 11,
  booking_id: null,
  original_receipt_no: null,
  ...over,
});
