/**
 * A school's balance (design.md §5a): the moves and the ledger entries, for every module that takes or gives back
 * balance money. The statements are in payments-ledger.repository.ts (typed by the schema).
 */
export { entryByKey, lockSchool, postEntry, type LedgerMove, type LockedSchool, type PostedEntry } from './payments-ledger.repository';
