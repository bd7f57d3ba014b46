import { Controller } from '@nestjs/common';
import {
  ConversationInfoQuery,
  ConversationListQuery,
  ConversationReadInput,
  ConversationRetractInput,
  ConversationSendInput,
  OfficeHoursSaveInput,
} from '@wantuo/shared';
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { ConversationsService } from './conversations.service';

/** Family conversations and the staff's office hours (issue 40). */
@Controller('api/index')
export class ConversationsController {
  constructor(private readonly conversations: ConversationsService) {}

  @Action('GET', 'conversationList')
  list(@Input() q: ConversationListQuery, @SchoolUser() user: SchoolCaller) {
    return this.conversations.list(user, q);
  }

  @Action('GET', 'conversationInfo')
  info(@Input() q: ConversationInfoQuery, @SchoolUser() user: SchoolCaller) {
    return this.conversations.info(user, q);
  }

  @Action('GET', 'conversationUnread')
  unread(@SchoolUser() user: SchoolCaller) {
    return this.conversations.unread(user);
  }

  @Action('POST', 'conversationSend')
  send(@Input() input: ConversationSendInput, @SchoolUser() user: SchoolCaller) {
    return this.conversations.send(user, input);
  }

  @Action('POST', 'conversationRead')
  read(@Input() input: ConversationReadInput, @SchoolUser() user: SchoolCaller) {
    return this.conversations.read(user, input);
  }

  @Action('POST', 'conversationRetract')
  retract(@Input() input: ConversationRetractInput, @SchoolUser() user: SchoolCaller) {
    return this.conversations.retract(user, input);
  }

  @Action('GET', 'officeHoursInfo')
  officeHours(@SchoolUser() user: SchoolCaller) {
    return this.conversations.officeHours(user);
  }

  @Action('POST', 'officeHoursSave')
  saveOfficeHours(@Input() input: OfficeHoursSaveInput, @SchoolUser() user: SchoolCaller) {
    return this.conversations.saveOfficeHours(user, input);
  }
}
