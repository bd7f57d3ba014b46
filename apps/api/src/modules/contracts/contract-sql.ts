import { EXPIRING_DAYS, EXPIRING_UNITS, type ContractExportQuery, type ContractState } from '@wantuo/shared';
import { randomInt } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { AppError } from '../../core/http/app-error';

/**
 * SQL shared by the contract services: the derived state (the SQL twin of contractState in packages/shared), the row
 * columns and joins, the list filters and the history append.
 */

/** The school's own day ("today" in its timezone) for the school $1, as a date: cross join it as `d`. */
export const SCHOOL_TODAY = `(select (now() at time zone timezone)::date as today from schools where id = $1)`;

/**
 * The state a contract (alias `c`) shows on `today` (a date expression), as contractState computes it: unpaid,
 * cancelled and expired as stored; an active one is expired past its end or with no units left, expiring within
 * EXPIRING_DAYS of its end or with EXPIRING_UNITS or fewer units left.
 */
export const stateSql = (c: string, today: string): string => `(case
  when ${c}.status <> 'active' then ${c}.status
  when ${today} > ${c}.end_day or (${c}.units_total is not null and ${c}.units_used >= ${c}.units_total) then 'expired'
  when ${c}.end_day - ${today} < ${EXPIRING_DAYS} or (${c}.units_total is not null and ${c}.units_total - ${c}.units_used <= ${EXPIRING_UNITS}) then 'expiring'
  else 'active' end)`;

/** The stored statuses a derived state can come from: lets the (school_id, status, end_day) index narrow the scan. */
export const STATUSES_OF: Record<ContractState, string[]> = {
  unpaid: ['unpaid'],
  active: ['active'],
  expiring: ['active'],
  expired: ['active', 'expired'],
  cancelled: ['cancelled'],
};

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

/** Escapes % _ \ for a LIKE pattern. */
const like = (v: string) => v.replace(/[\\%_]/g, (ch) => `\\${ch}`);

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
  if (withState && f.state) {
    conds.push(`c.status = any(${p(STATUSES_OF[f.state])}::text[])`, `${stateSql('c', 'd.today')} = ${p(f.state)}`);
  }
  if (f.student_id) conds.push(`c.student_id = ${p(f.student_id)}`);
  if (f.package_id) conds.push(`c.package_id = ${p(f.package_id)}`);
  if (f.class_id) conds.push(`exists (select 1 from care_class_students fc where fc.student_id = c.student_id and fc.class_id = ${p(f.class_id)})`);
  if (f.end_from) conds.push(`c.end_day >= ${p(f.end_from)}::date`);
  if (f.end_to) conds.push(`c.end_day <= ${p(f.end_to)}::date`);
  if (f.keyword) {
    const kw = p(`%${like(f.keyword)}%`);
    conds.push(`(c.no ilike ${kw} or exists (select 1 from students ks where ks.id = c.student_id and ks.name like ${kw}))`);
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

/** The school's day as YYYY-MM-DD. */
export async function schoolToday(em: Pick<EntityManager, 'query'>, schoolId: number): Promise<string> {
  const [r]: Array<{ today: string }> = await em.query(`select to_char(d.today, 'YYYY-MM-DD') as today from ${SCHOOL_TODAY} d`, [schoolId]);
  return r.today;
}

const NO_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A contract number: HT + the school's day (yyyymmdd) + 6 random characters. */
export function newContractNo(today: string): string {
  let tail = '';
  for (let i = 0; i < 6; i++) tail += NO_CHARS[randomInt(NO_CHARS.length)];
  return `HT${today.replace(/-/g, '')}${tail}`;
}
