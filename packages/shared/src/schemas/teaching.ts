import { z } from 'zod';
import { DATA_GROUPS, dataRangeOk } from '../data-centre';
import { HHMM_RE, toMinutes } from '../time-slots';
import { flag, lineText, pageQuery, plainText } from './common';
import { isCalendarDay } from '../school-time';
import { dayDiff } from '../contracts';

/**
 * Teaching (extension) classes, their sessions and roll call, rooms and the school calendar (issue 13, module
 * `teaching`). Days are school-local YYYY-MM-DD, times HH:MM local, money integer fen.
 */

const blank = (v: unknown) => (v === '' ? undefined : v);
const validDay = (v: string) => isCalendarDay(v);
const day = z.string({ error: 'teaching.v.date_invalid' }).refine(validDay, { error: 'teaching.v.date_invalid' });
const idOf = (error: string) => z.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const queryIdOf = (error: string) => z.coerce.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const version = idOf('teaching.v.version_invalid');
const time = z.string({ error: 'teaching.v.time_invalid' }).regex(HHMM_RE, { error: 'teaching.v.time_invalid' });
const weekday = z
  .number({ error: 'teaching.v.weekday_invalid' })
  .int({ error: 'teaching.v.weekday_invalid' })
  .min(1, { error: 'teaching.v.weekday_invalid' })
  .max(7, { error: 'teaching.v.weekday_invalid' });
const classId = idOf('teaching.v.class_invalid');
const classQueryId = queryIdOf('teaching.v.class_invalid');
const sessionId = idOf('teaching.v.session_invalid');
const studentId = idOf('teaching.v.student_invalid');
const studentIds = z
  .array(studentId, { error: 'teaching.v.students_required' })
  .min(1, { error: 'teaching.v.students_required' })
  .max(200, { error: 'teaching.v.students_too_many|200' })
  .refine((v) => new Set(v).size === v.length, { error: 'teaching.v.students_duplicate' });
const beforeEnd = (v: { start_time: string; end_time: string }) => toMinutes(v.start_time) < toMinutes(v.end_time);

// ---------------------------------------------------------------- rooms and the school calendar

export const RoomListQuery = z.strictObject({ ...pageQuery, name: z.preprocess(blank, lineText(30).optional()) });
export type RoomListQuery = z.infer<typeof RoomListQuery>;
export const AddRoomInput = z.strictObject({
  name: lineText(30).min(1, { error: 'teaching.v.room_name_required' }),
  capacity: z
    .number({ error: 'teaching.v.capacity_invalid' })
    .int({ error: 'teaching.v.capacity_invalid' })
    .min(1, { error: 'teaching.v.capacity_invalid' })
    .max(1000, { error: 'teaching.v.capacity_invalid' })
    .nullable()
    .optional(),
});
export type AddRoomInput = z.infer<typeof AddRoomInput>;

export const SchoolCalendarQuery = z
  .strictObject({ from: day, to: day })
  .refine((v) => v.from <= v.to, { error: 'teaching.v.range_invalid', path: ['to'] })
  .refine((v) => dayDiff(v.from, v.to) <= 400, { error: 'teaching.v.range_too_long', path: ['to'] });
export type SchoolCalendarQuery = z.infer<typeof SchoolCalendarQuery>;
export const SetSchoolCalendarDayInput = z.strictObject({
  day,
  kind: z.enum(['holiday', 'makeup'], { error: 'teaching.v.calendar_kind_invalid' }),
  /** make-up days: the weekday (1 Monday .. 5 Friday) whose timetable the weekend day runs */
  works_as: weekday.nullable().optional(),
  note: lineText(50).optional(),
});
export type SetSchoolCalendarDayInput = z.infer<typeof SetSchoolCalendarDayInput>;
export const DelSchoolCalendarDayInput = z.strictObject({ day });
export type DelSchoolCalendarDayInput = z.infer<typeof DelSchoolCalendarDayInput>;

/**
 * A year (2000..2099). Whether the national table holds it is the API's check (its table is packages/shared
 * holidays.ts merged with NATIONAL_HOLIDAYS_FILE): a year without one is refused there, code 100 too.
 */
const holidayYear = (coerce: boolean) =>
  (coerce ? z.coerce.number({ error: 'teaching.v.holiday_year_invalid' }) : z.number({ error: 'teaching.v.holiday_year_invalid' }))
    .int({ error: 'teaching.v.holiday_year_invalid' })
    .min(2000, { error: 'teaching.v.holiday_year_invalid' })
    .max(2099, { error: 'teaching.v.holiday_year_invalid' });
export const HolidayImportPreviewQuery = z.strictObject({ year: holidayYear(true) });
export type HolidayImportPreviewQuery = z.infer<typeof HolidayImportPreviewQuery>;
export const ImportHolidaysInput = z.strictObject({
  year: holidayYear(false),
  /** the preview's fingerprint: refused when the plan changed since (an import that has nothing left to do is a no-op) */
  fingerprint: z.string({ error: 'teaching.v.fingerprint_invalid' }).regex(/^[0-9a-f]{16}$/, { error: 'teaching.v.fingerprint_invalid' }),
});
export type ImportHolidaysInput = z.infer<typeof ImportHolidaysInput>;

