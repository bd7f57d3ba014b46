import type { LedgerType } from '@wantuo/shared';
import { kdb } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';

/**
 * The SQL of a school's balance (issue 38): the one statement that moves it and appends the ledger entry, the entry
 * of a key, the school's row lock that orders the moves. Functions of the transaction they run in (other modules
 * post entries inside their own), re-exported by ledger.ts.
 */

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

const entryOf = (em: Queryable) => kdb(em).selectFrom('ledger_entries').select(['id', 'balance_after_fen', 'created_at']);

/** A posted entry: its id, the balance after it, when. */
export type PostedEntry = NonNullable<Awaited<ReturnType<ReturnType<typeof entryOf>['executeTakeFirst']>>>;

/**
 * ONE statement: the balance moves (never below zero: a debit the balance cannot cover changes nothing) and the entry
 * is appended with the balance after it. Atomic on its own; the school's row lock orders concurrent moves. Answers
 * the entry, or null when a debit exceeds the balance (nothing written). A key already used fails the statement with
 * a unique violation (nothing written either): callers that may be retried look the key up first, under the school's
 * row lock (`lockSchool`), so a retry is answered from the entry it made.
 */
export async function postEntry(em: Queryable, m: LedgerMove): Promise<PostedEntry | null> {
  const r = await kdb(em)
    .with('s', (db) =>
      db
        .updateTable('schools')
        .set((eb) => ({ balance_fen: eb('balance_fen', '+', m.amountFen) }))
        .where('id', '=', m.schoolId)
        .where((eb) => eb(eb('balance_fen', '+', m.amountFen), '>=', 0))
        .returning('balance_fen'),
    )
    .insertInto('ledger_entries')
    .columns(['school_id', 'type', 'amount_fen', 'balance_after_fen', 'ref_kind', 'ref_id', 'payment_id', 'actor_id', 'note', 'idempotency_key'])
    .expression((eb) =>
      eb
        .selectFrom('s')
        .select((s) => [
          s.val(m.schoolId).as('school_id'),
          s.val(m.type).as('type'),
          s.val(m.amountFen).as('amount_fen'),
          's.balance_fen',
          s.val(m.refKind).as('ref_kind'),
          s.val(m.refId).as('ref_id'),
          s.val(m.paymentId).as('payment_id'),
          s.val(m.actorId).as('actor_id'),
          s.val(m.note).as('note'),
          s.val(m.key).as('idempotency_key'),
        ]),
    )
    .returning(['id', 'balance_after_fen', 'created_at'])
    .executeTakeFirst();
  return r ?? null;
}

/** The entry a key already made, if any. */
export async function entryByKey(em: Queryable, schoolId: number, key: string): Promise<PostedEntry | null> {
  const r = await entryOf(em).where('school_id', '=', schoolId).where('idempotency_key', '=', key).executeTakeFirst();
  return r ?? null;
}

const lockedSchool = (em: Queryable, schoolId: number) =>
  kdb(em)
    .selectFrom('schools')
    .select(['id', 'name', 'balance_fen', 'service_expires_at', 'term_price_fen', 'year_price_fen', 'timezone'])
    .where('id', '=', schoolId)
    .forUpdate();

/** The school as its balance moves see it (locked); `timezone`: its calendar months (renewals) are counted there. */
export type LockedSchool = NonNullable<Awaited<ReturnType<ReturnType<typeof lockedSchool>['executeTakeFirst']>>>;

/** Locks the school's row for this transaction: every balance move of a school is ordered by it. */
export async function lockSchool(em: Queryable, schoolId: number): Promise<LockedSchool | null> {
  return (await lockedSchool(em, schoolId).executeTakeFirst()) ?? null;
}
