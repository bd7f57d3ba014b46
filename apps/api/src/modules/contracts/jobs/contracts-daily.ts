import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DEFAULT_VALID_MONTHS, EXPIRING_DAYS, EXPIRING_UNITS, Role, TERM_MONTHS } from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { GuardianMessages, type GuardianMessage, type StageOptions, type StagedMessages } from '../../messages/guardian-messages.service';

/**
 * The daily contracts job (issue 11, item 4). Every statement below works on all due schools at once (set-based: no
 * query per school or per contract). $1 is the time of the run; a school is due once its local time is 08:00 or later,
 * and `today` is its local date. Each effect has a unique key, so a second run, a later hourly run or a concurrent run
 * on another worker does nothing again:
 *  - a renewal: contracts.renewed_from is unique (`on conflict (renewed_from) do nothing`);
 *  - a reminder: contract_reminders (contract_id, kind) (`on conflict do nothing`);
 *  - an expiry: `update … where status = 'active'` (a concurrent update re-checks the row and skips it).
 * Only the rows a statement inserted or changed come back, and only their guardians are told (GuardianMessages).
 */
const DUE_SCHOOLS = `s as (
    select id, name, timezone, ($1::timestamptz at time zone timezone)::date as today
      from schools
     where status = 1 and ($1::timestamptz at time zone timezone)::time >= time '08:00'
  )`;

/**
 * The guardian to tell: the one who signed, else the student's primary (then first) guardian, one with a mobile
 * first; a parent account either way (GuardianMessages finds their WeChat binding or mobile). `d` has guardian_id and
 * student_id. Only computed for the rows a statement wrote (the messages to send).
 */
const guardianUser = (d: string) => `coalesce(
    (select u.id from users u where u.id = ${d}.guardian_id and u.role = ${Role.Parent} and u.deleted_at is null),
    (select u.id from student_guardians sg join users u on u.id = sg.user_id
      where sg.student_id = ${d}.student_id and u.role = ${Role.Parent} and u.deleted_at is null
      order by sg.is_primary desc, (u.mobile is not null) desc, sg.created_at, u.id limit 1))`;

/**
 * Months a package buys, in SQL: the same rule as contractTerms in packages/shared ($4 TERM_MONTHS, $5
 * DEFAULT_VALID_MONTHS). The end is `start + months - 1 day`; PostgreSQL's `date + interval 'n months'` clamps a month
 * end (Aug 31 + 6 months = Feb 28/29) as addMonthsToDay does.
 */
export const TERM_MONTHS_SQL = `case p.kind when 'term' then p.length * $4::int when 'month' then p.length else coalesce(p.valid_months, $5::int) end`;
export const END_DAY_SQL = (start: string, months: string) => `((${start})::date + make_interval(months => ${months}))::date - 1`;

/**
 * 1. Renewals: active auto-renew contracts that are expiring, or past their end / out of units (they expire in this
 * same run, after this statement), not renewed yet (a cancelled renewal counts as none), whose package is still sold and
 * whose student is still enrolled. The renewal is unpaid, at the package's current price and terms, from
 * renewalStartDay (the day after the end, or today once that is past). Its id is taken from the sequence first so its
 * number (HT + today + R + id, 20 characters) is unique whatever happens: the only key two runs can meet on is
 * renewed_from. Events: 'renewed' on both, 'signed' on the new one.
 */
