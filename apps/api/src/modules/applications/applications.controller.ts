import { Controller, Get, Post } from '@nestjs/common';
import { AccountApplicationsQuery, ApplyAccountInput, HandleAccountApplicationInput } from '@wantuo/shared';
import { Caller, CurrentUser, type CallerInfo } from '../../core/auth/current-user.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { ApplicationsService } from './applications.service';

@Controller('api/index')
export class ApplicationsController {
  constructor(private readonly applications: ApplicationsService) {}

  @Post('applyAccount')
  apply(@Input(ApplyAccountInput) input: ApplyAccountInput, @Caller() caller: CallerInfo) {
    return this.applications.apply(input, caller);
  }

  @Get('accountApplications')
  list(@Input(AccountApplicationsQuery) query: AccountApplicationsQuery) {
    return this.applications.list(query);
  }

  @Post('handleAccountApplication')
  handle(@Input(HandleAccountApplicationInput) input: HandleAccountApplicationInput, @CurrentUser() user: SessionUser) {
    return this.applications.handle(user, input);
  }
}
