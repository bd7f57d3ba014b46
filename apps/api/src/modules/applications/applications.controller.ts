import { Controller } from '@nestjs/common';
import { AccountApplicationsQuery, ApplyAccountInput, HandleAccountApplicationInput } from '@wantuo/shared';
import { Caller, CurrentUser, type CallerInfo } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { ApplicationsService } from './applications.service';

@Controller('api/index')
export class ApplicationsController {
  constructor(private readonly applications: ApplicationsService) {}

  @Action('POST', 'applyAccount')
  apply(@Input() input: ApplyAccountInput, @Caller() caller: CallerInfo) {
    return this.applications.apply(input, caller);
  }

  @Action('GET', 'accountApplications')
  list(@Input() query: AccountApplicationsQuery) {
    return this.applications.list(query);
  }

  @Action('POST', 'handleAccountApplication')
  handle(@Input() input: HandleAccountApplicationInput, @CurrentUser() user: SessionUser) {
    return this.applications.handle(user, input);
  }
}
