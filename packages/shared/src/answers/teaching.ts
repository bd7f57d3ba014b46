// The answer schemas of module `teaching` (what `data` carries, as JSON), declared in api/teaching.ts.
import { z } from 'zod';
import { pageOf, wire } from '../api/define';
import { ROLL_CALL_STATUSES, SESSION_STATES } from '../schemas/teaching';

const { id, count } = wire;

const CALENDAR_KINDS = ['holiday', 'makeup'] as const;
const SESSION_KINDS = ['teaching', 'tutoring'] as const;
/** 1 Monday .. 7 Sunday */
const Weekday = z.literal([1, 2, 3, 4, 5, 6, 7]);

// ---------------------------------------------------------------- rooms and the school calendar

/** One row of roomList, and `data` of addRoom. */
export const Room = z.object({ id, name: z.string(), capacity: count.nullable(), classes: count, version: count });
export type Room = z.infer<typeof Room>;

export const RoomListAnswer = pageOf(Room);
export type RoomListAnswer = z.infer<typeof RoomListAnswer>;

/** A day of the school calendar: a holiday, or a make-up day working as a weekday. */
export const SchoolCalendarEntry = z.object({
  day: z.string(),
  kind: z.enum(CALENDAR_KINDS),
  works_as: z.number().int().nullable(),
  note: z.string().nullable(),
});
export type SchoolCalendarEntry = z.infer<typeof SchoolCalendarEntry>;

/** `data` of schoolCalendar. */
export const SchoolCalendarAnswer = z.object({ list: z.array(SchoolCalendarEntry) });
export type SchoolCalendarAnswer = z.infer<typeof SchoolCalendarAnswer>;

/** `data` of setSchoolCalendarDay. */
export const SchoolCalendarDayAnswer = SchoolCalendarEntry.extend({
  /** sessions not cancelled on that day: to move or cancel when it became a holiday */
  sessions_on_day: count,
});
export type SchoolCalendarDayAnswer = z.infer<typeof SchoolCalendarDayAnswer>;

/** `data` of delSchoolCalendarDay: the day deleted. */
export const DelSchoolCalendarDayAnswer = z.object({ day: z.string() });
export type DelSchoolCalendarDayAnswer = z.infer<typeof DelSchoolCalendarDayAnswer>;

/** A day of the national arrangement (holidays.ts NationalDay). */
const NationalDayRow = z.object({ day: z.string(), kind: z.enum(CALENDAR_KINDS), works_as: z.number().int().nullable(), note: z.string() });

/** `data` of holidayImportPreview: the plan of importing a year and what it affects from the school's today on. */
export const HolidayImportPreview = z.object({
  year: z.number().int(),
  notice: z.string(),
  issued: z.string(),
  /** the school's today: closed days before it are written but nothing on them changes */
  today: z.string(),
  set: z.array(NationalDayRow),
  same: z.array(NationalDayRow),
  /** the school's own days, kept */
  skipped: z.array(NationalDayRow.extend({ own: z.object({ kind: z.enum(CALENDAR_KINDS), works_as: z.number().int().nullable() }) })),
  /** planned sessions (teaching and tutoring) on the closed days to set: cancelled by the import */
  sessions: z.array(
    z.object({
      id,
      kind: z.enum(SESSION_KINDS),
      class_id: id,
      class_name: z.string(),
      day: z.string(),
      start_time: z.string(),
      end_time: z.string(),
      teacher_name: z.string(),
    }),
  ),
  /** the make-up days to set: the classes that meet on the weekday each runs as (their sessions: makeup_sessions) */
  makeup: z.array(
    z.object({
      day: z.string(),
      works_as: Weekday,
      classes: z.array(z.object({ kind: z.enum(SESSION_KINDS), class_id: id, class_name: z.string() })),
      /** students of running care classes meeting on works_as: expected that day */
      care_students: count,
    }),
  ),
  /**
   * the sessions the import creates on the make-up days to set: each running class's sessions of the nearest day
   * (±14) of the weekday the make-up day runs as that is not closed, when the class has none on the make-up day yet
   * and its teacher and room are free then
   */
  makeup_sessions: z.array(
    z.object({
      kind: z.enum(SESSION_KINDS),
      class_id: id,
      class_name: z.string(),
      day: z.string(),
      works_as: Weekday,
      /** the day whose session it copies */
      from_day: z.string(),
      start_time: z.string(),
      end_time: z.string(),
      teacher_name: z.string(),
    }),
  ),
  /** dinner bookings (booked or unpaid, not served) on the closed days to set: cancelled, a WeChat-paid one refunded */
  bookings: z.object({
    count,
    list: z.array(z.object({ id, day: z.string(), student_id: id, student_name: z.string(), status: z.string(), pay_from: z.string().nullable() })),
  }),
  /** active day contracts whose period holds closed days to set: those days use no unit (nobody enters) */
  contracts: z.array(
    z.object({ id, no: z.string(), student_id: id, student_name: z.string(), start_day: z.string(), end_day: z.string(), closed_days: count }),
  ),
  /** what importHolidays must be given: refused when the plan changed since */
  fingerprint: z.string(),
});
export type HolidayImportPreview = z.infer<typeof HolidayImportPreview>;

