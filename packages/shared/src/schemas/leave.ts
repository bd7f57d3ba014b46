import { z } from 'zod';
import { pageQuery, plainText } from './common';
import { dayDiff } from '../contracts';
import { isCalendarDay } from '../school-time';

/**
 * Leave requests (a parent asks, the head teacher or admin decides; approved days show as on leave on the boards),
 * the teachers' task lists of the day, and staff clock-in.
 */
export const LeaveStatus = { Pending: 0, Approved: 1, Rejected: 2, Cancelled: 3 } as const;
export type LeaveStatus = (typeof LeaveStatus)[keyof typeof LeaveStatus];

/** A leave request covers at most this many days; a clock-in report at most this many days. */
export const LEAVE_MAX_DAYS = 31;
export const CLOCK_REPORT_MAX_DAYS = 31;

/** true for a real calendar date YYYY-MM-DD (years 2000-2099) */
export function isDay(v: string): boolean {
  return isCalendarDay(v);
}

/** Days from a to b, both counted (YYYY-MM-DD). */
export function daysBetween(a: string, b: string): number {
  return dayDiff(a, b) + 1;
}

const MAX_ID = 2_147_483_647;
const id = z
  .number({ error: 'leave.id_invalid' })
  .int({ error: 'leave.id_invalid' })
  .min(1, { error: 'leave.id_invalid' })
  .max(MAX_ID, { error: 'leave.id_invalid' });
const queryId = z.coerce
  .number({ error: 'leave.id_invalid' })
  .int({ error: 'leave.id_invalid' })
  .min(1, { error: 'leave.id_invalid' })
  .max(MAX_ID, { error: 'leave.id_invalid' });
const version = z
  .number({ error: 'leave.version_invalid' })
  .int({ error: 'leave.version_invalid' })
  .min(1, { error: 'leave.version_invalid' })
  .max(MAX_ID, { error: 'leave.version_invalid' });
const day = z.string({ error: 'leave.day_invalid' }).trim().max(10, { error: 'leave.day_invalid' }).refine(isDay, { error: 'leave.day_invalid' });
/** an empty query value counts as not given */
const blank = (v: unknown) => (v === '' ? undefined : v);

// ---------------------------------------------------------------- leave

export const TeacherStudentLeaveListInput = z.strictObject({
  ...pageQuery,
  /** 0 pending, 1 approved, 2 rejected, 3 cancelled; absent lists all */
  status: z.preprocess(
    blank,
    z.coerce
      .number({ error: 'leave.status_invalid' })
      .pipe(z.literal([0, 1, 2, 3], { error: 'leave.status_invalid' }))
      .optional(),
  ),
});
export type TeacherStudentLeaveListInput = z.infer<typeof TeacherStudentLeaveListInput>;

export const TeacherStudentLeaveInfoInput = z.strictObject({ id: queryId });
export type TeacherStudentLeaveInfoInput = z.infer<typeof TeacherStudentLeaveInfoInput>;

export const AuditStudentInfoInput = z.strictObject({
  id,
  /** the version the reviewer read: a concurrent change answers error.conflict */
  version,
  approve: z.boolean({ error: 'leave.approve_invalid' }),
  note: plainText(500).optional(),
});
export type AuditStudentInfoInput = z.infer<typeof AuditStudentInfoInput>;

export const SubmitLeaveInput = z
  .strictObject({
    student_id: id,
    start_day: day,
    end_day: day,
    reason: plainText(500).min(1, { error: 'leave.reason_required' }),
  })
  .refine((v) => v.start_day <= v.end_day, { error: 'leave.range_invalid', path: ['end_day'] })
  .refine((v) => v.start_day > v.end_day || daysBetween(v.start_day, v.end_day) <= LEAVE_MAX_DAYS, {
    error: `leave.range_too_long|${LEAVE_MAX_DAYS}`,
    path: ['end_day'],
  });
export type SubmitLeaveInput = z.infer<typeof SubmitLeaveInput>;

export const CancelLeaveInput = z.strictObject({ id, version });
export type CancelLeaveInput = z.infer<typeof CancelLeaveInput>;

export const ParentLeaveListInput = z.strictObject({
  ...pageQuery,
  student_id: z.preprocess(blank, queryId.optional()),
});
export type ParentLeaveListInput = z.infer<typeof ParentLeaveListInput>;

// ---------------------------------------------------------------- task lists

export const TeacherTodayTaskInput = z.strictObject({});
export const ShuttleTaskInput = z.strictObject({});
export const TutorTaskInput = z.strictObject({});
export const TutorTaskInfoInput = z.strictObject({ student_id: queryId });
export type TutorTaskInfoInput = z.infer<typeof TutorTaskInfoInput>;

/** The duties a teacher may hand a student's task of the day over in (teacherHandOverStudent). */
export const HANDOVER_DUTIES = ['shuttle', 'tutor'] as const;
export type HandoverDuty = (typeof HANDOVER_DUTIES)[number];

/** teacherHandOverStudent: hand today's shuttle or tutoring task of one own student to another teacher with that duty. */
export const TeacherHandOverStudentInput = z.strictObject({
  student_id: id,
  duty: z.enum(HANDOVER_DUTIES, { error: 'flow.handover_duty_invalid' }),
  teacher_id: id,
});
export type TeacherHandOverStudentInput = z.infer<typeof TeacherHandOverStudentInput>;

// ---------------------------------------------------------------- staff clock-in

export const TeacherClockInput = z.strictObject({});

export const TeacherClockingInCountInput = z
  .strictObject({
    ...pageQuery,
    date_from: day,
    date_to: day,
  })
  .refine((v) => v.date_from <= v.date_to, { error: 'leave.range_invalid', path: ['date_to'] })
  .refine((v) => v.date_from > v.date_to || daysBetween(v.date_from, v.date_to) <= CLOCK_REPORT_MAX_DAYS, {
    error: `leave.range_too_long|${CLOCK_REPORT_MAX_DAYS}`,
    path: ['date_to'],
  });
export type TeacherClockingInCountInput = z.infer<typeof TeacherClockingInCountInput>;
