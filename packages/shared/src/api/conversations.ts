import { GET, POST, extraOf } from './define';
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

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('conversations');

/** The actions of module `conversations` (issue 40, docs/modules/conversations.md). */
export const conversationsActions = [
  GET(
    'conversationList',
    ConversationListQuery,
    ConversationPage,
    extra(
      ['A', 'H', 'T', 'P'],
      "the caller's family conversations, newest message first, with unread counts: a guardian's children, a teacher's or head teacher's responsible children, the admin's whole school; paged",
    ),
  ),
  GET(
    'conversationInfo',
    ConversationInfoQuery,
    ConversationInfo,
    extra(
      ['A', 'H', 'T', 'P'],
      "one child's conversation: its members, when the school answers (office hours), how far each side has read and a page of messages (before a message id); a staff read is logged",
    ),
  ),
  GET(
    'conversationUnread',
    null,
    ConversationUnread,
    extra(['A', 'H', 'T', 'P'], "how many messages and conversations the caller has not read (the tab's badge)"),
  ),
  POST(
    'conversationSend',
    ConversationSendInput,
    ConversationSent,
    extra(
      ['A', 'H', 'T', 'P'],
      "send a text, a photo (the child's photo consent needed) or a quick reply to a child's conversation; idempotent by request_id; a guardian at most N a minute; live to the other side, a guardian who does not read it told by WeChat/SMS once per quiet period (never the text), staff only in office hours, urgent ones to the head teacher on duty",
    ),
  ),
  POST(
    'conversationRead',
    ConversationReadInput,
    EmptyAnswer,
    extra(['A', 'H', 'T', 'P'], 'the caller has read a conversation up to a message (read receipts per side; never moves back)'),
  ),
  POST(
    'conversationRetract',
    ConversationRetractInput,
    ConversationMessage,
    extra(
      ['A', 'H', 'T', 'P'],
      'the sender retracts their own message within 2 minutes; the message stays with a mark (nothing is edited or deleted)',
    ),
  ),
  GET(
    'officeHoursInfo',
    null,
    OfficeHoursInfo,
    extra(['A', 'H', 'T'], "the caller's weekly office hours for family messages (the default when not set) and whether they are open now"),
  ),
  POST(
    'officeHoursSave',
    OfficeHoursSaveInput,
    OfficeHoursInfo,
    extra(
      ['A', 'H', 'T'],
      "set the caller's weekly office hours (weekdays and a daily window): outside them they are not notified of family messages",
    ),
  ),
] as const;