// ---------------------------------------------------------------- classes

export const AddTeachingClassInput = z.strictObject({
  name: lineText(50).min(1, { error: 'teaching.v.name_required' }),
  subject: lineText(30).min(1, { error: 'teaching.v.subject_required' }),
  teacher_id: idOf('teaching.v.teacher_invalid'),
  room_id: idOf('teaching.v.room_invalid').nullable().optional(),
  capacity: z
    .number({ error: 'teaching.v.capacity_invalid' })
    .int({ error: 'teaching.v.capacity_invalid' })
    .min(1, { error: 'teaching.v.capacity_invalid' })
    .max(500, { error: 'teaching.v.capacity_invalid' }),
  sessions_count: z
    .number({ error: 'teaching.v.sessions_count_invalid' })
    .int({ error: 'teaching.v.sessions_count_invalid' })
    .min(1, { error: 'teaching.v.sessions_count_invalid' })
    .max(400, { error: 'teaching.v.sessions_count_invalid' }),
  fee_fen: z
    .number({ error: 'teaching.v.fee_invalid' })
    .int({ error: 'teaching.v.fee_invalid' })
    .min(0, { error: 'teaching.v.fee_invalid' })
    .max(10_000_000, { error: 'teaching.v.fee_invalid' }),
  remark: plainText(200).optional(),
});
export type AddTeachingClassInput = z.infer<typeof AddTeachingClassInput>;

/**
 * Edits a class's details on the version read: a new teacher or room is checked against the class's planned sessions
 * from today (which follow it) with the clash rules, and refused with the list.
 */
export const EditTeachingClassInput = AddTeachingClassInput.omit({ remark: true }).extend({ id: classId, version });
export type EditTeachingClassInput = z.infer<typeof EditTeachingClassInput>;

/** Starts (1) or stops (0) a class on the version read: a stopped class takes no new students and no generation. */
export const TeachingClassStatusInput = z.strictObject({
  id: classId,
  version,
  status: z.union([z.literal(0), z.literal(1)], { error: 'teaching.v.status_invalid' }),
});
export type TeachingClassStatusInput = z.infer<typeof TeachingClassStatusInput>;

export const TeachingClassIdQuery = z.strictObject({ id: classQueryId });
export type TeachingClassIdQuery = z.infer<typeof TeachingClassIdQuery>;

export const TeachingClassListQuery = z.strictObject({
  ...pageQuery,
  name: z.preprocess(blank, lineText(50).optional()),
  status: z.preprocess(
    blank,
    z.coerce
      .number({ error: 'teaching.v.status_invalid' })
      .int()
      .min(0, { error: 'teaching.v.status_invalid' })
      .max(1, { error: 'teaching.v.status_invalid' })
      .optional(),
  ),
});
export type TeachingClassListQuery = z.infer<typeof TeachingClassListQuery>;

export const TeachingClassStudentQuery = z.strictObject({ ...pageQuery, class_id: classQueryId });
export type TeachingClassStudentQuery = z.infer<typeof TeachingClassStudentQuery>;
export const SelectTeachingClassStudentQuery = z.strictObject({
  ...pageQuery,
  class_id: classQueryId,
  name: z.preprocess(blank, lineText(32).optional()),
});
export type SelectTeachingClassStudentQuery = z.infer<typeof SelectTeachingClassStudentQuery>;
export const AddTeachingClassStudentInput = z.strictObject({ class_id: classId, student_ids: studentIds });
export type AddTeachingClassStudentInput = z.infer<typeof AddTeachingClassStudentInput>;
export const DelTeachingClassStudentInput = z.strictObject({ class_id: classId, student_id: studentId });
export type DelTeachingClassStudentInput = z.infer<typeof DelTeachingClassStudentInput>;
export const StudentTeachingClassListQuery = z.strictObject({ ...pageQuery, student_id: queryIdOf('teaching.v.student_invalid') });
export type StudentTeachingClassListQuery = z.infer<typeof StudentTeachingClassListQuery>;

// ---------------------------------------------------------------- sessions

