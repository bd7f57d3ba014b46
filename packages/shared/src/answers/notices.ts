// The answer schemas of module `notices` (what `data` carries, as JSON), declared in api/notices.ts.
import { z } from 'zod';
import { pageOf } from '../api/define';
import { NOTICE_AUDIENCES, NOTICE_SCOPES } from '../notices';

export const NoticeAttachment = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  mime: z.string(),
  size: z.number().int(),
});
export type NoticeAttachment = z.infer<typeof NoticeAttachment>;

/** A notice in a list (sent lists: with its counts). */
export const NoticeItem = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  scope: z.enum(NOTICE_SCOPES),
  class_ids: z.array(z.number().int()),
  class_names: z.array(z.string()),
  audience: z.enum(NOTICE_AUDIENCES),
  important: z.boolean(),
  author_id: z.number().int(),
  author_name: z.string(),
  attachments: z.number().int(),
  recipients: z.number().int(),
  read_count: z.number().int(),
  sms_count: z.number().int(),
  /** when the texts of an important notice go (held to 07:00 in the quiet hours) */
  sms_at: z.string().nullable(),
  last_reminded_at: z.string().nullable(),
  created_at: z.string(),
  /** received lists: when the caller read it (null: unread) */
  read_at: z.string().nullable().optional(),
});
export type NoticeItem = z.infer<typeof NoticeItem>;

/** teacherInformList, headTeacherInformList, adminInformList */
export const NoticePage = pageOf(NoticeItem);
export type NoticePage = z.infer<typeof NoticePage>;

/** readInform: the notice with its content (and when the caller read it). */
export const NoticeDetail = NoticeItem.extend({
  content: z.string(),
  attachment_list: z.array(NoticeAttachment),
});
export type NoticeDetail = z.infer<typeof NoticeDetail>;

export const NoticeReceipt = z.object({
  user_id: z.number().int(),
  name: z.string(),
  kind: z.enum(['guardian', 'staff']),
  /** guardians: their children the notice reached (in its classes, or the school's) */
  child_names: z.string().nullable(),
  read_at: z.string().nullable(),
});
export type NoticeReceipt = z.infer<typeof NoticeReceipt>;

/** headTeacherInformInfo, adminInformInfo */
export const NoticeInfo = z.object({
  notice: NoticeDetail,
  /** the receipts (filtered by `read`), read first (newest), then unread by name */
  receipts: pageOf(NoticeReceipt),
  unread: z.number().int(),
  /** the next time a reminder may go (null: now) */
  next_remind_at: z.string().nullable(),
  /**
   * the receipts are those of the guardians of the caller's classes only (a head teacher reading a notice someone
   * else sent to their class or school): `unread` counts those, and reminding is the author's or the admin's
   */
  class_only: z.boolean(),
});
export type NoticeInfo = z.infer<typeof NoticeInfo>;

/** teacherAddInform */
export const AddInformResult = z.object({
  id: z.number().int(),
  recipients: z.number().int(),
  sms_count: z.number().int(),
  sms_at: z.string().nullable(),
  /** the texts are held until 07:00 (quiet hours) */
  held: z.boolean(),
});
export type AddInformResult = z.infer<typeof AddInformResult>;

/** remindInform */
export const RemindInformResult = z.object({
  id: z.number().int(),
  reminded: z.number().int(),
  sms_at: z.string(),
  held: z.boolean(),
  next_remind_at: z.string(),
});
export type RemindInformResult = z.infer<typeof RemindInformResult>;

/** parentInformList: a page of notices with the guardian's unread count. */
export const ParentNoticeList = pageOf(NoticeItem).extend({ unread: z.number().int() });
export type ParentNoticeList = z.infer<typeof ParentNoticeList>;