/** `data` of holidayYears: the years of the national table the API holds, in order, each with its notice. */
export const HolidayYearsAnswer = z.object({
  list: z.array(
    z.object({
      year: z.number().int(),
      notice: z.string(),
      issued: z.string(),
      /** true: from NATIONAL_HOLIDAYS_FILE (replacing the built-in year if there was one); false: packages/shared holidays.ts */
      from_file: z.boolean(),
    }),
  ),
});
export type HolidayYearsAnswer = z.infer<typeof HolidayYearsAnswer>;

/** `data` of importHolidays: what it did (all zero but `same` the second time). */
export const ImportHolidaysAnswer = z.object({
  year: z.number().int(),
  set: count,
  same: count,
  skipped: count,
  sessions_cancelled: count,
  /** the make-up days' sessions created (the preview's makeup_sessions) */
  sessions_created: count,
  bookings_cancelled: count,
});
export type ImportHolidaysAnswer = z.infer<typeof ImportHolidaysAnswer>;

// ---------------------------------------------------------------- classes

/** What a teaching and a tutoring class share (one session core over class_sessions; modules/teaching/session-core.ts). */
export const SessionClassBase = z.object({
  id,
  name: z.string(),
  teacher_id: id,
  teacher_name: z.string(),
  room_id: id.nullable(),
  room_name: z.string().nullable(),
  capacity: count,
  students: count,
  /** sessions not cancelled */
  sessions_scheduled: count,
  sessions_held: count,
  /** 1 running, 0 stopped */
  status: z.number().int(),
  version: count,
  created_at: z.string(),
});

/** A teaching class: `data` of teachingClassInfo and of the class's writes, rows of teachingClassList and studentTeachingClassList. */
export const TeachingClass = SessionClassBase.extend({
  subject: z.string(),
  sessions_count: count,
  fee_fen: z.number().int(),
});
export type TeachingClass = z.infer<typeof TeachingClass>;

export const TeachingClassPage = pageOf(TeachingClass);
export type TeachingClassPage = z.infer<typeof TeachingClassPage>;

/** One row of teachingClassStudent. */
export const TeachingClassMember = z.object({
  id,
  name: z.string(),
  grade: z.string().nullable(),
  class_name: z.string().nullable(),
  joined_at: z.string(),
});
export type TeachingClassMember = z.infer<typeof TeachingClassMember>;

export const TeachingClassMemberPage = pageOf(TeachingClassMember);
export type TeachingClassMemberPage = z.infer<typeof TeachingClassMemberPage>;

/** One row of selectTeachingClassStudent. */
export const SelectableStudent = z.object({
  id,
  name: z.string(),
  grade: z.string().nullable(),
  class_name: z.string().nullable(),
  care_class_name: z.string().nullable(),
});
export type SelectableStudent = z.infer<typeof SelectableStudent>;

export const SelectableStudentPage = pageOf(SelectableStudent);
export type SelectableStudentPage = z.infer<typeof SelectableStudentPage>;

// ---------------------------------------------------------------- generation and clashes

/** A session a weekly pattern gives (generateSessions). */
export const GeneratedSession = z.object({
  day: z.string(),
  /** the weekday the day runs as (its own, or the make-up day's works_as) */
  weekday: Weekday,
  start: z.number().int(),
  end: z.number().int(),
  start_time: z.string(),
  end_time: z.string(),
  /** set on a make-up day: the session runs because the day works as `weekday` */
  makeup: z.literal(true).optional(),
});
export type GeneratedSession = z.infer<typeof GeneratedSession>;

/** A pattern slot that did not run: on a holiday, or on a make-up day running another weekday. */
export const SkippedSession = z.object({
  day: z.string(),
  weekday: Weekday,
  start_time: z.string(),
  end_time: z.string(),
  reason: z.enum(CALENDAR_KINDS),
  note: z.string().nullable(),
});
export type SkippedSession = z.infer<typeof SkippedSession>;

/** What a busy interval or a proposed session is (for the clash message): a session, a care time slot... */
export const BusyRef = z.object({
  /** 'teaching' | 'tutoring' sessions, 'care' a care class's time slot, 'care_student' a student's own care slot, 'proposed' another proposed session */
  source: z.enum(['teaching', 'tutoring', 'care', 'care_student', 'proposed']),
  session_id: id.nullable().optional(),
  class_id: id.nullable().optional(),
  label: z.string(),
});
export type BusyRef = z.infer<typeof BusyRef>;

/** A proposed session's clash with what a teacher, room or student is busy with (findClashes). */
export const Clash = z.object({
  kind: z.enum(['teacher', 'room', 'student']),
  /** the teacher, room or student */
  who: id,
  who_name: z.string().optional(),
  day: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  with: BusyRef.extend({ day: z.string(), start_time: z.string(), end_time: z.string() }),
});
export type Clash = z.infer<typeof Clash>;

