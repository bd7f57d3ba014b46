import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  CoursewareSectionFileInput,
  CoursewareSectionRow,
  EditCoursewareInput,
  OperatorCoursewareQuery,
  OperatorCoursewareRow,
  Page,
  PublishCoursewareInput,
  SaveCoursewareSectionInput,
} from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { containsPattern, offsetOf, pageOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { DICT_JOINS, OWNED, PRIVATE_PREFIX, ROW_COLUMNS } from './courseware-sql';
import { DictsService } from './dicts.service';

/** The files of sections to write, flattened: which section (by index), the stored file or the video link, in order. */
interface FlatFiles {
  section: number[];
  fileId: Array<string | null>;
  videoUrl: Array<string | null>;
  name: string[];
  sort: number[];
}

const flatten = (sections: Array<{ files: CoursewareSectionFileInput[] }>): FlatFiles => {
  const out: FlatFiles = { section: [], fileId: [], videoUrl: [], name: [], sort: [] };
  sections.forEach((s, i) =>
    s.files.forEach((f, j) => {
      out.section.push(i);
      out.fileId.push(f.file_id ?? null);
      out.videoUrl.push(f.video_url ?? null);
      out.name.push(f.name);
      out.sort.push((j + 1) * 10);
    }),
  );
  return out;
};

/** Inserts the flattened files into the sections given by id (sectionIds[index]); one statement. */
const INSERT_FILES = `
  insert into courseware_files (section_id, kind, file_id, video_url, name, pages, sort)
  select ($1::int[])[i.section + 1],
         case when i.file_id is null then 'video' when f.mime = 'application/pdf' then 'pdf' when f.mime like 'image/%' then 'image' else 'other' end,
         i.file_id, i.video_url, i.name, f.pages, i.sort
    from unnest($2::int[], $3::uuid[], $4::text[], $5::text[], $6::int[]) as i(section, file_id, video_url, name, sort)
    left join files f on f.id = i.file_id`;

/**
 * Writing the catalogue: the operator publishes and edits courseware; a school adds its own sections (with its own
 * files) to courseware it owns, and edits them. Every write is one transaction of a constant number of statements.
 */
@Injectable()
export class PublishingService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly dicts: DictsService,
  ) {}

  /**
   * Throws unless every stored file is a courseware file of the writer (the school's for a school, the platform's for
   * the operator), so nobody attaches another school's upload or a public one.
   */
  private async checkFiles(em: EntityManager, schoolId: number | null, fileIds: string[]): Promise<void> {
    const ids = [...new Set(fileIds)];
    if (!ids.length) return;
    const [{ n }]: Array<{ n: number }> = await em.query(
      `select count(*)::int as n from files where id = any($1::uuid[]) and school_id is not distinct from $2 and storage_path like $3`,
      [ids, schoolId, `${PRIVATE_PREFIX}%`],
    );
    if (n !== ids.length) throw new AppError('courseware.file_unusable');
  }

  // ---------------------------------------------------------------- the operator

  async publish(user: SessionUser, input: PublishCoursewareInput): Promise<{ id: number }> {
    await this.dicts.check(dictRefs(input));
    const files = flatten(input.sections);
    return this.db.transaction(async (em) => {
      await this.checkFiles(
        em,
        null,
        files.fileId.filter((f): f is string => f !== null),
      );
      const [c]: Array<{ id: number }> = await em.query(
        `insert into coursewares (title, subject_id, discipline_id, grade_id, term_id, tixi_id, edition_id, description, price_fen, created_by)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
        [
          input.title,
          input.subject_id,
          input.discipline_id ?? null,
          input.grade_id ?? null,
          input.term_id ?? null,
          input.tixi_id ?? null,
          input.edition_id ?? null,
          input.description ?? '',
          input.price_fen,
          user.id,
        ],
      );
      const sections: Array<{ id: number }> = await em.query(
        `insert into courseware_sections (courseware_id, title, sort, created_by)
         select $1, u.title, u.ord * 10, $3 from unnest($2::text[]) with ordinality as u(title, ord) order by u.ord returning id`,
        [c.id, input.sections.map((s) => s.title), user.id],
      );
      // serial ids follow the insert's order
      const ids = sections.map((s) => s.id).sort((a, b) => a - b);
      if (files.section.length) await em.query(INSERT_FILES, [ids, files.section, files.fileId, files.videoUrl, files.name, files.sort]);
      return { id: c.id };
    });
  }

  async edit(user: SessionUser, input: EditCoursewareInput): Promise<{ id: number; version: number }> {
    await this.dicts.check(dictRefs(input));
    const rows: Array<{ id: number; version: number }> = await this.db.query(
      `with u as (
         update coursewares set title = $3, subject_id = $4, discipline_id = $5, grade_id = $6, term_id = $7, tixi_id = $8, edition_id = $9,
                description = coalesce($10, description), price_fen = $11, status = $12, version = version + 1, updated_at = now()
          where id = $1 and school_id is null and version = $2 returning id, version
       ) select * from u`,
      [
        input.id,
        input.version,
        input.title,
        input.subject_id,
        input.discipline_id ?? null,
        input.grade_id ?? null,
        input.term_id ?? null,
        input.tixi_id ?? null,
        input.edition_id ?? null,
        input.description ?? null,
        input.price_fen,
        input.status,
      ],
    );
    if (rows.length) return rows[0];
    const [exists]: unknown[] = await this.db.query(`select 1 from coursewares where id = $1 and school_id is null`, [input.id]);
    throw new AppError(exists ? 'courseware.stale' : 'courseware.not_found');
  }

  async operatorList(q: OperatorCoursewareQuery): Promise<Page<OperatorCoursewareRow>> {
    // $1 is the caller's school in ROW_COLUMNS: 0 (no school) for the operator, so the platform's are school_id null
    const where = `c.school_id is not distinct from nullif($1::int, 0) and ($2::text is null or c.title ilike $2) and ($3::int is null or c.status = $3)`;
    const params = [0, containsPattern(q.keyword), q.status ?? null];
    const [list, [{ total }]] = await Promise.all([
      this.db.query(
        `select ${ROW_COLUMNS}, c.status, c.version, c.created_at, c.description, c.subject_id, c.discipline_id, c.grade_id, c.term_id, c.tixi_id, c.edition_id,
                (select count(*) from courseware_purchases p where p.courseware_id = c.id and p.state = 'owned')::int as buyers
           from coursewares c ${DICT_JOINS} where ${where} order by c.id desc limit $4 offset $5`,
        [...params, q.limit, offsetOf(q)],
      ) as Promise<OperatorCoursewareRow[]>,
      this.db.query(`select count(*)::int as total from coursewares c where ${where}`, params) as Promise<Array<{ total: number }>>,
    ]);
    return pageOf(list, total, q);
  }

  // ---------------------------------------------------------------- a school's own sections

  /**
   * A school adds a section to a courseware it owns (or its own), or edits a section it added (on the version read).
   * Editing keeps the files still listed (their ids: lesson plans point at them), removes the others, adds the new.
   */
  async saveSection(user: SessionUser, input: SaveCoursewareSectionInput): Promise<CoursewareSectionRow> {
    const schoolId = user.schoolId!;
    const files = flatten([input]);
    return this.db.transaction(async (em) => {
      const [c]: Array<{ open: boolean }> = await em.query(
        `select (coalesce(c.school_id = $1, false) or ${OWNED}) as open from coursewares c where c.id = $2 and (c.school_id is null or c.school_id = $1)`,
        [schoolId, input.courseware_id],
      );
      if (!c) throw new AppError('courseware.not_found');
      if (!c.open) throw new AppError('courseware.not_owned');
      await this.checkFiles(
        em,
        schoolId,
        files.fileId.filter((f): f is string => f !== null),
      );
      let sectionId: number;
      if (input.id === undefined) {
        const [s]: Array<{ id: number }> = await em.query(
          `insert into courseware_sections (courseware_id, school_id, title, sort, created_by)
           values ($1, $2, $3, coalesce($4::int, (select coalesce(max(sort), 0) + 10 from courseware_sections where courseware_id = $1)), $5) returning id`,
          [input.courseware_id, schoolId, input.title, input.sort ?? null, user.id],
        );
        sectionId = s.id;
        if (files.section.length) await em.query(INSERT_FILES, [[sectionId], files.section, files.fileId, files.videoUrl, files.name, files.sort]);
      } else {
        if (input.version === undefined) throw new AppError('courseware.v.version_invalid');
        const [s]: Array<{ id: number; school_id: number | null; version: number }> = await em.query(
          `select id, school_id, version from courseware_sections where id = $1 and courseware_id = $2 and (school_id is null or school_id = $3) for update`,
          [input.id, input.courseware_id, schoolId],
        );
        if (!s) throw new AppError('courseware.section_not_found');
        if (s.school_id !== schoolId) throw new AppError('courseware.not_own_section');
        if (s.version !== input.version) throw new AppError('courseware.stale');
        sectionId = s.id;
        await em.query(
          `update courseware_sections set title = $2, sort = coalesce($3, sort), version = version + 1, updated_at = now() where id = $1`,
          [sectionId, input.title, input.sort ?? null],
        );
        const keys = files.fileId.map((f, i) => f ?? files.videoUrl[i]!);
        await em.query(`delete from courseware_files where section_id = $1 and not (coalesce(file_id::text, video_url) = any($2::text[]))`, [
          sectionId,
          keys,
        ]);
        await em.query(
          `update courseware_files cf set name = i.name, sort = i.sort
             from unnest($2::text[], $3::text[], $4::int[]) as i(key, name, sort)
            where cf.section_id = $1 and coalesce(cf.file_id::text, cf.video_url) = i.key`,
          [sectionId, keys, files.name, files.sort],
        );
        await em.query(
          `${INSERT_FILES}
            where not exists (select 1 from courseware_files x where x.section_id = ($1::int[])[1] and coalesce(x.file_id::text, x.video_url) = coalesce(i.file_id::text, i.video_url))`,
          [[sectionId], files.section, files.fileId, files.videoUrl, files.name, files.sort],
        );
      }
      const [row]: CoursewareSectionRow[] = await em.query(
        `select s.id, s.title, s.sort, true as own, s.version, (select count(*) from courseware_files cf where cf.section_id = s.id)::int as files
           from courseware_sections s where s.id = $1`,
        [sectionId],
      );
      return row;
    });
  }
}

const dictRefs = (i: PublishCoursewareInput | EditCoursewareInput) => ({
  subject: i.subject_id,
  discipline: i.discipline_id,
  grade: i.grade_id,
  term: i.term_id,
  tixi: i.tixi_id,
  edition: i.edition_id,
});
