import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { COURSEWARE_FILTERS, type CoursewareCenterQuery, type OwnedCoursewareRow } from '@wantuo/shared';
import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { DataSource } from 'typeorm';
import { kdb, type DB } from '../../core/database/kysely';
import { offsetOf, type PageQuery } from '../../core/database/sql-kit';
import { ownedBy, ownOf, visibleTo } from './courseware-sql';

/** Any query's expression builder (the conditions reference the courseware `c`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEb = ExpressionBuilder<any, any>;
const onC = (eb: AnyEb) => eb as unknown as ExpressionBuilder<DB & { c: DB['coursewares'] }, 'c'>;

/** The sections of courseware `c` school `school` sees: the publisher's and its own. */
const sectionsSeen = (eb: AnyEb, school: number) =>
  onC(eb)
    .selectFrom('courseware_sections as s')
    .whereRef('s.courseware_id', '=', 'c.id')
    .where((w) => w.or([w('s.school_id', 'is', null), w('s.school_id', '=', school)]));

/** The platform's courseware on sale matching the center's filters (only those given: plain indexable conditions). */
const centerWhere = (eb: AnyEb, school: number, q: CoursewareCenterQuery, keyword: string | null) => {
  const e = onC(eb);
  const conds: Array<ReturnType<typeof e<'c.id', '=', number>> | ReturnType<typeof ownedBy>> = [];
  conds.push(e('c.school_id', 'is', null), e('c.status', '=', sql.lit(1)));
  for (const f of COURSEWARE_FILTERS) if (q[f] !== undefined) conds.push(e(`c.${f}`, '=', q[f]!));
  if (keyword) conds.push(e('c.title', 'ilike', keyword));
  if (q.owned !== undefined) conds.push(q.owned ? ownedBy(eb, school) : e.not(ownedBy(eb, school)));
  return e.and(conds as Array<ReturnType<typeof ownedBy>>);
};

