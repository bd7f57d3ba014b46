import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ResourceAudience } from '@wantuo/shared';
import { sql, type ExpressionBuilder } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, type DB } from '../../core/database/kysely';

type RF = DB & { r: DB['site_resources']; f: DB['files'] };

/** The columns of a resource as answered (r: site_resources, f: files). */
const resourceColumns = (eb: ExpressionBuilder<RF, 'r' | 'f'>) =>
  [
    'r.id',
    'r.audience',
    'r.title',
    'r.description',
    'r.subject',
    'r.grade',
    'f.name as file_name',
    'f.mime',
    'f.size',
    sql<string>`'/uploads/' || ${eb.ref('f.storage_path')}`.as('url'),
    'r.created_at',
  ] as const;

/** Which live resources a list shows: null meaning "any". */
export interface ResourceFilter {
  audience: ResourceAudience | null;
  /** an ilike pattern of the title */
  pattern: string | null;
  subject: string | null;
  grade: string | null;
}

const matching = (f: ResourceFilter) => (eb: ExpressionBuilder<DB & { r: DB['site_resources'] }, 'r'>) =>
  eb.and([
    eb('r.deleted_at', 'is', null),
    ...(f.audience === null ? [] : [eb('r.audience', '=', f.audience)]),
    ...(f.pattern === null ? [] : [eb('r.title', 'ilike', f.pattern)]),
    ...(f.subject === null ? [] : [eb('r.subject', '=', f.subject)]),
    ...(f.grade === null ? [] : [eb('r.grade', '=', f.grade)]),
  ]);

/** The SQL of the site module (issue 38): every statement typed by the schema. */
@Injectable()
export class SiteRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * One page of live resources and its total (a window count) in one statement; the (audience, created_at) and
   * (audience, subject, grade, created_at) indexes serve the order.
   */
  resources(f: ResourceFilter, limit: number, offset: number) {
    return kdb(this.db)
      .selectFrom('site_resources as r')
      .innerJoin('files as f', 'f.id', 'r.file_id')
      .select(resourceColumns)
      .select((eb) => sql<number>`${eb.fn.countAll().over()}::int`.as('total'))
      .where(matching(f))
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** How many live resources `f` selects. */
  async count(f: ResourceFilter): Promise<number> {
    const c = await kdb(this.db)
      .selectFrom('site_resources as r')
      .select(sql<number>`count(*)::int`.as('n'))
      .where(matching(f))
      .executeTakeFirstOrThrow();
    return c.n;
  }

  /** The subjects and grades that live materials for schools have. */
  choices() {
    return kdb(this.db)
      .selectFrom('site_resources')
      .select((eb) => [
        sql<
          string[]
        >`coalesce(array_agg(distinct ${eb.ref('subject')} order by ${eb.ref('subject')}) filter (where ${eb.ref('subject')} is not null), '{}')`.as(
          'subjects',
        ),
        sql<
          string[]
        >`coalesce(array_agg(distinct ${eb.ref('grade')} order by ${eb.ref('grade')}) filter (where ${eb.ref('grade')} is not null), '{}')`.as(
          'grades',
        ),
      ])
      .where('audience', '=', 'schools')
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
  }

  /** Publishes an operator's file (of no school); undefined when there is none. One statement. */
  add(r: {
    audience: ResourceAudience;
    title: string;
    description: string;
    subject: string | null;
    grade: string | null;
    file_id: string;
    created_by: number;
  }) {
    const k = kdb(this.db);
    return k
      .with('r', (db) =>
        db
          .insertInto('site_resources')
          .columns(['audience', 'title', 'description', 'subject', 'grade', 'file_id', 'created_by'])
          .expression((eb) =>
            eb
              .selectFrom('files as f')
              .select((x) => [
                x.val(r.audience).as('audience'),
                x.val(r.title).as('title'),
                x.val(r.description).as('description'),
                x.val(r.subject).as('subject'),
                x.val(r.grade).as('grade'),
                'f.id',
                x.val(r.created_by).as('created_by'),
              ])
              .where('f.id', '=', r.file_id)
              .where('f.school_id', 'is', null),
          )
          .returningAll(),
      )
      .selectFrom('r')
      .innerJoin('files as f', 'f.id', 'r.file_id')
      .select(resourceColumns)
      .executeTakeFirst();
  }

  /** Marks a live resource removed; its id, else undefined. */
  remove(id: number, by: number) {
    return kdb(this.db)
      .with('u', (db) =>
        db
          .updateTable('site_resources')
          .set({ deleted_at: sql`now()`, deleted_by: by })
          .where('id', '=', id)
          .where('deleted_at', 'is', null)
          .returning('id'),
      )
      .selectFrom('u')
      .select('id')
      .executeTakeFirst();
  }

  /** Deletes a file's row; its storage path, else undefined. */
  async discardFile(id: string): Promise<string | undefined> {
    const r = await kdb(this.db)
      .with('d', (db) => db.deleteFrom('files').where('id', '=', id).returning('storage_path'))
      .selectFrom('d')
      .select('storage_path')
      .executeTakeFirst();
    return r?.storage_path;
  }
}
