import { Controller, Post } from '@nestjs/common';
import { QrPollInput, QrTicketCreateInput, QrTicketInput } from '@wantuo/shared';
import { Caller, CurrentUser, type CallerInfo } from '../../core/auth/current-user.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { QrLoginService } from './qr-login.service';

/** QR sign-in: the desktop's ticket and polling (public, rate-limited per IP), the phone's scan, confirm and cancel. */
@Controller('api/index')
export class QrLoginController {
  constructor(private readonly qr: QrLoginService) {}

  @Post('qrLoginTicket')
  ticket(@Input(QrTicketCreateInput) input: QrTicketCreateInput, @Caller() caller: CallerInfo) {
    return this.qr.create(input, caller);
  }

  @Post('qrLoginPoll')
  poll(@Input(QrPollInput) input: QrPollInput, @Caller() caller: CallerInfo) {
    return this.qr.poll(input, caller);
  }

  @Post('qrLoginScan')
  scan(@Input(QrTicketInput) input: QrTicketInput, @CurrentUser() user: SessionUser) {
    return this.qr.scan(user, input);
  }

  @Post('qrLoginConfirm')
  confirm(@Input(QrTicketInput) input: QrTicketInput, @CurrentUser() user: SessionUser) {
    return this.qr.confirm(user, input);
  }

  @Post('qrLoginCancel')
  cancel(@Input(QrTicketInput) input: QrTicketInput, @CurrentUser() user: SessionUser) {
    return this.qr.cancel(user, input);
  }
}
