import { flowMessages } from './messages/flow';
/**
 * The student-day state machine of the daily flow (design.md §4), pure so the API decides with it and the web
 * greys out what it would refuse, with the same reason.
 *
 * A student-day is a stream of events; `evolve` folds them into a DayState, `decide` turns a command into new
 * events or refuses it with a message key.
 */
import type { PickupVerified } from './pickup-codes';
import { Role } from './roles';

/** The steps of a day, in the spec's order. */
export const FLOW_STEPS = ['picked_up', 'entered', 'dinner', 'tutor_started', 'tutor_ended', 'left'] as const;
export type FlowStep = (typeof FLOW_STEPS)[number];

export type FlowState = 'expected' | 'picked_up' | 'in_centre' | 'left';

export const STEP_EVENT = {
  picked_up: 'student.picked_up',
  entered: 'student.entered',
  dinner: 'student.dinner_confirmed',
  tutor_started: 'student.tutoring_started',
  tutor_ended: 'student.tutoring_ended',
  left: 'student.left',
} as const satisfies Record<FlowStep, string>;

export type StepEventType = (typeof STEP_EVENT)[FlowStep];
export type FlowEventType = StepEventType | 'event.voided' | 'day.leave_approved' | 'day.leave_cancelled';

const STEP_OF = Object.fromEntries(Object.entries(STEP_EVENT).map(([step, type]) => [type, step])) as Record<StepEventType, FlowStep>;
export const stepOf = (type: string): FlowStep | null => STEP_OF[type as StepEventType] ?? null;

export interface FlowEvent {
  event_id: string;
  type: FlowEventType;
  /** ISO time it happened */
  at: string;
  actor: number | null;
  payload: FlowPayload;
}

export interface FlowPayload {
  note?: string;
  /** student.left: the authorised pick-up person */
  picked_up_by?: number | null;
  /** a head teacher's reason to go past a rule (leave day, unauthorised pick-up) */
  override?: string;
  /** student.left: the person whose pick-up code (接送码) was verified (issue 27) */
  pickup_verified?: PickupVerified;
  /** event.voided */
  voided_event_id?: string;
  voided_type?: StepEventType;
  reason?: string;
  /** day.leave_*: the leave request */
  leave_id?: number;
}

export interface StepRecord {
  at: string;
  by: number | null;
  event_id: string;
}

export interface DayState {
  state: FlowState;
  on_leave: boolean;
  steps: Partial<Record<FlowStep, StepRecord>>;
  /** pick-up person the child left with */
  left_with: number | null;
  /** effective step events, oldest first (a void takes back the last one) */
  history: { event_id: string; type: StepEventType }[];
  version: number;
}

export const EMPTY_DAY: DayState = { state: 'expected', on_leave: false, steps: {}, left_with: null, history: [], version: 0 };

export type StepCommandType = 'shuttle' | 'enter' | 'dinner' | 'startTutor' | 'endTutor' | 'leave';

export type FlowCommand =
  | { type: Exclude<StepCommandType, 'leave'>; note?: string; override?: string }
  | { type: 'leave'; picked_up_by: number | null; note?: string; override?: string; pickup_verified?: PickupVerified }
  | { type: 'void'; event_id: string; reason: string }
  | { type: 'markLeave'; leave_id: number }
  | { type: 'cancelLeave'; leave_id: number };

export interface CommandContext {
  role: Role;
  needsShuttle: boolean;
  /** ids of the student's authorised pick-up people */
  pickupIds: readonly number[];
}

/** Why a command is refused: message keys of messages/. */
export type FlowRefusal =
  | 'flow.already_left'
  | 'flow.on_leave'
  | 'flow.no_shuttle'
  | 'flow.already_picked_up'
  | 'flow.already_entered'
  | 'flow.not_entered'
  | 'flow.already_dinner'
  | 'flow.already_tutoring'
  | 'flow.tutor_not_started'
  | 'flow.already_tutor_ended'
  | 'flow.pickup_not_authorised'
  | 'flow.override_head_only'
  | 'flow.void_head_only'
  | 'flow.void_not_last'
  | 'flow.already_on_leave'
  | 'flow.not_on_leave';

export type Decision = { ok: true; events: Omit<FlowEvent, 'event_id' | 'at' | 'actor'>[] } | { ok: false; reason: FlowRefusal };

const refuse = (reason: FlowRefusal): Decision => ({ ok: false, reason });
const emit = (type: FlowEventType, payload: FlowPayload = {}): Decision => ({ ok: true, events: [{ type, payload }] });

const COMMAND_STEP: Record<StepCommandType, FlowStep> = {
  shuttle: 'picked_up',
  enter: 'entered',
  dinner: 'dinner',
  startTutor: 'tutor_started',
  endTutor: 'tutor_ended',
  leave: 'left',
};

function stateOf(steps: DayState['steps']): FlowState {
  if (steps.left) return 'left';
  if (steps.entered) return 'in_centre';
  if (steps.picked_up) return 'picked_up';
  return 'expected';
}

