import { z } from 'zod';
import { pageOf, wire } from '../api/define';
import { COMMENT_PRESET_KEYS, REPORT_LACKS } from '../daily-report';

const lack = z.enum(REPORT_LACKS);

/** One homework open on the report's day: done, checked (marked), the teacher's note, the photos of that day. */
export const ReportHomework = z.object({
  homework_id: wire.id,
  title: z.string(),
  class_name: z.string(),
  due_day: wire.day,
  state: z.enum(['todo', 'done', 'checked']),
  done: z.boolean(),
  marked: z.boolean(),
  note: z.string().nullable(),
  home_note: z.string().nullable(),
  photos: z.array(z.string()),
});
export type ReportHomework = z.infer<typeof ReportHomework>;

/** The teacher's comment of the day (presets by key, free text, photos taken during tutoring). */
export const ReportComment = z.object({
  presets: z.array(z.enum(COMMENT_PRESET_KEYS as [string, ...string[]])),
  text: z.string(),
  photos: z.array(z.string()),
  author_name: z.string().nullable(),
  at: wire.at,
  version: wire.int,
});
export type ReportComment = z.infer<typeof ReportComment>;

/** dailyReport: a child's day on one page. Homework and points are read live; the rest is the projection daily_reports. */
export const DailyReport = z.object({
  student_id: wire.id,
  student_name: z.string(),
  day: wire.day,
  class_name: z.string().nullable(),
  /** expected, picked_up, in_centre, left; null: no report row yet (nothing happened that day) */
  state: z.string().nullable(),
  on_leave: z.boolean(),
  picked_up_at: wire.at.nullable(),
  arrived_at: wire.at.nullable(),
  arrived_by_name: z.string().nullable(),
  dinner_at: wire.at.nullable(),
  tutor_started_at: wire.at.nullable(),
  tutor_ended_at: wire.at.nullable(),
  left_at: wire.at.nullable(),
  left_by_name: z.string().nullable(),
  pickup: z
    .object({
      person: wire.id.nullable(),
      name: z.string().nullable(),
      relation: z.string().nullable(),
      how: z.enum(['verified', 'manual']),
      override: z.string().nullable(),
      offline: z.boolean(),
    })
    .nullable(),
  homework: z.array(ReportHomework),
  points: wire.int,
  points_entries: z.array(z.object({ delta: wire.int, reason: z.string().nullable(), at: wire.at })),
  comment: ReportComment.nullable(),
  sent_at: wire.at.nullable(),
  lacks: z.array(lack),
});
export type DailyReport = z.infer<typeof DailyReport>;

/** dailyReportDays: one day of a child's report history. */
export const DailyReportDay = z.object({
  day: wire.day,
  state: z.string().nullable(),
  on_leave: z.boolean(),
  arrived_at: wire.at.nullable(),
  left_at: wire.at.nullable(),
  homework: wire.count,
  points: wire.int,
  has_comment: z.boolean(),
  sent_at: wire.at.nullable(),
});
export const DailyReportDays = pageOf(DailyReportDay).extend({ student_id: wire.id, student_name: z.string() });
export type DailyReportDays = z.infer<typeof DailyReportDays>;

/** classReportStatus: a class's children on a day: whose report went out, who lacks a comment. */
export const ClassReportStatus = z.object({
  day: wire.day,
  class_id: wire.id.nullable(),
  classes: z.array(z.object({ id: wire.id, name: z.string() })),
  counts: z.object({ students: wire.count, sent: wire.count, lacks_comment: wire.count }),
  list: z.array(
    z.object({
      student_id: wire.id,
      student_name: z.string(),
      state: z.string().nullable(),
      on_leave: z.boolean(),
      arrived_at: wire.at.nullable(),
      left_at: wire.at.nullable(),
      sent_at: wire.at.nullable(),
      has_comment: z.boolean(),
      comment_version: wire.int,
      lacks: z.array(lack),
    }),
  ),
});
export type ClassReportStatus = z.infer<typeof ClassReportStatus>;

/** saveDailyComment: the comment as saved. */
export const SavedDailyComment = ReportComment.extend({ student_id: wire.id, day: wire.day });
export type SavedDailyComment = z.infer<typeof SavedDailyComment>;
