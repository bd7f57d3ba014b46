import { evolve, EMPTY_DAY, type DayState, type FlowPayload } from '@wantuo/shared';
import type { DataSource, EntityManager } from 'typeorm';
import { clearDays, eventsAfter, lockEvents, rewriteDays, type RebuildEventRow } from './flow-command.repository';
import { projectionRow, toFlowEvent } from './flow-store';

/** Events read per round trip, and projection rows written per insert. */
const READ_BATCH = 5_000;
const WRITE_BATCH = 1_000;

/**
 * Rebuilds the student_days projection from flow_events (design.md §4), for one school or all: deletes the rows
 * and replays the events in stream order (student, day, version), reading in keyset batches and writing the
 * projection in set-based inserts (unnest). Runs in one transaction that holds off appends meanwhile (share lock), so the
 * result is the live projection of that moment. Answers how many events and student-days it went through.
 */
export async function rebuildProjection(db: DataSource, opts: { schoolId?: number } = {}): Promise<{ events: number; days: number }> {
  return db.transaction((em) => rebuildProjectionIn(em, opts));
}

/** rebuildProjection inside the caller's transaction (the demo seed writes its history and projects it at once). */
export async function rebuildProjectionIn(em: EntityManager, opts: { schoolId?: number } = {}): Promise<{ events: number; days: number }> {
  await lockEvents(em);
  const school = opts.schoolId ?? null;
  await clearDays(em, school);
  const pending: unknown[][] = [];
  let events = 0;
  let days = 0;
  let cur = null as { key: string; row: RebuildEventRow; state: DayState } | null;
  const flushDay = async () => {
    if (!cur) return;
    const r = cur.row;
    pending.push([...projectionRow(r.school_id, r.student_id, r.day, r.class_id, cur.state), Number(r.position), r.recorded_at]);
    days++;
    if (pending.length >= WRITE_BATCH) await write(em, pending.splice(0));
  };
  let after: [number, string, number] = [0, '0001-01-01', 0];
  for (;;) {
    const rows = await eventsAfter(em, school, after, READ_BATCH);
    for (const row of rows) {
      const key = `${row.student_id}:${row.day}`;
      if (cur?.key !== key) {
        await flushDay();
        cur = { key, row, state: EMPTY_DAY };
      }
      cur.state = evolve(cur.state, toFlowEvent({ ...row, payload: row.payload as FlowPayload }));
      cur.row = row;
      events++;
    }
    if (rows.length < READ_BATCH) break;
    const last = rows[rows.length - 1];
    after = [last.student_id, last.day, last.version];
  }
  await flushDay();
  await write(em, pending);
  return { events, days };
}

async function write(em: EntityManager, rows: unknown[][]): Promise<void> {
  if (rows.length) await rewriteDays(em, rows);
}
