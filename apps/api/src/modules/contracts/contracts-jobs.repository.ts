import { DEFAULT_VALID_MONTHS, EXPIRING_DAYS, EXPIRING_UNITS, Role, StudentStatus, TERM_MONTHS } from '@wantuo/shared';
import { sql, type RawBuilder, type Selectable } from 'kysely';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';
import { UNITS_BUCKET_MAX } from './contract-buckets';

/**
 * The set-based SQL of the contracts module's background work (issue 38): the daily job (renewals, reminders,
 * expiries over every due school at once), the contract_counts rebuild and the contract_usage projection. These are
 * CTE statements (insert … select, unnest, on conflict) written with Kysely's `sql` tag: every value a parameter.
 */

// ------------------------------------------------------------------ the daily job (jobs/contracts-daily.ts)

/**
 * Runs a statement of the daily job on `em` as compiled by Kysely: the job runs on any Queryable, a transaction's
 * EntityManager or the contracts bench's bare connection (bench/contracts.bench.mjs, which times each statement).
 */
async function runOn<R>(em: Queryable, statement: RawBuilder<R>): Promise<R[]> {
  const q = statement.compile(kdb(em));
  return em.query(q.sql, q.parameters as unknown[]) as Promise<R[]>;
}

/**
 * The schools due at `at` as the CTE `s` (id, name, timezone, today): a school is due once its local time is 08:00 or
 * later, and `today` is its local date.
 */
const dueSchools = (at: Date) => sql`s as (
    select id, name, timezone, (${at}::timestamptz at time zone timezone)::date as today
      from schools
     where status = 1 and (${at}::timestamptz at time zone timezone)::time >= time '08:00'
  )`;

/**
 * The guardian to tell: the one who signed, else the student's primary (then first) guardian, one with a mobile
 * first; a parent account either way (GuardianMessages finds their WeChat binding or mobile). `d` has guardian_id and
 * student_id. Only computed for the rows a statement wrote (the messages to send).
 */
const guardianUser = (d: string) => {
  const [guardian, student] = [sql.ref(`${d}.guardian_id`), sql.ref(`${d}.student_id`)];
  return sql`coalesce(
    (select u.id from users u where u.id = ${guardian} and u.role = ${sql.lit(Role.Parent)} and u.deleted_at is null),
    (select u.id from student_guardians sg join users u on u.id = sg.user_id
      where sg.student_id = ${student} and u.role = ${sql.lit(Role.Parent)} and u.deleted_at is null
      order by sg.is_primary desc, (u.mobile is not null) desc, sg.created_at, u.id limit 1))`;
};

/**
 * Months a package `p` buys: the same rule as contractTerms in packages/shared (TERM_MONTHS, DEFAULT_VALID_MONTHS).
 * As SQL text for the job's spec ($4 TERM_MONTHS, $5 DEFAULT_VALID_MONTHS), and typed (termMonths).
 */
export const TERM_MONTHS_SQL = `case p.kind when 'term' then p.length * $4::int when 'month' then p.length else coalesce(p.valid_months, $5::int) end`;
const termMonths = sql`case p.kind when 'term' then p.length * ${TERM_MONTHS}::int when 'month' then p.length else coalesce(p.valid_months, ${DEFAULT_VALID_MONTHS}::int) end`;

/**
 * The end of a period of `months` from `start`: `start + months - 1 day`; PostgreSQL's `date + interval 'n months'`
 * clamps a month end (Aug 31 + 6 months = Feb 28/29) as addMonthsToDay does. As SQL text (the job's spec) and typed.
 */
export const END_DAY_SQL = (start: string, months: string) => `((${start})::date + make_interval(months => ${months}))::date - 1`;
const endDay = (start: RawBuilder<unknown>, months: RawBuilder<unknown>) => sql`((${start})::date + make_interval(months => ${months}))::date - 1`;

type Contract = Selectable<DB['contracts']>;
/** What a guardian's message names: the school, the child, the guardian to tell (none found: null). */
type Told = {
  school: Selectable<DB['schools']>['name'];
  student: Selectable<DB['students']>['name'];
  user_id: Selectable<DB['users']>['id'] | null;
};

/** A renewal the job made (with what its guardian's message says: the price as text, the period as Chinese dates). */
export type RenewedRow = Pick<Contract, 'id' | 'school_id'> &
  Told & {
    renewed_from: NonNullable<Contract['renewed_from']>;
    package: Selectable<DB['contract_packages']>['name'];
    price_fen: string;
    start: string;
    end: string;
  };

/** A reminder the job recorded (with what its guardian's message says: the units left, the end as a Chinese date). */
export type RemindedRow = Pick<Contract, 'id' | 'school_id'> & Told & { units_left: Contract['units_total']; date: string };