export const RENEW_SQL = `with ${DUE_SCHOOLS},
  due as (
    select c.id as old_id, c.school_id, c.student_id, c.package_id, c.guardian_id, c.end_day as old_end, s.today, s.name as school,
           p.kind, p.length, p.price_fen, p.name as package, st.name as student,
           greatest(c.end_day + 1, s.today) as start_day, ${TERM_MONTHS_SQL} as months,
           nextval(pg_get_serial_sequence('contracts', 'id')) as new_id
      from contracts c
      join s on s.id = c.school_id
      join contract_packages p on p.id = c.package_id and p.active
      join students st on st.id = c.student_id and st.status = 1
     where c.status = 'active' and c.auto_renew
       and (c.end_day - s.today < $2::int or (c.units_total is not null and c.units_total - c.units_used <= $3::int))
       and not exists (select 1 from contracts r where r.renewed_from = c.id and r.status <> 'cancelled')
  ),
  ins as (
    insert into contracts (id, school_id, no, student_id, package_id, kind, start_day, end_day, units_total,
                           list_price_fen, price_fen, status, auto_renew, guardian_id, renewed_from, remark, created_at, updated_at)
    select new_id, school_id, 'HT' || to_char(today, 'YYYYMMDD') || 'R' || lpad(new_id::text, 9, '0'), student_id, package_id, kind,
           start_day, ${END_DAY_SQL('start_day', 'months')}, case when kind in ('days', 'sessions') then length end,
           price_fen, price_fen, 'unpaid', true, guardian_id, old_id, '自动续约', $1, $1
      from due
    on conflict (renewed_from) do nothing
    returning id, renewed_from, start_day, end_day, units_total, price_fen
  ),
  ev as (
    insert into contract_events (school_id, contract_id, type, data, at)
    select d.school_id, d.old_id, 'renewed', jsonb_build_object('renewal_id', i.id, 'auto', true), $1 from ins i join due d on d.old_id = i.renewed_from
    union all
    select d.school_id, i.id, 'renewed', jsonb_build_object('renewed_from', i.renewed_from, 'auto', true), $1 from ins i join due d on d.old_id = i.renewed_from
    union all
    select d.school_id, i.id, 'signed', jsonb_build_object('package_id', d.package_id, 'kind', d.kind, 'start_day', i.start_day, 'end_day', i.end_day,
           'units_total', i.units_total, 'price_fen', i.price_fen, 'auto', true), $1 from ins i join due d on d.old_id = i.renewed_from
  )
  select i.id, i.renewed_from, d.school_id, d.school, d.student, d.package, ${guardianUser('d')} as user_id, i.price_fen::text as price_fen,
         to_char(i.start_day, 'YYYY"年"FMMM"月"FMDD"日"') as start, to_char(i.end_day, 'YYYY"年"FMMM"月"FMDD"日"') as "end"
    from ins i join due d on d.old_id = i.renewed_from`;

/**
 * 2. Reminders: active contracts that are expiring today (within EXPIRING_DAYS of the end or EXPIRING_UNITS or fewer
 * units left, not yet past it) and not renewed (a renewal, the job's or the admin's, is told by its own message).
 */
export const REMIND_SQL = `with ${DUE_SCHOOLS},
  due as (
    select c.id, c.school_id, c.student_id, c.guardian_id, c.end_day, c.units_total - c.units_used as units_left, s.name as school
      from contracts c
      join s on s.id = c.school_id
     where c.status = 'active' and c.end_day >= s.today and (c.units_total is null or c.units_used < c.units_total)
       and (c.end_day - s.today < $2::int or c.units_total - c.units_used <= $3::int)
       -- already reminded: skipped here cheaply; the key below is what guarantees it under concurrency
       and not exists (select 1 from contract_reminders m where m.contract_id = c.id and m.kind = 'expiring')
       and not exists (select 1 from contracts r where r.renewed_from = c.id and r.status <> 'cancelled')
  ),
  sent as (
    insert into contract_reminders (contract_id, kind, sent_at)
    select id, 'expiring', $1 from due
    on conflict do nothing
    returning contract_id
  ),
  ev as (
    insert into contract_events (school_id, contract_id, type, data, at)
    select d.school_id, d.id, 'reminded', jsonb_build_object('kind', 'expiring', 'end_day', d.end_day, 'units_left', d.units_left), $1
      from sent join due d on d.id = sent.contract_id
  )
  select d.id, d.school_id, d.school, st.name as student, ${guardianUser('d')} as user_id, d.units_left,
         to_char(d.end_day, 'YYYY"年"FMMM"月"FMDD"日"') as date
    from sent join due d on d.id = sent.contract_id join students st on st.id = d.student_id`;

/** 3. Expiry: active contracts past their end, or counted ones with no unit left. */
export const EXPIRE_SQL = `with ${DUE_SCHOOLS},
  ex as (
    update contracts c set status = 'expired', expired_at = $1, updated_at = $1, version = c.version + 1
      from s
     where s.id = c.school_id and c.status = 'active'
       and (c.end_day < s.today or (c.units_total is not null and c.units_used >= c.units_total))
    returning c.id, c.school_id, c.end_day, c.units_total, c.units_used
  ),
  ev as (
    insert into contract_events (school_id, contract_id, type, data, at)
    select school_id, id, 'expired', jsonb_build_object('end_day', end_day, 'units_total', units_total, 'units_used', units_used), $1 from ex
  )
  select count(*)::int as n from ex`;

