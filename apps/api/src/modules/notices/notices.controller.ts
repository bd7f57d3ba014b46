import { Controller, Get, Post } from '@nestjs/common';
import { AddInformInput, AdminInformListQuery, InformIdInput, InformInfoQuery, InformListQuery, ParentInformListQuery } from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
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

  @Post('teacherAddInform')
  add(@Input(AddInformInput) input: AddInformInput, @CurrentUser() user: SessionUser) {
    return this.publishing.publish(user, input);
  }

  @Get('teacherInformList')
  teacherList(@Input(InformListQuery) q: InformListQuery, @CurrentUser() user: SessionUser) {
    return this.inbox.staffList(user, q);
  }

  @Get('headTeacherInformList')
  headTeacherList(@Input(InformListQuery) q: InformListQuery, @CurrentUser() user: SessionUser) {
    return this.inbox.staffList(user, q);
  }

  @Get('headTeacherInformInfo')
  info(@Input(InformInfoQuery) q: InformInfoQuery, @CurrentUser() user: SessionUser) {
    return this.inbox.info(user, q);
  }

  @Get('adminInformList')
  adminList(@Input(AdminInformListQuery) q: AdminInformListQuery, @CurrentUser() user: SessionUser) {
    return this.inbox.adminList(user, q);
  }

  @Get('adminInformInfo')
  adminInfo(@Input(InformInfoQuery) q: InformInfoQuery, @CurrentUser() user: SessionUser) {
    return this.inbox.info(user, q);
  }

  @Get('parentInformList')
  parentList(@Input(ParentInformListQuery) q: ParentInformListQuery, @CurrentUser() user: SessionUser) {
    return this.inbox.parentList(user, q);
  }

  @Post('readInform')
  read(@Input(InformIdInput) input: InformIdInput, @CurrentUser() user: SessionUser) {
    return this.inbox.open(user, input.id);
  }

  @Post('remindInform')
  remind(@Input(InformIdInput) input: InformIdInput, @CurrentUser() user: SessionUser) {
    return this.reminders.remind(user, input.id);
  }
}
