import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ContractExportQuery, ContractState } from '@wantuo/shared';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { DataSource } from 'typeorm';
import { guardianOf } from '../../core/access/access';
import { kdb } from '../../core/database/kysely';
import { containsPattern, offsetOf, prefixPattern, type PageQuery } from '../../core/database/sql-kit';
import { contractState, rowsOf, stateIs, stateOfContract, todayOf, type CD, type ContractRowOf } from './contracts.repository';

/** The counts by state (state, n) of a filter. */
export type StateCount = { state: ContractState; n: number };

/**
 * The list filters over the contract `c` (`d.today` the school's day), without the state (which the counts leave out)
 * unless `withState`.
 */
const matching =
  (schoolId: number, f: ContractExportQuery, withState: boolean) =>
  (eb: ExpressionBuilder<CD, 'c' | 'd'>): Expression<SqlBool> => {
    const conds: Array<Expression<SqlBool>> = [eb('c.school_id', '=', schoolId)];
    if (withState && f.state) conds.push(stateIs(eb, f.state));
    if (f.student_id) conds.push(eb('c.student_id', '=', f.student_id));
    if (f.package_id) conds.push(eb('c.package_id', '=', f.package_id));
    // the class's students as an array: an index lookup of their contracts (as `in (select …)` the planner hashed the
    // class and scanned the school's contracts)
    if (f.class_id)
      conds.push(
        sql<SqlBool>`${eb.ref('c.student_id')} = any(array(${eb
          .selectFrom('care_class_students as fc')
          .select('fc.student_id')
          .where('fc.class_id', '=', f.class_id)}))`,
      );
    if (f.end_from) conds.push(eb('c.end_day', '>=', sql<string>`${f.end_from}::date`));
    if (f.end_to) conds.push(eb('c.end_day', '<=', sql<string>`${f.end_to}::date`));
    if (f.keyword) {
      // A contract number is HT + the day + more, all upper case. A keyword that starts with HT is matched against the
      // numbers that start with it (a whole number or its beginning), a range of contracts_school_no_idx (btree): the
      // trigram index took 25 ms for a whole number at 100,000 contracts (the trigrams of HT2026… and 000 are in nearly
      // every number). Any other piece of 3 or more letters and digits is matched anywhere in the number (trigram index).
      const no = f.keyword.toUpperCase();
      if (/^HT\d[A-Z0-9]*$/.test(no)) {
        // HT and a digit, which no name holds: the numbers only (the names' trigram index took 4 ms more for nothing)
        conds.push(eb('c.no', 'like', prefixPattern(no)!));
      } else {
        // the contracts of the school's students whose name holds the keyword (trigram index), and those whose number
        // matches it, as a set of ids
        const byName = eb
          .selectFrom('students as ks')
          .innerJoin('contracts as k', 'k.student_id', 'ks.id')
          .select('k.id')
          .where('ks.school_id', '=', schoolId)
          .where('ks.name', 'ilike', containsPattern(f.keyword)!);
        const byNo = /^[A-Za-z0-9]{3,}$/.test(f.keyword);
        conds.push(
          eb(
            'c.id',
            'in',
            byName.$if(byNo, (q) =>
              q.unionAll(
                eb
                  .selectFrom('contracts as k')
                  .select('k.id')
                  .where('k.school_id', '=', schoolId)
                  .where('k.no', 'like', (no.startsWith('HT') ? prefixPattern(no) : containsPattern(no))!),
              ),
            ),
          ),
        );
      }
    }
    return eb.and(conds);
  };

/** The contracts of the filter (id, created_at; `state` too), each with the school's day. */
const filtered = (db: DataSource, schoolId: number, f: ContractExportQuery, withState: boolean) =>
  kdb(db)
    .selectFrom('contracts as c')
    .crossJoin(todayOf(db, schoolId))
    .where(matching(schoolId, f, withState));

