import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { STORE_LIMITS, type AddAddressInput, type DelAddressInput, type EditAddressInput, type StoreAddress } from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { ADDRESS_COLUMNS } from './store-sql';

/** Advisory lock class of a school's addresses: their changes are ordered, so there is always at most one default. */
const ADDRESS_LOCK = 7_301;

/**
 * A school's delivery addresses: at most STORE_LIMITS.maxAddresses, exactly one default while there are any (the first
 * address is the default; making another the default unsets the old one; deleting or unsetting the default makes the
 * oldest other one the default). Orders copy the address, so editing or deleting one never changes an order.
 */
@Injectable()
export class StoreAddressesService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(user: SessionUser): Promise<StoreAddress[]> {
    return this.db.query(`select ${ADDRESS_COLUMNS} from store_addresses a where a.school_id = $1 order by a.is_default desc, a.id limit $2`, [
      user.schoolId,
      STORE_LIMITS.maxAddresses,
    ]);
  }

  private async locked<T>(schoolId: number, work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(async (em) => {
      await em.query(`select pg_advisory_xact_lock($1, $2)`, [ADDRESS_LOCK, schoolId]);
      return work(em);
    });
  }

  /** After a change: the given address is the default, or (none given) the oldest address when none is. */
  private async settleDefault(em: EntityManager, schoolId: number, makeDefault: number | null): Promise<void> {
    if (makeDefault) {
      await em.query(`update store_addresses set is_default = false where school_id = $1 and is_default and id <> $2`, [schoolId, makeDefault]);
      await em.query(`update store_addresses set is_default = true where school_id = $1 and id = $2 and not is_default`, [schoolId, makeDefault]);
      return;
    }
    await em.query(
      `update store_addresses set is_default = true
        where id = (select id from store_addresses where school_id = $1 order by id limit 1)
          and not exists (select 1 from store_addresses where school_id = $1 and is_default)`,
      [schoolId],
    );
  }

  async add(user: SessionUser, input: AddAddressInput): Promise<StoreAddress> {
    const schoolId = user.schoolId!;
    const id = await this.locked(schoolId, async (em) => {
      const [{ n }]: Array<{ n: number }> = await em.query(`select count(*)::int as n from store_addresses where school_id = $1`, [schoolId]);
      if (n >= STORE_LIMITS.maxAddresses) throw new AppError('store.address_too_many', { max: STORE_LIMITS.maxAddresses });
      const [a]: Array<{ id: number }> = await em.query(
        `insert into store_addresses (school_id, name, mobile, region, detail) values ($1, $2, $3, $4, $5) returning id`,
        [schoolId, input.name, input.mobile, input.region, input.detail],
      );
      await this.settleDefault(em, schoolId, input.is_default ? a.id : null);
      return a.id;
    });
    return this.one(schoolId, id);
  }

  async edit(user: SessionUser, input: EditAddressInput): Promise<StoreAddress> {
    const schoolId = user.schoolId!;
    await this.locked(schoolId, async (em) => {
      const rows: Array<{ id: number; was_default: boolean }> = await em.query(
        `with u as (
           update store_addresses set name = $4, mobile = $5, region = $6, detail = $7, is_default = case when $8::boolean = false then false else is_default end,
                  version = version + 1
            where school_id = $1 and id = $2 and version = $3 returning id)
         select id from u`,
        [schoolId, input.id, input.version, input.name, input.mobile, input.region, input.detail, input.is_default ?? null],
      );
      if (!rows.length) {
        const found: unknown[] = await em.query(`select 1 from store_addresses where school_id = $1 and id = $2`, [schoolId, input.id]);
        throw new AppError(found.length ? 'store.address_stale' : 'store.address_not_found');
      }
      if (input.is_default === false) {
        // the default given up: the oldest other address takes it (the only address stays the default)
        await em.query(
          `update store_addresses set is_default = true
            where id = (select id from store_addresses where school_id = $1 order by (id = $2), id limit 1)
              and not exists (select 1 from store_addresses where school_id = $1 and is_default)`,
          [schoolId, input.id],
        );
      } else await this.settleDefault(em, schoolId, input.is_default ? input.id : null);
    });
    return this.one(schoolId, input.id);
  }

  async remove(user: SessionUser, input: DelAddressInput): Promise<{ id: number }> {
    const schoolId = user.schoolId!;
    await this.locked(schoolId, async (em) => {
      const rows: Array<{ id: number }> = await em.query(
        `with d as (delete from store_addresses where school_id = $1 and id = $2 returning id) select id from d`,
        [schoolId, input.id],
      );
      if (!rows.length) throw new AppError('store.address_not_found');
      await this.settleDefault(em, schoolId, null);
    });
    return { id: input.id };
  }

  async one(schoolId: number, id: number): Promise<StoreAddress> {
    const [a]: StoreAddress[] = await this.db.query(`select ${ADDRESS_COLUMNS} from store_addresses a where a.school_id = $1 and a.id = $2`, [
      schoolId,
      id,
    ]);
    if (!a) throw new AppError('store.address_not_found');
    return a;
  }
}
