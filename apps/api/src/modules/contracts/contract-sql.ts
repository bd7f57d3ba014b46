import { EXPIRING_DAYS, EXPIRING_UNITS, type ContractExportQuery, type ContractState } from '@wantuo/shared';
import { randomInt } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { containsPattern, prefixPattern, SCHOOL_TODAY } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import { UNITS_BUCKET_MAX } from './contract-buckets';

/**
 * SQL shared by the contract services: the derived state (the SQL twin of contractState in packages/shared), the row
 * columns and joins, the list filters and the history append.
 */

/**
 * The state of a contract on `today` (a date expression) from its stored status, end day and units left (null for a
 * contract without units), as contractState computes it: unpaid, cancelled and expired as stored; an active one is
 * expired past its end or with no units left, expiring within EXPIRING_DAYS of its end or with EXPIRING_UNITS or
 * fewer units left.
 */
export const stateOf = (status: string, endDay: string, left: string, today: string): string => `(case
  when ${status} <> 'active' then ${status}
  when ${today} > ${endDay} or ${left} <= 0 then 'expired'
  when ${endDay} - ${today} < ${EXPIRING_DAYS} or ${left} <= ${EXPIRING_UNITS} then 'expiring'
  else 'active' end)`;

/** The state of the contract `c` (see stateOf). */
export const stateSql = (c: string, today: string): string => stateOf(`${c}.status`, `${c}.end_day`, `(${c}.units_total - ${c}.units_used)`, today);

/** contract_counts keeps units left only up to UNITS_BUCKET_MAX: enough while "expiring" starts below it. */
if (EXPIRING_UNITS >= UNITS_BUCKET_MAX)
  throw new Error('contract_counts cannot tell expiring contracts apart: raise UNITS_BUCKET_MAX in a migration');

/** The state of a contract_counts row `k` (see stateOf): its units bucket stands for the units left. */
export const countStateSql = (k: string, today: string): string => stateOf(`${k}.status`, `${k}.end_day`, `${k}.units_bucket`, today);

/**
 * The contracts `c` in `state` on `today`, as a condition the planner can estimate and index (stored status, end
 * day ranges): `stateSql(...) = state` written out. An opaque CASE made it guess a few rows and pick a full scan
 * and sort for a deep page where walking the created-at index reads a few thousand.
 */
export function stateWhere(state: ContractState, c: string, today: string): string {
  const left = `(${c}.units_total - ${c}.units_used)`;
  const over = `(${c}.end_day < ${today} or coalesce(${left} <= 0, false))`;
  const soon = `(${c}.end_day < ${today} + ${EXPIRING_DAYS} or coalesce(${left} <= ${EXPIRING_UNITS}, false))`;
  switch (state) {
    case 'unpaid':
    case 'cancelled':
      return `${c}.status = '${state}'`;
    case 'expired':
      return `(${c}.status = 'expired' or (${c}.status = 'active' and ${over}))`;
    case 'expiring':
      return `(${c}.status = 'active' and not ${over} and ${soon})`;
    case 'active':
      return `(${c}.status = 'active' and not ${over} and not ${soon})`;
  }
}

/** A ContractRow (`c` the contract, `d.today` the school's day). */
export const ROW_COLUMNS = `c.id, c.no, c.student_id, st.name as student_name, cc.name as class_name, c.package_id, p.name as package_name, c.kind,
  to_char(c.start_day, 'YYYY-MM-DD') as start_day, to_char(c.end_day, 'YYYY-MM-DD') as end_day, c.units_total, c.units_used,
  case when c.units_total is null then null else greatest(0, c.units_total - c.units_used) end as units_left,
  c.price_fen::float8 as price_fen, c.list_price_fen::float8 as list_price_fen, c.paid_fen::float8 as paid_fen,
  c.refunded_fen::float8 as refunded_fen, c.status, ${stateSql('c', 'd.today')} as state, c.auto_renew, g.name as guardian_name,
  c.renewed_from, c.created_at, c.version`;

/** The joins of ROW_COLUMNS after `from contracts c`. */
export const ROW_JOINS = `cross join ${SCHOOL_TODAY} d
  join students st on st.id = c.student_id
  join contract_packages p on p.id = c.package_id
  left join users g on g.id = c.guardian_id
  left join care_class_students ccs on ccs.student_id = c.student_id
  left join care_classes cc on cc.id = ccs.class_id and cc.deleted_at is null`;

/**
 * The where-clause of the list filters (`c` the contract, `d.today` the school's day; $1 is the school), without the
 * state (which the counts leave out) unless `withState`.
 */
