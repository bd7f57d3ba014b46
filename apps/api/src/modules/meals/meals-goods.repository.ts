import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DEFAULT_MEAL_CUTOFF, type MealSettings, type Page } from '@wantuo/shared';
import { sql, type ExpressionBuilder, type InferResult, type Insertable, type Updateable } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';

type G = DB & { g: DB['meal_goods'] };

/** A MealGoods (`g` the item): its bookings ever made counted. */
export const goodsColumns = (eb: ExpressionBuilder<G, 'g'>) =>
  [
    'g.id',
    'g.name',
    'g.description',
    'g.picture_url',
    sql<number>`${eb.ref('g.price_fen')}::float8`.as('price_fen'),
    'g.enabled',
    eb
      .selectFrom('meal_bookings as mb')
      .select(sql<number>`count(*)::int`.as('n'))
      .whereRef('mb.goods_id', '=', 'g.id')
      .$asScalar()
      .$castTo<number>()
      .as('orders'),
    'g.version',
    'g.created_at',
  ] as const;

/** The school's items (not deleted), as goodsColumns selects them. */
const goods = (on: Queryable, schoolId: number) =>
  kdb(on).selectFrom('meal_goods as g').select(goodsColumns).where('g.school_id', '=', schoolId).where('g.deleted_at', 'is', null);

/** An item as goodsColumns selects it: the answer MealGoods (its times still Dates). */
export type GoodsRow = InferResult<ReturnType<typeof goods>>[number];

/** The school's enabled items, by id (at most `max`). */
export function enabledGoods(on: Queryable, schoolId: number, max: number): Promise<GoodsRow[]> {
  return goods(on, schoolId).where('g.enabled', '=', true).orderBy('g.id').limit(max).execute();
}

/** The school's meal settings with its clock now. */
export async function settingsOf(on: Queryable, schoolId: number): Promise<MealSettings> {
  const r = await kdb(on)
    .selectFrom('schools as s')
    .leftJoin('meal_settings as m', 'm.school_id', 's.id')
    .select((eb) => {
      const local = sql`now() at time zone ${eb.ref('s.timezone')}`;
      return [
        's.timezone',
        sql<string>`to_char((${local})::date, 'YYYY-MM-DD')`.as('today'),
        sql<number>`(extract(hour from ${local}) * 60 + extract(minute from ${local}))::int`.as('now_minutes'),
        'm.cutoff_time',
        'm.days_before',
        'm.version',
      ];
    })
    .where('s.id', '=', schoolId)
    .executeTakeFirst();
  return {
    cutoff_time: r!.cutoff_time ?? DEFAULT_MEAL_CUTOFF.time,
    days_before: (r!.days_before ?? DEFAULT_MEAL_CUTOFF.days_before) as 0 | 1,
    timezone: r!.timezone,
    today: r!.today,
    now_minutes: r!.now_minutes,
    version: r!.version ?? 1,
  };
}

