import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { STORE_LIMITS } from '@wantuo/shared';
import { sql, type Insertable } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';

/** An address (`a`). */
export const addressColumns = ['a.id', 'a.name', 'a.mobile', 'a.region', 'a.detail', 'a.is_default', 'a.version'] as const;

/** Advisory lock class of a school's addresses: their changes are ordered, so there is always at most one default. */
const ADDRESS_LOCK = 7_301;

/** A school's delivery addresses' statements (addresses.service.ts). */
@Injectable()
export class StoreAddressesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  list(schoolId: number) {
    return kdb(this.db)
      .selectFrom('store_addresses as a')
      .select(addressColumns)
      .where('a.school_id', '=', schoolId)
      .orderBy('a.is_default', 'desc')
      .orderBy('a.id')
      .limit(STORE_LIMITS.maxAddresses)
      .execute();
  }

  one(schoolId: number, id: number) {
    return kdb(this.db)
      .selectFrom('store_addresses as a')
      .select(addressColumns)
      .where('a.school_id', '=', schoolId)
      .where('a.id', '=', id)
      .executeTakeFirst();
  }

  /** The school's address changes, one at a time. */
  async lock(em: Queryable, schoolId: number): Promise<void> {
    await sql`select pg_advisory_xact_lock(${ADDRESS_LOCK}, ${schoolId})`.execute(kdb(em));
  }

  /** The address is the default (the others not). */
  async makeDefault(em: Queryable, schoolId: number, id: number): Promise<void> {
    const k = kdb(em);
    await k
      .updateTable('store_addresses')
      .set({ is_default: false })
      .where('school_id', '=', schoolId)
      .where('is_default', '=', true)
      .where('id', '<>', id)
      .execute();
    await k
      .updateTable('store_addresses')
      .set({ is_default: true })
      .where('school_id', '=', schoolId)
      .where('id', '=', id)
      .where('is_default', '=', false)
      .execute();
  }

  /** When none is the default: the oldest address (`last`: the oldest other than it). */
  async defaultOldest(em: Queryable, schoolId: number, last?: number): Promise<void> {
    await kdb(em)
      .updateTable('store_addresses')
      .set({ is_default: true })
      .where('id', '=', (eb) =>
        eb
          .selectFrom('store_addresses')
          .select('id')
          .where('school_id', '=', schoolId)
          .$if(last !== undefined, (b) => b.orderBy((x) => x('id', '=', last!)))
          .orderBy('id')
          .limit(1),
      )
      .where((eb) =>
        eb.not(
          eb.exists(eb.selectFrom('store_addresses').select(sql.lit(1).as('one')).where('school_id', '=', schoolId).where('is_default', '=', true)),
        ),
      )
      .execute();
  }

  async count(em: Queryable, schoolId: number): Promise<number> {
    const r = await kdb(em)
      .selectFrom('store_addresses')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('school_id', '=', schoolId)
      .executeTakeFirstOrThrow();
    return r.n;
  }

  async insert(em: Queryable, row: Insertable<DB['store_addresses']>): Promise<number> {
    const r = await kdb(em).insertInto('store_addresses').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** Edits the address on the version read (`undefault`: no longer the default); whether it did. */
  async update(
    em: Queryable,
    schoolId: number,
    id: number,
    version: number,
    set: { name: string; mobile: string; region: string; detail: string; undefault: boolean },
  ): Promise<boolean> {
    const r = await kdb(em)
      .updateTable('store_addresses')
      .set((eb) => ({
        name: set.name,
        mobile: set.mobile,
        region: set.region,
        detail: set.detail,
        ...(set.undefault ? { is_default: false } : {}),
        version: eb('version', '+', 1),
      }))
      .where('school_id', '=', schoolId)
      .where('id', '=', id)
      .where('version', '=', version)
      .returning('id')
      .executeTakeFirst();
    return r !== undefined;
  }

  async exists(em: Queryable, schoolId: number, id: number): Promise<boolean> {
    const r = await kdb(em).selectFrom('store_addresses').select('id').where('school_id', '=', schoolId).where('id', '=', id).executeTakeFirst();
    return r !== undefined;
  }

  async delete(em: Queryable, schoolId: number, id: number): Promise<boolean> {
    const r = await kdb(em).deleteFrom('store_addresses').where('school_id', '=', schoolId).where('id', '=', id).returning('id').executeTakeFirst();
    return r !== undefined;
  }
}
