import { z } from 'zod';
import { MONTH_RE, RECEIPT_KINDS } from '../receipts';
import { lineText, pageQuery } from './common';

/** Inputs of module `receipts` (issue 40, docs/modules/receipts.md). */

const blank = (v: unknown) => (v === '' ? undefined : v);
const id = z.coerce
  .number({ error: 'receipts.v.id_invalid' })
  .int({ error: 'receipts.v.id_invalid' })
  .min(1, { error: 'receipts.v.id_invalid' })
  .max(2_147_483_647, { error: 'receipts.v.id_invalid' });
const month = z.string({ error: 'receipts.v.month_invalid' }).regex(MONTH_RE, { error: 'receipts.v.month_invalid' });

/** A guardian's receipts: all their children's, one child's, or those of one contract or dinner booking. */
export const ParentReceiptListQuery = z.strictObject({
  ...pageQuery,
  student_id: z.preprocess(blank, id.optional()),
  contract_id: z.preprocess(blank, id.optional()),
  booking_id: z.preprocess(blank, id.optional()),
});
export type ParentReceiptListQuery = z.infer<typeof ParentReceiptListQuery>;

/** One receipt as its PDF (a guardian their own child's, the admin any of the school's). */
export const ReceiptDownloadQuery = z.strictObject({ id });
export type ReceiptDownloadQuery = z.infer<typeof ReceiptDownloadQuery>;

/** The school's receipts: of a school-local month (issue time), of a kind, by the child's name or the receipt number. */
export const AdminReceiptListQuery = z.strictObject({
  ...pageQuery,
  month: z.preprocess(blank, month.optional()),
  kind: z.preprocess(blank, z.enum(RECEIPT_KINDS, { error: 'receipts.v.kind_invalid' }).optional()),
  keyword: z.preprocess(blank, lineText(50).optional()),
});
export type AdminReceiptListQuery = z.infer<typeof AdminReceiptListQuery>;

/** A school-local month's receipts as a sheet. */
export const AdminReceiptExportQuery = z.strictObject({ month });
export type AdminReceiptExportQuery = z.infer<typeof AdminReceiptExportQuery>;