/** Runs of the daily job are serialised by a transaction-level advisory lock. */
export async function lockDaily(em: Queryable): Promise<void> {
  await runOn(em, sql`select pg_advisory_xact_lock(hashtext('contracts.daily'))`);
}

/** JIT off for the rest of the transaction. */
export async function jitOff(em: Queryable): Promise<void> {
  await runOn(em, sql`set local jit = off`);
}

/**
 * 1. Renewals: active auto-renew contracts that are expiring, or past their end / out of units (they expire in this
 * same run, after this statement), not renewed yet (a cancelled renewal counts as none), whose package is still sold and
 * whose student is still enrolled. The renewal is unpaid, at the package's current price and terms, from
 * renewalStartDay (the day after the end, or today once that is past). Its id is taken from the sequence first so its
 * number (HT + today + R + id, 20 characters) is unique whatever happens: the only key two runs can meet on is
 * renewed_from. Events: 'renewed' on both, 'signed' on the new one.
 */
export async function renewDue(em: Queryable, at: Date): Promise<RenewedRow[]> {
  return runOn(
    em,
    sql<RenewedRow>`with ${dueSchools(at)},
  due as (
    select c.id as old_id, c.school_id, c.student_id, c.package_id, c.guardian_id, c.end_day as old_end, s.today, s.name as school,
           p.kind, p.length, p.price_fen, p.name as package, st.name as student,
           greatest(c.end_day + 1, s.today) as start_day, ${termMonths} as months,
           nextval(pg_get_serial_sequence('contracts', 'id')) as new_id
      from contracts c
      join s on s.id = c.school_id
      join contract_packages p on p.id = c.package_id and p.active
      join students st on st.id = c.student_id and st.status = ${sql.lit(StudentStatus.Active)}
     where c.status = 'active' and c.auto_renew
       and (c.end_day - s.today < ${EXPIRING_DAYS}::int or (c.units_total is not null and c.units_total - c.units_used <= ${EXPIRING_UNITS}::int))
       and not exists (select 1 from contracts r where r.renewed_from = c.id and r.status <> 'cancelled')
  ),
  ins as (
    insert into contracts (id, school_id, no, student_id, package_id, kind, start_day, end_day, units_total,
                           list_price_fen, price_fen, status, auto_renew, guardian_id, renewed_from, remark, created_at, updated_at)
    select new_id, school_id, 'HT' || to_char(today, 'YYYYMMDD') || 'R' || lpad(new_id::text, 9, '0'), student_id, package_id, kind,
           start_day, ${endDay(sql`start_day`, sql`months`)}, case when kind in ('days', 'sessions') then length end,
           price_fen, price_fen, 'unpaid', true, guardian_id, old_id, '自动续约', ${at}::timestamptz, ${at}::timestamptz
      from due
    on conflict (renewed_from) do nothing
    returning id, renewed_from, start_day, end_day, units_total, price_fen
  ),
  ev as (
    insert into contract_events (school_id, contract_id, type, data, at)
    select d.school_id, d.old_id, 'renewed', jsonb_build_object('renewal_id', i.id, 'auto', true), ${at}::timestamptz from ins i join due d on d.old_id = i.renewed_from
    union all
    select d.school_id, i.id, 'renewed', jsonb_build_object('renewed_from', i.renewed_from, 'auto', true), ${at}::timestamptz from ins i join due d on d.old_id = i.renewed_from
    union all
    select d.school_id, i.id, 'signed', jsonb_build_object('package_id', d.package_id, 'kind', d.kind, 'start_day', i.start_day, 'end_day', i.end_day,
           'units_total', i.units_total, 'price_fen', i.price_fen, 'auto', true), ${at}::timestamptz from ins i join due d on d.old_id = i.renewed_from
  )
  select i.id, i.renewed_from, d.school_id, d.school, d.student, d.package, ${guardianUser('d')} as user_id, i.price_fen::text as price_fen,
         to_char(i.start_day, 'YYYY"年"FMMM"月"FMDD"日"') as start, to_char(i.end_day, 'YYYY"年"FMMM"月"FMDD"日"') as "end"
    from ins i join due d on d.old_id = i.renewed_from`,
  );
}

/**
 * 2. Reminders: active contracts that are expiring today (within EXPIRING_DAYS of the end or EXPIRING_UNITS or fewer
 * units left, not yet past it) and not renewed (a renewal, the job's or the admin's, is told by its own message).
 */
