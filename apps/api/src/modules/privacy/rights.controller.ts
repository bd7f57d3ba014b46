import { Controller } from '@nestjs/common';
import { ChildDataExportQuery, HandlePrivacyRequestInput, MyPrivacyRequestsQuery, PrivacyRequestInput, PrivacyRequestsQuery } from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { AppError } from '../../core/http/app-error';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { PrivacyRequestsService } from './requests.service';

/** The guardians' rights: correction and deletion requests; the export (issue 37). */
@Controller('api/index')
export class RightsController {
  constructor(private readonly requests: PrivacyRequestsService) {}

  /** Not built yet (docs/modules/privacy.md "What is open"): a clear refusal, never a file with less than everything. */
  @Action('GET', 'childDataExport')
  exportChild(@Input() _: ChildDataExportQuery) {
    throw new AppError('privacy.export_unavailable');
  }

  @Action('POST', 'privacyRequest')
  create(@Input() input: PrivacyRequestInput, @CurrentUser() user: SessionUser) {
    return this.requests.create(user, input);
  }

  @Action('GET', 'myPrivacyRequests')
  mine(@Input() q: MyPrivacyRequestsQuery, @CurrentUser() user: SessionUser) {
    return this.requests.mine(user, q);
  }

  @Action('GET', 'privacyRequests')
  school(@Input() q: PrivacyRequestsQuery, @CurrentUser() user: SessionUser) {
    return this.requests.school(user, q);
  }

  @Action('POST', 'handlePrivacyRequest')
  handle(@Input() input: HandlePrivacyRequestInput, @CurrentUser() user: SessionUser) {
    return this.requests.handle(user, input);
  }
}
