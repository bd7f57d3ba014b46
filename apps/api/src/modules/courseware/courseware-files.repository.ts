import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { CoursewareFileKind } from '@wantuo/shared';
import { sql, type Insertable, type SqlBool } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';
import { filesOpen, PRIVATE_PREFIX, visibleTo } from './courseware-sql';

/** Writes a stored file's row (courseware files are stored privately; also the demo seed's). */
export async function insertFile(on: Queryable, row: Insertable<DB['files']>): Promise<void> {
  await kdb(on).insertInto('files').values(row).execute();
}

/** The columns of a file row that a left-joined file makes nullable, though never null when the file is there. */
type FileCols = 'id' | 'kind' | 'name' | 'section_id' | 'section_title';
type Filed<R extends Record<FileCols, unknown>> = R & { [K in FileCols]: NonNullable<R[K]> };

/** Whether a row of `coursewareFiles` / `sectionFiles` has a file (not the nulls of a section without files). */
export const hasFile = <R extends Record<FileCols, unknown>>(r: R): r is Filed<R> => r.id !== null;

/** A file of a section as the repository reads it (with a file). */
export type SectionFile = Filed<Awaited<ReturnType<CoursewareFilesRepository['sectionFiles']>>[number]>;

/** Courseware files: the signing key, the files of sections as a school sees them, a stored file by id. */
@Injectable()
export class CoursewareFilesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The deployment's signing key. */
  async signKey(): Promise<string> {
    const row = await kdb(this.db).selectFrom('courseware_sign_keys').select('key').where('id', '=', 1).executeTakeFirstOrThrow();
    return row.key;
  }

  /**
   * The sections of courseware `coursewareId` as school `school` sees it (none: not visible) with their files (of
   * `kind`, or all) and whether it may open each: a section without files, or a courseware without sections, is one
   * row of nulls. In order.
   */
  coursewareFiles(school: number, coursewareId: number, kind: CoursewareFileKind | null) {
    return kdb(this.db)
      .selectFrom('coursewares as c')
      .leftJoin('courseware_sections as s', (j) =>
        j.onRef('s.courseware_id', '=', 'c.id').on((eb) => eb.or([eb('s.school_id', 'is', null), eb('s.school_id', '=', school)])),
      )
      .leftJoin('courseware_files as cf', (j) =>
        kind === null ? j.onRef('cf.section_id', '=', 's.id') : j.onRef('cf.section_id', '=', 's.id').on('cf.kind', '=', kind),
      )
      .leftJoin('files as f', 'f.id', 'cf.file_id')
      .select((eb) => [
        's.id as section_id',
        's.title as section_title',
        filesOpen(eb, school).$castTo<boolean>().as('open'),
        'cf.id',
        'cf.kind',
        'cf.name',
        'f.mime',
        'f.size',
        'cf.pages',
        'cf.file_id',
        'cf.video_url',
      ])
      .where('c.id', '=', coursewareId)
      .where((eb) => visibleTo(eb, school))
      .orderBy('s.sort')
      .orderBy('s.id')
      .orderBy('cf.sort')
      .orderBy('cf.id')
      .execute();
  }

  /**
   * Section `sectionId` as school `school` sees it (none: not visible), whether it may open its files, and its files
   * in order (a section without files is one row with null file columns).
   */
  sectionFiles(school: number, sectionId: number) {
    return kdb(this.db)
      .selectFrom('courseware_sections as s')
      .innerJoin('coursewares as c', 'c.id', 's.courseware_id')
      .leftJoin('courseware_files as cf', 'cf.section_id', 's.id')
      .leftJoin('files as f', 'f.id', 'cf.file_id')
      .select((eb) => [
        's.id as section_id',
        's.title as section_title',
        filesOpen(eb, school).$castTo<boolean>().as('open'),
        'cf.id',
        'cf.kind',
        'cf.name',
        'f.mime',
        'f.size',
        'cf.pages',
        'cf.file_id',
        'cf.video_url',
      ])
      .where('s.id', '=', sectionId)
      .where((eb) => eb.or([eb('s.school_id', 'is', null), eb('s.school_id', '=', school)]))
      .where((eb) => eb.or([eb('c.school_id', 'is', null), eb('c.school_id', '=', school)]))
      .orderBy('cf.sort')
      .orderBy('cf.id')
      .execute();
  }

  /**
   * A stored file by id, and whether school `school` may open it: its own upload, or a file of a courseware section
   * it may open (`anySchool`: the operator's stream, any file). Only a private (courseware) file when `privateOnly`.
   */
  storedFile(school: number, id: string, o: { anySchool?: boolean; privateOnly?: boolean } = {}) {
    let q = kdb(this.db)
      .selectFrom('files as f')
      .select((eb) => [
        'f.id',
        'f.name',
        'f.mime',
        'f.storage_path',
        'f.pages',
        sql<number>`${eb.ref('f.size')}::float8`.as('size'),
        'f.sha256',
        'f.school_id',
        eb
          .or([
            ...(o.anySchool && school === 0 ? [sql<SqlBool>`true`] : []),
            eb('f.school_id', '=', school),
            eb.exists(
              eb
                .selectFrom('courseware_files as cf')
                .innerJoin('courseware_sections as s', 's.id', 'cf.section_id')
                .innerJoin('coursewares as c', 'c.id', 's.courseware_id')
                .select(sql.lit(1).as('one'))
                .whereRef('cf.file_id', '=', 'f.id')
                .where((w) => filesOpen(w, school)),
            ),
          ])
          .$castTo<boolean>()
          .as('open'),
      ])
      .where('f.id', '=', id);
    if (o.privateOnly) q = q.where('f.storage_path', 'like', sql.lit(`${PRIVATE_PREFIX}%`));
    return q.executeTakeFirst();
  }

  /** How many of the stored files `ids` are courseware files of the writer (`schoolId`; null the platform). */
  async usableFiles(on: Queryable, schoolId: number | null, ids: string[]): Promise<number> {
    const r = await kdb(on)
      .selectFrom('files')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('id', '=', sql<string>`any(${ids}::uuid[])`)
      .where(sql<boolean>`school_id is not distinct from ${schoolId}`)
      .where('storage_path', 'like', `${PRIVATE_PREFIX}%`)
      .executeTakeFirstOrThrow();
    return r.n;
  }
}