export function listWhere(f: ContractExportQuery, withState: boolean): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length + 1}`;
  };
  const conds = ['c.school_id = $1'];
  if (withState && f.state) conds.push(stateWhere(f.state, 'c', 'd.today'));
  if (f.student_id) conds.push(`c.student_id = ${p(f.student_id)}`);
  if (f.package_id) conds.push(`c.package_id = ${p(f.package_id)}`);
  // the class's students as an array: an index lookup of their contracts (as `in (select …)` the planner hashed the
  // class and scanned the school's contracts)
  if (f.class_id) conds.push(`c.student_id = any(array(select fc.student_id from care_class_students fc where fc.class_id = ${p(f.class_id)}))`);
  if (f.end_from) conds.push(`c.end_day >= ${p(f.end_from)}::date`);
  if (f.end_to) conds.push(`c.end_day <= ${p(f.end_to)}::date`);
  if (f.keyword) {
    // A contract number is HT + the day + more, all upper case. A keyword that starts with HT is matched against the
    // numbers that start with it (a whole number or its beginning), a range of contracts_school_no_idx (btree): the
    // trigram index took 25 ms for a whole number at 100,000 contracts (the trigrams of HT2026… and 000 are in nearly
    // every number). Any other piece of 3 or more letters and digits is matched anywhere in the number (trigram index).
    const no = f.keyword.toUpperCase();
    if (/^HT\d[A-Z0-9]*$/.test(no)) {
      // HT and a digit, which no name holds: the numbers only (the names' trigram index took 4 ms more for nothing)
      conds.push(`c.no like ${p(prefixPattern(no))}`);
    } else {
      // the contracts of the school's students whose name holds the keyword (trigram index), and those whose number
      // matches it, as a set of ids
      const byName = `select k.id from students ks join contracts k on k.student_id = ks.id where ks.school_id = $1 and ks.name ilike ${p(containsPattern(f.keyword))}`;
      const byNo = !/^[A-Za-z0-9]{3,}$/.test(f.keyword)
        ? ''
        : ` union all select k.id from contracts k where k.school_id = $1 and k.no like ${p(no.startsWith('HT') ? prefixPattern(no) : containsPattern(no))}`;
      conds.push(`c.id in (${byName}${byNo})`);
    }
  }
  return { where: conds.join(' and '), params };
}

export type EventType = 'signed' | 'paid' | 'edited' | 'renewed' | 'cancelled' | 'refunded';

/** Appends one entry to a contract's history (append-only: never updated). */
export async function appendEvent(
  em: EntityManager,
  e: { schoolId: number; contractId: number; type: EventType; data?: Record<string, unknown>; reason?: string | null; actorId: number | null },
): Promise<void> {
  await em.query(`insert into contract_events (school_id, contract_id, type, data, reason, actor_id) values ($1, $2, $3, $4, $5, $6)`, [
    e.schoolId,
    e.contractId,
    e.type,
    JSON.stringify(e.data ?? {}),
    e.reason ?? null,
    e.actorId,
  ]);
}

/** A contract as the writers see it (locked). */
export interface LockedContract {
  id: number;
  school_id: number;
  no: string;
  student_id: number;
  package_id: number;
  kind: 'term' | 'month' | 'days' | 'sessions';
  start_day: string;
  end_day: string;
  units_total: number | null;
  units_used: number;
  list_price_fen: number;
  price_fen: number;
  paid_fen: number;
  refunded_fen: number;
  status: 'unpaid' | 'active' | 'expired' | 'cancelled';
  auto_renew: boolean;
  guardian_id: number | null;
  pay_method: string | null;
  remark: string | null;
  version: number;
  today: string;
}

export const LOCK_COLUMNS = `c.id, c.school_id, c.no, c.student_id, c.package_id, c.kind, to_char(c.start_day, 'YYYY-MM-DD') as start_day,
  to_char(c.end_day, 'YYYY-MM-DD') as end_day, c.units_total, c.units_used, c.list_price_fen::float8 as list_price_fen,
  c.price_fen::float8 as price_fen, c.paid_fen::float8 as paid_fen, c.refunded_fen::float8 as refunded_fen, c.status, c.auto_renew,
  c.guardian_id, c.pay_method, c.remark, c.version, to_char(d.today, 'YYYY-MM-DD') as today`;

/** One of the school's contracts, locked for update (`contracts.not_found` otherwise), with the school's day. */
export async function lockContract(em: EntityManager, schoolId: number, id: number, lock = true): Promise<LockedContract> {
  const [c]: LockedContract[] = await em.query(
    `select ${LOCK_COLUMNS} from contracts c cross join ${SCHOOL_TODAY} d where c.school_id = $1 and c.id = $2${lock ? ' for update of c' : ''}`,
    [schoolId, id],
  );
  if (!c) throw new AppError('contracts.not_found');
  return c;
}

const NO_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A contract number: HT + the school's day (yyyymmdd) + 6 random characters. */
export function newContractNo(today: string): string {
  let tail = '';
  for (let i = 0; i < 6; i++) tail += NO_CHARS[randomInt(NO_CHARS.length)];
  return `HT${today.replace(/-/g, '')}${tail}`;
}
