import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The schools' pick-up signing keys encrypted at rest (issue 34 item 10): `sealed_private_key` (AES-256-GCM with a key
 * of PICKUP_KEYS_ENCRYPTION_KEYS, modules/pickup/pickup-keyring.ts) and the `key_id` that sealed it. A migration cannot
 * read the environment's keys, so the clear `private_key` becomes nullable and the API's start seals the rows that
 * still have one and clears it (PickupService.onModuleInit); a row holds exactly one of the two.
 */
export class PickupKeysSealed1767259200000 implements MigrationInterface {
  name = 'PickupKeysSealed1767259200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      alter table pickup_keys alter column private_key drop not null;
      alter table pickup_keys add column sealed_private_key text, add column key_id varchar(32);
      alter table pickup_keys add constraint pickup_keys_sealed_check
        check (num_nonnulls(private_key, sealed_private_key) = 1 and (sealed_private_key is null) = (key_id is null));
    `);
  }

  async down(): Promise<void> {
    // the clear keys are gone once the start sealed them: opening them back needs the environment's keys
    throw new Error('PickupKeysSealed1767259200000 is not reversible');
  }
}
