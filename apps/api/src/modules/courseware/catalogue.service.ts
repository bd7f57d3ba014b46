import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  COURSEWARE_FILTERS,
  type CoursewareCenterQuery,
  type CoursewareDetail,
  type CoursewareRow,
  type CoursewareSectionRow,
  type OwnedCoursewareRow,
  type Page,
  type SchoolCoursewareListQuery,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { containsPattern, offsetOf, pageOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { DICT_JOINS, OWNED, ownedBy, ROW_COLUMNS, VISIBLE } from './courseware-sql';

/**
 * The catalogue as a school sees it: coursewareCenter (the platform's courseware on sale, by any dictionary, with
 * whether the school owns it), one courseware with its sections, the sections, and the courseware the school owns.
 * Two queries per list (the page and its count), one per detail.
 */
@Injectable()
export class CatalogueService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async center(user: SessionUser, q: CoursewareCenterQuery): Promise<Page<CoursewareRow>> {
    // only the filters given, so each is a plain condition the planner can use an index for (owned / not owned: a
    // semi- or anti-join on the purchases); `at` numbers the parameters from `first`
    const where = (first: number) => {
      const values: unknown[] = [];
      const at = (v: unknown) => {
        values.push(v);
        return `$${first + values.length - 1}`;
      };
      const conds = ['c.school_id is null', 'c.status = 1'];
      for (const f of COURSEWARE_FILTERS) if (q[f] !== undefined) conds.push(`c.${f} = ${at(q[f])}::int`);
      const keyword = containsPattern(q.keyword);
      if (keyword) conds.push(`c.title ilike ${at(keyword)}`);
      if (q.owned !== undefined) conds.push(`${q.owned ? '' : 'not '}${ownedBy(at(user.schoolId))}`);
      return { sql: conds.join(' and '), values };
    };
    const list = where(2);
    const count = where(1);
    const [rows, [{ total }]] = await Promise.all([
      // the page's ids first (an index scan that stops after the page), then the names and counts of those rows only:
      // the per-row subqueries never run for skipped rows, and the plan's cost stays far below the JIT's threshold
      this.db.query(
        `with page as (select c.id from coursewares c where ${list.sql} order by c.id desc limit $${list.values.length + 2} offset $${list.values.length + 3})
         select ${ROW_COLUMNS} from page join coursewares c on c.id = page.id ${DICT_JOINS} order by c.id desc`,
        [user.schoolId, ...list.values, q.limit, offsetOf(q)],
      ) as Promise<CoursewareRow[]>,
      this.db.query(`select count(*)::int as total from coursewares c where ${count.sql}`, count.values) as Promise<Array<{ total: number }>>,
    ]);
    return pageOf(rows, total, q);
  }

  /** One courseware the school may see: description, price, whether owned, its sections (the publisher's and the school's). */
  async detail(user: SessionUser, id: number): Promise<CoursewareDetail> {
    const [c]: CoursewareDetail[] = await this.db.query(
      `select ${ROW_COLUMNS}, c.description, c.subject_id, c.discipline_id, c.grade_id, c.term_id, c.tixi_id, c.edition_id, c.status, c.version,
              coalesce((select json_agg(json_build_object('id', s.id, 'title', s.title, 'sort', s.sort, 'own', s.school_id is not null, 'version', s.version,
                         'files', (select count(*) from courseware_files cf where cf.section_id = s.id)) order by s.sort, s.id)
                 from courseware_sections s where s.courseware_id = c.id and (s.school_id is null or s.school_id = $1)), '[]') as sections_list
         from coursewares c ${DICT_JOINS}
        where c.id = $2 and ${VISIBLE}`,
      [user.schoolId, id],
    );
    if (!c) throw new AppError('courseware.not_found');
    return c;
  }

  async sections(user: SessionUser, coursewareId: number): Promise<CoursewareSectionRow[]> {
    const rows: Array<CoursewareSectionRow & { visible: boolean }> = await this.db.query(
      `select s.id, s.title, s.sort, s.school_id is not null as own, s.version,
              (select count(*) from courseware_files cf where cf.section_id = s.id)::int as files
         from coursewares c left join courseware_sections s on s.courseware_id = c.id and (s.school_id is null or s.school_id = $1)
        where c.id = $2 and ${VISIBLE}
        order by s.sort, s.id`,
      [user.schoolId, coursewareId],
    );
    if (!rows.length) throw new AppError('courseware.not_found');
    return rows.filter((r) => r.id !== null);
  }

  /** The courseware the school owns (bought and not refunded) and its own, most recent first. */
  async owned(user: SessionUser, q: SchoolCoursewareListQuery): Promise<Page<OwnedCoursewareRow>> {
    const where = `(c.school_id = $1 or ${OWNED}) and ($2::text is null or c.title ilike $2)`;
    const params = [user.schoolId, containsPattern(q.keyword)];
    const [list, [{ total }]] = await Promise.all([
      this.db.query(
        `select ${ROW_COLUMNS}, p.created_at as bought_at, p.method
           from coursewares c ${DICT_JOINS}
           left join courseware_purchases p on p.school_id = $1 and p.courseware_id = c.id and p.state = 'owned'
          where ${where}
          order by coalesce(p.created_at, c.created_at) desc, c.id desc limit $3 offset $4`,
        [...params, q.limit, offsetOf(q)],
      ) as Promise<OwnedCoursewareRow[]>,
      this.db.query(`select count(*)::int as total from coursewares c where ${where}`, params) as Promise<Array<{ total: number }>>,
    ]);
    return pageOf(list, total, q);
  }
}
