import type { DataSource, EntityManager } from 'typeorm';
import { anyCounted, countedStudents, enteredDays, lockForDays, lockForStudents, writeUsage } from '../contracts-usage.repository';
import { allocateAll, type CountedContract, type UsageRow } from './allocate';

/**
 * The contract_usage projection (issue 11, item 3): which days used a unit of which day/session contract, and
 * contracts.units_used = the number of those days. Derived from student_days (entered_at is not null: the student
 * entered the centre that day; a voided entry clears it, a leave day never sets it) with the rule of allocate.ts.
 *
 * Scope: active contracts of kind days or sessions. A contract that is no longer active (expired, cancelled) keeps
 * the usage it had when it ended, and the days it holds are not given to another contract.
 */

export interface RecomputeResult {
  /** students whose usage was recomputed (they have an active counted contract in scope) */
  students: number;
  contracts: number;
  inserted: number;
  deleted: number;
  /** contracts whose units_used changed */
  updated: number;
  /** statements sent (the transaction's begin and commit aside) */
  statements: number;
}

export type RecomputeScope = { days: ReadonlyArray<{ student_id: number; day: string }> } | { students: readonly number[] };

/**
 * Recomputes the usage of a whole batch in one transaction of at most three statements, whatever its size: lock and
 * read the contracts concerned, read the students' entered days, write the difference (allocate.ts decides in
 * between). Idempotent: run again on the same data it writes nothing. The lock on the contracts orders concurrent
 * recomputations of a student, and the days are read after it is taken, so the last one sees the newest days.
 */
export async function recomputeUsage(db: DataSource, scope: RecomputeScope): Promise<RecomputeResult> {
  const run = async (em: EntityManager): Promise<RecomputeResult> => {
    const contracts: CountedContract[] =
      'days' in scope
        ? await lockForDays(
            em,
            scope.days.map((d) => d.student_id),
            scope.days.map((d) => d.day),
          )
        : await lockForStudents(em, [...scope.students]);
    if (!contracts.length) return { students: 0, contracts: 0, inserted: 0, deleted: 0, updated: 0, statements: 1 };
    const span = new Map<number, { first: string; last: string }>();
    for (const c of contracts) {
      const s = span.get(c.student_id);
      if (!s) span.set(c.student_id, { first: c.start_day, last: c.end_day });
      else {
        if (c.start_day < s.first) s.first = c.start_day;
        if (c.end_day > s.last) s.last = c.end_day;
      }
    }
    const students = [...span.keys()];
    const days = await enteredDays(
      em,
      students,
      students.map((id) => span.get(id)!.first),
      students.map((id) => span.get(id)!.last),
    );
    const rows: UsageRow[] = allocateAll(contracts, days);
    const written = await writeUsage(
      em,
      contracts.map((c) => c.id),
      { contract: rows.map((r) => r.contract_id), day: rows.map((r) => r.day), student: rows.map((r) => r.student_id) },
    );
    return { students: students.length, contracts: contracts.length, ...written, statements: 3 };
  };
  // most flow commands concern students without a days/sessions contract: one plain read, no transaction for them
  const students = 'days' in scope ? [...new Set(scope.days.map((d) => d.student_id))] : [...scope.students];
  if (!(await anyCounted(db, students))) return { students: 0, contracts: 0, inserted: 0, deleted: 0, updated: 0, statements: 1 };
  return db.transaction(run);
}

/** Students recomputed per transaction by the rebuild. */
const REBUILD_BATCH = 500;

/**
 * `contracts:rebuild`: recomputes contract_usage and units_used of every active day/session contract (of one school
 * with schoolId) from student_days, REBUILD_BATCH students per transaction, with the same rule and statements as the
 * live projection. Safe while the flow runs (each batch locks its contracts like a live recomputation).
 */
export async function rebuildUsage(db: DataSource, opts: { schoolId?: number } = {}): Promise<Omit<RecomputeResult, 'statements'>> {
  const ids = await countedStudents(db, opts.schoolId ?? null);
  const total = { students: 0, contracts: 0, inserted: 0, deleted: 0, updated: 0 };
  for (let i = 0; i < ids.length; i += REBUILD_BATCH) {
    const r = await recomputeUsage(db, { students: ids.slice(i, i + REBUILD_BATCH) });
    for (const k of Object.keys(total) as Array<keyof typeof total>) total[k] += r[k];
  }
  return total;
}
