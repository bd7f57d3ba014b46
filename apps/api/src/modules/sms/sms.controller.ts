import { Controller } from '@nestjs/common';
import { SmsMessagesQuery, SmsUsageQuery } from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { SmsConsole } from './console.service';

/** The SMS consoles: the operator's gateways, counts per school and day, the texts themselves (an admin: their school's). */
@Controller('api/index')
export class SmsController {
  constructor(private readonly console: SmsConsole) {}

  @Action('GET', 'smsOverview')
  overview(@Input() _: unknown) {
    return this.console.overview();
  }

  @Action('GET', 'smsUsage')
  usage(@Input() query: SmsUsageQuery, @CurrentUser() user: SessionUser) {
    return this.console.usage(user, query);
  }

  @Action('GET', 'smsMessages')
  messages(@Input() query: SmsMessagesQuery, @CurrentUser() user: SessionUser) {
    return this.console.messages(user, query);
  }
}
