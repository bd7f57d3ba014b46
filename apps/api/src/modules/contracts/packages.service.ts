import { Injectable } from '@nestjs/common';
import type {
  AddContractPackageInput,
  ContractPackage,
  ContractPackageQuery,
  EditContractPackageInput,
  Page,
  SetContractPackageActiveInput,
} from '@wantuo/shared';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { isUniqueViolation } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import { ContractsPackagesRepository } from './contracts-packages.repository';

/** Contract packages: what a school sells. Never deleted once created (contracts point at them): disabled instead. */
@Injectable()
export class PackagesService {
  constructor(private readonly repo: ContractsPackagesRepository) {}

  list(user: SchoolCaller, q: ContractPackageQuery): Promise<Page<ContractPackage>> {
    return this.repo.page(user.schoolId, q.active ?? null, q);
  }

  async one(schoolId: number, id: number): Promise<ContractPackage> {
    const k = await this.repo.one(schoolId, id);
    if (!k) throw new AppError('contracts.package_not_found');
    return k;
  }

  async add(user: SchoolCaller, input: AddContractPackageInput): Promise<ContractPackage> {
    try {
      const id = await this.repo.insert({
        school_id: user.schoolId,
        name: input.name,
        kind: input.kind,
        length: input.length,
        valid_months: input.valid_months ?? null,
        price_fen: input.price_fen,
        includes: input.includes,
        description: input.description || null,
      });
      return this.one(user.schoolId, id);
    } catch (err) {
      if (isUniqueViolation(err, 'contract_packages_name_idx')) throw new AppError('contracts.package_name_taken');
      throw err;
    }
  }

  /** Edits a package on the version read; contracts already signed keep their own copy of the terms and prices. */
  async edit(user: SchoolCaller, input: EditContractPackageInput): Promise<ContractPackage> {
    let done: boolean;
    try {
      done = await this.repo.update(user.schoolId, input.id, input.version, {
        name: input.name,
        kind: input.kind,
        length: input.length,
        valid_months: input.valid_months ?? null,
        price_fen: input.price_fen,
        includes: input.includes,
        description: input.description || null,
      });
    } catch (err) {
      if (isUniqueViolation(err, 'contract_packages_name_idx')) throw new AppError('contracts.package_name_taken');
      throw err;
    }
    if (!done) {
      await this.one(user.schoolId, input.id); // not_found first
      throw new AppError('contracts.package_stale');
    }
    return this.one(user.schoolId, input.id);
  }

  async setActive(user: SchoolCaller, input: SetContractPackageActiveInput): Promise<ContractPackage> {
    if (!(await this.repo.update(user.schoolId, input.id, input.version, { active: input.active }))) {
      await this.one(user.schoolId, input.id);
      throw new AppError('contracts.package_stale');
    }
    return this.one(user.schoolId, input.id);
  }
}