export const SESSION_STATES = ['planned', 'held', 'cancelled'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

export const PatternSlotInput = z
  .strictObject({ weekday, start_time: time, end_time: time })
  .refine(beforeEnd, { error: 'teaching.v.time_order', path: ['end_time'] });

export const CourseSchedulingInput = z
  .strictObject({
    class_id: classId,
    from: day,
    to: day,
    pattern: z
      .array(PatternSlotInput, { error: 'teaching.v.pattern_required' })
      .min(1, { error: 'teaching.v.pattern_required' })
      .max(14, { error: 'teaching.v.pattern_too_long' }),
    /** true: answer the sessions and the clashes without writing */
    preview: flag.optional(),
  })
  .refine((v) => v.from <= v.to, { error: 'teaching.v.range_invalid', path: ['to'] })
  .refine((v) => dayDiff(v.from, v.to) <= 400, { error: 'teaching.v.range_too_long', path: ['to'] });
export type CourseSchedulingInput = z.infer<typeof CourseSchedulingInput>;

/** One class of a term's generation (as CourseSchedulingInput, without preview). */
export const TermClassInput = z
  .strictObject({
    class_id: classId,
    from: day,
    to: day,
    pattern: z
      .array(PatternSlotInput, { error: 'teaching.v.pattern_required' })
      .min(1, { error: 'teaching.v.pattern_required' })
      .max(14, { error: 'teaching.v.pattern_too_long' }),
  })
  .refine((v) => v.from <= v.to, { error: 'teaching.v.range_invalid', path: ['to'] })
  .refine((v) => dayDiff(v.from, v.to) <= 400, { error: 'teaching.v.range_too_long', path: ['to'] });

/** The most classes one term generation takes. */
export const TERM_CLASSES_MAX = 300;

/**
 * Generates several classes' sessions at once (setting up a term): each class as teachingClassCourseScheduling does,
 * checked against the stored sessions and the classes before it in the list; all written or none.
 */
export const TermSchedulingInput = z
  .strictObject({
    classes: z
      .array(TermClassInput, { error: 'teaching.v.classes_required' })
      .min(1, { error: 'teaching.v.classes_required' })
      .max(TERM_CLASSES_MAX, { error: 'teaching.v.classes_too_many' }),
    preview: flag.optional(),
  })
  .refine((v) => new Set(v.classes.map((c) => c.class_id)).size === v.classes.length, { error: 'teaching.v.classes_duplicate', path: ['classes'] });
export type TermSchedulingInput = z.infer<typeof TermSchedulingInput>;

export const TeachingSessionsQuery = z
  .strictObject({
    ...pageQuery,
    class_id: classQueryId,
    from: z.preprocess(blank, day.optional()),
    to: z.preprocess(blank, day.optional()),
    state: z.preprocess(blank, z.enum(SESSION_STATES, { error: 'teaching.v.state_invalid' }).optional()),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { error: 'teaching.v.range_invalid', path: ['to'] });
export type TeachingSessionsQuery = z.infer<typeof TeachingSessionsQuery>;

export const ChangeSchedulingQuery = z.strictObject({ id: queryIdOf('teaching.v.session_invalid'), week: z.preprocess(blank, day.optional()) });
export type ChangeSchedulingQuery = z.infer<typeof ChangeSchedulingQuery>;

export const MoveTeachingSessionInput = z
  .strictObject({ id: sessionId, version, day, start_time: time, end_time: time, room_id: idOf('teaching.v.room_invalid').nullable().optional() })
  .refine(beforeEnd, { error: 'teaching.v.time_order', path: ['end_time'] });
export type MoveTeachingSessionInput = z.infer<typeof MoveTeachingSessionInput>;

export const CancelTeachingSessionInput = z.strictObject({
  id: sessionId,
  version,
  reason: lineText(200).min(2, { error: 'teaching.v.reason_required' }),
});
export type CancelTeachingSessionInput = z.infer<typeof CancelTeachingSessionInput>;

// ---------------------------------------------------------------- roll call

export const ROLL_CALL_STATUSES = ['present', 'late', 'absent', 'leave'] as const;
export type RollCallStatus = (typeof ROLL_CALL_STATUSES)[number];

export const RollCallQuery = z.strictObject({ session_id: queryIdOf('teaching.v.session_invalid') });
export type RollCallQuery = z.infer<typeof RollCallQuery>;
export const SaveRollCallInput = z.strictObject({
  session_id: sessionId,
  entries: z
    .array(z.strictObject({ student_id: studentId, status: z.enum(ROLL_CALL_STATUSES, { error: 'teaching.v.roll_status_invalid' }) }), {
      error: 'teaching.v.students_required',
    })
    .min(1, { error: 'teaching.v.students_required' })
    .max(500, { error: 'teaching.v.students_too_many|500' })
    .refine((v) => new Set(v.map((e) => e.student_id)).size === v.length, { error: 'teaching.v.students_duplicate' }),
});
export type SaveRollCallInput = z.infer<typeof SaveRollCallInput>;

/**
 * The data centre's roll-call counts: the statuses saved for the sessions (teaching and tutoring) of a range, by day,
 * week or month (the data centre's periods: DATA_PERIOD_SQL, dataRangeOk), optionally of one kind.
 */
export const RollCallCountQuery = z
  .strictObject({
    date_from: day,
    date_to: day,
    group: z.preprocess(blank, z.enum(DATA_GROUPS, { error: 'teaching.v.group_invalid' }).optional()),
    kind: z.preprocess(blank, z.enum(['teaching', 'tutoring'], { error: 'teaching.v.kind_invalid' }).optional()),
  })
  .refine((v) => dataRangeOk(v.date_from, v.date_to, v.group ?? 'day'), { error: 'teaching.v.data_range_invalid', path: ['date_to'] });
export type RollCallCountQuery = z.infer<typeof RollCallCountQuery>;

/** teachManage: the teacher's own overview; it takes no parameters (an unknown one is refused). */
export const TeachManageQuery = z.strictObject({});
export type TeachManageQuery = z.infer<typeof TeachManageQuery>;
