// The answer schemas of module `flow` (what `data` carries, as JSON), declared in api/flow.ts.
import { z } from 'zod';
import { pageOf, wire } from '../api/define';
import { FLOW_STEPS, STEP_EVENT } from '../flow';
import { BOARD_STATES } from '../schemas/flow';
import { HANDOVER_DUTIES } from '../schemas/leave';
import { StudentHomework } from './homework';

const { id } = wire;

/** the projection's state of a student-day (flow.ts FlowState) */
const FLOW_STATES = ['expected', 'picked_up', 'in_centre', 'left'] as const;
const flowState = z.enum(FLOW_STATES);
/** a student-day's state as the boards show it: on leave when an approved request covers a day not started */
const boardState = z.enum(BOARD_STATES);
export type BoardStateName = z.infer<typeof boardState>;
const stepEventType = z.enum([
  STEP_EVENT.picked_up,
  STEP_EVENT.entered,
  STEP_EVENT.dinner,
  STEP_EVENT.tutor_started,
  STEP_EVENT.tutor_ended,
  STEP_EVENT.left,
]);
const flowEventType = z.enum([...stepEventType.options, 'event.voided', 'day.leave_approved', 'day.leave_cancelled']);
/** the payload of a flow event (flow.ts FlowPayload) */
const flowPayload = z.object({
  note: z.string().optional(),
  picked_up_by: z.number().int().nullable().optional(),
  override: z.string().optional(),
  /** student.left with a verified pick-up code (issue 27) */
  pickup_verified: z.object({ person: z.string(), name: z.string(), relation: z.string(), code_id: z.string(), offline: z.boolean() }).optional(),
  voided_event_id: z.string().optional(),
  voided_type: stepEventType.optional(),
  reason: z.string().optional(),
  leave_id: z.number().int().optional(),
});
const careClass = z.object({ id, name: z.string() });
/** the current departure's verified pick-up person (issue 27: a pick-up code was scanned); null otherwise */
const pickupVerified = z.object({ name: z.string(), relation: z.string(), offline: z.boolean() }).nullable();
/** the current departure's manual release by a head teacher without a code (its override reason); null otherwise */
const pickupOverride = z.string().nullable();

// ---------------------------------------------------------------- the steps

/** One student's result of a step action. */
export const FlowResult = z.object({
  student_id: id,
  ok: z.boolean(),
  /** the board state after the command */
  state: boardState.optional(),
  /** the refusal, in the caller's language */
  error: z.string().optional(),
  event_id: z.string().optional(),
});
export type FlowResult = z.infer<typeof FlowResult>;

/** The step actions (studentEnter, shuttleStudent, ..., studentLiyuan): one result per student, in the order sent. */
export const FlowResults = z.object({ results: z.array(FlowResult) });
export type FlowResults = z.infer<typeof FlowResults>;

export const FlowStepView = z.object({ at: z.string(), by: id.nullable(), by_name: z.string().nullable(), event_id: z.string() });
export type FlowStepView = z.infer<typeof FlowStepView>;

/** `data` of clockingInInfo and voidFlowEvent: one student-day with its full timeline (voids included). */
export const StudentDayInfo = z.object({
  student_id: id,
  student_name: z.string(),
  date: z.string(),
  class_id: id.nullable(),
  state: boardState,
  on_leave: z.boolean(),
  steps: z.partialRecord(z.enum(FLOW_STEPS), FlowStepView),
  left_with: z.object({ id, name: z.string(), relation: z.string() }).nullable(),
  version: z.number().int(),
  events: z.array(
    z.object({
      position: z.number().int(),
      event_id: z.string(),
      type: flowEventType,
      at: z.string(),
      actor: id.nullable(),
      actor_name: z.string().nullable(),
      payload: flowPayload,
      /** taken back by a later event.voided */
      voided: z.boolean(),
    }),
  ),
});
export type StudentDayInfo = z.infer<typeof StudentDayInfo>;

/** One row of clockingInList: a student-day (students of a class without a record that day are 'expected'). */
export const StudentDayRow = z.object({
  /** day:student_id */
  id: z.string(),
  day: z.string(),
  student_id: id,
  student_name: z.string(),
  class_id: id.nullable(),
  class_name: z.string().nullable(),
  state: boardState,
  on_leave: z.boolean(),
  picked_up_at: z.string().nullable(),
  entered_at: z.string().nullable(),
  dinner_at: z.string().nullable(),
  tutor_started_at: z.string().nullable(),
  tutor_ended_at: z.string().nullable(),
  left_at: z.string().nullable(),
  left_with_name: z.string().nullable(),
  pickup_verified: pickupVerified,
  pickup_override: pickupOverride,
  version: z.number().int(),
});
export type StudentDayRow = z.infer<typeof StudentDayRow>;