/** `data` of teachingClassCourseScheduling. */
export const CourseSchedulingAnswer = z.object({
  preview: z.boolean(),
  sessions: z.array(GeneratedSession),
  skipped: z.array(SkippedSession),
  clashes: z.array(Clash),
  /** the class's sessions_count stopped the generation before the range's end */
  limit_reached: z.boolean(),
  /** planned sessions of the class in the range the generation replaces */
  replaced: count,
  written: count,
});
export type CourseSchedulingAnswer = z.infer<typeof CourseSchedulingAnswer>;

/** `data` of teachingTermScheduling. */
export const TermSchedulingAnswer = z.object({
  preview: z.boolean(),
  /** each class's generation as teachingClassCourseScheduling answers it, in the order asked */
  classes: z.array(CourseSchedulingAnswer.extend({ class_id: id })),
  /** every clash, with the class it was generated for */
  clashes: z.array(Clash.extend({ class_id: id })),
  written: count,
});
export type TermSchedulingAnswer = z.infer<typeof TermSchedulingAnswer>;

// ---------------------------------------------------------------- sessions

/** A session of a teaching (or tutoring) class: rows of teachingClassScheduling/teachingClassSection, `data` of its writes. */
export const TeachingSession = z.object({
  id,
  class_id: id,
  /** 1-based number of the lesson among the class's sessions not cancelled (null when cancelled) */
  lesson_no: z.number().int().nullable(),
  day: z.string(),
  weekday: z.number().int(),
  start_time: z.string(),
  end_time: z.string(),
  teacher_id: id,
  teacher_name: z.string(),
  room_id: id.nullable(),
  room_name: z.string().nullable(),
  state: z.enum(SESSION_STATES),
  cancel_reason: z.string().nullable(),
  version: count,
  /** roll call taken: counts by status */
  roll_call: z.object({ present: count, late: count, absent: count, leave: count }).nullable(),
});
export type TeachingSession = z.infer<typeof TeachingSession>;

export const TeachingSessionPage = pageOf(TeachingSession);
export type TeachingSessionPage = z.infer<typeof TeachingSessionPage>;

const Window = z.object({ start_time: z.string(), end_time: z.string() });
const BusyWindow = Window.extend({ label: z.string() });

/** `data` of teachingClassChangeScheduling: what moving one session needs, day by day of a week. */
export const ChangeSchedulingAnswer = z.object({
  session: TeachingSession,
  /** Monday of the week asked (the session's week by default) */
  week: z.string(),
  length: count,
  days: z.array(
    z.object({
      day: z.string(),
      /** the weekday the day runs as; null on a holiday */
      weekday: z.number().int().nullable(),
      calendar: SchoolCalendarEntry.nullable(),
      teacher_busy: z.array(BusyWindow),
      room_busy: z.array(BusyWindow),
      /** windows where the teacher and the room are both free for the session's length (08:00-21:00) */
      free: z.array(Window),
      /** the teacher's offered windows of the weekday the day runs as; null when the teacher has saved none */
      offered: z.array(Window).nullable(),
      /** the free windows inside the offered ones (all free windows when none are saved): what the move suggests */
      suggested: z.array(Window),
    }),
  ),
  /** the teacher's availability note, null when none is saved */
  availability_note: z.string().nullable(),
});
export type ChangeSchedulingAnswer = z.infer<typeof ChangeSchedulingAnswer>;

// ---------------------------------------------------------------- roll call

/** One row of rollCallCount: a period (its first day) and a kind of session, with the sessions called and each status's count. */
export const RollCallCount = z.object({
  id: z.string(),
  period: z.string(),
  kind: z.enum(SESSION_KINDS),
  sessions: count,
  total: count,
  present: count,
  late: count,
  absent: count,
  leave: count,
});
export type RollCallCount = z.infer<typeof RollCallCount>;

/** `data` of rollCallCount. */
export const RollCallCountAnswer = z.object({ list: z.array(RollCallCount) });
export type RollCallCountAnswer = z.infer<typeof RollCallCountAnswer>;

/** `data` of rollCall (GET and POST). */
export const RollCallAnswer = z.object({
  session: TeachingSession,
  class_name: z.string(),
  students: z.array(
    z.object({
      student_id: id,
      name: z.string(),
      /** saved status; before any is saved, 'leave' for an approved leave that day, else null */
      status: z.enum(ROLL_CALL_STATUSES).nullable(),
      saved: z.boolean(),
      on_leave: z.boolean(),
      by_name: z.string().nullable(),
      at: z.string().nullable(),
    }),
  ),
});
export type RollCallAnswer = z.infer<typeof RollCallAnswer>;

/** `data` of teachManage: the teacher's own overview. */
export const TeachManageAnswer = z.object({
  classes: z.array(
    TeachingClass.pick({
      id: true,
      name: true,
      subject: true,
      room_name: true,
      students: true,
      sessions_count: true,
      sessions_held: true,
      status: true,
    }),
  ),
  next_sessions: z.array(
    TeachingSession.pick({ id: true, class_id: true, day: true, start_time: true, end_time: true, room_name: true, state: true }).extend({
      class_name: z.string(),
    }),
  ),
  /** homework submissions of the teacher's classes marked done and not checked yet (module homework) */
  homework_to_mark: count,
});
export type TeachManageAnswer = z.infer<typeof TeachManageAnswer>;
