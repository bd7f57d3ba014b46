import { FileAnswer, GET, POST, extraOf } from './define';
import { ReceiptsPage, ReceiptStampInfo } from '../answers/receipts';
import { EmptyInput } from '../schemas/auth';
import { AdminReceiptExportQuery, AdminReceiptListQuery, ParentReceiptListQuery, ReceiptDownloadQuery } from '../schemas/receipts';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('receipts');

/** The actions of module `receipts` (docs/modules/receipts.md). */
export const receiptsActions = [
  GET(
    'parentReceiptList',
    ParentReceiptListQuery,
    ReceiptsPage,
    extra(['P'], "the receipts (收据) of the caller's children, newest first; optionally one child's, one contract's or one dinner booking's; paged"),
  ),
  GET(
    'receiptDownload',
    ReceiptDownloadQuery,
    FileAnswer,
    extra(
      ['P', 'A'],
      "one receipt as its PDF (the school's name and stamp, the child, the item, the amount in figures and capitals); the same bytes every time",
    ),
  ),
  GET(
    'adminReceiptList',
    AdminReceiptListQuery,
    ReceiptsPage,
    extra(['A'], "the school's receipts of a school-local month, by kind and by the child's name or the receipt number; paged"),
  ),
  GET(
    'adminReceiptExport',
    AdminReceiptExportQuery,
    FileAnswer,
    extra(['A'], "a school-local month's receipts as .xlsx (money in yuan, local times, a totals row)"),
  ),
  POST(
    'adminReceiptStampUpload',
    EmptyInput,
    ReceiptStampInfo,
    extra(
      ['A'],
      "upload the school's stamp (印章) for receipts issued from now on: a PNG or JPEG image within the image upload limit (multipart field file)",
    ),
  ),
  GET(
    'adminReceiptStampInfo',
    EmptyInput,
    ReceiptStampInfo,
    extra(['A'], "the school's stamp for receipts (null when none is uploaded: receipts are issued without it)"),
  ),
] as const;
