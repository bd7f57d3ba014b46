// The answer schemas of module `timetable` (what `data` carries, as JSON), declared in api/timetable.ts.
import { z } from 'zod';
import { pageOf, wire } from '../api/define';
import { SESSION_STATES } from '../schemas/teaching';
import { CLASS_KINDS } from '../schemas/timetable';

const { id, count } = wire;

const weekdays = z.array(z.number().int());

// ---------------------------------------------------------------- time slots

/** A time slot: `HH:mm` local times of the school; `data` of addClassTime/editClassTime, rows of classTimeList. */
export const ClassTime = z.object({
  id,
  name: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  weekdays,
  version: count,
  /** classTimeList: how many classes and students use it */
  class_count: count.optional(),
  student_count: count.optional(),
});
export type ClassTime = z.infer<typeof ClassTime>;

export const ClassTimePage = pageOf(ClassTime);
export type ClassTimePage = z.infer<typeof ClassTimePage>;

/** One row of selectClassTime (`data.list`), and a student's own slot. */
export const ClassTimeOption = ClassTime.pick({ id: true, name: true, start_time: true, end_time: true, weekdays: true });
export type ClassTimeOption = z.infer<typeof ClassTimeOption>;

/** `data` of selectClassTime: at most 200 slots by start time. */
export const ClassTimeOptions = z.object({ list: z.array(ClassTimeOption) });
export type ClassTimeOptions = z.infer<typeof ClassTimeOptions>;

/** `data` of addStudentClassTime. */
export const StudentClassTimes = z.object({ student_id: id, class_times: z.array(ClassTimeOption) });
export type StudentClassTimes = z.infer<typeof StudentClassTimes>;

// ---------------------------------------------------------------- timetables

/** A day of a week: its own weekday, the weekday it runs as (null on a holiday; a make-up day's works_as) and its calendar entry. */
export const ScheduleDay = z.object({
  day: z.string(),
  weekday: z.number().int(),
  runs_as: z.number().int().nullable(),
  calendar: z.object({ kind: z.enum(['holiday', 'makeup']), works_as: z.number().int().nullable(), note: z.string().nullable() }).nullable(),
});
export type ScheduleDay = z.infer<typeof ScheduleDay>;

/** A session on a timetable: a teaching or tutoring session (id), or a care class's time slot on a day (id null). */
export const ScheduleEntry = z.object({
  id: id.nullable(),
  kind: z.enum(['teaching', 'tutoring', 'care']),
  class_id: id,
  class_name: z.string().nullable(),
  day: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  teacher_id: id.nullable(),
  teacher_name: z.string().nullable(),
  room_id: id.nullable(),
  room_name: z.string().nullable(),
  /** sessions: planned | held | cancelled; care slots: planned */
  state: z.enum(SESSION_STATES),
  /** care slots on a make-up day: the day runs as another weekday */
  makeup: z.boolean().optional(),
});
export type ScheduleEntry = z.infer<typeof ScheduleEntry>;

/** `data` of classSchedule: a care or teaching class's week. */
export const ClassScheduleAnswer = z.object({
  /** the Monday of the week */
  week: z.string(),
  class: z.object({
    kind: z.enum(CLASS_KINDS),
    id,
    name: z.string(),
    status: z.number().int(),
    teacher_id: id.nullable(),
    teacher_name: z.string().nullable(),
    room_id: id.nullable(),
    room_name: z.string().nullable(),
    time_slot: z.object({ name: z.string(), start_time: z.string(), end_time: z.string(), weekdays }).nullable(),
  }),
  days: z.array(ScheduleDay.extend({ sessions: z.array(ScheduleEntry) })),
});
export type ClassScheduleAnswer = z.infer<typeof ClassScheduleAnswer>;

/** A session in the school's grid: its day and room are the cell's (the answer stays small for a week of 200 classes). */
export const SchoolScheduleEntry = ScheduleEntry.omit({ day: true, room_id: true, room_name: true, makeup: true });
export type SchoolScheduleEntry = z.infer<typeof SchoolScheduleEntry>;

/** `data` of schoolTeachingSchedule: the school's week of sessions by room. */
export const SchoolTeachingScheduleAnswer = z.object({
  week: z.string(),
  days: z.array(ScheduleDay),
  /** every room of the school, by name, with its sessions of each day (days[i] is the i-th day of the week) */
  rooms: z.array(z.object({ id, name: z.string(), days: z.array(z.array(SchoolScheduleEntry)) })),
  /** sessions without a room, per day */
  no_room: z.array(z.array(SchoolScheduleEntry)),
  sessions: count,
});
export type SchoolTeachingScheduleAnswer = z.infer<typeof SchoolTeachingScheduleAnswer>;

/** A teacher's weekly availability: `data` of teacherSchedule POST, `availability` of teacherSchedule GET. */
export const TeacherAvailability = z.object({
  windows: z.array(z.object({ weekday: z.number().int(), start_time: z.string(), end_time: z.string() })),
  note: z.string(),
  /** 0: nothing saved yet */
  version: count,
  updated_at: z.string().nullable(),
});
export type TeacherAvailability = z.infer<typeof TeacherAvailability>;

/** `data` of teacherSchedule GET: the caller's week. */
export const TeacherScheduleAnswer = z.object({
  week: z.string(),
  /** per day: the sessions the teacher teaches and the care classes' slots they head or are on duty in, by start */
  days: z.array(
    ScheduleDay.extend({
      sessions: z.array(ScheduleEntry),
      care: z.array(ScheduleEntry.extend({ duty: z.enum(['head', 'duty']) })),
    }),
  ),
  /** every running class of the teacher, whether or not it meets this week: care classes they head, then those they are on duty in, then teaching classes they teach */
  classes: z.array(z.object({ kind: z.enum(CLASS_KINDS), id, name: z.string(), duty: z.enum(['head', 'duty', 'teach']) })),
  availability: TeacherAvailability,
});
export type TeacherScheduleAnswer = z.infer<typeof TeacherScheduleAnswer>;
