import { z } from 'zod';
import { pageOf, wire } from '../api/define';
import { CONVERSATION_SIDES } from '../conversations';

/** Answers of module `conversations` (issue 40). */

const side = z.enum(CONVERSATION_SIDES);

/** One message as a reader gets it: a retracted one has no text or photo (the admin still sees them, marked). */
export const ConversationMessage = z.object({
  id: wire.id,
  side,
  sender_id: wire.id.nullable(),
  /** 王老师 / 妈妈 (a guardian's relation to the child) */
  sender_name: z.string(),
  text: z.string().nullable(),
  photo_url: z.string().nullable(),
  quick: z.boolean(),
  urgent: z.boolean(),
  retracted_at: wire.at.nullable(),
  sent_at: wire.at,
  /** the reader's own message */
  mine: z.boolean(),
});
export type ConversationMessage = z.infer<typeof ConversationMessage>;

/** One row of the caller's conversations. */
export const ConversationRow = z.object({
  student_id: wire.id,
  student_name: z.string(),
  class_name: z.string().nullable(),
  last: z.object({ id: wire.id, side, sender_name: z.string(), preview: z.string(), sent_at: wire.at }).nullable(),
  unread: wire.count,
  /** an unread urgent message from the family */
  urgent: z.boolean(),
});
export type ConversationRow = z.infer<typeof ConversationRow>;
export const ConversationPage = pageOf(ConversationRow);
export type ConversationPage = z.infer<typeof ConversationPage>;

/** When the school answers: open now, or the next opening of its members' office hours (null: nobody has hours). */
export const ConversationOffice = z.object({ open_now: z.boolean(), answers_at: wire.at.nullable() });
export type ConversationOffice = z.infer<typeof ConversationOffice>;

export const ConversationMember = z.object({ id: wire.id, name: z.string(), role: z.string(), open_now: z.boolean() });
export type ConversationMember = z.infer<typeof ConversationMember>;

/** One child's conversation: who is in it, when the school answers, how far each side has read, a page of messages. */
export const ConversationInfo = z.object({
  student: z.object({ id: wire.id, name: z.string(), class_name: z.string().nullable(), photo_consent: z.boolean() }),
  my_side: side,
  school: z.array(ConversationMember),
  family: z.array(z.object({ id: wire.id, name: z.string() })),
  office: ConversationOffice,
  /** the newest message each side has read (null: none yet) */
  read: z.object({ family: wire.id.nullable(), school: wire.id.nullable() }),
  /** oldest first */
  messages: z.array(ConversationMessage),
  has_more: z.boolean(),
});
export type ConversationInfo = z.infer<typeof ConversationInfo>;

export const ConversationSent = z.object({ message: ConversationMessage, office: ConversationOffice });
export type ConversationSent = z.infer<typeof ConversationSent>;

export const ConversationUnread = z.object({ unread: wire.count, conversations: wire.count });
export type ConversationUnread = z.infer<typeof ConversationUnread>;

export const OfficeHoursInfo = z.object({
  days: z.array(wire.int),
  start: z.string(),
  end: z.string(),
  /** not set by the member: the default hours */
  is_default: z.boolean(),
  open_now: z.boolean(),
});
export type OfficeHoursInfo = z.infer<typeof OfficeHoursInfo>;

/** What the live socket sends (`conversation.message`): a new or retracted message of a conversation the socket's user is in. */
export const ConversationLiveMessage = z.object({ student_id: wire.id, message: ConversationMessage.omit({ mine: true }) });
export type ConversationLiveMessage = z.infer<typeof ConversationLiveMessage>;
