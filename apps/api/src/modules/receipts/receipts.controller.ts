import { Controller, Res, UploadedFile } from '@nestjs/common';
import type { Response } from 'express';
import { AdminReceiptExportQuery, AdminReceiptListQuery, ParentReceiptListQuery, ReceiptDownloadQuery } from '@wantuo/shared';
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { Multipart } from '../../core/http/multipart';
import { sendFile } from '../../core/http/send-file';
import type { IncomingFile } from '../site/files.service';
import { ReceiptsService } from './receipts.service';

/** Receipts (收据, issue 40): the guardians' and the admin's lists, the PDF, the month's export, the school's stamp. */
@Controller('api/index')
export class ReceiptsController {
  constructor(private readonly receipts: ReceiptsService) {}

  @Action('GET', 'parentReceiptList')
  parentList(@Input() q: ParentReceiptListQuery, @SchoolUser() user: SchoolCaller) {
    return this.receipts.parentList(user, q);
  }

  @Action('GET', 'receiptDownload')
  async download(@Input() q: ReceiptDownloadQuery, @SchoolUser() user: SchoolCaller, @Res() res: Response) {
    sendFile(res, await this.receipts.download(user, q.id));
  }

  @Action('GET', 'adminReceiptList')
  adminList(@Input() q: AdminReceiptListQuery, @SchoolUser() user: SchoolCaller) {
    return this.receipts.adminList(user, q);
  }

  @Action('GET', 'adminReceiptExport')
  async export(@Input() q: AdminReceiptExportQuery, @SchoolUser() user: SchoolCaller, @Res() res: Response) {
    sendFile(res, await this.receipts.export(user, q.month));
  }

  @Action('POST', 'adminReceiptStampUpload')
  @Multipart('file')
  uploadStamp(@Input() _: unknown, @UploadedFile() file: IncomingFile | undefined, @SchoolUser() user: SchoolCaller) {
    return this.receipts.uploadStamp(user, file);
  }

  @Action('GET', 'adminReceiptStampInfo')
  stampInfo(@Input() _: unknown, @SchoolUser() user: SchoolCaller) {
    return this.receipts.stampInfo(user);
  }
}
