import { evolve, EMPTY_DAY, type DayState } from '@wantuo/shared';
import type { DataSource, EntityManager } from 'typeorm';
import { columnsOf, EVENT_COLUMNS, PROJECTION_COLUMNS, projectionRow, REWRITE_DAYS_SQL, toFlowEvent } from './flow-store';

/** Events read per round trip, and projection rows written per insert. */
const READ_BATCH = 5_000;
const WRITE_BATCH = 1_000;

type EventRow = Parameters<typeof toFlowEvent>[0] & {
  school_id: number;
  student_id: number;
  day: string;
  version: number;
  class_id: number | null;
  position: string;
  recorded_at: Date;
};

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
  await em.query(`lock table flow_events in share mode`);
  const school = opts.schoolId ?? null;
  await em.query(`delete from student_days where $1::int is null or school_id = $1`, [school]);
  const pending: unknown[][] = [];
  let events = 0;
  let days = 0;
  let cur = null as { key: string; row: EventRow; state: DayState } | null;
  const flushDay = async () => {
    if (!cur) return;
    const r = cur.row;
    pending.push([...projectionRow(r.school_id, r.student_id, r.day, r.class_id, cur.state), Number(r.position), r.recorded_at]);
    days++;
    if (pending.length >= WRITE_BATCH) await write(em, pending.splice(0));
  };
  let after: [number, string, number] = [0, '0001-01-01', 0];
  for (;;) {
    const rows: EventRow[] = await em.query(
      `select ${EVENT_COLUMNS}, e.school_id, e.student_id, e.day::text as day, e.version, e.class_id,
              e.global_position::text as position, e.recorded_at
         from flow_events e
        where ($1::int is null or e.school_id = $1) and (e.student_id, e.day, e.version) > ($2::int, $3::date, $4::int)
        order by e.student_id, e.day, e.version
        limit ${READ_BATCH}`,
      [school, ...after],
    );
    for (const row of rows) {
      const key = `${row.student_id}:${row.day}`;
      if (cur?.key !== key) {
        await flushDay();
        cur = { key, row, state: EMPTY_DAY };
      }
      cur.state = evolve(cur.state, toFlowEvent(row));
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
  if (rows.length) await em.query(REWRITE_DAYS_SQL, columnsOf(rows, PROJECTION_COLUMNS.length));
}
