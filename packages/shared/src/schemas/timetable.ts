import { z } from 'zod';
import { availabilityProblem, MAX_AVAILABILITY_WINDOWS } from '../availability';
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
