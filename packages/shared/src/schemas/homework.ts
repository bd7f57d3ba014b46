import { z } from 'zod';
import { HOMEWORK_COMMANDS, HOMEWORK_KINDS, HOMEWORK_MAX_FILES, HOMEWORK_MAX_STUDENTS } from '../homework';
import { lineText, pageQuery, plainText } from './common';
import { isCalendarDay } from '../school-time';

/** Homework (issue 14, module `homework`): set for a care class or a teaching class, marked per student. Days are school-local. */

const blank = (v: unknown) => (v === '' ? undefined : v);
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const day = z
  .string({ error: 'homework.v.date_invalid' })
  .regex(DATE_RE, { error: 'homework.v.date_invalid' })
  .refine((v) => isCalendarDay(v), { error: 'homework.v.date_invalid' });
const idOf = (error: string) => z.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const queryIdOf = (error: string) => z.coerce.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const requestId = z.string({ error: 'homework.v.request_id_invalid' }).regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'homework.v.request_id_invalid' });
/** a file the upload action gave (/uploads/...) or an http(s) URL */
const URL_RE = /^(\/uploads\/|https?:\/\/)[^\s<>"'`\\]+$/;
const fileUrl = z
  .string({ error: 'homework.v.file_invalid' })
  .trim()
  .max(500, { error: 'homework.v.file_invalid' })
  .regex(URL_RE, { error: 'homework.v.file_invalid' });
const kind = z.enum(HOMEWORK_KINDS, { error: 'homework.v.kind_invalid' });

export const HomeworkAttachment = z.strictObject({
  url: fileUrl,
  name: lineText(100).min(1, { error: 'homework.v.file_invalid' }),
});
export type HomeworkAttachment = z.infer<typeof HomeworkAttachment>;

/** Sets homework for one of the teacher's classes (a care class, or a teaching class with optionally one of its sessions). */
export const IssueHomeWorkInput = z
  .strictObject({
    kind,
    class_id: idOf('homework.v.class_invalid'),
    session_id: idOf('homework.v.session_invalid').nullish(),
    title: lineText(50).min(1, { error: 'homework.v.title_required' }),
    content: plainText(2000).min(1, { error: 'homework.v.content_required' }),
    attachments: z
      .array(HomeworkAttachment, { error: 'homework.v.files_invalid' })
      .max(HOMEWORK_MAX_FILES, { error: `homework.v.files_too_many|${HOMEWORK_MAX_FILES}` })
      .default([]),
    due_day: day,
    request_id: requestId,
  })
  .refine((v) => v.kind === 'teaching' || v.session_id === null || v.session_id === undefined, {
    error: 'homework.v.session_care',
    path: ['session_id'],
  });
export type IssueHomeWorkInput = z.infer<typeof IssueHomeWorkInput>;

/** The homework set for a teaching class (optionally one session), newest first. */
export const TeachingTaskHomeWorksQuery = z.strictObject({
  ...pageQuery,
  class_id: queryIdOf('homework.v.class_invalid'),
  session_id: z.preprocess(blank, queryIdOf('homework.v.session_invalid').optional()),
});
export type TeachingTaskHomeWorksQuery = z.infer<typeof TeachingTaskHomeWorksQuery>;

/** Homework lists (the admin's whole school, a teacher's own classes): by kind, class, the day it is open on, title. */
export const ClassHomeWorksQuery = z.strictObject({
  ...pageQuery,
  kind: z.preprocess(blank, kind.optional()),
  class_id: z.preprocess(blank, queryIdOf('homework.v.class_invalid').optional()),
  /** homework open on that day: set on or before it, due on or after it */
  day: z.preprocess(blank, day.optional()),
  keyword: z.preprocess(blank, lineText(32).optional()),
});
export type ClassHomeWorksQuery = z.infer<typeof ClassHomeWorksQuery>;

/** One homework with its students' states, paged (state filters). */
export const HomeWorkInfoQuery = z.strictObject({
  ...pageQuery,
  id: queryIdOf('homework.v.homework_invalid'),
  state: z.preprocess(blank, z.enum(HOMEWORK_COMMANDS, { error: 'homework.v.state_invalid' }).optional()),
});
export type HomeWorkInfoQuery = z.infer<typeof HomeWorkInfoQuery>;

/** A student's homework open on a day (today when omitted). */
export const StudentHomeWorkQuery = z.strictObject({
  student_id: queryIdOf('homework.v.student_invalid'),
  day: z.preprocess(blank, day.optional()),
});
export type StudentHomeWorkQuery = z.infer<typeof StudentHomeWorkQuery>;

export const StudentWorkInfoQuery = z.strictObject({
  student_id: queryIdOf('homework.v.student_invalid'),
  homework_id: queryIdOf('homework.v.homework_invalid'),
});
export type StudentWorkInfoQuery = z.infer<typeof StudentWorkInfoQuery>;

/** The teacher marks several students' homework at once (done, checked, or back to not done) with an optional note. */
export const MarkHomeWorkInput = z.strictObject({
  homework_id: idOf('homework.v.homework_invalid'),
  student_ids: z
    .array(idOf('homework.v.student_invalid'), { error: 'homework.v.students_invalid' })
    .min(1, { error: 'homework.v.students_invalid' })
    .max(HOMEWORK_MAX_STUDENTS, { error: 'homework.v.students_invalid' })
    .refine((v) => new Set(v).size === v.length, { error: 'homework.v.students_invalid' }),
  state: z.enum(HOMEWORK_COMMANDS, { error: 'homework.v.state_invalid' }),
  note: z.preprocess(blank, plainText(200).optional()),
  request_id: requestId,
});
export type MarkHomeWorkInput = z.infer<typeof MarkHomeWorkInput>;

/** A guardian marks an own child's homework done at home, with a photo of it. */
export const ParentDoneHomeWorkInput = z.strictObject({
  homework_id: idOf('homework.v.homework_invalid'),
  student_id: idOf('homework.v.student_invalid'),
  photo_url: fileUrl,
  note: z.preprocess(blank, plainText(200).optional()),
  request_id: requestId,
});
export type ParentDoneHomeWorkInput = z.infer<typeof ParentDoneHomeWorkInput>;
