import { z } from 'zod';
import { pageOf, wire } from '../api/define';
import { RECEIPT_KINDS, RECEIPT_METHODS } from '../receipts';

/** Answers of module `receipts` (issue 40). */

/** A receipt as the lists show it: what its PDF says, from the snapshot written when it was issued. */
export const ReceiptRow = z.object({
  id: wire.id,
  receipt_no: z.string(),
  kind: z.enum(RECEIPT_KINDS),
  /** what was paid for (a refund: the kind of its original) */
  item_kind: z.enum(['contract', 'meal']),
  student_id: wire.id,
  student_name: z.string(),
  item: z.string(),
  period_start: wire.day.nullable(),
  period_end: wire.day.nullable(),
  amount_fen: wire.fen,
  method: z.enum(RECEIPT_METHODS),
  txn_no: z.string(),
  issued_at: wire.at,
  /** the contract or dinner booking it is for */
  contract_id: wire.id.nullable(),
  booking_id: wire.id.nullable(),
  /** a refund's receipt: the receipt of the payment it gives back */
  original_receipt_no: z.string().nullable(),
});
export type ReceiptRow = z.infer<typeof ReceiptRow>;
export const ReceiptsPage = pageOf(ReceiptRow);
export type ReceiptsPage = z.infer<typeof ReceiptsPage>;

/** The school's stamp (印章) that new receipts carry: null until the admin uploads one. */
export const ReceiptStampInfo = z.object({
  school_name: z.string(),
  stamp: z
    .object({
      file_id: z.string(),
      url: z.string(),
      name: z.string(),
      mime: z.string(),
      size: wire.int,
      uploaded_at: wire.at,
    })
    .nullable(),
});
export type ReceiptStampInfo = z.infer<typeof ReceiptStampInfo>;
