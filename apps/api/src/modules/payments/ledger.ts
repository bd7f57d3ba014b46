/**
 * A school's balance (design.md §5a): the moves and the ledger entries, for every module that takes or gives back
 * balance money. The statements are in payments-ledger.repository.ts (typed by the schema).
 */
export { entryByKey, lockSchool, postEntry, type LedgerMove, type LockedSchool, type PostedEntry } from './payments-ledger.repository';

/**
 * The columns of a ledger entry as lists show it (`e` the entry, `u` who made it), as SQL text for the school
 * module's own statements.
 */
export const LEDGER_COLUMNS = `e.id::int as id, e.type, e.amount_fen::float8 as amount_fen, e.balance_after_fen::float8 as balance_after_fen,
  e.ref_kind, e.ref_id, e.note, e.actor_id, u.name as actor_name, e.created_at`;
