import { EXPIRING_DAYS, EXPIRING_UNITS, type ContractState } from '@wantuo/shared';
import { randomInt } from 'node:crypto';
import { UNITS_BUCKET_MAX } from './contract-buckets';

/**
 * The derived state as an SQL text fragment (the SQL twin of contractState in packages/shared), for the students
 * module's SQL text and the spec that checks it against contractState; the contracts module's own statements use
 * the typed twins (contracts.repository.ts contractState, stateIs).
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

const NO_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A contract number: HT + the school's day (yyyymmdd) + 6 random characters. */
export function newContractNo(today: string): string {
  let tail = '';
  for (let i = 0; i < 6; i++) tail += NO_CHARS[randomInt(NO_CHARS.length)];
  return `HT${today.replace(/-/g, '')}${tail}`;
}
