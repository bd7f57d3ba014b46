import { departureWho, EMPTY_DAY, evolve, type DayState, type DeparturePayload, type FlowPayload } from '@wantuo/shared';
import type { DataSource, EntityManager } from 'typeorm';
import type { Queryable } from '../../core/database/sql-kit';
import { toFlowEvent } from '../flow/flow-store';
import {
  dayEvents,
  dropAllUnbacked,
  dropUnbacked,
  lockDays,
  lockSources,
  nextKeys,
  pickupPeople,
  upsertReports,
  type DayKey,
  type FoldedRow,
} from './reports.repository';

export type { DayKey } from './reports.repository';

/**
 * Recomputes the daily_reports rows of these student-days, set-based: one read of their flow events (folded by the flow's
 * own state machine, so a voided step is gone), one read of the departures' pick-up people, one upsert that also reads
 * the day's comment. A key with neither events nor a comment loses its row. With `lock` (the live
 * path, inside the caller's transaction) the keys are locked first, so two refreshes of a day cannot write out of order.
 */
export async function refreshReports(em: Queryable, keys: readonly DayKey[], opts: { lock?: boolean } = {}): Promise<number> {
  const uniq = [...new Map(keys.map((k) => [`${k.student_id}:${k.day}`, k])).values()].sort(
    (a, b) => a.student_id - b.student_id || a.day.localeCompare(b.day),
  );
  if (!uniq.length) return 0;
  const students = uniq.map((k) => k.student_id);
  const days = uniq.map((k) => k.day);
  if (opts.lock) await lockDays(em, students, days);
  const events = await dayEvents(em, students, days);
  const folded = new Map<string, { state: DayState; class_id: number | null; position: string; payloads: Map<string, FlowPayload> }>();
  for (const row of events) {
    const key = `${row.student_id}:${row.day}`;
    const cur = folded.get(key) ?? { state: EMPTY_DAY, class_id: null, position: '0', payloads: new Map() };
    cur.state = evolve(cur.state, toFlowEvent(row));
    cur.class_id = row.class_id ?? cur.class_id;
    cur.position = row.position;
    cur.payloads.set(row.event_id, row.payload);
    folded.set(key, cur);
  }
  const departures = [...folded.values()].map((f) => (f.state.steps.left ? (f.payloads.get(f.state.steps.left.event_id) ?? {}) : null));
  const pickupIds = [...new Set(departures.map((p) => p?.picked_up_by).filter((id): id is number => typeof id === 'number'))];
  const pickups = new Map<number, { name: string; relation: string }>(
    pickupIds.length ? (await pickupPeople(em, pickupIds)).map((p) => [p.id, p]) : [],
  );
  const rows = uniq.map((k): FoldedRow => {
    const f = folded.get(`${k.student_id}:${k.day}`);
    if (!f) return { student_id: k.student_id, day: k.day, last_position: null };
    const s = f.state.steps;
    const left = s.left ? ((f.payloads.get(s.left.event_id) ?? {}) as DeparturePayload) : null;
    const pickup = left ? departureWho(left, typeof left.picked_up_by === 'number' ? (pickups.get(left.picked_up_by) ?? null) : null) : null;
    return {
      student_id: k.student_id,
      day: k.day,
      class_id: f.class_id,
      state: f.state.state,
      on_leave: f.state.on_leave,
      picked_up_at: s.picked_up?.at ?? null,
      arrived_at: s.entered?.at ?? null,
      arrived_by: s.entered?.by ?? null,
      dinner_at: s.dinner?.at ?? null,
      tutor_started_at: s.tutor_started?.at ?? null,
      tutor_ended_at: s.tutor_ended?.at ?? null,
      left_at: s.left?.at ?? null,
      left_by: s.left?.by ?? null,
      pickup,
      last_position: f.position,
    };
  });
  await dropUnbacked(em, students, days);
  await upsertReports(em, rows);
  return rows.length;
}

/** Keys per refresh of a rebuild. */
const REBUILD_BATCH = 1_000;

/**
 * `reports:rebuild`: recomputes every daily_reports row (one school or all) from flow_events and the comments, in keyset batches through the live path's own refreshReports, and drops rows no event or comment backs.
 * One transaction that holds off flow appends and comment saves meanwhile (share locks), so the result is the live
 * projection of that moment. `sent_at` (when the report's message went out) is kept: it is a fact, not derived.
 */
export async function rebuildReports(db: DataSource, opts: { schoolId?: number } = {}): Promise<{ days: number }> {
  return db.transaction((em) => rebuildReportsIn(em, opts));
}

export async function rebuildReportsIn(em: EntityManager, opts: { schoolId?: number } = {}): Promise<{ days: number }> {
  await lockSources(em);
  const school = opts.schoolId ?? null;
  await dropAllUnbacked(em, school);
  let days = 0;
  let after: [number, string] = [0, '0001-01-01'];
  const keyOf = (k: DayKey) => [k.student_id, k.day] as const;
  const before = (a: DayKey, b: DayKey) => a.student_id < b.student_id || (a.student_id === b.student_id && a.day < b.day);
  for (;;) {
    // the next keys of each source in index order (distinct on the primary keys' prefix stops at the limit)
    const next = (table: 'flow_events' | 'daily_comments'): Promise<DayKey[]> => nextKeys(em, table, school, after, REBUILD_BATCH);
    const [fromEvents, fromComments] = [await next('flow_events'), await next('daily_comments')];
    // only keys up to the smaller last key of a full list are complete in both
    const full = [fromEvents, fromComments].filter((l) => l.length === REBUILD_BATCH).map((l) => l[l.length - 1]);
    const bound = full.reduce<DayKey | null>((m, k) => (!m || before(k, m) ? k : m), null);
    const merged = [...new Map([...fromEvents, ...fromComments].map((k) => [`${k.student_id}:${k.day}`, k])).values()]
      .filter((k) => !bound || !before(bound, k))
      .sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    if (!merged.length) break;
    days += await refreshReports(em, merged);
    const last = merged[merged.length - 1];
    after = [...keyOf(last)];
    if (!full.length) break;
  }
  return { days };
}
