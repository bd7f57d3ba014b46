/**
 * The key of a `contract_counts` row, as the triggers of migration 1764849600000-contract-counts compute it. A migration
 * is history and runtime code does not import from one: this is the runtime's copy, and the contracts spec's rebuild
 * test (counts kept by the triggers = counts recomputed with these) fails when the two differ.
 *
 * The most units left a count key tells apart: its bucket is the units left clamped to 0..UNITS_BUCKET_MAX, enough
 * for the derived state while EXPIRING_UNITS (packages/shared, 3) is below it (contract-sql.ts checks).
 */
export const UNITS_BUCKET_MAX = 4;

/** The units bucket of a contract row `r`: null without units, else its units left clamped to 0..UNITS_BUCKET_MAX. */
export const BUCKET = (r: string) =>
  `case when ${r}.units_total is null then null else least(greatest(${r}.units_total - ${r}.units_used, 0), ${UNITS_BUCKET_MAX}) end`;

/** The count key of a contract row `r`. */
export const KEY = (r: string) => `${r}.school_id, ${r}.package_id, ${r}.status, ${r}.end_day, ${BUCKET(r)}`;
