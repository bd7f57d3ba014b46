import { Controller } from '@nestjs/common';
import {
  ConversationInfoQuery,
  ConversationListQuery,
  ConversationReadInput,
  ConversationRetractInput,
  ConversationSendInput,
  OfficeHoursSaveInput,
} from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { ConversationsService } from './conversations.service';

/** Family conversations and the staff's office hours (issue 40). */
@Controller('api/index')
export class ConversationsController {
  constructor(private readonly conversations: ConversationsService) {}

  @Action('GET', 'conversationList')
  list(@Input() q: ConversationListQuery, @CurrentUser() user: SessionUser) {
    return this.conversations.list(user, q);
  }

  @Action('GET', 'conversationInfo')
  info(@Input() q: ConversationInfoQuery, @CurrentUser() user: SessionUser) {
    return this.conversations.info(user, q);
  }

  @Action('GET', 'conversationUnread')
  unread(@CurrentUser() user: SessionUser) {
    return this.conversations.unread(user);
  }

  @Action('POST', 'conversationSend')
  send(@Input() input: ConversationSendInput, @CurrentUser() user: SessionUser) {
    return this.conversations.send(user, input);
  }

  @Action('POST', 'conversationRead')
  read(@Input() input: ConversationReadInput, @CurrentUser() user: SessionUser) {
    return this.conversations.read(user, input);
  }

  @Action('POST', 'conversationRetract')
  retract(@Input() input: ConversationRetractInput, @CurrentUser() user: SessionUser) {
    return this.conversations.retract(user, input);
  }

  @Action('GET', 'officeHoursInfo')
  officeHours(@CurrentUser() user: SessionUser) {
    return this.conversations.officeHours(user);
  }

  @Action('POST', 'officeHoursSave')
  saveOfficeHours(@Input() input: OfficeHoursSaveInput, @CurrentUser() user: SessionUser) {
    return this.conversations.saveOfficeHours(user, input);
  }
}
