import { Controller, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ChildDataExportQuery, HandlePrivacyRequestInput, MyPrivacyRequestsQuery, PrivacyRequestInput, PrivacyRequestsQuery } from '@wantuo/shared';
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { sendFile } from '../../core/http/send-file';
import { ChildExportService } from './export.service';
import { PrivacyRequestsService } from './requests.service';

/** The guardians' rights: correction and deletion requests; the export (issue 37). */
@Controller('api/index')
export class RightsController {
  constructor(
    private readonly requests: PrivacyRequestsService,
    private readonly exports: ChildExportService,
  ) {}

  /** Everything held about one child as a zip (a guardian their own, the admin any of the school's), logged. */
  @Action('GET', 'childDataExport')
  async exportChild(@Input() q: ChildDataExportQuery, @SchoolUser() user: SchoolCaller, @Res() res: Response) {
    sendFile(res, await this.exports.export(user, q.student_id));
  }

  @Action('POST', 'privacyRequest')
  create(@Input() input: PrivacyRequestInput, @SchoolUser() user: SchoolCaller) {
    return this.requests.create(user, input);
  }

  @Action('GET', 'myPrivacyRequests')
  mine(@Input() q: MyPrivacyRequestsQuery, @SchoolUser() user: SchoolCaller) {
    return this.requests.mine(user, q);
  }

  @Action('GET', 'privacyRequests')
  school(@Input() q: PrivacyRequestsQuery, @SchoolUser() user: SchoolCaller) {
    return this.requests.school(user, q);
  }

  @Action('POST', 'handlePrivacyRequest')
  handle(@Input() input: HandlePrivacyRequestInput, @SchoolUser() user: SchoolCaller) {
    return this.requests.handle(user, input);
  }
}
