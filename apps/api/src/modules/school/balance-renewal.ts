import { DEFAULT_PRICE_FEN, PERIOD_MONTHS, type RenewalPeriod } from '@wantuo/shared';
import type { DataSource } from 'typeorm';
import { isUniqueViolation } from '../../core/database/sql-kit';

/** An ISO instant with milliseconds in UTC, as JSON.stringify writes a Date (what payments.meta holds). */
const ISO = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A renewal paid from the balance as ONE statement (autocommit: atomic on its own), so the school's row is locked for
 * one statement instead of a transaction of round trips through the API, which is what queues a school's payments:
 *  - `s` locks the school and reads its newest row (READ COMMITTED re-reads a row it waited for): the price of the
 *    period (the operator's, else the list price), the balance, the new expiry from the later of now and the current
 *    one, by calendar months on the school's wall clock (its `timezone`) with month ends clamped, exactly as
 *    `renewedUntil` in packages/shared (PostgreSQL's timestamp + months clamps the same way; renewal.spec.ts' table);
 *  - `prior`: the entry this request key already made (a retry is answered from it, never charged again);
 *  - `u` debits and extends only when there is no prior entry and the balance covers the price (never below zero);
 *  - `pay` and `e` append the paid payment (what the span bought, for refunds) and the ledger entry.
 * A concurrent retry with the same key cannot see the first one's entry in its snapshot: the unique key on
 * (school_id, idempotency_key) fails it, the payment row and debit with it, and it is answered from the entry.
 */
const RENEW_SQL = `
  with s as (
    select id, balance_fen, service_expires_at, timezone,
           coalesce(case when $3 = 'term' then term_price_fen else year_price_fen end, $4)::bigint as amount,
           greatest(now(), coalesce(service_expires_at, now())) as start
      from schools where id = $1 for update
  ),
  r as (
    select s.*, ((s.start at time zone s.timezone) + make_interval(months => $5)) at time zone s.timezone as until from s
  ),
  prior as (select id from ledger_entries where school_id = $1 and idempotency_key = $2),
  u as (
    update schools c set balance_fen = c.balance_fen - r.amount, service_expires_at = r.until, updated_at = now()
      from r where c.id = r.id and c.balance_fen >= r.amount and not exists (select 1 from prior)
    returning c.id, c.balance_fen, r.amount, r.until, r.start, r.service_expires_at as was
  ),
  pay as (
    insert into payments (school_id, out_trade_no, kind, ref_id, description, amount_fen, method, state, meta, created_by, paid_at)
    select u.id, $6, $7, u.id::text, $8, u.amount, 'balance', 'paid',
           jsonb_build_object('period', $3::text, 'from', ${ISO('u.was')}, 'start', ${ISO('u.start')}, 'until', ${ISO('u.until')}), $9, now()
      from u
    returning id
  ),
  e as (
    insert into ledger_entries (school_id, type, amount_fen, balance_after_fen, ref_kind, ref_id, payment_id, actor_id, note, idempotency_key)
    select u.id, 'payment', -u.amount, u.balance_fen, $7, $6, pay.id, $9, $8, $2 from u, pay
    returning id
  )
  select r.id is not null as found, r.balance_fen::float8 as balance_before, r.amount::float8 as amount,
         (select count(*) from prior)::int as prior,
         (select count(*) from e)::int as charged,
         (select balance_fen::float8 from u) as balance_after, (select until from u) as until
    from (select 1) one left join r on true`;

export type BalanceRenewal =
  | { outcome: 'charged'; balance_fen: number; service_expires_at: Date }
  | { outcome: 'retry' }
  | { outcome: 'insufficient'; balance_fen: number; amount_fen: number }
  | { outcome: 'no_school' };

export interface BalanceRenewalInput {
  schoolId: number;
  period: RenewalPeriod;
  /** the ledger's idempotency key of this payment */
  key: string;
  outTradeNo: string;
  kind: string;
  description: string;
  actorId: number;
}

/** Pays a renewal from the balance in one statement (RENEW_SQL); a retry of a key already charged answers 'retry'. */
export async function renewFromBalance(db: DataSource, i: BalanceRenewalInput): Promise<BalanceRenewal> {
  let row: {
    found: boolean;
    balance_before: number | null;
    amount: number | null;
    prior: number;
    charged: number;
    balance_after: number | null;
    until: Date | null;
  };
  try {
    [row] = await db.query(RENEW_SQL, [
      i.schoolId,
      i.key,
      i.period,
      DEFAULT_PRICE_FEN[i.period],
      PERIOD_MONTHS[i.period],
      i.outTradeNo,
      i.kind,
      i.description,
      i.actorId,
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) return { outcome: 'retry' };
    throw err;
  }
  if (!row.found) return { outcome: 'no_school' };
  if (row.prior > 0) return { outcome: 'retry' };
  if (row.charged === 0) return { outcome: 'insufficient', balance_fen: row.balance_before!, amount_fen: row.amount! };
  return { outcome: 'charged', balance_fen: row.balance_after!, service_expires_at: new Date(row.until!) };
}
