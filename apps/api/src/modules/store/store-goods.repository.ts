import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Page } from '@wantuo/shared';
import { sql, type ExpressionBuilder, type InferResult, type Insertable } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';

type G = DB & { g: DB['store_goods'] };

/** A good as lists show it (`g` the good, `t` its category). */
const goods = (on: Queryable) =>
  kdb(on)
    .selectFrom('store_goods as g')
    .innerJoin('store_goods_types as t', 't.id', 'g.type_id')
    .select((eb) => [
      'g.id',
      'g.type_id',
      't.name as type_name',
      'g.name',
      eb.ref('g.pictures').$castTo<string[]>().as('pictures'),
      'g.description',
      sql<number>`${eb.ref('g.price_fen')}::float8`.as('price_fen'),
      'g.stock',
      'g.sold',
      'g.listed',
      'g.version',
      'g.created_at',
    ]);

/** A good as `goods` selects it: the answer StoreGoods (its time still a Date). */
export type StoreGoodsRow = InferResult<ReturnType<typeof goods>>[number];

/** The mall goods' statements (goods.service.ts). */
@Injectable()
export class StoreGoodsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The categories with how many goods are on sale in each. */
  types() {
    return kdb(this.db)
      .selectFrom('store_goods_types as t')
      .select((eb) => [
        't.id',
        't.name',
        eb
          .selectFrom('store_goods as g')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('g.type_id', '=', 't.id')
          .where('g.listed', '=', true)
          .$asScalar()
          .$castTo<number>()
          .as('goods'),
      ])
      .orderBy('t.sort')
      .orderBy('t.id')
      .execute();
  }

  /** Goods newest first, by category, name pattern and listed (null: every good). */
  page(f: { typeId: number | null; pattern: string | null; listed: boolean | null }, q: PageQuery): Promise<Page<StoreGoodsRow>> {
    const where = (eb: ExpressionBuilder<G, 'g'>) =>
      eb.and([
        ...(f.typeId === null ? [] : [eb('g.type_id', '=', f.typeId)]),
        ...(f.pattern === null ? [] : [eb('g.name', 'ilike', f.pattern)]),
        ...(f.listed === null ? [] : [eb('g.listed', '=', f.listed)]),
      ]);
    const total = kdb(this.db)
      .selectFrom('store_goods as g')
      .select(sql<number>`count(*)::int`.as('total'))
      .where(where);
    return pageRows(this.db, total, goods(this.db).where(where).orderBy('g.id', 'desc'), q);
  }

  /** One good (`listedOnly`: only while on sale). */
  one(id: number, listedOnly: boolean): Promise<StoreGoodsRow | undefined> {
    return goods(this.db)
      .where('g.id', '=', id)
      .$if(listedOnly, (b) => b.where('g.listed', '=', true))
      .executeTakeFirst();
  }

  async typeExists(id: number): Promise<boolean> {
    const r = await kdb(this.db).selectFrom('store_goods_types').select('id').where('id', '=', id).executeTakeFirst();
    return r !== undefined;
  }

  async exists(id: number): Promise<boolean> {
    const r = await kdb(this.db).selectFrom('store_goods').select('id').where('id', '=', id).executeTakeFirst();
    return r !== undefined;
  }

  /** The good a stock move's request key is of. */
  async byMoveKey(key: string): Promise<number | null> {
    const r = await kdb(this.db).selectFrom('store_stock_moves').select('goods_id').where('request_key', '=', key).executeTakeFirst();
    return r?.goods_id ?? null;
  }

  /** One statement: the good and its first stock as an `add` move keyed by the request. */
  async add(row: Insertable<DB['store_goods']> & { stock: number; created_by: number }, key: string): Promise<number> {
    const r = await kdb(this.db)
      .with('g', (db) => db.insertInto('store_goods').values(row).returning(['id', 'stock']))
      .with('m', (db) =>
        db
          .insertInto('store_stock_moves')
          .columns(['goods_id', 'kind', 'delta', 'stock_after', 'actor_id', 'request_key'])
          .expression(
            db
              .selectFrom('g')
              .select([
                'g.id',
                sql.lit('add').as('kind'),
                'g.stock as delta',
                'g.stock',
                sql`${row.created_by}`.as('actor_id'),
                sql`${key}`.as('request_key'),
              ]),
          )
          .returning(sql.lit(1).as('one')),
      )
      .selectFrom(['g', 'm'])
      .select('g.id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /** Edits the good on the version read (pictures and description kept when not given); the ids written. */
  edit(
    id: number,
    version: number,
    set: { type_id: number; name: string; pictures: string | undefined; description: string | undefined; price_fen: number },
  ): Promise<Array<{ id: number }>> {
    return kdb(this.db)
      .updateTable('store_goods')
      .set((eb) => ({
        type_id: set.type_id,
        name: set.name,
        ...(set.pictures === undefined ? {} : { pictures: sql`${set.pictures}::jsonb` }),
        ...(set.description === undefined ? {} : { description: set.description }),
        price_fen: set.price_fen,
        version: eb('version', '+', 1),
        updated_at: sql`now()`,
      }))
      .where('id', '=', id)
      .where('version', '=', version)
      .returning('id')
      .execute();
  }

  /** One statement: the stock added with its `add` move, unless the request key added already; whether the good exists. */
  async addStock(id: number, quantity: number, key: string, actorId: number): Promise<boolean> {
    const r = await kdb(this.db)
      .with('p', (db) => db.selectFrom('store_stock_moves').select(sql.lit(1).as('one')).where('request_key', '=', key))
      .with('g', (db) =>
        db
          .updateTable('store_goods')
          .set((eb) => ({ stock: eb('stock', '+', quantity), updated_at: sql`now()` }))
          .where('id', '=', id)
          .where((eb) => eb.not(eb.exists(eb.selectFrom('p').select('one'))))
          .returning(['id', 'stock']),
      )
      .with('m', (db) =>
        db
          .insertInto('store_stock_moves')
          .columns(['goods_id', 'kind', 'delta', 'stock_after', 'actor_id', 'request_key'])
          .expression(
            db
              .selectFrom('g')
              .select([
                'g.id',
                sql.lit('add').as('kind'),
                sql`${quantity}`.as('delta'),
                'g.stock',
                sql`${actorId}`.as('actor_id'),
                sql`${key}`.as('request_key'),
              ]),
          )
          .returning(sql.lit(1).as('one')),
      )
      .selectNoFrom((eb) => [
        eb
          .exists(eb.selectFrom('store_goods').select('id').where('id', '=', id))
          .$castTo<boolean>()
          .as('found'),
        eb
          .selectFrom('m')
          .select(sql<number>`count(*)::int`.as('n'))
          .as('moves'),
      ])
      .executeTakeFirstOrThrow();
    return r.found;
  }

  /** Lists or unlists the good on the version read; the ids written. */
  setListed(id: number, version: number, listed: boolean): Promise<Array<{ id: number }>> {
    return kdb(this.db)
      .updateTable('store_goods')
      .set((eb) => ({ listed, version: eb('version', '+', 1), updated_at: sql`now()` }))
      .where('id', '=', id)
      .where('version', '=', version)
      .returning('id')
      .execute();
  }
}
