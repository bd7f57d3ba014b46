import { z } from 'zod';
import { DATA_GROUPS, dataRangeOk } from '../data-centre';
import { pageQuery, plainText } from './common';
import { dayDiff } from '../contracts';
import { isCalendarDay } from '../school-time';

/**
 * The daily flow's actions (design.md §2, §4): the six step actions on a batch of students, a head teacher's
 * void, and the day read actions (one student's timeline, the attendance list and counts).
 */

/** At most this many days in one attendance query. */
export const FLOW_RANGE_MAX_DAYS = 31;

/** true for a real calendar date YYYY-MM-DD (years 2000-2099) */
export function isFlowDate(v: string): boolean {
  return isCalendarDay(v);
}

/** Days from a to b, both counted. */
export const flowDaysBetween = (a: string, b: string) => dayDiff(a, b) + 1;

const date = z
  .string({ error: 'flow.date_invalid' })
  .trim()
  .max(10, { error: 'flow.date_invalid' })
  .refine(isFlowDate, { error: 'flow.date_invalid' });
const id = z
  .number({ error: 'flow.id_invalid' })
  .int({ error: 'flow.id_invalid' })
  .min(1, { error: 'flow.id_invalid' })
  .max(2_147_483_647, { error: 'flow.id_invalid' });
const queryId = z.coerce
  .number({ error: 'flow.id_invalid' })
  .int({ error: 'flow.id_invalid' })
  .min(1, { error: 'flow.id_invalid' })
  .max(2_147_483_647, { error: 'flow.id_invalid' });
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuid = z
  .string({ error: 'flow.event_id_invalid' })
  .trim()
  .max(36, { error: 'flow.event_id_invalid' })
  .regex(UUID_RE, { error: 'flow.event_id_invalid' });
const plain = plainText;
/** an empty query value counts as not given */
const blank = (v: unknown) => (v === '' ? undefined : v);

const stepFields = {
  student_ids: z
    .array(id, { error: 'flow.student_ids_invalid' })
    .min(1, { error: 'flow.student_ids_invalid' })
    .max(100, { error: 'flow.student_ids_invalid' }),
  /** the client's id of this command: a retry with the same id writes nothing and answers the first result */
  event_id: uuid.optional(),
  note: plain(200).optional(),
  /** a head teacher's reason to go past a rule (leave day, unauthorised pick-up) */
  override: plain(200).min(1, { error: 'flow.override_reason_required' }).optional(),
};

/** studentEnter, shuttleStudent, teacherStudentDinner, teacherStudentStartTutor, teacherStudentEndTutor */
export const FlowStepInput = z.strictObject(stepFields);
export type FlowStepInput = z.infer<typeof FlowStepInput>;

/** studentLiyuan: who collected the child (an authorised pick-up person of each student, or an override) */
export const StudentLiyuanInput = z
  .strictObject({
    ...stepFields,
    picked_up_by: id.nullable(),
    /** issue 27: the scanned pick-up code (接送码, PK1.…); verified by the API, it names who collects (picked_up_by is then ignored) */
    pickup_code: z
      .string({ error: 'pickup.v.code_invalid' })
      .max(2000, { error: 'pickup.v.code_invalid' })
      .regex(/^PK1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, { error: 'pickup.v.code_invalid' })
      .optional(),
    /** when the phone verified the code offline (ISO time); the departure reaches the API later */
    verified_at: z.iso.datetime({ offset: true, error: 'pickup.v.verified_at_invalid' }).optional(),
  })
  .refine((v) => v.verified_at === undefined || v.pickup_code !== undefined, { error: 'pickup.v.verified_at_invalid', path: ['verified_at'] });
export type StudentLiyuanInput = z.infer<typeof StudentLiyuanInput>;

export const VoidFlowEventInput = z.strictObject({
  student_id: id,
  /** the event to take back (the student's latest effective step of the day) */
  event_id: uuid,
  reason: plain(200).min(1, { error: 'flow.void_reason_required' }),
  /** the day, today by default */
  date: date.optional(),
});
export type VoidFlowEventInput = z.infer<typeof VoidFlowEventInput>;

export const ClockingInInfoQuery = z.strictObject({
  student_id: queryId,
  date,
});
export type ClockingInInfoQuery = z.infer<typeof ClockingInInfoQuery>;

export const BOARD_STATES = ['expected', 'picked_up', 'in_centre', 'left', 'on_leave'] as const;
export type BoardState = (typeof BOARD_STATES)[number];

const range = {
  date_from: date,
  date_to: date,
  class_id: z.preprocess(blank, queryId.optional()),
};
const rangeOk = (v: { date_from: string; date_to: string }) =>
  v.date_from <= v.date_to && flowDaysBetween(v.date_from, v.date_to) <= FLOW_RANGE_MAX_DAYS;
const rangeError = { error: `flow.range_invalid|${FLOW_RANGE_MAX_DAYS}`, path: ['date_to'] };

export const ClockingInListQuery = z
  .strictObject({
    ...pageQuery,
    ...range,
    state: z.preprocess(blank, z.enum(BOARD_STATES, { error: 'flow.state_invalid' }).optional()),
  })
  .refine(rangeOk, rangeError);
export type ClockingInListQuery = z.infer<typeof ClockingInListQuery>;

/**
 * The data centre's attendance: per day (the default, at most FLOW_RANGE_MAX_DAYS) or per `group` period (day, week,
 * month: at most DATA_MAX_PERIODS of them: 62 days, 27 weeks, 13 months), per class; `day` of each row is its period's first day.
 */
export const StudentClockingInCountQuery = z
  .strictObject({ ...range, group: z.preprocess(blank, z.enum(DATA_GROUPS, { error: 'flow.group_invalid' }).optional()) })
  .refine((v) => v.group !== undefined || rangeOk(v), rangeError)
  .refine((v) => v.group === undefined || dataRangeOk(v.date_from, v.date_to, v.group), { error: 'flow.data_range_invalid', path: ['date_to'] });
export type StudentClockingInCountQuery = z.infer<typeof StudentClockingInCountQuery>;
