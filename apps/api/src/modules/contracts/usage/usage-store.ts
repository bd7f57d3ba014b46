import type { DataSource, EntityManager } from 'typeorm';
import { allocateAll, type CountedContract, type UsageRow } from './allocate';

/**
 * The contract_usage projection (issue 11, item 3): which days used a unit of which day/session contract, and
 * contracts.units_used = the number of those days. Derived from student_days (entered_at is not null: the student
 * entered the centre that day; a voided entry clears it, a leave day never sets it) with the rule of allocate.ts.
 *
 * Scope: active contracts of kind days or sessions. A contract that is no longer active (expired, cancelled) keeps
 * the usage it had when it ended, and the days it holds are not given to another contract.
 */

/** The kinds used up by attendance, as SQL (packages/shared COUNTED_KINDS). */
const COUNTED = `('days', 'sessions')`;

const CONTRACT_COLUMNS = `c.id, c.student_id, c.start_day::text as start_day, c.end_day::text as end_day, c.units_total`;

/**
 * Locks and reads the active counted contracts of the students who have one covering one of the (student, day)
 * pairs $1/$2: only such a day can change an allocation. In id order, so two recomputations lock in the same order.
 */
const LOCK_FOR_DAYS_SQL = `select ${CONTRACT_COLUMNS}
    from contracts c
   where c.status = 'active' and c.kind in ${COUNTED} and c.units_total is not null
     and c.student_id in (
       select a.student_id
         from unnest($1::int[], $2::date[]) as a(student_id, day)
         join contracts k on k.student_id = a.student_id and k.status = 'active' and k.kind in ${COUNTED}
                         and a.day between k.start_day and k.end_day)
   order by c.id
     for update of c`;

/** Locks and reads every active counted contract of the students $1 (the rebuild). */
const LOCK_FOR_STUDENTS_SQL = `select ${CONTRACT_COLUMNS}
    from contracts c
   where c.status = 'active' and c.kind in ${COUNTED} and c.units_total is not null and c.student_id = any($1::int[])
   order by c.id
     for update of c`;

/**
 * The days the students $1 entered the centre between $2 and $3 (per student: the span of their contracts), less
 * the days a contract that is no longer active holds.
 */
const ENTERED_DAYS_SQL = `select sd.student_id, sd.day::text as day
    from unnest($1::int[], $2::date[], $3::date[]) as r(student_id, first_day, last_day)
    join student_days sd on sd.student_id = r.student_id and sd.day between r.first_day and r.last_day
   where sd.entered_at is not null
     and not exists (select 1 from contract_usage u join contracts c on c.id = u.contract_id
                      where u.student_id = sd.student_id and u.day = sd.day and c.status <> 'active')`;

/**
 * One statement: the usage of the locked contracts $1 becomes exactly the rows ($2 contract, $3 day, $4 student):
 * the others are deleted, the missing inserted, and each contract's units_used set to its number of rows where it
 * differs. Answers how many rows went and came and how many contracts changed.
 */
const WRITE_SQL = `with want as (
      select * from unnest($2::int[], $3::date[], $4::int[]) as w(contract_id, day, student_id)
    ), gone as (
      delete from contract_usage u
       where u.contract_id = any($1::int[])
         and not exists (select 1 from want w where w.contract_id = u.contract_id and w.day = u.day)
      returning 1
    ), came as (
      insert into contract_usage (contract_id, day, student_id)
      select contract_id, day, student_id from want
      on conflict (contract_id, day) do nothing
      returning 1
    ), counted as (
      update contracts c set units_used = n.used
        from (select id, (select count(*) from want w where w.contract_id = id)::int as used from unnest($1::int[]) as id) n
       where c.id = n.id and c.units_used <> n.used
      returning 1
    )
  select (select count(*) from gone)::int as deleted, (select count(*) from came)::int as inserted, (select count(*) from counted)::int as updated`;

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
        ? await em.query(LOCK_FOR_DAYS_SQL, [scope.days.map((d) => d.student_id), scope.days.map((d) => d.day)])
        : await em.query(LOCK_FOR_STUDENTS_SQL, [[...scope.students]]);
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
    const days: Array<{ student_id: number; day: string }> = await em.query(ENTERED_DAYS_SQL, [
      students,
      students.map((id) => span.get(id)!.first),
      students.map((id) => span.get(id)!.last),
    ]);
    const rows: UsageRow[] = allocateAll(contracts, days);
    const [written]: Array<{ deleted: number; inserted: number; updated: number }> = await em.query(WRITE_SQL, [
      contracts.map((c) => c.id),
      rows.map((r) => r.contract_id),
      rows.map((r) => r.day),
      rows.map((r) => r.student_id),
    ]);
    return { students: students.length, contracts: contracts.length, ...written, statements: 3 };
  };
  // most flow commands concern students without a days/sessions contract: one plain read, no transaction for them
  const students = 'days' in scope ? [...new Set(scope.days.map((d) => d.student_id))] : [...scope.students];
  const [any]: Array<{ one: number }> = await db.query(
    `select 1 as one from contracts where student_id = any($1::int[]) and status = 'active' and kind in ('days', 'sessions') limit 1`,
    [students],
  );
  if (!any) return { students: 0, contracts: 0, inserted: 0, deleted: 0, updated: 0, statements: 1 };
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
  const ids: Array<{ student_id: number }> = await db.query(
    `select distinct student_id from contracts
      where status = 'active' and kind in ${COUNTED} and ($1::int is null or school_id = $1)
      order by student_id`,
    [opts.schoolId ?? null],
  );
  const total = { students: 0, contracts: 0, inserted: 0, deleted: 0, updated: 0 };
  for (let i = 0; i < ids.length; i += REBUILD_BATCH) {
    const r = await recomputeUsage(db, { students: ids.slice(i, i + REBUILD_BATCH).map((x) => x.student_id) });
    for (const k of Object.keys(total) as Array<keyof typeof total>) total[k] += r[k];
  }
  return total;
}
