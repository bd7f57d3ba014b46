import type { DataSource } from 'typeorm';
import { countsDiff, lockContractsShared, rewriteCounts } from './contracts-jobs.repository';

/**
 * Recomputes contract_counts (the list's counts, kept by triggers on contracts) for one school or all from the
 * contracts themselves: `contracts:rebuild`. Writes to contracts wait while it runs (share lock), so no trigger's
 * change is lost between the delete and the insert. Answers how many count rows differed.
 */
export async function rebuildCounts(db: DataSource, opts: { schoolId?: number } = {}): Promise<{ keys: number; corrected: number }> {
  return db.transaction(async (em) => {
    await lockContractsShared(em);
    const school = opts.schoolId ?? null;
    const r = await countsDiff(em, school);
    await rewriteCounts(em, school);
    return r;
  });
}