/** The items and the cutoff's statements (goods.service.ts). */
@Injectable()
export class MealGoodsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A page of the school's items (enabled first, then newest), by enabled and name pattern, with the total. */
  page(schoolId: number, f: { enabled: boolean | null; pattern: string | null }, q: PageQuery): Promise<Page<GoodsRow>> {
    const where = (eb: ExpressionBuilder<G, 'g'>) =>
      eb.and([
        eb('g.school_id', '=', schoolId),
        eb('g.deleted_at', 'is', null),
        ...(f.enabled === null ? [] : [eb('g.enabled', '=', f.enabled)]),
        ...(f.pattern === null ? [] : [eb('g.name', 'ilike', f.pattern)]),
      ]);
    const k = kdb(this.db);
    const total = k
      .selectFrom('meal_goods as g')
      .select(sql<number>`count(*)::int`.as('total'))
      .where(where);
    const list = k.selectFrom('meal_goods as g').select(goodsColumns).where(where).orderBy('g.enabled', 'desc').orderBy('g.id', 'desc');
    return pageRows(this.db, total, list, q);
  }

  /** One of the school's items (not deleted). */
  one(schoolId: number, id: number): Promise<GoodsRow | undefined> {
    return goods(this.db, schoolId).where('g.id', '=', id).executeTakeFirst();
  }

  async insert(em: Queryable, row: Insertable<DB['meal_goods']>): Promise<number> {
    const g = await kdb(em).insertInto('meal_goods').values(row).returning('id').executeTakeFirstOrThrow();
    return g.id;
  }

  /** Appends to an item's price history. */
  async insertPrice(em: Queryable, row: Insertable<DB['meal_goods_prices']>): Promise<void> {
    await kdb(em).insertInto('meal_goods_prices').values(row).execute();
  }

  /** Writes `set` on the version read; the ids written (none: missing or stale). */
  update(
    schoolId: number,
    id: number,
    version: number,
    set: Pick<Updateable<DB['meal_goods']>, 'name' | 'description' | 'picture_url' | 'enabled'>,
  ): Promise<Array<{ id: number }>> {
    return kdb(this.db)
      .updateTable('meal_goods')
      .set((eb) => ({ ...set, version: eb('version', '+', 1), updated_at: sql`now()` }))
      .where('school_id', '=', schoolId)
      .where('id', '=', id)
      .where('version', '=', version)
      .where('deleted_at', 'is', null)
      .returning('id')
      .execute();
  }

  /** The item's price and version, locked. */
  lockPrice(em: Queryable, schoolId: number, id: number) {
    return kdb(em)
      .selectFrom('meal_goods')
      .select((eb) => [sql<number>`${eb.ref('price_fen')}::float8`.as('price_fen'), 'version'])
      .where('school_id', '=', schoolId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
  }

  async setPrice(em: Queryable, id: number, priceFen: number): Promise<void> {
    await kdb(em)
      .updateTable('meal_goods')
      .set((eb) => ({ price_fen: priceFen, version: eb('version', '+', 1), updated_at: sql`now()` }))
      .where('id', '=', id)
      .execute();
  }

  /** An item's price history, newest first (the last 200). */
  prices(schoolId: number, id: number) {
    return kdb(this.db)
      .selectFrom('meal_goods_prices as p')
      .leftJoin('users as u', 'u.id', 'p.actor_id')
      .select((eb) => ['p.id', sql<number>`${eb.ref('p.price_fen')}::float8`.as('price_fen'), 'p.reason', 'u.name as actor_name', 'p.at'])
      .where('p.school_id', '=', schoolId)
      .where('p.goods_id', '=', id)
      .orderBy('p.id', 'desc')
      .limit(200)
      .execute();
  }

  /** Deletes (hides) the item on the version read when never ordered, else disables it; undefined: missing or stale. */
  async delete(schoolId: number, id: number, version: number): Promise<boolean | undefined> {
    const r = await kdb(this.db)
      .with('g', (db) =>
        db
          .selectFrom('meal_goods')
          .select((eb) => [
            'id',
            eb.exists(eb.selectFrom('meal_bookings as b').select(sql.lit(1).as('one')).whereRef('b.goods_id', '=', 'meal_goods.id')).as('ordered'),
          ])
          .where('school_id', '=', schoolId)
          .where('id', '=', id)
          .where('version', '=', version)
          .where('deleted_at', 'is', null)
          .forUpdate(),
      )
      .with('u', (db) =>
        db
          .updateTable('meal_goods as m')
          .from('g')
          .set((eb) => ({
            deleted_at: eb
              .case()
              .when('g.ordered', '=', true)
              .then(null)
              .else(sql<Date>`now()`)
              .end(),
            enabled: false,
            version: eb('m.version', '+', 1),
            updated_at: sql`now()`,
          }))
          .whereRef('m.id', '=', 'g.id')
          .returning((eb) => eb.not('g.ordered').$castTo<boolean>().as('deleted')),
      )
      .selectFrom('u')
      .select('deleted')
      .executeTakeFirst();
    return r?.deleted;
  }

  /**
   * The cutoff on the version read (the default settings are version 1): written when the version is still
   * `version`; false when stale.
   */
  async setSettings(schoolId: number, cutoffTime: string, daysBefore: number, version: number): Promise<boolean> {
    const rows = await kdb(this.db)
      .with('cur', (db) =>
        db.selectNoFrom((eb) =>
          eb.fn.coalesce(eb.selectFrom('meal_settings').select('version').where('school_id', '=', schoolId), sql.lit(1)).as('v'),
        ),
      )
      .with('w', (db) =>
        db
          .insertInto('meal_settings')
          .columns(['school_id', 'cutoff_time', 'days_before', 'version'])
          .expression(
            db
              .selectFrom('cur')
              .select(() => [
                sql`${schoolId}`.as('school_id'),
                sql`${cutoffTime}`.as('cutoff_time'),
                sql`${daysBefore}`.as('days_before'),
                sql`${version} + 1`.as('version'),
              ])
              .where('cur.v', '=', version),
          )
          .onConflict((oc) =>
            oc
              .column('school_id')
              .doUpdateSet((eb) => ({
                cutoff_time: eb.ref('excluded.cutoff_time'),
                days_before: eb.ref('excluded.days_before'),
                version: eb('meal_settings.version', '+', 1),
                updated_at: sql`now()`,
              }))
              .where('meal_settings.version', '=', version),
          )
          .returning('school_id'),
      )
      .selectFrom('w')
      .select('school_id')
      .execute();
    return rows.length > 0;
  }
}
