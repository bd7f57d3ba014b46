import { FLOW_STEPS, type DayState, type FlowEvent, type FlowEventType, type FlowPayload } from '@wantuo/shared';

/** The columns of the projection, in insert order (a step's time and who did it). */
const STEP_COLUMNS = FLOW_STEPS.flatMap((s) => [`${s}_at`, `${s}_by`]);
export const PROJECTION_COLUMNS = [
  'school_id', 'student_id', 'day', 'class_id', 'state', 'on_leave', ...STEP_COLUMNS, 'left_with', 'version', 'last_position', 'updated_at',
];

/** A projection row of a day (the values of PROJECTION_COLUMNS but updated_at, which the caller gives). */
export function projectionRow(schoolId: number, studentId: number, day: string, classId: number | null, d: DayState, lastPosition: number): unknown[] {
  const steps = FLOW_STEPS.flatMap((s) => [d.steps[s]?.at ?? null, d.steps[s]?.by ?? null]);
  return [schoolId, studentId, day, classId, d.state, d.on_leave, ...steps, d.left_with, d.version, lastPosition];
}

/** A stored event as the state machine folds it. */
export const EVENT_COLUMNS = `e.event_id, e.type, e.payload, e.actor_id as actor, e.occurred_at as at`;
export const toFlowEvent = (r: { event_id: string; type: string; payload: FlowPayload; actor: number | null; at: Date | string }): FlowEvent => ({
  event_id: r.event_id,
  type: r.type as FlowEventType,
  payload: r.payload,
  actor: r.actor,
  at: new Date(r.at).toISOString(),
});

/** An upsert of n projection rows; `updatedAt` is an SQL expression or 'param' for a last parameter per row. */
export function upsertSql(n: number, updatedAt: string): string {
  const width = PROJECTION_COLUMNS.length - (updatedAt === 'param' ? 0 : 1);
  const values = Array.from({ length: n }, (_, r) => {
    const ps = Array.from({ length: width }, (__, c) => `$${r * width + c + 1}`);
    if (updatedAt !== 'param') ps.push(updatedAt);
    return `(${ps.join(', ')})`;
  });
  const updates = PROJECTION_COLUMNS.filter((c) => c !== 'student_id' && c !== 'day').map((c) => `${c} = excluded.${c}`);
  return `insert into student_days (${PROJECTION_COLUMNS.join(', ')}) values ${values.join(', ')}
          on conflict (student_id, day) do update set ${updates.join(', ')}`;
}
