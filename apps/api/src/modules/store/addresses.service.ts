import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { STORE_LIMITS, type AddAddressInput, type DelAddressInput, type EditAddressInput, type StoreAddress } from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { AppError } from '../../core/http/app-error';
import { StoreAddressesRepository } from './store-addresses.repository';

/**
 * A school's delivery addresses: at most STORE_LIMITS.maxAddresses, exactly one default while there are any (the first
 * address is the default; making another the default unsets the old one; deleting or unsetting the default makes the
 * oldest other one the default). Orders copy the address, so editing or deleting one never changes an order.
 */
@Injectable()
export class StoreAddressesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: StoreAddressesRepository,
  ) {}

  async list(user: SchoolCaller): Promise<StoreAddress[]> {
    return this.repo.list(user.schoolId);
  }

  private async locked<T>(schoolId: number, work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(async (em) => {
      await this.repo.lock(em, schoolId);
      return work(em);
    });
  }

  /** After a change: the given address is the default, or (none given) the oldest address when none is. */
  private async settleDefault(em: EntityManager, schoolId: number, makeDefault: number | null): Promise<void> {
    if (makeDefault) return this.repo.makeDefault(em, schoolId, makeDefault);
    await this.repo.defaultOldest(em, schoolId);
  }

  async add(user: SchoolCaller, input: AddAddressInput): Promise<StoreAddress> {
    const schoolId = user.schoolId;
    const id = await this.locked(schoolId, async (em) => {
      const n = await this.repo.count(em, schoolId);
      if (n >= STORE_LIMITS.maxAddresses) throw new AppError('store.address_too_many', { max: STORE_LIMITS.maxAddresses });
      const id = await this.repo.insert(em, {
        school_id: schoolId,
        name: input.name,
        mobile: input.mobile,
        region: input.region,
        detail: input.detail,
      });
      await this.settleDefault(em, schoolId, input.is_default ? id : null);
      return id;
    });
    return this.one(schoolId, id);
  }

  async edit(user: SchoolCaller, input: EditAddressInput): Promise<StoreAddress> {
    const schoolId = user.schoolId;
    await this.locked(schoolId, async (em) => {
      const done = await this.repo.update(em, schoolId, input.id, input.version, {
        name: input.name,
        mobile: input.mobile,
        region: input.region,
        detail: input.detail,
        undefault: input.is_default === false,
      });
      if (!done) throw new AppError((await this.repo.exists(em, schoolId, input.id)) ? 'store.address_stale' : 'store.address_not_found');
      if (input.is_default === false) {
        // the default given up: the oldest other address takes it (the only address stays the default)
        await this.repo.defaultOldest(em, schoolId, input.id);
      } else await this.settleDefault(em, schoolId, input.is_default ? input.id : null);
    });
    return this.one(schoolId, input.id);
  }

  async remove(user: SchoolCaller, input: DelAddressInput): Promise<{ id: number }> {
    const schoolId = user.schoolId;
    await this.locked(schoolId, async (em) => {
      if (!(await this.repo.delete(em, schoolId, input.id))) throw new AppError('store.address_not_found');
      await this.settleDefault(em, schoolId, null);
    });
    return { id: input.id };
  }

  async one(schoolId: number, id: number): Promise<StoreAddress> {
    const a = await this.repo.one(schoolId, id);
    if (!a) throw new AppError('store.address_not_found');
    return a;
  }
}
