import {
  decide,
  EMPTY_DAY,
  evolve,
  refusalOf,
  replay,
  boardState,
  type CommandContext,
  type DayState,
  type FlowCommand,
  type FlowEvent,
  type FlowRefusal,
  type StepCommandType,
} from './flow';
import { Role } from './roles';

const teacher: CommandContext = { role: Role.Teacher, needsShuttle: true, pickupIds: [7, 8] };
const head: CommandContext = { ...teacher, role: Role.HeadTeacher };

let n = 0;
/** Applies commands in order (each must be accepted) and returns the day. */
function run(cmds: FlowCommand[], ctx = teacher, from: DayState = EMPTY_DAY): DayState {
  return cmds.reduce((day, cmd) => {
    const d = decide(day, cmd, ctx);
    if (!d.ok) throw new Error(`${cmd.type} refused: ${d.reason}`);
    return d.events.reduce(
      (acc, e) => evolve(acc, { ...e, event_id: `e${++n}`, at: new Date(1_700_000_000_000 + n * 60_000).toISOString(), actor: 1 }),
      day,
    );
  }, from);
}

const S = (type: Exclude<StepCommandType, 'leave'>): FlowCommand => ({ type });
const LEAVE: FlowCommand = { type: 'leave', picked_up_by: 7 };

/** The days a student can be in, by the steps taken so far. */
const DAYS: Record<string, DayState> = {
  expected: EMPTY_DAY,
  picked_up: run([S('shuttle')]),
  entered: run([S('enter')]),
  shuttled_and_entered: run([S('shuttle'), S('enter')]),
  dinner: run([S('enter'), S('dinner')]),
  tutoring: run([S('enter'), S('startTutor')]),
  tutored: run([S('enter'), S('startTutor'), S('endTutor')]),
  left: run([S('enter'), LEAVE]),
  on_leave: run([{ type: 'markLeave', leave_id: 1 }]),
};

type Row = [day: keyof typeof DAYS, cmd: StepCommandType, expected: FlowRefusal | 'ok'];
const TABLE: Row[] = [
  ['expected', 'shuttle', 'ok'],
  ['expected', 'enter', 'ok'],
  ['expected', 'dinner', 'flow.not_entered'],
  ['expected', 'startTutor', 'flow.not_entered'],
  ['expected', 'endTutor', 'flow.not_entered'],
  ['expected', 'leave', 'flow.not_entered'],
  ['picked_up', 'shuttle', 'flow.already_picked_up'],
  ['picked_up', 'enter', 'ok'],
  ['picked_up', 'dinner', 'flow.not_entered'],
  ['picked_up', 'startTutor', 'flow.not_entered'],
  ['picked_up', 'endTutor', 'flow.not_entered'],
  ['picked_up', 'leave', 'flow.not_entered'],
  ['entered', 'shuttle', 'flow.already_entered'],
  ['entered', 'enter', 'flow.already_entered'],
  ['entered', 'dinner', 'ok'],
  ['entered', 'startTutor', 'ok'],
  ['entered', 'endTutor', 'flow.tutor_not_started'],
  ['entered', 'leave', 'ok'],
  ['shuttled_and_entered', 'shuttle', 'flow.already_entered'],
  ['shuttled_and_entered', 'leave', 'ok'],
  ['dinner', 'dinner', 'flow.already_dinner'],
  ['dinner', 'startTutor', 'ok'],
  ['dinner', 'leave', 'ok'],
  ['tutoring', 'startTutor', 'flow.already_tutoring'],
  ['tutoring', 'endTutor', 'ok'],
  ['tutoring', 'dinner', 'ok'],
  ['tutored', 'endTutor', 'flow.already_tutor_ended'],
  ['tutored', 'startTutor', 'flow.already_tutoring'],
  ['tutored', 'leave', 'ok'],
  ['left', 'shuttle', 'flow.already_left'],
  ['left', 'enter', 'flow.already_left'],
  ['left', 'dinner', 'flow.already_left'],
  ['left', 'startTutor', 'flow.already_left'],
  ['left', 'endTutor', 'flow.already_left'],
  ['left', 'leave', 'flow.already_left'],
  ['on_leave', 'shuttle', 'flow.on_leave'],
  ['on_leave', 'enter', 'flow.on_leave'],
  ['on_leave', 'dinner', 'flow.on_leave'],
  ['on_leave', 'startTutor', 'flow.on_leave'],
  ['on_leave', 'endTutor', 'flow.on_leave'],
  ['on_leave', 'leave', 'flow.on_leave'],
];

describe('decide: every step command in every state', () => {
  it.each(TABLE)('%s + %s → %s', (day, cmd, expected) => {
    const command: FlowCommand = cmd === 'leave' ? LEAVE : S(cmd);
    const d = decide(DAYS[day], command, teacher);
    expect(d.ok ? 'ok' : d.reason).toBe(expected);
    expect(refusalOf(DAYS[day], cmd, teacher) ?? 'ok').toBe(expected);
  });
});

