import { z } from 'zod';
import { availabilityProblem, MAX_AVAILABILITY_WINDOWS, type AvailabilityWindow } from '../availability';
import { HHMM_RE } from '../time-slots';
import { plainText } from './common';
import { isCalendarDay } from '../school-time';

/**
 * The timetables of module `timetable` (issue 13): a class's week, the school's week of sessions (rooms x days), the
 * teacher's own week and their weekly availability. Weeks run Monday..Sunday and are asked by any day of them
 * (school-local YYYY-MM-DD; the school's today by default); times are local HH:MM.
 */

const blank = (v: unknown) => (v === '' ? undefined : v);
const validDay = (v: string) => isCalendarDay(v);
/** any day of the week asked */
const week = z.preprocess(blank, z.string({ error: 'timetable.v.week_invalid' }).refine(validDay, { error: 'timetable.v.week_invalid' }).optional());

export const CLASS_KINDS = ['care', 'teaching'] as const;
export type ScheduleClassKind = (typeof CLASS_KINDS)[number];

export const ClassScheduleQuery = z.strictObject({
  kind: z.enum(CLASS_KINDS, { error: 'timetable.v.kind_invalid' }),
  class_id: z.coerce
    .number({ error: 'timetable.v.class_invalid' })
    .int({ error: 'timetable.v.class_invalid' })
    .min(1, { error: 'timetable.v.class_invalid' })
    .max(2_147_483_647, { error: 'timetable.v.class_invalid' }),
  week,
});
export type ClassScheduleQuery = z.infer<typeof ClassScheduleQuery>;

export const WeekQuery = z.strictObject({ week });
export type WeekQuery = z.infer<typeof WeekQuery>;

const weekday = z
  .number({ error: 'timetable.v.weekday_invalid' })
  .int({ error: 'timetable.v.weekday_invalid' })
  .min(1, { error: 'timetable.v.weekday_invalid' })
  .max(7, { error: 'timetable.v.weekday_invalid' });
const time = z.string({ error: 'timetable.v.time_invalid' }).regex(HHMM_RE, { error: 'timetable.v.time_invalid' });

export const SaveTeacherScheduleInput = z.strictObject({
  windows: z
    .array(z.strictObject({ weekday, start_time: time, end_time: time }), { error: 'timetable.v.windows_invalid' })
    .max(MAX_AVAILABILITY_WINDOWS, { error: `timetable.v.windows_too_many|${MAX_AVAILABILITY_WINDOWS}` })
    .superRefine((windows, ctx) => {
      const p = availabilityProblem(windows);
      if (!p || p.reason === 'too_many') return;
      const at = windows[p.index];
      const message =
        p.reason === 'overlap'
          ? `timetable.v.window_overlap|${at.start_time}-${at.end_time}`
          : p.reason === 'time_order'
            ? 'timetable.v.time_order'
            : `timetable.v.${p.reason}`;
      ctx.addIssue({ code: 'custom', message, path: [p.index] });
    }),
  note: plainText(500).optional(),
  /** the version read (0: nothing saved yet) */
  version: z
    .number({ error: 'timetable.v.version_invalid' })
    .int({ error: 'timetable.v.version_invalid' })
    .min(0, { error: 'timetable.v.version_invalid' })
    .max(2_147_483_647, { error: 'timetable.v.version_invalid' }),
});
export type SaveTeacherScheduleInput = z.infer<typeof SaveTeacherScheduleInput>;

/** A day of a week: its own weekday, the weekday it runs as (null on a holiday; a make-up day's works_as) and its calendar entry. */
export interface ScheduleDay {
  day: string;
  weekday: number;
  runs_as: number | null;
  calendar: { kind: 'holiday' | 'makeup'; works_as: number | null; note: string | null } | null;
}

/** A session on a timetable: a teaching or tutoring session (id), or a care class's time slot on a day (id null). */
export interface ScheduleEntry {
  id: number | null;
  kind: 'teaching' | 'tutoring' | 'care';
  class_id: number;
  class_name: string | null;
  day: string;
  start_time: string;
  end_time: string;
  teacher_id: number | null;
  teacher_name: string | null;
  room_id: number | null;
  room_name: string | null;
  /** sessions: planned | held | cancelled; care slots: planned */
  state: 'planned' | 'held' | 'cancelled';
  /** care slots on a make-up day: the day runs as another weekday */
  makeup?: boolean;
}

export interface ClassScheduleAnswer {
  /** the Monday of the week */
  week: string;
  class: {
    kind: ScheduleClassKind;
    id: number;
    name: string;
    status: number;
    teacher_id: number | null;
    teacher_name: string | null;
    room_id: number | null;
    room_name: string | null;
    time_slot: { name: string; start_time: string; end_time: string; weekdays: number[] } | null;
  };
  days: Array<ScheduleDay & { sessions: ScheduleEntry[] }>;
}

/** A session in the school's grid: its day and room are the cell's (the answer stays small for a week of 200 classes). */
export type SchoolScheduleEntry = Omit<ScheduleEntry, 'day' | 'room_id' | 'room_name' | 'makeup'>;

export interface SchoolTeachingScheduleAnswer {
  week: string;
  days: ScheduleDay[];
  /** every room of the school, by name, with its sessions of each day (days[i] is the i-th day of the week) */
  rooms: Array<{ id: number; name: string; days: SchoolScheduleEntry[][] }>;
  /** sessions without a room, per day */
  no_room: SchoolScheduleEntry[][];
  sessions: number;
}

export interface TeacherAvailability {
  windows: AvailabilityWindow[];
  note: string;
  /** 0: nothing saved yet */
  version: number;
  updated_at: string | null;
}

export interface TeacherScheduleAnswer {
  week: string;
  /** per day: the sessions the teacher teaches and the care classes' slots they head or are on duty in, by start */
  days: Array<ScheduleDay & { sessions: ScheduleEntry[]; care: Array<ScheduleEntry & { duty: 'head' | 'duty' }> }>;
  /** every running class of the teacher, whether or not it meets this week: care classes they head, then those they are on duty in, then teaching classes they teach */
  classes: Array<{ kind: 'care' | 'teaching'; id: number; name: string; duty: 'head' | 'duty' | 'teach' }>;
  availability: TeacherAvailability;
}
