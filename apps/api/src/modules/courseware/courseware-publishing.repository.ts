import { Injectable } from '@nestjs/common';
import { sql, type Insertable, type Updateable } from 'kysely';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';
import { ownedBy, ownOf } from './courseware-sql';

/** The files of sections to write, flattened: which section (by index), the stored file or the video link, in order. */
export interface FlatFiles {
  section: number[];
  fileId: Array<string | null>;
  videoUrl: Array<string | null>;
  name: string[];
  sort: number[];
}

/** The flattened files as rows `i` (section, file_id, video_url, name, sort) with their stored file `f`, for the set-based writes. */
const filesFrom = (f: FlatFiles) =>
  sql`unnest(${f.section}::int[], ${f.fileId}::uuid[], ${f.videoUrl}::text[], ${f.name}::text[], ${f.sort}::int[]) as i(section, file_id, video_url, name, sort)
    left join files f on f.id = i.file_id`;

/** The insert of the flattened files into the sections given by id (sectionIds[index]). */
const insertFilesSql = (sectionIds: number[], f: FlatFiles) => sql`
  insert into courseware_files (section_id, kind, file_id, video_url, name, pages, sort)
  select (${sectionIds}::int[])[i.section + 1],
         case when i.file_id is null then 'video' when f.mime = 'application/pdf' then 'pdf' when f.mime like 'image/%' then 'image' else 'other' end,
         i.file_id, i.video_url, i.name, f.pages, i.sort
    from ${filesFrom(f)}`;

