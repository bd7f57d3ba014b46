import type { DataSource } from 'typeorm';
import { BUCKET, KEY } from './contract-buckets';

/**
 * Recomputes contract_counts (the list's counts, kept by triggers on contracts) for one school or all from the
 * contracts themselves: `contracts:rebuild`. Writes to contracts wait while it runs (share lock), so no trigger's
 * change is lost between the delete and the insert. Answers how many count rows differed.
 */
export async function rebuildCounts(db: DataSource, opts: { schoolId?: number } = {}): Promise<{ keys: number; corrected: number }> {
  return db.transaction(async (em) => {
    await em.query(`lock table contracts in share mode`);
    const school = opts.schoolId ?? null;
    const [r]: Array<{ keys: number; corrected: number }> = await em.query(
      `with truth as (select c.school_id, c.package_id, c.status, c.end_day, ${BUCKET('c')} as units_bucket, count(*)::int as n from contracts c where $1::int is null or c.school_id = $1 group by 1, 2, 3, 4, 5),
            kept as (select k.school_id, k.package_id, k.status, k.end_day, k.units_bucket, k.n from contract_counts k
                      where ($1::int is null or k.school_id = $1) and k.n <> 0)
       select (select count(*)::int from truth) as keys,
              (select count(*)::int from (
                select school_id, package_id, status, end_day, units_bucket from (select * from truth except select * from kept) a
                union select school_id, package_id, status, end_day, units_bucket from (select * from kept except select * from truth) b) x) as corrected`,
      [school],
    );
    await em.query(`with gone as (delete from contract_counts where $1::int is null or school_id = $1 returning 1) select count(*) from gone`, [
      school,
    ]);
    await em.query(
      `insert into contract_counts (school_id, package_id, status, end_day, units_bucket, n)
       select ${KEY('c')}, count(*)::int from contracts c where $1::int is null or c.school_id = $1 group by 1, 2, 3, 4, 5`,
      [school],
    );
    return r;
  });
}
