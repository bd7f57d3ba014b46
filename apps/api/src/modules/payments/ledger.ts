import type { LedgerType } from '@wantuo/shared';
import type { EntityManager } from 'typeorm';

/** One money move on a school's balance (design.md §5a). */
export interface LedgerMove {
  schoolId: number;
  type: LedgerType;
  /** signed fen: positive credits the school, negative debits it */
  amountFen: number;
  refKind: string | null;
  refId: string | null;
  paymentId: number | null;
  actorId: number | null;
  note: string | null;
  /** unique per school: the same key never moves money twice */
  key: string;
}

export interface PostedEntry {
  id: number;
  balance_after_fen: number;
  created_at: Date;
}

/** The columns of a ledger entry as lists show it (`e` the entry, `u` who made it). */
export const LEDGER_COLUMNS = `e.id::int as id, e.type, e.amount_fen::float8 as amount_fen, e.balance_after_fen::float8 as balance_after_fen,
  e.ref_kind, e.ref_id, e.note, e.actor_id, u.name as actor_name, e.created_at`;

/**
 * ONE statement: the balance moves (never below zero: a debit the balance cannot cover changes nothing) and the entry
 * is appended with the balance after it. Atomic on its own; the school's row lock orders concurrent moves.
 */
const POST_SQL = `with s as (
    update schools set balance_fen = balance_fen + $3 where id = $1 and balance_fen + $3 >= 0 returning balance_fen
  )
  insert into ledger_entries (school_id, type, amount_fen, balance_after_fen, ref_kind, ref_id, payment_id, actor_id, note, idempotency_key)
  select $1, $2, $3, s.balance_fen, $4, $5, $6, $7, $8, $9 from s
  returning id::int as id, balance_after_fen::float8 as balance_after_fen, created_at`;

/**
 * Posts a move; answers the entry, or null when a debit exceeds the balance (nothing written). A key already used
 * fails the statement with a unique violation (nothing written either): callers that may be retried look the key up
 * first, under the school's row lock (`lockSchool`), so a retry is answered from the entry it made.
 */
export async function postEntry(em: EntityManager, m: LedgerMove): Promise<PostedEntry | null> {
  const rows: PostedEntry[] = await em.query(POST_SQL, [m.schoolId, m.type, m.amountFen, m.refKind, m.refId, m.paymentId, m.actorId, m.note, m.key]);
  return rows[0] ?? null;
}

/** The entry a key already made, if any. */
export async function entryByKey(em: EntityManager, schoolId: number, key: string): Promise<PostedEntry | null> {
  const rows: PostedEntry[] = await em.query(
    `select id::int as id, balance_after_fen::float8 as balance_after_fen, created_at from ledger_entries where school_id = $1 and idempotency_key = $2`,
    [schoolId, key],
  );
  return rows[0] ?? null;
}

export interface LockedSchool {
  id: number;
  name: string;
  /** the school's zone: its calendar months (renewals) are counted there */
  timezone: string;
  balance_fen: number;
  service_expires_at: Date | null;
  term_price_fen: number | null;
  year_price_fen: number | null;
}

/** Locks the school's row for this transaction: every balance move of a school is ordered by it. */
export async function lockSchool(em: EntityManager, schoolId: number): Promise<LockedSchool | null> {
  const rows: LockedSchool[] = await em.query(
    `select id, name, balance_fen::float8 as balance_fen, service_expires_at, term_price_fen::float8 as term_price_fen,
            year_price_fen::float8 as year_price_fen, timezone
       from schools where id = $1 for update`,
    [schoolId],
  );
  return rows[0] ?? null;
}
