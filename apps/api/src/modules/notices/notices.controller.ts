import { Controller } from '@nestjs/common';
import { AddInformInput, AdminInformListQuery, InformIdInput, InformInfoQuery, InformListQuery, ParentInformListQuery } from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { InboxService } from './inbox.service';
import { PublishService } from './publish.service';
import { RemindService } from './remind.service';

/** Notices: publish to classes or the school, the lists, read receipts, reminders (module `notices`, issue 14). */
@Controller('api/index')
export class NoticesController {
  constructor(
    private readonly publishing: PublishService,
    private readonly inbox: InboxService,
    private readonly reminders: RemindService,
  ) {}

  @Action('POST', 'teacherAddInform')
  add(@Input() input: AddInformInput, @CurrentUser() user: SessionUser) {
    return this.publishing.publish(user, input);
  }

  @Action('GET', 'teacherInformList')
  teacherList(@Input() q: InformListQuery, @CurrentUser() user: SessionUser) {
    return this.inbox.staffList(user, q);
  }

  @Action('GET', 'headTeacherInformList')
  headTeacherList(@Input() q: InformListQuery, @CurrentUser() user: SessionUser) {
    return this.inbox.staffList(user, q);
  }

  @Action('GET', 'headTeacherInformInfo')
  info(@Input() q: InformInfoQuery, @CurrentUser() user: SessionUser) {
    return this.inbox.info(user, q);
  }

  @Action('GET', 'adminInformList')
  adminList(@Input() q: AdminInformListQuery, @CurrentUser() user: SessionUser) {
    return this.inbox.adminList(user, q);
  }

  @Action('GET', 'adminInformInfo')
  adminInfo(@Input() q: InformInfoQuery, @CurrentUser() user: SessionUser) {
    return this.inbox.info(user, q);
  }

  @Action('GET', 'parentInformList')
  parentList(@Input() q: ParentInformListQuery, @CurrentUser() user: SessionUser) {
    return this.inbox.parentList(user, q);
  }

  @Action('POST', 'readInform')
  read(@Input() input: InformIdInput, @CurrentUser() user: SessionUser) {
    return this.inbox.open(user, input.id);
  }

  @Action('POST', 'remindInform')
  remind(@Input() input: InformIdInput, @CurrentUser() user: SessionUser) {
    return this.reminders.remind(user, input.id);
  }
}
