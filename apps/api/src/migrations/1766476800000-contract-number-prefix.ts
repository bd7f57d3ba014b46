import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The contract list's keyword by contract number (issue 26): a keyword that starts like a number (HT…) matches the
 * school's numbers that start with it, a btree range on (school_id, no). The trigram index of 1764849600000 served it
 * before: the trigrams of "HT2026…" or "000" are in nearly every number, and their GIN posting lists took 25 ms to read
 * at 100,000 contracts for the one match. `varchar_pattern_ops`: a LIKE prefix is an index range under any collation.
 */
export class ContractNumberPrefix1766476800000 implements MigrationInterface {
  name = 'ContractNumberPrefix1766476800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create index contracts_school_no_idx on contracts (school_id, no varchar_pattern_ops)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop index contracts_school_no_idx`);
  }
}
