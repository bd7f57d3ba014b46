import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PackageInclude, PackageKind } from '@wantuo/shared';
import { sql, type ExpressionBuilder, type Insertable, type Updateable } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import type { PageQuery } from '../../core/database/sql-kit';

type K = DB & { k: DB['contract_packages'] };

/** The columns of a ContractPackage (`k` the package), with how many contracts point at it. */
const columns = (eb: ExpressionBuilder<K, 'k'>) =>
  [
    'k.id',
    'k.name',
    eb.ref('k.kind').$castTo<PackageKind>().as('kind'),
    'k.length',
    'k.valid_months',
    'k.price_fen',
    eb.ref('k.includes').$castTo<PackageInclude[]>().as('includes'),
    'k.description',
    'k.active',
    eb
      .selectFrom('contracts as c')
      .select(sql<number>`count(*)::int`.as('n'))
      .whereRef('c.package_id', '=', 'k.id')
      .$asScalar()
      .$castTo<number>()
      .as('contracts'),
    'k.version',
  ] as const;

/** The SQL of contract packages (issue 38). */
@Injectable()
export class ContractsPackagesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The school's packages (only active or inactive ones when asked), active first, newest first, with the total. */
  page(schoolId: number, active: boolean | null, q: PageQuery) {
    const of = () =>
      kdb(this.db)
        .selectFrom('contract_packages as k')
        .where('k.school_id', '=', schoolId)
        .$if(active !== null, (b) => b.where('k.active', '=', active!));
    const total = of().select(sql<number>`count(*)::int`.as('total'));
    const list = of()
      .select((eb) => columns(eb))
      .orderBy('k.active', 'desc')
      .orderBy('k.id', 'desc');
    return pageRows(this.db, total, list, q);
  }

  one(schoolId: number, id: number) {
    return kdb(this.db)
      .selectFrom('contract_packages as k')
      .select((eb) => columns(eb))
      .where('k.school_id', '=', schoolId)
      .where('k.id', '=', id)
      .executeTakeFirst();
  }

  async insert(v: Insertable<DB['contract_packages']>): Promise<number> {
    const r = await kdb(this.db).insertInto('contract_packages').values(v).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** Changes the package on the version read: whether it did (not when gone or of another version). */
  async update(schoolId: number, id: number, version: number, v: Updateable<DB['contract_packages']>): Promise<boolean> {
    const r = await kdb(this.db)
      .updateTable('contract_packages')
      .set((eb) => ({ ...v, version: eb('version', '+', 1), updated_at: sql`now()` }))
      .where('school_id', '=', schoolId)
      .where('id', '=', id)
      .where('version', '=', version)
      .returning('id')
      .executeTakeFirst();
    return r !== undefined;
  }
}
