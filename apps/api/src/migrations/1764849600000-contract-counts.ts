import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The most units left a count key tells apart: its bucket is the units left clamped to 0..UNITS_BUCKET_MAX, enough
 * for the derived state while EXPIRING_UNITS (packages/shared, 3) is below it (contract-sql.ts checks).
 */
export const UNITS_BUCKET_MAX = 4;

/** The units bucket of a contract row `r`: null without units, else its units left clamped to 0..UNITS_BUCKET_MAX. */
export const BUCKET = (r: string) =>
  `case when ${r}.units_total is null then null else least(greatest(${r}.units_total - ${r}.units_used, 0), ${UNITS_BUCKET_MAX}) end`;

/** The count key of a contract row `r`. */
export const KEY = (r: string) => `${r}.school_id, ${r}.package_id, ${r}.status, ${r}.end_day, ${BUCKET(r)}`;

/**
 * Applies the net change of one statement to contract_counts: +1 per row of `plus`, -1 per row of `minus`, grouped by
 * key. Keys whose net change is zero (an update of units_used inside the same bucket, of a remark, of the version)
 * are not touched, so such updates take no lock on the counts. Upserted in key order: two statements lock the count
 * rows they share in the same order.
 */
const APPLY = (parts: string[]) => `
      insert into contract_counts as k (school_id, package_id, status, end_day, units_bucket, n)
      select school_id, package_id, status, end_day, units_bucket, sum(d)::int
        from (${parts.join(' union all ')}) x (school_id, package_id, status, end_day, units_bucket, d)
       group by 1, 2, 3, 4, 5
      having sum(d) <> 0
       order by 1, 2, 3, 4, 5
      on conflict (school_id, package_id, status, end_day, units_bucket) do update set n = k.n + excluded.n;`;

/**
 * contract_counts: how many contracts a school has per (package, stored status, end day, units bucket), kept by
 * statement-level triggers (transition tables: one set-based upsert per statement, whatever its number of rows) in
 * the same transaction as the change, so it is never behind. The list's counts by state and its total are summed
 * from these rows (a few hundred per school) instead of counting the school's contracts on every request: the
 * derived state ("expiring", "expired" past the end or out of units) is a function of the key and the school's day
 * (contract-sql.ts stateOf), the same as for a contract row. `contracts:rebuild` recomputes it.
 */
export class ContractCounts1764849600000 implements MigrationInterface {
  name = 'ContractCounts1764849600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table contract_counts (
        school_id int not null,
        package_id int not null,
        status varchar(10) not null,
        end_day date not null,
        units_bucket smallint,
        n int not null,
        constraint contract_counts_key unique nulls not distinct (school_id, package_id, status, end_day, units_bucket)
      );

      create function contract_counts_insert() returns trigger language plpgsql as $$
      begin${APPLY([`select ${KEY('r')}, 1 from new_rows r`])}
        return null;
      end $$;
      create function contract_counts_update() returns trigger language plpgsql as $$
      begin${APPLY([`select ${KEY('r')}, 1 from new_rows r`, `select ${KEY('r')}, -1 from old_rows r`])}
        return null;
      end $$;
      create function contract_counts_delete() returns trigger language plpgsql as $$
      begin${APPLY([`select ${KEY('r')}, -1 from old_rows r`])}
        return null;
      end $$;
      create trigger contract_counts_insert after insert on contracts referencing new table as new_rows
        for each statement execute function contract_counts_insert();
      create trigger contract_counts_update after update on contracts referencing old table as old_rows new table as new_rows
        for each statement execute function contract_counts_update();
      create trigger contract_counts_delete after delete on contracts referencing old table as old_rows
        for each statement execute function contract_counts_delete();

      insert into contract_counts (school_id, package_id, status, end_day, units_bucket, n)
      select ${KEY('c')}, count(*)::int from contracts c group by 1, 2, 3, 4, 5;

      -- the list's keyword: a piece of a contract number or of a student's name (pg_trgm is a trusted extension:
      -- the database owner may create it; PGlite loads it in embedded-postgres.ts)
      create extension if not exists pg_trgm;
      create index contracts_no_trgm_idx on contracts using gin (no gin_trgm_ops);
      create index students_name_trgm_idx on students using gin (name gin_trgm_ops);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      drop index contracts_no_trgm_idx;
      drop index students_name_trgm_idx;
      drop trigger contract_counts_insert on contracts;
      drop trigger contract_counts_update on contracts;
      drop trigger contract_counts_delete on contracts;
      drop function contract_counts_insert(), contract_counts_update(), contract_counts_delete();
      drop table contract_counts;
    `);
  }
}
