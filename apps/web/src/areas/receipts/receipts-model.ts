import { useQuery } from '@tanstack/react-query';
import type { ReceiptRow } from '@wantuo/shared';
import { download } from '../../api/download';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { receiptStrings } from './strings';

/** How many of a child's receipts the phone pages read at once (the newest; the list pages on the server). */
export const CHILD_RECEIPTS = 100;

/** A child's receipts (newest first), with the ones of each contract and dinner booking, for the phone pages. */
export function useChildReceipts(studentId: number | null) {
  const input = { student_id: studentId!, page: 1, limit: CHILD_RECEIPTS };
  const q = useQuery({
    queryKey: queryKey('parentReceiptList', input),
    queryFn: () => get('parentReceiptList', input),
    enabled: studentId !== null,
  });
  const byContract = new Map<number, ReceiptRow[]>();
  const byBooking = new Map<number, ReceiptRow[]>();
  for (const r of q.data?.list ?? []) {
    if (r.contract_id !== null) byContract.set(r.contract_id, [...(byContract.get(r.contract_id) ?? []), r]);
    if (r.booking_id !== null) byBooking.set(r.booking_id, [...(byBooking.get(r.booking_id) ?? []), r]);
  }
  return { q, byContract, byBooking };
}

/** The file name a receipt downloads as. */
export function receiptFileName(s: ReturnType<typeof receiptStrings.use>, r: Pick<ReceiptRow, 'kind' | 'receipt_no'>): string {
  return r.kind === 'refund' ? s('refund_file', { no: r.receipt_no }) : s('file', { no: r.receipt_no });
}

/** Downloads a receipt's PDF (the guardian's own child's, the admin's school's). */
export function downloadReceipt(s: ReturnType<typeof receiptStrings.use>, r: Pick<ReceiptRow, 'id' | 'kind' | 'receipt_no'>): Promise<void> {
  return download('receiptDownload', { id: r.id }, receiptFileName(s, r));
}