/** clockingInList */
export const StudentDayPage = pageOf(StudentDayRow);
export type StudentDayPage = z.infer<typeof StudentDayPage>;

/** One row of studentClockingInCount: the counts of one class in one period (its first day) per board state. */
export const StudentDayCount = z.object({
  /** day:class_id (0 without a class) */
  id: z.string(),
  day: z.string(),
  class_id: id.nullable(),
  class_name: z.string().nullable(),
  total: z.number().int(),
  expected: z.number().int(),
  picked_up: z.number().int(),
  in_centre: z.number().int(),
  left: z.number().int(),
  on_leave: z.number().int(),
});
export type StudentDayCount = z.infer<typeof StudentDayCount>;

/** studentClockingInCount (not paged) */
export const StudentDayCounts = z.object({ list: z.array(StudentDayCount) });
export type StudentDayCounts = z.infer<typeof StudentDayCounts>;

// ---------------------------------------------------------------- the board and its alerts

export const FlowBoardStudent = z.object({
  id,
  name: z.string(),
  gender: z.literal([1, 2]).nullable(),
  grade: z.string().nullable(),
  class_name: z.string().nullable(),
  day_school: z.string().nullable(),
  photo_url: z.string().nullable(),
  allergies: z.string().nullable(),
  needs_shuttle: z.boolean(),
  needs_dinner: z.boolean(),
  tutoring_type: z.string().nullable(),
  class_id: id,
  care_class_name: z.string(),
  state: flowState,
  on_leave: z.boolean(),
  version: z.number().int(),
  picked_up_at: z.string().nullable(),
  entered_at: z.string().nullable(),
  dinner_at: z.string().nullable(),
  tutor_started_at: z.string().nullable(),
  tutor_ended_at: z.string().nullable(),
  left_at: z.string().nullable(),
  left_with: id.nullable(),
  pickup_verified: pickupVerified,
  pickup_override: pickupOverride,
  /** `mobile` masked (138****0001) unless the caller may see it whole (issue 37 least access: admin, head of the class, on duty today) */
  pickup_people: z.array(z.object({ id, name: z.string(), relation: z.string(), mobile: z.string() })),
  /** units left of the student's active day/session contract covering the day (the smallest if several), null without one */
  contract_units_left: z.number().int().nullable(),
});
export type FlowBoardStudent = z.infer<typeof FlowBoardStudent>;

/** flowBoard */
export const FlowBoard = z.object({
  day: z.string(),
  /** the newest global_position of the school: a socket connects with it as `since` */
  position: z.number().int(),
  students: z.array(FlowBoardStudent),
});
export type FlowBoard = z.infer<typeof FlowBoard>;

/**
 * The flow exceptions, each raised once per student-day: the scan's kinds cleared when the state changes;
 * pickup_unauthorised (a refused code of a revoked person or for another child, issue 27) raised by the pick-up module and kept for the day.
 */
