import { sql } from 'kysely';
import { kdb } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';

/**
 * The SQL of the contract_usage projection (usage/usage-store.ts, issue 38): which days used a unit of which
 * day/session contract, and contracts.units_used. Set-based (unnest, CTEs) with Kysely's `sql` tag where the
 * builder has no word for it; every value a parameter.
 */

/** The kinds used up by attendance (packages/shared COUNTED_KINDS). */
const COUNTED = ['days', 'sessions'];

/** The active counted contracts `c` of the students of `students` (a condition), locked in id order. */
const lockedContracts = (em: Queryable) =>
  kdb(em)
    .selectFrom('contracts as c')
    .select(['c.id', 'c.student_id', 'c.start_day', 'c.end_day', sql<number>`${sql.ref('c.units_total')}`.as('units_total')])
    .where('c.status', '=', 'active')
    .where('c.kind', 'in', COUNTED)
    .where('c.units_total', 'is not', null)
    .orderBy('c.id')
    .forUpdate('c');

/** A contract of the recomputation (locked). */
export type CountedRow = Awaited<ReturnType<ReturnType<typeof lockedContracts>['execute']>>[number];

/**
 * Locks and reads the active counted contracts of the students who have one covering one of the (student, day)
 * pairs: only such a day can change an allocation. In id order, so two recomputations lock in the same order.
 */
export function lockForDays(em: Queryable, students: number[], days: string[]): Promise<CountedRow[]> {
  return lockedContracts(em)
    .where('c.student_id', 'in', (eb) =>
      eb
        .selectFrom(
          sql<{ student_id: number; day: string }>`(select * from unnest(${students}::int[], ${days}::date[]) as a(student_id, day))`.as('a'),
        )
        .innerJoin('contracts as k', (j) =>
          j
            .onRef('k.student_id', '=', 'a.student_id')
            .on('k.status', '=', 'active')
            .on('k.kind', 'in', COUNTED)
            .on(sql<boolean>`a.day between k.start_day and k.end_day`),
        )
        .select('a.student_id'),
    )
    .execute();
}

/** Locks and reads every active counted contract of the students (the rebuild). */
export function lockForStudents(em: Queryable, students: number[]): Promise<CountedRow[]> {
  return lockedContracts(em)
    .where('c.student_id', '=', sql<number>`any(${students}::int[])`)
    .execute();
}

/**
 * The days the students entered the centre between their first and last day (per student: the span of their
 * contracts), less the days a contract that is no longer active holds.
 */
export async function enteredDays(em: Queryable, students: number[], first: string[], last: string[]) {
  const r = await sql<{ student_id: number; day: string }>`select sd.student_id, sd.day::text as day
    from unnest(${students}::int[], ${first}::date[], ${last}::date[]) as r(student_id, first_day, last_day)
    join student_days sd on sd.student_id = r.student_id and sd.day between r.first_day and r.last_day
   where sd.entered_at is not null
     and not exists (select 1 from contract_usage u join contracts c on c.id = u.contract_id
                      where u.student_id = sd.student_id and u.day = sd.day and c.status <> 'active')`.execute(kdb(em));
  return r.rows;
}

/**
 * One statement: the usage of the locked contracts becomes exactly the rows (contract, day, student): the others are
 * deleted, the missing inserted, and each contract's units_used set to its number of rows where it differs. Answers
 * how many rows went and came and how many contracts changed.
 */
export async function writeUsage(
  em: Queryable,
  contracts: number[],
  rows: { contract: number[]; day: string[]; student: number[] },
): Promise<{ deleted: number; inserted: number; updated: number }> {
  const r = await sql<{ deleted: number; inserted: number; updated: number }>`with want as (
      select * from unnest(${rows.contract}::int[], ${rows.day}::date[], ${rows.student}::int[]) as w(contract_id, day, student_id)
    ), gone as (
      delete from contract_usage u
       where u.contract_id = any(${contracts}::int[])
         and not exists (select 1 from want w where w.contract_id = u.contract_id and w.day = u.day)
      returning 1
    ), came as (
      insert into contract_usage (contract_id, day, student_id)
      select contract_id, day, student_id from want
      on conflict (contract_id, day) do nothing
      returning 1
    ), counted as (
      update contracts c set units_used = n.used
        from (select id, (select count(*) from want w where w.contract_id = id)::int as used from unnest(${contracts}::int[]) as id) n
       where c.id = n.id and c.units_used <> n.used
      returning 1
    )
  select (select count(*) from gone)::int as deleted, (select count(*) from came)::int as inserted, (select count(*) from counted)::int as updated`.execute(
    kdb(em),
  );
  return r.rows[0];
}

/** Whether one of the students has an active day/session contract (most have none: no transaction for them). */
export async function anyCounted(em: Queryable, students: number[]): Promise<boolean> {
  const r = await kdb(em)
    .selectFrom('contracts')
    .select(sql.lit(1).as('one'))
    .where('student_id', '=', sql<number>`any(${students}::int[])`)
    .where('status', '=', 'active')
    .where('kind', 'in', COUNTED)
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}

/** The students with an active counted contract (of the school, or all), in id order: the rebuild's batches. */
export async function countedStudents(em: Queryable, school: number | null): Promise<number[]> {
  const r = await kdb(em)
    .selectFrom('contracts')
    .select('student_id')
    .distinct()
    .where('status', '=', 'active')
    .where('kind', 'in', COUNTED)
    .$if(school !== null, (q) => q.where('school_id', '=', school!))
    .orderBy('student_id')
    .execute();
  return r.map((x) => x.student_id);
}

/** The student of a contract of the school, if any. */
export async function studentOfContract(em: Queryable, schoolId: number, id: number): Promise<number | undefined> {
  const r = await kdb(em).selectFrom('contracts').select('student_id').where('id', '=', id).where('school_id', '=', schoolId).executeTakeFirst();
  return r?.student_id;
}
