import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { CoursewareDictKind } from '@wantuo/shared';
import { sql } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb } from '../../core/database/kysely';

const DICT_COLUMNS = ['id', 'name', 'sort', 'active', 'version'] as const;

/** The catalogue's six dictionaries (courseware_dicts). */
@Injectable()
export class CoursewareDictsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Every entry of the six, in order. */
  all() {
    return kdb(this.db)
      .selectFrom('courseware_dicts')
      .select(['kind', ...DICT_COLUMNS])
      .orderBy('kind')
      .orderBy('sort')
      .orderBy('id')
      .execute();
  }

  insert(e: { kind: CoursewareDictKind; name: string; sort: number; active: boolean; userId: number }) {
    return kdb(this.db)
      .insertInto('courseware_dicts')
      .values({ kind: e.kind, name: e.name, sort: e.sort, active: e.active, updated_by: e.userId })
      .returning(DICT_COLUMNS)
      .executeTakeFirstOrThrow();
  }

  /** Edits the entry on the version read (sort and active kept when not given); undefined when nothing matched. */
  update(e: { id: number; kind: CoursewareDictKind; name: string; sort: number | null; active: boolean | null; version: number; userId: number }) {
    return kdb(this.db)
      .updateTable('courseware_dicts')
      .set((eb) => ({
        name: e.name,
        sort: eb.fn.coalesce(eb.val(e.sort), 'sort'),
        active: eb.fn.coalesce(eb.val(e.active), 'active'),
        version: eb('version', '+', 1),
        updated_by: e.userId,
        updated_at: sql`now()`,
      }))
      .where('id', '=', e.id)
      .where('kind', '=', e.kind)
      .where('version', '=', e.version)
      .returning(DICT_COLUMNS)
      .executeTakeFirst();
  }

  /** Whether `id` is an entry of the dictionary `kind`. */
  async exists(id: number, kind: CoursewareDictKind): Promise<boolean> {
    const row = await kdb(this.db)
      .selectFrom('courseware_dicts')
      .select(sql.lit(1).as('one'))
      .where('id', '=', id)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return row !== undefined;
  }
}
