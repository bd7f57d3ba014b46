import { FileAnswer, GET, POST } from './define';
import { ReceiptsPage, ReceiptStampInfo } from '../answers/receipts';
import { EmptyInput } from '../schemas/auth';
import { AdminReceiptExportQuery, AdminReceiptListQuery, ParentReceiptListQuery, ReceiptDownloadQuery } from '../schemas/receipts';

/** The actions of module `receipts` (docs/modules/receipts.md). */
export const receiptsActions = [
  GET('parentReceiptList', ParentReceiptListQuery, ReceiptsPage),
  GET('receiptDownload', ReceiptDownloadQuery, FileAnswer),
  GET('adminReceiptList', AdminReceiptListQuery, ReceiptsPage),
  GET('adminReceiptExport', AdminReceiptExportQuery, FileAnswer),
  POST('adminReceiptStampUpload', EmptyInput, ReceiptStampInfo),
  GET('adminReceiptStampInfo', EmptyInput, ReceiptStampInfo),
] as const;