/** The rules of design.md §4. */
export function decide(day: DayState, cmd: FlowCommand, ctx: CommandContext): Decision {
  const head = ctx.role === Role.HeadTeacher;
  switch (cmd.type) {
    case 'void': {
      if (!head) return refuse('flow.void_head_only');
      const last = day.history[day.history.length - 1];
      if (!last || last.event_id !== cmd.event_id) return refuse('flow.void_not_last');
      return emit('event.voided', { voided_event_id: cmd.event_id, voided_type: last.type, reason: cmd.reason });
    }
    case 'markLeave':
      return day.on_leave ? refuse('flow.already_on_leave') : emit('day.leave_approved', { leave_id: cmd.leave_id });
    case 'cancelLeave':
      return day.on_leave ? emit('day.leave_cancelled', { leave_id: cmd.leave_id }) : refuse('flow.not_on_leave');
  }
  if (cmd.override !== undefined && !head) return refuse('flow.override_head_only');
  if (day.state === 'left') return refuse('flow.already_left');
  if (day.on_leave && cmd.override === undefined) return refuse('flow.on_leave');
  const base: FlowPayload = {};
  if (cmd.note) base.note = cmd.note;
  if (cmd.override !== undefined) base.override = cmd.override;
  const step = COMMAND_STEP[cmd.type];
  switch (cmd.type) {
    case 'shuttle':
      if (!ctx.needsShuttle) return refuse('flow.no_shuttle');
      if (day.state === 'picked_up') return refuse('flow.already_picked_up');
      if (day.state === 'in_centre') return refuse('flow.already_entered');
      break;
    case 'enter':
      if (day.state === 'in_centre') return refuse('flow.already_entered');
      break;
    case 'dinner':
      if (day.state !== 'in_centre') return refuse('flow.not_entered');
      if (day.steps.dinner) return refuse('flow.already_dinner');
      break;
    case 'startTutor':
      if (day.state !== 'in_centre') return refuse('flow.not_entered');
      if (day.steps.tutor_started) return refuse('flow.already_tutoring');
      break;
    case 'endTutor':
      if (day.state !== 'in_centre') return refuse('flow.not_entered');
      if (!day.steps.tutor_started) return refuse('flow.tutor_not_started');
      if (day.steps.tutor_ended) return refuse('flow.already_tutor_ended');
      break;
    case 'leave': {
      if (day.state !== 'in_centre') return refuse('flow.not_entered');
      // a verified pick-up code (checked by the API before deciding) authorises by itself: a guardian is no pick-up person
      const authorised = cmd.pickup_verified !== undefined || (cmd.picked_up_by !== null && ctx.pickupIds.includes(cmd.picked_up_by));
      if (!authorised && cmd.override === undefined) return refuse('flow.pickup_not_authorised');
      const verified = cmd.pickup_verified ? { pickup_verified: cmd.pickup_verified } : {};
      return emit(STEP_EVENT.left, { ...base, picked_up_by: cmd.picked_up_by, ...verified });
    }
  }
  return emit(STEP_EVENT[step], base);
}

/** Folds one event into the day. */
export function evolve(day: DayState, e: FlowEvent): DayState {
  const version = day.version + 1;
  if (e.type === 'day.leave_approved') return { ...day, on_leave: true, version };
  if (e.type === 'day.leave_cancelled') return { ...day, on_leave: false, version };
  if (e.type === 'event.voided') {
    const last = day.history[day.history.length - 1];
    if (!last || last.event_id !== e.payload.voided_event_id) return { ...day, version };
    const steps = { ...day.steps };
    const step = stepOf(last.type)!;
    delete steps[step];
    return {
      ...day,
      steps,
      state: stateOf(steps),
      left_with: step === 'left' ? null : day.left_with,
      history: day.history.slice(0, -1),
      version,
    };
  }
  const step = stepOf(e.type);
  if (!step) return { ...day, version };
  const steps = { ...day.steps, [step]: { at: e.at, by: e.actor, event_id: e.event_id } };
  return {
    ...day,
    steps,
    state: stateOf(steps),
    left_with: step === 'left' ? (e.payload.picked_up_by ?? null) : day.left_with,
    history: [...day.history, { event_id: e.event_id, type: e.type as StepEventType }],
    version,
  };
}

export const replay = (events: readonly FlowEvent[]): DayState => events.reduce(evolve, EMPTY_DAY);

/** For buttons: null when the step command would be accepted now, else why not. */
export function refusalOf(day: DayState, type: StepCommandType, ctx: CommandContext, pickedUpBy: number | null = null): FlowRefusal | null {
  const cmd: FlowCommand = type === 'leave' ? { type, picked_up_by: pickedUpBy ?? ctx.pickupIds[0] ?? null } : { type };
  const d = decide(day, cmd, ctx);
  return d.ok ? null : d.reason;
}

/** What boards show: on leave when the child is on approved leave and has not come. */
export const boardState = (day: Pick<DayState, 'state' | 'on_leave'>): FlowState | 'on_leave' =>
  day.on_leave && day.state === 'expected' ? 'on_leave' : day.state;

/** The socket.io server event `flow.event` (design.md §2). */
export interface FlowEventMessage {
  position: number;
  student_id: number;
  class_id: number | null;
  day: string;
  type: FlowEventType;
  state: FlowState | 'on_leave';
  at: string;
  actor: number | null;
}

/**
 * One flow message in `lang`, looked up in the flow module's table only: a phone screen that explains a refused step
 * (`refusalOf`) needs these, not every module's messages (`t` of ./messages carries all of them, ~90 KB).
 */
export function flowText(lang: 'zh-CN' | 'en', key: keyof typeof flowMessages): string {
  const text = flowMessages[key];
  return lang === 'en' ? text.en : text.zh;
}
