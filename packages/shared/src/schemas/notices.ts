import { z } from 'zod';
import { NOTICE_AUDIENCES, NOTICE_MAX_ATTACHMENTS, NOTICE_MAX_CLASSES, NOTICE_MAX_CONTENT, NOTICE_SCOPES } from '../notices';
import { flag, lineText, pageQuery } from './common';

/** Notices (issue 14, module `notices`): publish, lists, read receipts, reminders. Times are ISO instants. */

const blank = (v: unknown) => (v === '' ? undefined : v);
const idOf = (error: string) => z.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const queryIdOf = (error: string) => z.coerce.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const requestId = z.string({ error: 'notices.v.request_id_invalid' }).regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'notices.v.request_id_invalid' });
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Publishes a notice to classes (class_ids) or the whole school, for guardians, staff or both. */
export const AddInformInput = z
  .strictObject({
    title: lineText(60).min(1, { error: 'notices.v.title_required' }),
    /** rich text (HTML): sanitised by the API */
    content: z
      .string({ error: 'notices.v.content_required' })
      .trim()
      .min(1, { error: 'notices.v.content_required' })
      .max(NOTICE_MAX_CONTENT, { error: 'notices.v.content_too_long' }),
    scope: z.enum(NOTICE_SCOPES, { error: 'notices.v.scope_invalid' }),
    class_ids: z
      .array(idOf('notices.v.class_invalid'), { error: 'notices.v.classes_invalid' })
      .max(NOTICE_MAX_CLASSES, { error: 'notices.v.classes_invalid' })
      .refine((v) => new Set(v).size === v.length, { error: 'notices.v.classes_invalid' })
      .optional(),
    audience: z.enum(NOTICE_AUDIENCES, { error: 'notices.v.audience_invalid' }),
    important: z.boolean({ error: 'notices.v.important_invalid' }).optional(),
    /** ids the `upload` action answered */
    attachments: z
      .array(z.string({ error: 'notices.v.attachment_invalid' }).regex(UUID_RE, { error: 'notices.v.attachment_invalid' }), {
        error: 'notices.v.attachments_invalid',
      })
      .max(NOTICE_MAX_ATTACHMENTS, { error: 'notices.v.attachments_invalid' })
      .refine((v) => new Set(v).size === v.length, { error: 'notices.v.attachments_invalid' })
      .optional(),
    request_id: requestId,
  })
  .refine((v) => (v.scope === 'classes' ? (v.class_ids?.length ?? 0) > 0 : !v.class_ids?.length), {
    error: 'notices.v.classes_for_scope',
    path: ['class_ids'],
  });
export type AddInformInput = z.infer<typeof AddInformInput>;

/** A teacher's (or head teacher's) notices: the ones they sent, or the ones they received as staff. */
export const InformListQuery = z.strictObject({
  ...pageQuery,
  /** sent: published by the caller; received: the caller is a staff recipient; class: to the classes the caller heads (or the whole school), by anyone */
  box: z.preprocess(blank, z.enum(['sent', 'received', 'class'], { error: 'notices.v.box_invalid' }).default('sent')),
  class_id: z.preprocess(blank, queryIdOf('notices.v.class_invalid').optional()),
  keyword: z.preprocess(blank, lineText(30).optional()),
  important: z.preprocess(blank, flag.optional()),
});
export type InformListQuery = z.infer<typeof InformListQuery>;

/** The admin's list: every notice of the school. */
export const AdminInformListQuery = z.strictObject({
  ...pageQuery,
  class_id: z.preprocess(blank, queryIdOf('notices.v.class_invalid').optional()),
  keyword: z.preprocess(blank, lineText(30).optional()),
  important: z.preprocess(blank, flag.optional()),
});
export type AdminInformListQuery = z.infer<typeof AdminInformListQuery>;

/** One notice with its read receipts (paged; `read` 1 the read ones, 0 the unread). */
export const InformInfoQuery = z.strictObject({
  ...pageQuery,
  id: queryIdOf('notices.v.notice_invalid'),
  read: z.preprocess(blank, flag.optional()),
});
export type InformInfoQuery = z.infer<typeof InformInfoQuery>;

export const InformIdInput = z.strictObject({ id: idOf('notices.v.notice_invalid') });
export type InformIdInput = z.infer<typeof InformIdInput>;

/** A guardian's notices, newest first (`unread` 1: only the unread ones). */
export const ParentInformListQuery = z.strictObject({ ...pageQuery, unread: z.preprocess(blank, flag.optional()) });
export type ParentInformListQuery = z.infer<typeof ParentInformListQuery>;
