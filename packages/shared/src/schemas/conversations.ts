import { z } from 'zod';
import { CONVERSATION_LIMITS, validOfficeHours } from '../conversations';
import { flag, lineText, pageQuery, plainText } from './common';

/** Inputs of module `conversations` (issue 40, docs/modules/conversations.md). */

const blank = (v: unknown) => (v === '' ? undefined : v);
const id = (coerce: boolean, error = 'conversations.v.id_invalid') =>
  (coerce ? z.coerce.number({ error }) : z.number({ error })).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const studentId = (coerce: boolean) => id(coerce, 'conversations.v.student_invalid');
const requestId = z
  .string({ error: 'conversations.v.request_id_invalid' })
  .regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'conversations.v.request_id_invalid' });
/** an upload of the caller's own (`upload` answers its url) */
const photoUrl = z
  .string({ error: 'conversations.v.photo_invalid' })
  .max(300, { error: 'conversations.v.photo_invalid' })
  .regex(/^\/uploads\/\d{4}-\d{2}\/[0-9a-f-]{36}\.(jpg|jpeg|png|gif|webp)$/, { error: 'conversations.v.photo_invalid' });
const clock = z.string({ error: 'conversations.v.hours_invalid' }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'conversations.v.hours_invalid' });

/** The caller's conversations: a guardian's children; staff the children they are responsible for; the admin the school's. */
export const ConversationListQuery = z.strictObject({
  ...pageQuery,
  keyword: z.preprocess(blank, lineText(30).optional()),
  /** only those with messages the caller has not read */
  unread: z.preprocess(blank, flag.optional()),
});
export type ConversationListQuery = z.infer<typeof ConversationListQuery>;

/** One child's conversation: the newest messages, or those before `before` (a message id) when paging back. */
export const ConversationInfoQuery = z.strictObject({
  student_id: studentId(true),
  before: z.preprocess(blank, id(true).optional()),
  limit: z.coerce.number().int().min(1).max(CONVERSATION_LIMITS.pageMax).default(30),
});
export type ConversationInfoQuery = z.infer<typeof ConversationInfoQuery>;

/** A message: text, a photo or a quick reply (by its index); `urgent` only from a guardian. Idempotent by request_id. */
export const ConversationSendInput = z
  .strictObject({
    student_id: studentId(false),
    text: plainText(CONVERSATION_LIMITS.textMax).optional(),
    photo_url: photoUrl.optional(),
    quick_reply: z.number({ error: 'conversations.v.quick_invalid' }).int({ error: 'conversations.v.quick_invalid' }).min(0).max(20).optional(),
    urgent: z.boolean({ error: 'conversations.v.urgent_invalid' }).optional(),
    request_id: requestId,
  })
  .refine((v) => !!(v.text?.trim() || v.photo_url || v.quick_reply !== undefined), { error: 'conversations.v.empty', path: ['text'] })
  .refine((v) => !(v.quick_reply !== undefined && (v.text || v.photo_url)), { error: 'conversations.v.quick_alone', path: ['quick_reply'] });
export type ConversationSendInput = z.infer<typeof ConversationSendInput>;

/** The caller has read the conversation up to this message (never moves back). */
export const ConversationReadInput = z.strictObject({ student_id: studentId(false), upto_id: id(false) });
export type ConversationReadInput = z.infer<typeof ConversationReadInput>;

/** The sender takes back their message within CONVERSATION_LIMITS.retractMs; a mark stays. */
export const ConversationRetractInput = z.strictObject({ id: id(false) });
export type ConversationRetractInput = z.infer<typeof ConversationRetractInput>;

/** A member of staff's weekly office hours (ISO weekdays 1–7, HH:mm–HH:mm). */
export const OfficeHoursSaveInput = z
  .strictObject({
    days: z.array(z.number().int().min(1).max(7), { error: 'conversations.v.hours_invalid' }).min(1, { error: 'conversations.v.hours_days' }).max(7),
    start: clock,
    end: clock,
  })
  .refine((v) => validOfficeHours(v), { error: 'conversations.v.hours_invalid', path: ['end'] });
export type OfficeHoursSaveInput = z.infer<typeof OfficeHoursSaveInput>;
