import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  AddContractPackageInput,
  ContractPackage,
  ContractPackageQuery,
  EditContractPackageInput,
  Page,
  SetContractPackageActiveInput,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { isUniqueViolation, offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';

const PACKAGE_COLUMNS = `k.id, k.name, k.kind, k.length, k.valid_months, k.price_fen::float8 as price_fen, k.includes, k.description, k.active,
  (select count(*)::int from contracts c where c.package_id = k.id) as contracts, k.version`;

/** Contract packages: what a school sells. Never deleted once created (contracts point at them): disabled instead. */
@Injectable()
export class PackagesService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(user: SessionUser, q: ContractPackageQuery): Promise<Page<ContractPackage>> {
    const rows: Array<ContractPackage & { total: number }> = await this.db.query(
      `with f as (select * from contract_packages k where k.school_id = $1 and ($2::boolean is null or k.active = $2))
       select c.total, p.* from (select count(*)::int as total from f) c
       left join lateral (select ${PACKAGE_COLUMNS} from f k order by k.active desc, k.id desc limit $3 offset $4) p on true`,
      [user.schoolId, q.active ?? null, q.limit, offsetOf(q)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as ContractPackage);
    return pageOf(list, totalOf(rows), q);
  }

  async one(schoolId: number, id: number): Promise<ContractPackage> {
    const [k]: ContractPackage[] = await this.db.query(`select ${PACKAGE_COLUMNS} from contract_packages k where k.school_id = $1 and k.id = $2`, [
      schoolId,
      id,
    ]);
    if (!k) throw new AppError('contracts.package_not_found');
    return k;
  }

  async add(user: SessionUser, input: AddContractPackageInput): Promise<ContractPackage> {
    try {
      const [k]: Array<{ id: number }> = await this.db.query(
        `insert into contract_packages (school_id, name, kind, length, valid_months, price_fen, includes, description)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
        [user.schoolId, input.name, input.kind, input.length, input.valid_months ?? null, input.price_fen, input.includes, input.description || null],
      );
      return this.one(user.schoolId!, k.id);
    } catch (err) {
      if (isUniqueViolation(err, 'contract_packages_name_idx')) throw new AppError('contracts.package_name_taken');
      throw err;
    }
  }

  /** Edits a package on the version read; contracts already signed keep their own copy of the terms and prices. */
  async edit(user: SessionUser, input: EditContractPackageInput): Promise<ContractPackage> {
    let rows: Array<{ id: number }>;
    try {
      rows = await this.db.query(
        `with u as (
           update contract_packages set name = $4, kind = $5, length = $6, valid_months = $7, price_fen = $8, includes = $9, description = $10,
                  version = version + 1, updated_at = now()
            where school_id = $1 and id = $2 and version = $3 returning id
         ) select id from u`,
        [
          user.schoolId,
          input.id,
          input.version,
          input.name,
          input.kind,
          input.length,
          input.valid_months ?? null,
          input.price_fen,
          input.includes,
          input.description || null,
        ],
      );
    } catch (err) {
      if (isUniqueViolation(err, 'contract_packages_name_idx')) throw new AppError('contracts.package_name_taken');
      throw err;
    }
    if (!rows.length) {
      await this.one(user.schoolId!, input.id); // not_found first
      throw new AppError('contracts.package_stale');
    }
    return this.one(user.schoolId!, input.id);
  }

  async setActive(user: SessionUser, input: SetContractPackageActiveInput): Promise<ContractPackage> {
    const rows: Array<{ id: number }> = await this.db.query(
      `with u as (
         update contract_packages set active = $4, version = version + 1, updated_at = now()
          where school_id = $1 and id = $2 and version = $3 returning id
       ) select id from u`,
      [user.schoolId, input.id, input.version, input.active],
    );
    if (!rows.length) {
      await this.one(user.schoolId!, input.id);
      throw new AppError('contracts.package_stale');
    }
    return this.one(user.schoolId!, input.id);
  }
}
