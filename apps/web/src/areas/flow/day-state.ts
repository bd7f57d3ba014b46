import type { DayState, FlowBoardStudent, StepRecord } from '@wantuo/shared';

const rec = (at: string | null): StepRecord | undefined => (at ? { at, by: null, event_id: '' } : undefined);

/** The state machine's view of a board row, so the phone asks the same rules as the server (refusalOf). */
export function dayOf(s: FlowBoardStudent): DayState {
  return {
    state: s.state,
    on_leave: s.on_leave,
    steps: {
      picked_up: rec(s.picked_up_at),
      entered: rec(s.entered_at),
      dinner: rec(s.dinner_at),
      tutor_started: rec(s.tutor_started_at),
      tutor_ended: rec(s.tutor_ended_at),
      left: rec(s.left_at),
    },
    left_with: s.left_with,
    history: [],
    version: s.version,
  };
}
