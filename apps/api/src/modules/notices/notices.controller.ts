import { Controller } from '@nestjs/common';
import { AddInformInput, AdminInformListQuery, InformIdInput, InformInfoQuery, InformListQuery, ParentInformListQuery } from '@wantuo/shared';
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
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
  add(@Input() input: AddInformInput, @SchoolUser() user: SchoolCaller) {
    return this.publishing.publish(user, input);
  }

  @Action('GET', 'teacherInformList')
  teacherList(@Input() q: InformListQuery, @SchoolUser() user: SchoolCaller) {
    return this.inbox.staffList(user, q);
  }

  @Action('GET', 'headTeacherInformList')
  headTeacherList(@Input() q: InformListQuery, @SchoolUser() user: SchoolCaller) {
    return this.inbox.staffList(user, q);
  }

  @Action('GET', 'headTeacherInformInfo')
  info(@Input() q: InformInfoQuery, @SchoolUser() user: SchoolCaller) {
    return this.inbox.info(user, q);
  }

  @Action('GET', 'adminInformList')
  adminList(@Input() q: AdminInformListQuery, @SchoolUser() user: SchoolCaller) {
    return this.inbox.adminList(user, q);
  }

  @Action('GET', 'adminInformInfo')
  adminInfo(@Input() q: InformInfoQuery, @SchoolUser() user: SchoolCaller) {
    return this.inbox.info(user, q);
  }

  @Action('GET', 'parentInformList')
  parentList(@Input() q: ParentInformListQuery, @SchoolUser() user: SchoolCaller) {
    return this.inbox.parentList(user, q);
  }

  @Action('POST', 'readInform')
  read(@Input() input: InformIdInput, @SchoolUser() user: SchoolCaller) {
    return this.inbox.open(user, input.id);
  }

  @Action('POST', 'remindInform')
  remind(@Input() input: InformIdInput, @SchoolUser() user: SchoolCaller) {
    return this.reminders.remind(user, input.id);
  }
}