describe('rules with context', () => {
  it('shuttle only for students with shuttle in their settings', () => {
    expect(decide(EMPTY_DAY, S('shuttle'), { ...teacher, needsShuttle: false })).toEqual({ ok: false, reason: 'flow.no_shuttle' });
  });

  it('leaving needs an authorised pick-up person; a head teacher may override with a reason', () => {
    const day = DAYS.entered;
    expect(decide(day, { type: 'leave', picked_up_by: 99 }, teacher)).toEqual({ ok: false, reason: 'flow.pickup_not_authorised' });
    expect(decide(day, { type: 'leave', picked_up_by: null }, head)).toEqual({ ok: false, reason: 'flow.pickup_not_authorised' });
    expect(decide(day, { type: 'leave', picked_up_by: 99, override: '爷爷临时来接，已电话确认' }, teacher)).toEqual({
      ok: false,
      reason: 'flow.override_head_only',
    });
    const d = decide(day, { type: 'leave', picked_up_by: 99, override: '爷爷临时来接，已电话确认' }, head);
    expect(d).toEqual({ ok: true, events: [{ type: 'student.left', payload: { override: '爷爷临时来接，已电话确认', picked_up_by: 99 } }] });
  });

  it('a leave day refuses flow events unless a head teacher overrides', () => {
    expect(decide(DAYS.on_leave, { type: 'enter', override: '家长临时送来' }, head)).toMatchObject({ ok: true });
    expect(decide(DAYS.on_leave, { type: 'enter', override: '家长临时送来' }, teacher)).toEqual({ ok: false, reason: 'flow.override_head_only' });
  });

  it('leave approval and cancellation', () => {
    expect(decide(EMPTY_DAY, { type: 'cancelLeave', leave_id: 1 }, teacher)).toEqual({ ok: false, reason: 'flow.not_on_leave' });
    expect(decide(DAYS.on_leave, { type: 'markLeave', leave_id: 2 }, teacher)).toEqual({ ok: false, reason: 'flow.already_on_leave' });
    const cancelled = run([{ type: 'cancelLeave', leave_id: 1 }], teacher, DAYS.on_leave);
    expect(cancelled.on_leave).toBe(false);
    expect(decide(cancelled, S('enter'), teacher).ok).toBe(true);
  });
});

describe('voids: a compensating event takes back the latest step', () => {
  it('only a head teacher, only the latest record', () => {
    const day = DAYS.dinner;
    const [entered, dinner] = day.history;
    expect(decide(day, { type: 'void', event_id: dinner.event_id, reason: '误点' }, teacher)).toEqual({ ok: false, reason: 'flow.void_head_only' });
    expect(decide(day, { type: 'void', event_id: entered.event_id, reason: '误点' }, head)).toEqual({ ok: false, reason: 'flow.void_not_last' });
    const after = run([{ type: 'void', event_id: dinner.event_id, reason: '误点' }], head, day);
    expect(after.state).toBe('in_centre');
    expect(after.steps.dinner).toBeUndefined();
    expect(after.history).toEqual([entered]);
    expect(decide(after, S('dinner'), teacher).ok).toBe(true);
  });

  it('voiding the leaving brings the child back in the centre', () => {
    const day = DAYS.left;
    const after = run([{ type: 'void', event_id: day.history[1].event_id, reason: '点错了学生' }], head, day);
    expect(after).toMatchObject({ state: 'in_centre', left_with: null });
  });

  it('voiding the arrival of a shuttled child returns to picked up', () => {
    const day = DAYS.shuttled_and_entered;
    expect(run([{ type: 'void', event_id: day.history[1].event_id, reason: 'x' }], head, day).state).toBe('picked_up');
  });
});

describe('evolve', () => {
  it('records time, actor and pick-up person of each step, and counts versions', () => {
    const day = DAYS.left;
    expect(day.state).toBe('left');
    expect(day.left_with).toBe(7);
    expect(day.steps.entered).toMatchObject({ by: 1, event_id: expect.any(String), at: expect.any(String) });
    expect(day.version).toBe(2);
  });

  it('replay of the stream equals the folded day', () => {
    const events: FlowEvent[] = [
      { event_id: 'a', type: 'student.entered', at: '2026-11-22T08:00:00Z', actor: 2, payload: {} },
      { event_id: 'b', type: 'student.dinner_confirmed', at: '2026-11-22T09:00:00Z', actor: 2, payload: {} },
      { event_id: 'c', type: 'event.voided', at: '2026-11-22T09:01:00Z', actor: 5, payload: { voided_event_id: 'b', reason: 'x' } },
    ];
    expect(replay(events)).toEqual({
      state: 'in_centre',
      on_leave: false,
      steps: { entered: { at: '2026-11-22T08:00:00Z', by: 2, event_id: 'a' } },
      left_with: null,
      history: [{ event_id: 'a', type: 'student.entered' }],
      version: 3,
    });
  });

  it('boards show on leave only while the child has not come', () => {
    expect(boardState(DAYS.on_leave)).toBe('on_leave');
    expect(boardState(run([{ type: 'enter', override: '来了' }], head, DAYS.on_leave))).toBe('in_centre');
  });
});
