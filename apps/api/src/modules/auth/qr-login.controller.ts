import { Controller } from '@nestjs/common';
import { QrPollInput, QrTicketCreateInput, QrTicketInput } from '@wantuo/shared';
import { Caller, CurrentUser, type CallerInfo } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { QrLoginService } from './qr-login.service';

/** QR sign-in: the desktop's ticket and polling (public, rate-limited per IP), the phone's scan, confirm and cancel. */
@Controller('api/index')
export class QrLoginController {
  constructor(private readonly qr: QrLoginService) {}

  @Action('POST', 'qrLoginTicket')
  ticket(@Input() input: QrTicketCreateInput, @Caller() caller: CallerInfo) {
    return this.qr.create(input, caller);
  }

  @Action('POST', 'qrLoginPoll')
  poll(@Input() input: QrPollInput, @Caller() caller: CallerInfo) {
    return this.qr.poll(input, caller);
  }

  @Action('POST', 'qrLoginScan')
  scan(@Input() input: QrTicketInput, @CurrentUser() user: SessionUser) {
    return this.qr.scan(user, input);
  }

  @Action('POST', 'qrLoginConfirm')
  confirm(@Input() input: QrTicketInput, @CurrentUser() user: SessionUser) {
    return this.qr.confirm(user, input);
  }

  @Action('POST', 'qrLoginCancel')
  cancel(@Input() input: QrTicketInput, @CurrentUser() user: SessionUser) {
    return this.qr.cancel(user, input);
  }
}
