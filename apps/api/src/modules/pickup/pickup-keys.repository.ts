import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sql, type Insertable, type Selectable } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';
import { openPrivateKey, sealPrivateKey, type PickupKeyring } from './pickup-keyring';

/** A school's key row as read (the private key sealed, or still in clear before the start sealed it). */
const keyRow = (on: Queryable, schoolId: number) =>
  kdb(on).selectFrom('pickup_keys').select(['public_key', 'sealed_private_key', 'key_id', 'private_key']).where('school_id', '=', schoolId);

/**
 * The school keys not sealed with the key `first` yet, by school: the clear ones, and unless `onlyClear` those sealed
 * with another key (a rotation).
 */
export function unsealedKeys(on: Queryable, first: string, onlyClear: boolean) {
  return kdb(on)
    .selectFrom('pickup_keys')
    .select(['school_id', 'private_key', 'sealed_private_key', 'key_id'])
    .where((eb) => eb.or([eb('private_key', 'is not', null), ...(onlyClear ? [] : [eb('key_id', '<>', first)])]))
    .orderBy('school_id')
    .execute();
}

type KeyRow = Selectable<DB['pickup_keys']>;

/** A key sealed anew: its school, the sealed key and the id of the key that sealed it, and the key id it was read with. */
export type Resealed = Pick<KeyRow, 'school_id'> & {
  sealed: NonNullable<KeyRow['sealed_private_key']>;
  keyId: NonNullable<KeyRow['key_id']>;
  was: KeyRow['key_id'];
};

/**
 * Writes the sealed keys in one statement, each only while its row is still as read (its key id unchanged), in clear
 * no more; answers how many rows it wrote.
 */
export async function writeResealed(on: Queryable, rows: readonly Resealed[]): Promise<number> {
  const r = await sql<{ n: number }>`
    with u as (
      update pickup_keys k set private_key = null, sealed_private_key = x.sealed, key_id = x.key_id
        from unnest(${rows.map((s) => s.school_id)}::int[], ${rows.map((s) => s.sealed)}::text[], ${rows.map((s) => s.keyId)}::text[],
                    ${rows.map((s) => s.was)}::text[]) as x(school_id, sealed, key_id, was)
       where k.school_id = x.school_id and k.key_id is not distinct from x.was
      returning 1)
    select count(*)::int as n from u`.execute(kdb(on));
  return r.rows[0].n;
}

/**
 * Seals with the ring's first key every school key not sealed with it yet: the clear ones (rows from before the
 * sealing; the start runs this with `onlyClear`) and, for a rotation (`npm run pickup:reseal`), those sealed with an
 * older key. One read, one update; the update only touches a row still as read, so two processes at once seal it once.
 * Answers how many rows it sealed.
 */
export async function resealPickupKeys(db: Queryable, ring: PickupKeyring, opts: { onlyClear?: boolean } = {}): Promise<number> {
  const first = ring.keys[0].id;
  const rows = await unsealedKeys(db, first, opts.onlyClear ?? false);
  if (!rows.length) return 0;
  const sealed = rows.map((r) => {
    const plain = r.private_key ?? openPrivateKey(ring, r.school_id, r.sealed_private_key!, r.key_id!);
    return { school_id: r.school_id, ...sealPrivateKey(ring, r.school_id, plain), was: r.key_id };
  });
  return writeResealed(db, sealed);
}

/** The SQL of the schools' pick-up signing keys (issue 38). */
@Injectable()
export class PickupKeysRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The school's key row, if it has one. */
  key(schoolId: number, on: Queryable = this.db) {
    return keyRow(on, schoolId).executeTakeFirst();
  }

  /** Stores a school's first key (sealed: never in clear); one stored meanwhile (two first uses at once) is kept. */
  async add(row: Omit<Insertable<DB['pickup_keys']>, 'private_key' | 'created_at'>, on: Queryable = this.db): Promise<void> {
    await kdb(on)
      .insertInto('pickup_keys')
      .values(row)
      .onConflict((oc) => oc.column('school_id').doNothing())
      .execute();
  }
}