export interface DailyResult {
  renewed: Array<{ id: number; renewed_from: number; school_id: number }>;
  reminded: Array<{ id: number; school_id: number }>;
  expired: number;
  /** the guardians' messages this run staged (one per renewal and reminder with a guardian to tell) */
  texts: number;
}

interface RenewedRow {
  id: number;
  renewed_from: number;
  school_id: number;
  school: string;
  student: string;
  package: string;
  user_id: number | null;
  price_fen: string;
  start: string;
  end: string;
}
interface RemindedRow {
  id: number;
  school_id: number;
  school: string;
  student: string;
  user_id: number | null;
  units_left: number | null;
  date: string;
}

/**
 * Where the job's messages go: written in the run's transaction (GuardianMessages.stage: WeChat, else SMS, judged at
 * the run's time for the quiet hours), sent after its commit (GuardianMessages.dispatch). The contracts bench hands its
 * own (a GuardianMessages on its connection).
 */
export interface MessageStage<S = StagedMessages> {
  stage(em: Pick<EntityManager, 'query'>, items: GuardianMessage[], opts: StageOptions): Promise<S>;
}

const yuan = (fen: string) => (Number(fen) / 100).toFixed(2).replace(/\.00$/, '');

/**
 * One run of the job, in one transaction: renewals, reminders, expiries, then the guardians' messages of what this run
 * did. Runs are serialised by a transaction-level advisory lock (a second run waits, then finds nothing left to do);
 * the unique keys above are what make every effect happen once even without it (another writer, the admin's
 * renewContract, meets the same renewed_from key). The messages are written in the same transaction (wechat_messages /
 * sms_messages, keyed by contract), so they exist exactly when what they announce does; ContractsDaily.run hands them
 * to the queues after the commit.
 */
export async function runContractsDaily<S>(
  em: Pick<EntityManager, 'query'>,
  messages: MessageStage<S>,
  at: Date,
): Promise<DailyResult & { staged: S }> {
  const params = [at, EXPIRING_DAYS, EXPIRING_UNITS, TERM_MONTHS, DEFAULT_VALID_MONTHS];
  await em.query(`select pg_advisory_xact_lock(hashtext('contracts.daily'))`);
  // the statements' estimated costs pass jit_above_cost at 100,000 contracts, and compiling them took 2 s where they run
  // in 60 ms (apps/api/bench/contracts.bench.mjs)
  await em.query(`set local jit = off`);
  const renewed: RenewedRow[] = await em.query(RENEW_SQL, params);
  const reminded: RemindedRow[] = await em.query(REMIND_SQL, params.slice(0, 3));
  const sends: GuardianMessage[] = [];
  for (const r of renewed) {
    if (!r.user_id) continue;
    const p = { school: r.school, student: r.student, package: r.package, start: r.start, end: r.end, price: yuan(r.price_fen) };
    sends.push({
      school_id: r.school_id,
      user_id: r.user_id,
      kind: 'contract.renewed',
      params: p,
      link: '/parent_contracts',
      key: `contract-renewed-${r.id}`,
    });
  }
  for (const r of reminded) {
    if (!r.user_id) continue;
    const p = { school: r.school, student: r.student, date: r.date, units: r.units_left === null ? '' : String(r.units_left) };
    sends.push({
      school_id: r.school_id,
      user_id: r.user_id,
      kind: 'contract.expiring',
      params: p,
      link: '/parent_contracts',
      key: `contract-expiring-${r.id}-${r.date}`,
    });
  }
  const staged = await messages.stage(em, sends, { now: at });
  const [{ n: expired }]: Array<{ n: number }> = await em.query(EXPIRE_SQL, [at]);
  return {
    renewed: renewed.map(({ id, renewed_from, school_id }) => ({ id, renewed_from, school_id })),
    reminded: reminded.map(({ id, school_id }) => ({ id, school_id })),
    expired,
    texts: sends.length,
    staged,
  };
}

/** The `contracts.daily` job's work (worker, or the API without Redis). */
@Injectable()
export class ContractsDaily {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly messages: GuardianMessages,
  ) {}

  async run(at: Date = new Date()): Promise<DailyResult> {
    const { staged, ...result } = await this.db.transaction((em) => runContractsDaily(em, this.messages, at));
    await this.messages.dispatch(staged);
    return result;
  }
}
