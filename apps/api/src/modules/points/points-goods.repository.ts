import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Page, ScoreGoodsDetail } from '@wantuo/shared';
import { sql, type ExpressionBuilder, type InferResult, type Insertable, type Updateable } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { DataSource } from 'typeorm';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';

type G = DB & { g: DB['points_goods'] };

const HISTORY_ROWS = 100;

/** A ScoreGoods (`g` the good). */
const goodsColumns = [
  'g.id',
  'g.name',
  'g.picture_url',
  'g.description',
  'g.price',
  'g.stock',
  'g.listed',
  'g.exchanged',
  'g.version',
  'g.created_at',
] as const;

const goods = (on: Queryable) => kdb(on).selectFrom('points_goods as g').select(goodsColumns);

/** A good as goodsColumns selects it: the answer ScoreGoods (its time still a Date). */
export type PointsGoodsRow = InferResult<ReturnType<typeof goods>>[number];

/** The points shop goods' statements (goods.service.ts). */
@Injectable()
export class PointsGoodsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The admin's list (newest first, by listed and name pattern) or the shop (listed, in stock first, cheaper first). */
  page(
    schoolId: number,
    f: { shop: true } | { shop: false; listed: boolean | null; pattern: string | null },
    q: PageQuery,
  ): Promise<Page<PointsGoodsRow>> {
    const where = (eb: ExpressionBuilder<G, 'g'>) =>
      eb.and([
        eb('g.school_id', '=', schoolId),
        eb('g.deleted_at', 'is', null),
        ...(f.shop
          ? [eb('g.listed', '=', true)]
          : [...(f.listed === null ? [] : [eb('g.listed', '=', f.listed)]), ...(f.pattern === null ? [] : [eb('g.name', 'like', f.pattern)])]),
      ]);
    const total = kdb(this.db)
      .selectFrom('points_goods as g')
      .select(sql<number>`count(*)::int`.as('total'))
      .where(where);
    const list = f.shop
      ? goods(this.db)
          .where(where)
          .orderBy((eb) => eb('g.stock', '>', 0), 'desc')
          .orderBy('g.price')
          .orderBy('g.id')
      : goods(this.db).where(where).orderBy('g.id', 'desc');
    return pageRows(this.db, total, list, q);
  }

  /** One of the school's goods (not deleted). */
  one(schoolId: number, id: number, on: Queryable = this.db): Promise<PointsGoodsRow | undefined> {
    return goods(on).where('g.school_id', '=', schoolId).where('g.id', '=', id).where('g.deleted_at', 'is', null).executeTakeFirst();
  }

  /** One good with its price history and its stock moves (newest first, the last 100 of each). */
  info(schoolId: number, id: number) {
    return goods(this.db)
      .select((eb) => [
        jsonArrayFrom(
          eb
            .selectFrom('points_goods_prices as p')
            .leftJoin('users as u', 'u.id', 'p.actor_id')
            .select((x) => [sql<number>`${x.ref('p.id')}::int`.as('id'), 'p.old_price', 'p.new_price', 'p.reason', 'u.name as actor_name', 'p.at'])
            .whereRef('p.goods_id', '=', 'g.id')
            .orderBy('p.id', 'desc')
            .limit(HISTORY_ROWS),
        )
          .$castTo<ScoreGoodsDetail['prices']>()
          .as('prices'),
        jsonArrayFrom(
          eb
            .selectFrom('points_stock_moves as m')
            .leftJoin('users as u', 'u.id', 'm.actor_id')
            .select((x) => [
              sql<number>`${x.ref('m.id')}::int`.as('id'),
              'm.kind',
              'm.delta',
              'm.stock_after',
              'm.reason',
              'm.order_id',
              'u.name as actor_name',
              'm.at',
            ])
            .whereRef('m.goods_id', '=', 'g.id')
            .orderBy('m.id', 'desc')
            .limit(HISTORY_ROWS),
        )
          .$castTo<ScoreGoodsDetail['stock_moves']>()
          .as('stock_moves'),
      ])
      .where('g.school_id', '=', schoolId)
      .where('g.id', '=', id)
      .where('g.deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** Adds a good unless its request key added one; its id, or undefined when the key had. */
  async insert(em: Queryable, row: Insertable<DB['points_goods']>): Promise<number | undefined> {
    const r = await kdb(em)
      .insertInto('points_goods')
      .values(row)
      .onConflict((oc) => oc.columns(['school_id', 'request_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return r?.id;
  }

  /** The good a request key added. */
  async byKey(em: Queryable, schoolId: number, key: string): Promise<number> {
    const r = await kdb(em)
      .selectFrom('points_goods')
      .select('id')
      .where('school_id', '=', schoolId)
      .where('request_key', '=', key)
      .executeTakeFirst();
    return r!.id;
  }

  async insertPrice(em: Queryable, row: Insertable<DB['points_goods_prices']>): Promise<void> {
    await kdb(em).insertInto('points_goods_prices').values(row).execute();
  }

  async insertMove(em: Queryable, row: Insertable<DB['points_stock_moves']>): Promise<void> {
    await kdb(em).insertInto('points_stock_moves').values(row).execute();
  }

  /** Writes `set` on the version read; the ids written (none: missing or stale). */
  update(
    schoolId: number,
    id: number,
    version: number,
    set: Pick<Updateable<DB['points_goods']>, 'name' | 'picture_url' | 'description' | 'listed'>,
  ): Promise<Array<{ id: number }>> {
    return kdb(this.db)
      .updateTable('points_goods')
      .set((eb) => ({ ...set, version: eb('version', '+', 1), updated_at: sql`now()` }))
      .where('school_id', '=', schoolId)
      .where('id', '=', id)
      .where('version', '=', version)
      .where('deleted_at', 'is', null)
      .returning('id')
      .execute();
  }

  /** The good, locked. */
  lock(em: Queryable, schoolId: number, id: number) {
    return kdb(em)
      .selectFrom('points_goods')
      .select(['id', 'price', 'stock', 'listed', 'exchanged', 'version'])
      .where('school_id', '=', schoolId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
  }

  async setPrice(em: Queryable, id: number, price: number): Promise<void> {
    await kdb(em)
      .updateTable('points_goods')
      .set((eb) => ({ price, version: eb('version', '+', 1), updated_at: sql`now()` }))
      .where('id', '=', id)
      .execute();
  }

  /** The good of the stock move a request key recorded. */
  priorMove(em: Queryable, schoolId: number, key: string) {
    return kdb(em)
      .selectFrom('points_stock_moves')
      .select('goods_id')
      .where('school_id', '=', schoolId)
      .where('request_key', '=', key)
      .executeTakeFirst();
  }

  /** One statement: the stock added and the move recorded (with the stock after it). */
  async addStock(
    em: Queryable,
    v: { id: number; quantity: number; schoolId: number; reason: string | null; actorId: number; key: string },
  ): Promise<void> {
    await kdb(em)
      .with('u', (db) =>
        db
          .updateTable('points_goods')
          .set((eb) => ({ stock: eb('stock', '+', v.quantity), updated_at: sql`now()` }))
          .where('id', '=', v.id)
          .returning(['id', 'stock']),
      )
      .insertInto('points_stock_moves')
      .columns(['school_id', 'goods_id', 'kind', 'delta', 'stock_after', 'reason', 'actor_id', 'request_key'])
      .expression((eb) =>
        eb
          .selectFrom('u')
          .select([
            sql`${v.schoolId}`.as('school_id'),
            'u.id',
            sql.lit('add').as('kind'),
            sql`${v.quantity}`.as('delta'),
            'u.stock',
            sql`${v.reason}`.as('reason'),
            sql`${v.actorId}`.as('actor_id'),
            sql`${v.key}`.as('request_key'),
          ]),
      )
      .execute();
  }

  /** Unlists the good, and deletes it (softly) when `deleted`. */
  async remove(em: Queryable, id: number, deleted: boolean): Promise<void> {
    await kdb(em)
      .updateTable('points_goods')
      .set((eb) => ({
        listed: false,
        deleted_at: deleted ? sql<Date>`now()` : null,
        version: eb('version', '+', 1),
        updated_at: sql`now()`,
      }))
      .where('id', '=', id)
      .execute();
  }
}