/** The SQL of the contract list, its counts and its pages (issue 38). */
@Injectable()
export class ContractsListRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The counts by state for the filters without the state, summed from contract_counts (a few hundred rows per
   * school, kept by triggers): counting a school's contracts on every request grew with the school (65 ms at
   * 100,000). For the list without a filter or filtered by package and end day.
   */
  summedCounts(schoolId: number, f: ContractExportQuery): Promise<StateCount[]> {
    return kdb(this.db)
      .selectFrom('contract_counts as k')
      .crossJoin(todayOf(this.db, schoolId))
      .select((eb) => [
        contractState(eb.ref('k.status'), eb.ref('k.end_day'), eb.ref('k.units_bucket'), eb.ref('d.today')).as('state'),
        sql<number>`sum(${eb.ref('k.n')})::int`.as('n'),
      ])
      .where('k.school_id', '=', schoolId)
      .where('k.n', '<>', 0)
      .$if(!!f.package_id, (q) => q.where('k.package_id', '=', f.package_id!))
      .$if(!!f.end_from, (q) => q.where('k.end_day', '>=', sql<string>`${f.end_from}::date`))
      .$if(!!f.end_to, (q) => q.where('k.end_day', '<=', sql<string>`${f.end_to}::date`))
      .groupBy(sql`1`)
      .execute();
  }

  /** One page of the filtered rows, newest first. */
  rows(schoolId: number, f: ContractExportQuery, limit: number, offset: number): Promise<ContractRowOf[]> {
    const x = filtered(this.db, schoolId, f, true)
      .select(['c.id', 'c.created_at'])
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(limit)
      .offset(offset);
    return rowsOf(this.db, schoolId, x.as('x')).execute();
  }

  /**
   * The list narrowed by student, class or keyword (a few thousand contracts at most): one statement finds the
   * matching contracts once, counts them by state and takes the page of the asked state.
   */
  async narrow(schoolId: number, f: ContractExportQuery, q: PageQuery): Promise<{ counts: StateCount[]; list: ContractRowOf[] }> {
    const k = kdb(this.db);
    const rows = await k
      .with(
        (w) => w('f').materialized(),
        () => filtered(this.db, schoolId, f, false).select((eb) => ['c.id', 'c.created_at', stateOfContract(eb).as('state')]),
      )
      .with('x', (w) =>
        w
          .selectFrom('f')
          .select(['id', 'created_at'])
          .$if(!!f.state, (b) => b.where('state', '=', f.state!))
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(q.limit)
          .offset(offsetOf(q)),
      )
      .selectFrom((w) =>
        w
          .selectFrom((s) =>
            s
              .selectFrom('f')
              .select(['state', sql<number>`count(*)::int`.as('n')])
              .groupBy(sql`1`)
              .as('s'),
          )
          .select(sql<StateCount[]>`coalesce(json_agg(json_build_object('state', s.state, 'n', s.n)), '[]')`.as('counts'))
          .as('k'),
      )
      .leftJoinLateral(
        (w) => rowsOf(this.db, schoolId, w.selectFrom('x').select(['x.id', 'x.created_at']).as('x')).as('r'),
        (j) => j.onTrue(),
      )
      .select('k.counts')
      .selectAll('r')
      .execute();
    const list = rows.filter((r) => r.id !== null).map(({ counts: _, ...r }) => r as ContractRowOf);
    return { counts: rows[0]?.counts ?? [], list };
  }

  /** A page with its total (one statement): the student's contracts and the export. */
  async page(schoolId: number, f: ContractExportQuery, pq: PageQuery): Promise<{ total: number; list: ContractRowOf[] }> {
    const rows = await kdb(this.db)
      .with('f', () => filtered(this.db, schoolId, f, true).select(['c.id', 'c.created_at']))
      .selectFrom((w) =>
        w
          .selectFrom('f')
          .select(sql<number>`count(*)::int`.as('total'))
          .as('t'),
      )
      .leftJoinLateral(
        (w) =>
          rowsOf(
            this.db,
            schoolId,
            w
              .selectFrom('f')
              .select(['id', 'created_at'])
              .orderBy('created_at', 'desc')
              .orderBy('id', 'desc')
              .limit(pq.limit)
              .offset(offsetOf(pq))
              .as('x'),
          ).as('r'),
        (j) => j.onTrue(),
      )
      .select('t.total')
      .selectAll('r')
      .execute();
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as ContractRowOf);
    return { total: Number(rows[0]?.total ?? 0), list };
  }

  /** Whether the student is the school's (and, for a guardian, their own child). */
  async studentVisible(schoolId: number, studentId: number, guardian: number | null): Promise<boolean> {
    const r = await kdb(this.db)
      .selectFrom('students as s')
      .select('s.id')
      .where('s.school_id', '=', schoolId)
      .where('s.id', '=', studentId)
      .$if(guardian !== null, (q) => q.where((eb) => guardianOf(eb, eb.ref('s.id'), guardian!)))
      .executeTakeFirst();
    return r !== undefined;
  }
}