export async function remindDue(em: Queryable, at: Date): Promise<RemindedRow[]> {
  return runOn(
    em,
    sql<RemindedRow>`with ${dueSchools(at)},
  due as (
    select c.id, c.school_id, c.student_id, c.guardian_id, c.end_day, c.units_total - c.units_used as units_left, s.name as school
      from contracts c
      join s on s.id = c.school_id
     where c.status = 'active' and c.end_day >= s.today and (c.units_total is null or c.units_used < c.units_total)
       and (c.end_day - s.today < ${EXPIRING_DAYS}::int or c.units_total - c.units_used <= ${EXPIRING_UNITS}::int)
       -- already reminded: skipped here cheaply; the key below is what guarantees it under concurrency
       and not exists (select 1 from contract_reminders m where m.contract_id = c.id and m.kind = 'expiring')
       and not exists (select 1 from contracts r where r.renewed_from = c.id and r.status <> 'cancelled')
  ),
  sent as (
    insert into contract_reminders (contract_id, kind, sent_at)
    select id, 'expiring', ${at}::timestamptz from due
    on conflict do nothing
    returning contract_id
  ),
  ev as (
    insert into contract_events (school_id, contract_id, type, data, at)
    select d.school_id, d.id, 'reminded', jsonb_build_object('kind', 'expiring', 'end_day', d.end_day, 'units_left', d.units_left), ${at}::timestamptz
      from sent join due d on d.id = sent.contract_id
  )
  select d.id, d.school_id, d.school, st.name as student, ${guardianUser('d')} as user_id, d.units_left,
         to_char(d.end_day, 'YYYY"年"FMMM"月"FMDD"日"') as date
    from sent join due d on d.id = sent.contract_id join students st on st.id = d.student_id`,
  );
}

/** 3. Expiry: active contracts past their end, or counted ones with no unit left. Answers how many expired. */
export async function expireDue(em: Queryable, at: Date): Promise<number> {
  const [r] = await runOn(
    em,
    sql<{ n: number }>`with ${dueSchools(at)},
  ex as (
    update contracts c set status = 'expired', expired_at = ${at}::timestamptz, updated_at = ${at}::timestamptz, version = c.version + 1
      from s
     where s.id = c.school_id and c.status = 'active'
       and (c.end_day < s.today or (c.units_total is not null and c.units_used >= c.units_total))
    returning c.id, c.school_id, c.end_day, c.units_total, c.units_used
  ),
  ev as (
    insert into contract_events (school_id, contract_id, type, data, at)
    select school_id, id, 'expired', jsonb_build_object('end_day', end_day, 'units_total', units_total, 'units_used', units_used), ${at}::timestamptz from ex
  )
  select count(*)::int as n from ex`,
  );
  return r.n;
}

// ------------------------------------------------------------------ contract_counts (contract-counts.ts)

/** The units bucket of the contract `c`: null without units, else its units left clamped to 0..UNITS_BUCKET_MAX. */
const bucket = sql<
  number | null
>`case when c.units_total is null then null else least(greatest(c.units_total - c.units_used, 0), ${sql.lit(UNITS_BUCKET_MAX)}) end`;

/** Writes to contracts wait while the rebuild runs (share lock). */
export async function lockContractsShared(em: Queryable): Promise<void> {
  await sql`lock table contracts in share mode`.execute(kdb(em));
}

/** How many count keys the contracts of the school (or all) make, and how many of them contract_counts has otherwise. */
export async function countsDiff(em: Queryable, school: number | null): Promise<{ keys: number; corrected: number }> {
  const r = await sql<{
    keys: number;
    corrected: number;
  }>`with truth as (select c.school_id, c.package_id, c.status, c.end_day, ${bucket} as units_bucket, count(*)::int as n from contracts c where ${school}::int is null or c.school_id = ${school} group by 1, 2, 3, 4, 5),
            kept as (select k.school_id, k.package_id, k.status, k.end_day, k.units_bucket, k.n from contract_counts k
                      where (${school}::int is null or k.school_id = ${school}) and k.n <> 0)
       select (select count(*)::int from truth) as keys,
              (select count(*)::int from (
                select school_id, package_id, status, end_day, units_bucket from (select * from truth except select * from kept) a
                union select school_id, package_id, status, end_day, units_bucket from (select * from kept except select * from truth) b) x) as corrected`.execute(
    kdb(em),
  );
  return r.rows[0];
}

/** Recomputes the count rows of the school (or all) from the contracts themselves. */
export async function rewriteCounts(em: Queryable, school: number | null): Promise<void> {
  const k = kdb(em);
  await k
    .deleteFrom('contract_counts')
    .$if(school !== null, (q) => q.where('school_id', '=', school!))
    .execute();
  await k
    .insertInto('contract_counts')
    .columns(['school_id', 'package_id', 'status', 'end_day', 'units_bucket', 'n'])
    .expression(
      k
        .selectFrom('contracts as c')
        .select(['c.school_id', 'c.package_id', 'c.status', 'c.end_day', bucket.as('units_bucket'), sql<number>`count(*)::int`.as('n')])
        .$if(school !== null, (q) => q.where('c.school_id', '=', school!))
        .groupBy([sql`1`, sql`2`, sql`3`, sql`4`, sql`5`]),
    )
    .execute();
}
