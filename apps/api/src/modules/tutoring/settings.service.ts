import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Page, TutorialSetting, TutorialSettingInput, TutorialSettingListQuery, TutorialType, TutorialTypeQuery } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { isUniqueViolation, offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { checkTeacher, schoolOf, seedTypes } from './tutoring-sql';

/** The school's tutoring types and their settings (duration, price per session, default teacher). */
@Injectable()
export class TutoringSettingsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The types in their order, with the classes of each; the defaults are inserted on the school's first read. */
  async types(user: SessionUser, q: TutorialTypeQuery): Promise<Page<TutorialType>> {
    const school = schoolOf(user);
    await seedTypes(this.db, school);
    const rows: Array<TutorialType & { total: number }> = await this.db.query(
      `select n.total, p.* from (select count(*)::int as total from tutoring_types where school_id = $1) n
       left join lateral (
         select t.id, t.name, t.sort::int as sort,
                (select count(*)::int from tutoring_classes c where c.type_id = t.id and c.deleted_at is null) as classes
           from tutoring_types t where t.school_id = $1 order by t.sort, t.id limit $2 offset $3) p on true`,
      [school, q.limit, offsetOf(q)],
    );
    return pageOf(
      rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r),
      totalOf(rows),
      q,
    );
  }

  /** Each type's setting in the types' order. */
  async settings(user: SessionUser, q: TutorialSettingListQuery): Promise<Page<TutorialSetting>> {
    const school = schoolOf(user);
    await seedTypes(this.db, school);
    const rows: Array<TutorialSetting & { total: number }> = await this.db.query(
      `select n.total, p.* from (select count(*)::int as total from tutoring_types where school_id = $1) n
       left join lateral (
         select t.id as type_id, t.name, t.duration_min::int as duration_min, t.price_fen::float8 as price_fen, t.teacher_id, u.name as teacher_name, t.version
           from tutoring_types t left join users u on u.id = t.teacher_id
          where t.school_id = $1 order by t.sort, t.id limit $2 offset $3) p on true`,
      [school, q.limit, offsetOf(q)],
    );
    return pageOf(
      rows.filter((r) => r.type_id !== null).map(({ total: _, ...r }) => r),
      totalOf(rows),
      q,
    );
  }

  /** Saves a type's setting on the version read, or adds a type (placed last). Classes keep the price they were created with. */
  async save(user: SessionUser, input: TutorialSettingInput): Promise<TutorialSetting> {
    const school = schoolOf(user);
    const id = await this.db.transaction(async (em) => {
      if (input.teacher_id) await checkTeacher(em, school, input.teacher_id);
      try {
        if (input.type_id === undefined) {
          await seedTypes(em, school);
          const [row]: Array<{ id: number }> = await em.query(
            `insert into tutoring_types (school_id, name, sort, duration_min, price_fen, teacher_id)
             select $1, $2, coalesce(max(sort), 0) + 1, $3, $4, $5 from tutoring_types where school_id = $1 returning id`,
            [school, input.name, input.duration_min, input.price_fen, input.teacher_id ?? null],
          );
          return row.id;
        }
        const [row]: Array<{ id: number; version: number; updated: boolean }> = await em.query(
          `with t as (select id, version from tutoring_types where id = $1 and school_id = $2 for update),
                u as (update tutoring_types x set name = coalesce($4, x.name), duration_min = $5, price_fen = $6,
                             teacher_id = case when $8 then $7::int else x.teacher_id end, version = x.version + 1, updated_at = now()
                        from t where x.id = t.id and t.version = $3 returning x.id)
           select t.id, t.version, exists (select 1 from u) as updated from t`,
          [
            input.type_id,
            school,
            input.version,
            input.name ?? null,
            input.duration_min,
            input.price_fen,
            input.teacher_id ?? null,
            input.teacher_id !== undefined,
          ],
        );
        if (!row) throw new AppError('tutoring.type_not_found');
        if (!row.updated) throw new AppError('tutoring.setting_stale');
        return row.id;
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('tutoring.type_name_taken');
        throw err;
      }
    });
    const [row]: TutorialSetting[] = await this.db.query(
      `select t.id as type_id, t.name, t.duration_min::int as duration_min, t.price_fen::float8 as price_fen, t.teacher_id, u.name as teacher_name, t.version
         from tutoring_types t left join users u on u.id = t.teacher_id where t.id = $1`,
      [id],
    );
    return row;
  }
}