/** The catalogue's reads: the center, one courseware, its sections, what a school owns, the operator's list. */
@Injectable()
export class CoursewareCatalogueRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Courseware `c` as lists show it for school `school` (0: the operator, no school), with its dictionaries' names. */
  private rows(school: number) {
    return kdb(this.db)
      .selectFrom('coursewares as c')
      .leftJoin('courseware_dicts as d_subject', 'd_subject.id', 'c.subject_id')
      .leftJoin('courseware_dicts as d_discipline', 'd_discipline.id', 'c.discipline_id')
      .leftJoin('courseware_dicts as d_grade', 'd_grade.id', 'c.grade_id')
      .leftJoin('courseware_dicts as d_term', 'd_term.id', 'c.term_id')
      .leftJoin('courseware_dicts as d_tixi', 'd_tixi.id', 'c.tixi_id')
      .leftJoin('courseware_dicts as d_edition', 'd_edition.id', 'c.edition_id')
      .select((eb) => [
        'c.id',
        'c.title',
        'd_subject.name as subject',
        'd_discipline.name as discipline',
        'd_grade.name as grade',
        'd_term.name as term',
        'd_tixi.name as tixi',
        'd_edition.name as edition',
        sql<number>`${eb.ref('c.price_fen')}::float8`.as('price_fen'),
        sql<number>`(${sectionsSeen(eb, school).select(sql`count(*)`.as('n'))})::int`.as('sections'),
        eb
          .or([ownOf(eb, school), ownedBy(eb, school)])
          .$castTo<boolean>()
          .as('owned'),
        ownOf(eb, school).as('own'),
      ]);
  }

  /**
   * A page of the center: the page's ids first (an index scan that stops after the page), then the names and counts
   * of those rows only (the per-row subqueries never run for skipped rows), newest first.
   */
  center(school: number, q: CoursewareCenterQuery, keyword: string | null) {
    const page = kdb(this.db)
      .selectFrom('coursewares as c')
      .select('c.id')
      .where((eb) => centerWhere(eb, school, q, keyword))
      .orderBy('c.id', 'desc')
      .limit(q.limit)
      .offset(offsetOf(q));
    return this.rows(school).innerJoin(page.as('page'), 'page.id', 'c.id').orderBy('c.id', 'desc').execute();
  }

  async centerTotal(school: number, q: CoursewareCenterQuery, keyword: string | null): Promise<number> {
    const r = await kdb(this.db)
      .selectFrom('coursewares as c')
      .select(sql<number>`count(*)::int`.as('total'))
      .where((eb) => centerWhere(eb, school, q, keyword))
      .executeTakeFirstOrThrow();
    return r.total;
  }

  /** One courseware school `school` may see, with its sections (the publisher's and the school's) in order. */
  detail(school: number, id: number) {
    return this.rows(school)
      .select((eb) => [
        'c.description',
        'c.subject_id',
        'c.discipline_id',
        'c.grade_id',
        'c.term_id',
        'c.tixi_id',
        'c.edition_id',
        'c.status',
        'c.version',
        jsonArrayFrom(
          sectionsSeen(eb, school)
            .select((s) => [
              's.id',
              's.title',
              's.sort',
              s('s.school_id', 'is not', null).$castTo<boolean>().as('own'),
              's.version',
              s
                .selectFrom('courseware_files as cf')
                .whereRef('cf.section_id', '=', 's.id')
                .select(sql<number>`count(*)`.as('n'))
                .$asScalar()
                .as('files'),
            ])
            .orderBy('s.sort')
            .orderBy('s.id'),
        ).as('sections_list'),
      ])
      .where('c.id', '=', id)
      .where((eb) => visibleTo(eb, school))
      .executeTakeFirst();
  }

  /** The sections of a courseware school `school` may see, in order; none at all when it may not see it (a courseware without sections: one row of nulls). */
  sections(school: number, coursewareId: number) {
    return kdb(this.db)
      .selectFrom('coursewares as c')
      .leftJoin('courseware_sections as s', (j) =>
        j.onRef('s.courseware_id', '=', 'c.id').on((eb) => eb.or([eb('s.school_id', 'is', null), eb('s.school_id', '=', school)])),
      )
      .select((eb) => [
        's.id',
        's.title',
        's.sort',
        eb('s.school_id', 'is not', null).$castTo<boolean>().as('own'),
        's.version',
        sql<number>`(${eb
          .selectFrom('courseware_files as cf')
          .whereRef('cf.section_id', '=', 's.id')
          .select(sql`count(*)`.as('n'))})::int`.as('files'),
      ])
      .where('c.id', '=', coursewareId)
      .where((eb) => visibleTo(eb, school))
      .orderBy('s.sort')
      .orderBy('s.id')
      .execute();
  }

  /** The courseware school `school` owns (bought and not refunded) and its own, titled like `keyword`. */
  private ownedWhere(eb: AnyEb, school: number, keyword: string | null): ReturnType<typeof ownedBy> {
    const e = onC(eb);
    const cond = e.or([e('c.school_id', '=', school), ownedBy(eb, school)]);
    return keyword === null ? cond : e.and([cond, e('c.title', 'ilike', keyword)]);
  }

  /** A page of what school `school` owns, most recent first. */
  owned(school: number, keyword: string | null, q: PageQuery) {
    return this.rows(school)
      .leftJoin('courseware_purchases as p', (j) =>
        j.on('p.school_id', '=', school).onRef('p.courseware_id', '=', 'c.id').on('p.state', '=', sql.lit('owned')),
      )
      .select((eb) => ['p.created_at as bought_at', eb.ref('p.method').$castTo<OwnedCoursewareRow['method']>().as('method')])
      .where((eb) => this.ownedWhere(eb, school, keyword))
      .orderBy(sql`coalesce(p.created_at, c.created_at)`, 'desc')
      .orderBy('c.id', 'desc')
      .limit(q.limit)
      .offset(offsetOf(q))
      .execute();
  }

  async ownedTotal(school: number, keyword: string | null): Promise<number> {
    const r = await kdb(this.db)
      .selectFrom('coursewares as c')
      .select(sql<number>`count(*)::int`.as('total'))
      .where((eb) => this.ownedWhere(eb, school, keyword))
      .executeTakeFirstOrThrow();
    return r.total;
  }

  /** The operator's list: the platform's courseware by keyword and status. */
  private operatorWhere(eb: AnyEb, keyword: string | null, status: number | null) {
    const e = onC(eb);
    const conds = [e('c.school_id', 'is', null)];
    if (keyword !== null) conds.push(e('c.title', 'ilike', keyword));
    if (status !== null) conds.push(e('c.status', '=', status));
    return e.and(conds) as unknown as ReturnType<typeof sql<SqlBool>>;
  }

  /** A page of the operator's list, newest first, with how many schools own each. */
  operatorList(keyword: string | null, status: number | null, q: PageQuery) {
    // the operator has no school: 0, which no school has
    return this.rows(0)
      .select((eb) => [
        'c.status',
        'c.version',
        'c.created_at',
        'c.description',
        'c.subject_id',
        'c.discipline_id',
        'c.grade_id',
        'c.term_id',
        'c.tixi_id',
        'c.edition_id',
        sql<number>`(${eb
          .selectFrom('courseware_purchases as p')
          .whereRef('p.courseware_id', '=', 'c.id')
          .where('p.state', '=', sql.lit('owned'))
          .select(sql`count(*)`.as('n'))})::int`.as('buyers'),
      ])
      .where((eb) => this.operatorWhere(eb, keyword, status))
      .orderBy('c.id', 'desc')
      .limit(q.limit)
      .offset(offsetOf(q))
      .execute();
  }

  async operatorTotal(keyword: string | null, status: number | null): Promise<number> {
    const r = await kdb(this.db)
      .selectFrom('coursewares as c')
      .select(sql<number>`count(*)::int`.as('total'))
      .where((eb) => this.operatorWhere(eb, keyword, status))
      .executeTakeFirstOrThrow();
    return r.total;
  }
}