/** Writing the catalogue: the operator's courseware, a school's own sections and their files. */
@Injectable()
export class CoursewarePublishingRepository {
  async insertCourseware(em: Queryable, row: Insertable<DB['coursewares']>): Promise<number> {
    const r = await kdb(em).insertInto('coursewares').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** Sections of courseware `coursewareId` titled in order (sort 10, 20, …); answers their ids, ascending (serial ids follow the insert's order). */
  async insertSections(em: Queryable, coursewareId: number, titles: string[], userId: number): Promise<number[]> {
    const { rows } = await sql<{ id: number }>`
      insert into courseware_sections (courseware_id, title, sort, created_by)
      select ${coursewareId}::int, u.title, u.ord * 10, ${userId}::int from unnest(${titles}::text[]) with ordinality as u(title, ord) order by u.ord
      returning id`.execute(kdb(em));
    return rows.map((s) => s.id).sort((a, b) => a - b);
  }

  /** Inserts the flattened files into the sections given by id (sectionIds[index]); one statement. */
  async insertFiles(em: Queryable, sectionIds: number[], files: FlatFiles): Promise<void> {
    await insertFilesSql(sectionIds, files).execute(kdb(em));
  }

  /** The operator's edit of a platform courseware on the version read: its new version, or undefined when nothing matched. */
  updateCourseware(on: Queryable, id: number, version: number, set: Updateable<DB['coursewares']>, description: string | null) {
    return kdb(on)
      .updateTable('coursewares')
      .set((eb) => ({
        ...set,
        description: eb.fn.coalesce(eb.val(description), 'description'),
        version: eb('version', '+', 1),
        updated_at: sql`now()`,
      }))
      .where('id', '=', id)
      .where('school_id', 'is', null)
      .where('version', '=', version)
      .returning(['id', 'version'])
      .executeTakeFirst();
  }

  async platformCoursewareExists(on: Queryable, id: number): Promise<boolean> {
    const r = await kdb(on)
      .selectFrom('coursewares')
      .select(sql.lit(1).as('one'))
      .where('id', '=', id)
      .where('school_id', 'is', null)
      .executeTakeFirst();
    return r !== undefined;
  }

  /** A courseware school `school` may add sections to: undefined when it does not see it; `open` when it owns it or it is its own. */
  sectionTarget(em: Queryable, school: number, coursewareId: number) {
    return kdb(em)
      .selectFrom('coursewares as c')
      .select((eb) =>
        eb
          .or([ownOf(eb, school), ownedBy(eb, school)])
          .$castTo<boolean>()
          .as('open'),
      )
      .where('c.id', '=', coursewareId)
      .where((eb) => eb.or([eb('c.school_id', 'is', null), eb('c.school_id', '=', school)]))
      .executeTakeFirst();
  }

  /** A school's new section (sort: the one given, else after the last); answers its id. */
  async insertSection(
    em: Queryable,
    s: { coursewareId: number; schoolId: number; title: string; sort: number | null; userId: number },
  ): Promise<number> {
    const r = await kdb(em)
      .insertInto('courseware_sections')
      .values((eb) => ({
        courseware_id: s.coursewareId,
        school_id: s.schoolId,
        title: s.title,
        sort: eb.fn.coalesce(
          sql<number>`${s.sort}::int`,
          eb
            .selectFrom('courseware_sections')
            .select(sql<number>`coalesce(max(sort), 0) + 10`.as('next'))
            .where('courseware_id', '=', s.coursewareId)
            .$asScalar(),
        ),
        created_by: s.userId,
      }))
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /** A section of the courseware the school sees (the publisher's or its own), locked for the edit. */
  lockSection(em: Queryable, school: number, id: number, coursewareId: number) {
    return kdb(em)
      .selectFrom('courseware_sections')
      .select(['id', 'school_id', 'version'])
      .where('id', '=', id)
      .where('courseware_id', '=', coursewareId)
      .where((eb) => eb.or([eb('school_id', 'is', null), eb('school_id', '=', school)]))
      .forUpdate()
      .executeTakeFirst();
  }

  async updateSection(em: Queryable, id: number, title: string, sort: number | null): Promise<void> {
    await kdb(em)
      .updateTable('courseware_sections')
      .set((eb) => ({ title, sort: eb.fn.coalesce(eb.val(sort), 'sort'), version: eb('version', '+', 1), updated_at: sql`now()` }))
      .where('id', '=', id)
      .execute();
  }

  /**
   * The section's files become the flattened ones: those still listed (by stored file or video link: lesson plans
   * point at their ids) are kept with their new name and order, the others removed, the new added. Three statements.
   */
  async replaceFiles(em: Queryable, sectionId: number, files: FlatFiles): Promise<void> {
    const keys = files.fileId.map((f, i) => f ?? files.videoUrl[i]!);
    const k = kdb(em);
    await k
      .deleteFrom('courseware_files')
      .where('section_id', '=', sectionId)
      .where(sql<boolean>`not (coalesce(file_id::text, video_url) = any(${keys}::text[]))`)
      .execute();
    await sql`
      update courseware_files cf set name = i.name, sort = i.sort
        from unnest(${keys}::text[], ${files.name}::text[], ${files.sort}::int[]) as i(key, name, sort)
       where cf.section_id = ${sectionId}::int and coalesce(cf.file_id::text, cf.video_url) = i.key`.execute(k);
    await sql`${insertFilesSql([sectionId], files)}
       where not exists (select 1 from courseware_files x where x.section_id = ${sectionId}::int
                           and coalesce(x.file_id::text, x.video_url) = coalesce(i.file_id::text, i.video_url))`.execute(k);
  }

  /** The school's section as the catalogue lists it. */
  schoolSection(em: Queryable, id: number) {
    return kdb(em)
      .selectFrom('courseware_sections as s')
      .select((eb) => [
        's.id',
        's.title',
        's.sort',
        sql<boolean>`true`.as('own'),
        's.version',
        sql<number>`(${eb
          .selectFrom('courseware_files as cf')
          .whereRef('cf.section_id', '=', 's.id')
          .select(sql`count(*)`.as('n'))})::int`.as('files'),
      ])
      .where('s.id', '=', id)
      .executeTakeFirstOrThrow();
  }
}