export const ALERT_KINDS = ['not_picked_up', 'not_entered', 'absent', 'after_closing', 'pickup_unauthorised'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const FlowAlert = z.object({
  id,
  student_id: id,
  student_name: z.string(),
  class_id: id,
  class_name: z.string(),
  day: z.string(),
  kind: z.enum(ALERT_KINDS),
  raised_at: z.string(),
  cleared_at: z.string().nullable(),
});
export type FlowAlert = z.infer<typeof FlowAlert>;

/** flowAlerts: open ones first */
export const FlowAlertPage = pageOf(FlowAlert);
export type FlowAlertPage = z.infer<typeof FlowAlertPage>;

// ---------------------------------------------------------------- the teachers' task lists

/** teacherHandOverStudent */
export const TeacherHandOverResult = z.object({
  student_id: id,
  duty: z.enum(HANDOVER_DUTIES),
  day: z.string(),
  teacher_id: id,
  teacher_name: z.string(),
});
export type TeacherHandOverResult = z.infer<typeof TeacherHandOverResult>;

/** teacherClockIn, teacherClockOut; the caller's own record of a day */
export const StaffClockRecord = z.object({
  id,
  day: z.string(),
  clock_in_at: z.string().nullable(),
  clock_out_at: z.string().nullable(),
});
export type StaffClockRecord = z.infer<typeof StaffClockRecord>;

/** The counts of teacherTodayTask that name their students (the tiles of the adviser's home); to_hand_over's are in_centre's. */
export const TODAY_TASK_LISTS = ['to_pick_up', 'picked_up', 'in_centre', 'to_feed', 'to_tutor', 'tutoring', 'left', 'on_leave'] as const;
export type TodayTaskList = (typeof TODAY_TASK_LISTS)[number];
/** At most this many students named per count (the count itself is complete). */
export const TODAY_TASK_LIST_MAX = 50;

/** A student behind a count of teacherTodayTask: only what the list shows (name and care class). */
export const TodayTaskStudent = z.object({ id, name: z.string(), class_name: z.string() });
export type TodayTaskStudent = z.infer<typeof TodayTaskStudent>;

/** teacherTodayTask */
export const TeacherTodayTask = z.object({
  day: z.string(),
  classes: z.array(z.object({ id, name: z.string(), head_teacher: z.boolean() })),
  total: z.number().int(),
  states: z.record(boardState, z.number().int()),
  to_pick_up: z.number().int(),
  to_feed: z.number().int(),
  /** tutoring not started yet, and running now */
  to_tutor: z.number().int(),
  tutoring: z.number().int(),
  to_hand_over: z.number().int(),
  /** the students behind each count, by care class and name, the first TODAY_TASK_LIST_MAX of each */
  students: z.record(z.enum(TODAY_TASK_LISTS), z.array(TodayTaskStudent)),
  /** the caller's own clock-in/out of the day; null before clocking in */
  clock: StaffClockRecord.nullable(),
});
export type TeacherTodayTask = z.infer<typeof TeacherTodayTask>;

export const ShuttleTaskStudent = z.object({
  id,
  name: z.string(),
  grade: z.string().nullable(),
  class_name: z.string().nullable(),
  care_class: careClass.nullable(),
  state: boardState,
  picked_up_at: z.string().nullable(),
  picked_up_by: id.nullable(),
  picked_up_by_name: z.string().nullable(),
  /** who handed this student's pick-up to the caller today (teacherHandOverStudent); null when it is the caller's own */
  handed_over_by_name: z.string().nullable(),
});
export type ShuttleTaskStudent = z.infer<typeof ShuttleTaskStudent>;

export const ShuttleTaskGroup = z.object({
  day_school: z.string().nullable(),
  /** HH:MM, the start of the student's time slot today; null when none */
  dismissal_time: z.string().nullable(),
  students: z.array(ShuttleTaskStudent),
});
export type ShuttleTaskGroup = z.infer<typeof ShuttleTaskGroup>;

/** shuttleTask */
export const ShuttleTask = z.object({ day: z.string(), groups: z.array(ShuttleTaskGroup) });
export type ShuttleTask = z.infer<typeof ShuttleTask>;

export const TutorTaskRow = z.object({
  id,
  name: z.string(),
  grade: z.string().nullable(),
  care_class: careClass.nullable(),
  tutoring_type: z.string(),
  state: boardState,
  tutor_started_at: z.string().nullable(),
  tutor_ended_at: z.string().nullable(),
  /** who handed this student's tutoring to the caller today (teacherHandOverStudent); null when it is the caller's own */
  handed_over_by_name: z.string().nullable(),
});
export type TutorTaskRow = z.infer<typeof TutorTaskRow>;

/** tutorTask */
export const TutorTask = z.object({ day: z.string(), list: z.array(TutorTaskRow) });
export type TutorTask = z.infer<typeof TutorTask>;

/** tutorTaskInfo */
export const TutorTaskInfo = z.object({
  day: z.string(),
  student: z.object({ id, name: z.string(), grade: z.string().nullable(), class_name: z.string().nullable(), care_class: careClass.nullable() }),
  tutoring_type: z.string().nullable(),
  state: boardState,
  tutor_started_at: z.string().nullable(),
  tutor_started_by: id.nullable(),
  tutor_started_by_name: z.string().nullable(),
  tutor_ended_at: z.string().nullable(),
  tutor_ended_by: id.nullable(),
  tutor_ended_by_name: z.string().nullable(),
  events: z.array(
    z.object({
      type: z.string(),
      at: z.string(),
      actor: id.nullable(),
      actor_name: z.string().nullable(),
      payload: z.record(z.string(), z.unknown()),
    }),
  ),
  /** the student's homework open that day (set on or before it, due on or after it) with its state, the earliest due first */
  homework: z.array(StudentHomework),
});
export type TutorTaskInfo = z.infer<typeof TutorTaskInfo>;

/** One day of teacherClockingInCount. */
export const TeacherClockingInDay = z.object({
  day: z.string(),
  on_job: z.number().int(),
  clocked_in: z.number().int(),
  clocked_out: z.number().int(),
  /** who clocked in that day, by clock-in time; `page`/`limit` of the input page this list */
  list: z.array(
    z.object({ user_id: id, name: z.string(), role: z.number().int(), clock_in_at: z.string().nullable(), clock_out_at: z.string().nullable() }),
  ),
  total: z.number().int(),
});
export type TeacherClockingInDay = z.infer<typeof TeacherClockingInDay>;

/** teacherClockingInCount */
export const TeacherClockingInCount = z.object({
  date_from: z.string(),
  date_to: z.string(),
  page: z.number().int(),
  limit: z.number().int(),
  days: z.array(TeacherClockingInDay),
});
export type TeacherClockingInCount = z.infer<typeof TeacherClockingInCount>;
