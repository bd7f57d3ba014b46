/**
 * The key of a `contract_counts` row is computed by the triggers of migration 1764849600000-contract-counts. A migration
 * is history and runtime code does not import from one: the runtime's copy is contracts-jobs.repository.ts (`bucket`,
 * rewriteCounts), and the contracts spec's rebuild test (counts kept by the triggers = counts recomputed with it) fails
 * when the two differ.
 *
 * The most units left a count key tells apart: its bucket is the units left clamped to 0..UNITS_BUCKET_MAX, enough
 * for the derived state while EXPIRING_UNITS (packages/shared, 3) is below it (contract-sql.ts checks).
 */
export const UNITS_BUCKET_MAX = 4;
