import { GET, POST } from './define';
import { EmptyAnswer } from './define';
import {
  ConversationInfo,
  ConversationMessage,
  ConversationPage,
  ConversationSent,
  ConversationUnread,
  OfficeHoursInfo,
} from '../answers/conversations';
import {
  ConversationInfoQuery,
  ConversationListQuery,
  ConversationReadInput,
  ConversationRetractInput,
  ConversationSendInput,
  OfficeHoursSaveInput,
} from '../schemas/conversations';

/** The actions of module `conversations` (issue 40, docs/modules/conversations.md). */
export const conversationsActions = [
  GET('conversationList', ConversationListQuery, ConversationPage),
  GET('conversationInfo', ConversationInfoQuery, ConversationInfo),
  GET('conversationUnread', null, ConversationUnread),
  POST('conversationSend', ConversationSendInput, ConversationSent),
  POST('conversationRead', ConversationReadInput, EmptyAnswer),
  POST('conversationRetract', ConversationRetractInput, ConversationMessage),
  GET('officeHoursInfo', null, OfficeHoursInfo),
  POST('officeHoursSave', OfficeHoursSaveInput, OfficeHoursInfo),
] as const;
