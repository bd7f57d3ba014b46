import { FLOW_STEPS, STEP_EVENT, type DayState, type FlowEvent, type FlowEventType, type FlowPayload } from '@wantuo/shared';

/** The columns of the projection with their SQL types, in insert order (a step's time and who did it). */
const PROJECTION: ReadonlyArray<readonly [string, string]> = [
  ['school_id', 'int'],
  ['student_id', 'int'],
  ['day', 'date'],
  ['class_id', 'int'],
  ['state', 'text'],
  ['on_leave', 'bool'],
  ...FLOW_STEPS.flatMap(
    (s) =>
      [
        [`${s}_at`, 'timestamptz'],
        [`${s}_by`, 'int'],
      ] as const,
  ),
  ['left_with', 'int'],
  ['version', 'int'],
  ['last_position', 'bigint'],
  ['updated_at', 'timestamptz'],
];
export const PROJECTION_COLUMNS = PROJECTION.map(([c]) => c);

/** A projection row of a day: the values of PROJECTION_COLUMNS up to `version` (no last_position, no updated_at). */
export function projectionRow(schoolId: number, studentId: number, day: string, classId: number | null, d: DayState): unknown[] {
  const steps = FLOW_STEPS.flatMap((s) => [d.steps[s]?.at ?? null, d.steps[s]?.by ?? null]);
  return [schoolId, studentId, day, classId, d.state, d.on_leave, ...steps, d.left_with, d.version];
}

/** Rows to columns: the parameters of an unnest() over `width` columns. */
export const columnsOf = (rows: readonly unknown[][], width: number): unknown[][] => Array.from({ length: width }, (_, c) => rows.map((r) => r[c]));

/** `unnest($k::type[], …) as alias(columns)` over the first `n` projection columns, parameters from `$first`. */
function unnestProjection(n: number, first: number, alias: string): string {
  const cols = PROJECTION.slice(0, n);
  return `unnest(${cols.map(([, type], i) => `$${first + i}::${type}[]`).join(', ')}) as ${alias}(${cols.map(([c]) => c).join(', ')})`;
}

/** insert-or-update of student_days from a select of every PROJECTION_COLUMNS value. */
const upsertDays = (select: string) => `insert into student_days (${PROJECTION_COLUMNS.join(', ')}) ${select}
  on conflict (student_id, day) do update set ${PROJECTION_COLUMNS.filter((c) => c !== 'student_id' && c !== 'day')
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}`;

/** Rebuild: writes whole projection rows; parameters are the PROJECTION_COLUMNS as arrays (columnsOf). */
export const REWRITE_DAYS_SQL = upsertDays(`select * from ${unnestProjection(PROJECTION.length, 1, 'p')}`);

/**
 * The sequence of flow_events.global_position. A writer's transaction has its id before it takes a position (the
 * column's default, migration 1764504000000), which is what lets the live flow tell when every position up to a value
 * read from this sequence is final (modules/live/flow-horizon.ts).
 */
export const POSITION_SEQUENCE = 'flow_events_global_position_seq';

/** The event columns an append writes per event, as arrays (columnsOf); school, day, actor and time are per command. */
export const APPEND_EVENT_WIDTH = 7;
const DAY_WIDTH = PROJECTION.length - 2;

/**
 * One append of a command's events for many students, as ONE statement (atomic without an explicit transaction):
 * the events ($5..$11: event_id, student_id, version, type, payload, class_id, state_after) and, from the same
 * statement, the projection rows of their days ($12.., projectionRow) with last_position = the position of the
 * day's new last event. Optimistic concurrency is the primary key (student_id, day, version): a version someone
 * appended since the streams were read, or an event id already stored, fails the whole statement with 23505 and
 * nothing is written. $1 school, $2 day, $3 actor, $4 time. Answers the new events' positions.
 */
export const APPEND_SQL = `with ev as (
    insert into flow_events (event_id, school_id, student_id, day, version, type, payload, class_id, state_after, actor_id, occurred_at)
    select u.event_id, $1, u.student_id, $2::date, u.version, u.type, u.payload, u.class_id, u.state_after, $3, $4::timestamptz
      from unnest($5::uuid[], $6::int[], $7::int[], $8::text[], $9::jsonb[], $10::int[], $11::text[])
           as u(event_id, student_id, version, type, payload, class_id, state_after)
    returning student_id, version, global_position
  ), days as (
    ${upsertDays(`select p.*, ev.global_position, now() from ${unnestProjection(DAY_WIDTH, 12, 'p')} join ev on ev.student_id = p.student_id and ev.version = p.version`)}
  )
  select student_id, version, global_position::text as position from ev`;

/** A stored event as the state machine folds it. */
export const EVENT_COLUMNS = `e.event_id, e.type, e.payload, e.actor_id as actor, e.occurred_at as at`;
export const toFlowEvent = (r: { event_id: string; type: string; payload: FlowPayload; actor: number | null; at: Date | string }): FlowEvent => ({
  event_id: r.event_id,
  type: r.type as FlowEventType,
  payload: r.payload,
  actor: r.actor,
  at: new Date(r.at).toISOString(),
});

/**
 * The current departure of the student-days of `days` (a relation with student_id, day, left_at) as `alias`: the
 * newest student.left of the day while the projection says the child left (a voided departure clears left_at; a
 * departure after the void is the newer one). One index probe per row (the primary key), in the caller's statement.
 */
export const DEPARTURE_JOIN = (alias: string, days: string) => `left join lateral (
    select e.payload from flow_events e
     where e.student_id = ${days}.student_id and e.day = ${days}.day::date and e.type = '${STEP_EVENT.left}' and ${days}.left_at is not null
     order by e.version desc limit 1
  ) ${alias} on true`;

/** The departure's pick-up columns from DEPARTURE_JOIN: pickup_verified {name, relation, offline} and pickup_override (issue 27). */
export const DEPARTURE_COLUMNS = (alias: string) => `case when jsonb_typeof(${alias}.payload->'pickup_verified') = 'object' then
           json_build_object('name', coalesce(${alias}.payload->'pickup_verified'->>'name', ''),
                             'relation', coalesce(${alias}.payload->'pickup_verified'->>'relation', ''),
                             'offline', coalesce((${alias}.payload->'pickup_verified'->>'offline')::boolean, false)) end as pickup_verified,
         ${alias}.payload->>'override' as pickup_override`;
