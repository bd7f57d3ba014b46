import { z } from 'zod';
import { COMMENT_PHOTOS_MAX, COMMENT_PRESETS_MAX, COMMENT_TEXT_MAX, commentSaysSomething, isCommentPreset } from '../daily-report';
import { isCalendarDay } from '../school-time';
import { pageQuery, plainText } from './common';

/** The child's daily report (issue 27 item 2, module `reports`). Days are school-local. */

const day = z.string({ error: 'reports.v.day_invalid' }).refine((v) => isCalendarDay(v), { error: 'reports.v.day_invalid' });
const idOf = (error: string) => z.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const queryIdOf = (error: string) => z.coerce.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
/** a file the upload action gave (/uploads/...) or an http(s) URL */
const URL_RE = /^(\/uploads\/|https?:\/\/)[^\s<>"'`\\]+$/;
const photo = z
  .string({ error: 'reports.v.photo_invalid' })
  .trim()
  .max(500, { error: 'reports.v.photo_invalid' })
  .regex(URL_RE, { error: 'reports.v.photo_invalid' });

/** dailyReport: a child's report of a day (default: the school's today). */
export const DailyReportQuery = z.strictObject({
  student_id: queryIdOf('reports.v.student_invalid'),
  day: day.optional(),
});
export type DailyReportQuery = z.infer<typeof DailyReportQuery>;

/** dailyReportDays: a child's report history, newest day first. */
export const DailyReportDaysQuery = z.strictObject({
  ...pageQuery,
  student_id: queryIdOf('reports.v.student_invalid'),
});
export type DailyReportDaysQuery = z.infer<typeof DailyReportDaysQuery>;

/** classReportStatus: a class's reports of a day (default: the caller's first class, the school's today). */
export const ClassReportStatusQuery = z.strictObject({
  class_id: queryIdOf('reports.v.class_invalid').optional(),
  day: day.optional(),
});
export type ClassReportStatusQuery = z.infer<typeof ClassReportStatusQuery>;

/**
 * saveDailyComment: the teacher's comment of a child's day: preset phrases (keys of COMMENT_PRESETS) and free text,
 * optionally photos taken during tutoring; `version` is the comment's version read (0: none yet).
 */
export const SaveDailyCommentInput = z
  .strictObject({
    student_id: idOf('reports.v.student_invalid'),
    day: day.optional(),
    presets: z
      .array(z.string({ error: 'reports.v.preset_invalid' }).refine(isCommentPreset, { error: 'reports.v.preset_invalid' }), {
        error: `reports.v.presets_invalid|${COMMENT_PRESETS_MAX}`,
      })
      .max(COMMENT_PRESETS_MAX, { error: `reports.v.presets_invalid|${COMMENT_PRESETS_MAX}` })
      .refine((v) => new Set(v).size === v.length, { error: `reports.v.presets_invalid|${COMMENT_PRESETS_MAX}` })
      .default([]),
    text: plainText(COMMENT_TEXT_MAX).default(''),
    photos: z
      .array(photo, { error: `reports.v.photos_invalid|${COMMENT_PHOTOS_MAX}` })
      .max(COMMENT_PHOTOS_MAX, { error: `reports.v.photos_invalid|${COMMENT_PHOTOS_MAX}` })
      .default([]),
    version: z
      .number({ error: 'reports.v.version_invalid' })
      .int({ error: 'reports.v.version_invalid' })
      .min(0, { error: 'reports.v.version_invalid' })
      .max(2_147_483_647, { error: 'reports.v.version_invalid' }),
  })
  .refine(commentSaysSomething, { error: 'reports.v.comment_empty', path: ['text'] });
export type SaveDailyCommentInput = z.infer<typeof SaveDailyCommentInput>;
