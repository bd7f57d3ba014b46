import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  Role,
  type AddStoreGoodsInput,
  type AddStoreGoodsStockInput,
  type EditStoreGoodsInput,
  type GoodsListQuery,
  type GoodsType,
  type Page,
  type StoreGoods,
  type StoreGoodsListQuery,
  type UnmountStoreGoodsInput,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { escapeLike, isUniqueViolation, offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { GOODS_COLUMNS, GOODS_JOINS } from './store-sql';

/**
 * The mall's goods: categories, the schools' view (listed goods only) and the operator's (every good, with its
 * actions). Stock changes only through moves: the operator's adds here, orders' reservations and releases elsewhere.
 */
@Injectable()
export class StoreGoodsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The categories with how many goods are on sale in each. */
  async types(): Promise<GoodsType[]> {
    return this.db.query(
      `select t.id, t.name, (select count(*) from store_goods g where g.type_id = t.id and g.listed)::int as goods from store_goods_types t order by t.sort, t.id`,
    );
  }

  /** Goods on sale, newest first; the operator's list (listed null) sees every good. */
  private async page(q: { page: number; limit: number; type_id?: number; keyword?: string }, listed: boolean | null): Promise<Page<StoreGoods>> {
    const rows: Array<StoreGoods & { total: number }> = await this.db.query(
      `with f as materialized (
         select g.id from store_goods g
          where ($1::int is null or g.type_id = $1) and ($2::text is null or g.name ilike '%' || $2 || '%') and ($3::boolean is null or g.listed = $3)),
       x as (select id from f order by id desc limit $4 offset $5)
       select (select count(*) from f)::int as total, r.* from (select 1) one left join lateral (
         select ${GOODS_COLUMNS} from x join store_goods g on g.id = x.id ${GOODS_JOINS} order by g.id desc
       ) r on true`,
      [q.type_id ?? null, q.keyword ? escapeLike(q.keyword) : null, listed, q.limit, offsetOf(q)],
    );
    return pageOf(
      rows.filter((r) => r.id !== null).map(({ total: _, ...g }) => g as StoreGoods),
      totalOf(rows),
      q,
    );
  }

  list(q: GoodsListQuery): Promise<Page<StoreGoods>> {
    return this.page(q, true);
  }

  operatorList(q: StoreGoodsListQuery): Promise<Page<StoreGoods>> {
    return this.page(q, q.listed ?? null);
  }

  /** One good: schools see it while it is on sale, the operator always. */
  async info(user: SessionUser, id: number): Promise<StoreGoods> {
    const [g]: StoreGoods[] = await this.db.query(`select ${GOODS_COLUMNS} from store_goods g ${GOODS_JOINS} where g.id = $1 and (g.listed or $2)`, [
      id,
      user.role === Role.Operator,
    ]);
    if (!g) throw new AppError('store.goods_not_found');
    return g;
  }

  private async typeExists(id: number): Promise<void> {
    const rows: unknown[] = await this.db.query(`select 1 from store_goods_types where id = $1`, [id]);
    if (!rows.length) throw new AppError('store.type_not_found');
  }

  /** Adds a good and its first stock (an `add` move keyed by the request): a retry answers the good it made. */
  async add(user: SessionUser, input: AddStoreGoodsInput): Promise<StoreGoods> {
    const key = `goods:${input.request_id}`;
    const prior = async () => {
      const [p]: Array<{ goods_id: number }> = await this.db.query(`select goods_id from store_stock_moves where request_key = $1`, [key]);
      return p?.goods_id ?? null;
    };
    const done = await prior();
    if (done) return this.info(user, done);
    await this.typeExists(input.type_id);
    try {
      const [r]: Array<{ id: number }> = await this.db.query(
        `with g as (
           insert into store_goods (type_id, name, pictures, description, price_fen, stock, listed, created_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8) returning id, stock),
         m as (insert into store_stock_moves (goods_id, kind, delta, stock_after, actor_id, request_key) select id, 'add', stock, stock, $8, $9 from g returning 1)
         select g.id from g, m`,
        [
          input.type_id,
          input.name,
          JSON.stringify(input.pictures ?? []),
          input.description ?? '',
          input.price_fen,
          input.stock,
          input.listed ?? true,
          user.id,
          key,
        ],
      );
      return this.info(user, r.id);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const id = await prior();
      if (!id) throw err;
      return this.info(user, id);
    }
  }

  /** Edits a good on the version read (not its stock); orders already placed keep their lines. */
  async edit(user: SessionUser, input: EditStoreGoodsInput): Promise<StoreGoods> {
    await this.typeExists(input.type_id);
    const rows: Array<{ id: number }> = await this.db.query(
      `with u as (
         update store_goods set type_id = $3, name = $4, pictures = coalesce($5::jsonb, pictures), description = coalesce($6, description), price_fen = $7,
                version = version + 1, updated_at = now()
          where id = $1 and version = $2 returning id) select id from u`,
      [
        input.id,
        input.version,
        input.type_id,
        input.name,
        input.pictures ? JSON.stringify(input.pictures) : null,
        input.description ?? null,
        input.price_fen,
      ],
    );
    if (!rows.length) await this.staleOrMissing(input.id);
    return this.info(user, input.id);
  }

  /** Adds stock (an `add` move keyed by the request: a retry adds nothing again). */
  async addStock(user: SessionUser, input: AddStoreGoodsStockInput): Promise<StoreGoods> {
    const key = `stock:${input.request_id}`;
    try {
      const [r]: Array<{ found: boolean }> = await this.db.query(
        `with p as (select 1 from store_stock_moves where request_key = $3),
         g as (update store_goods set stock = stock + $2, updated_at = now() where id = $1 and not exists (select 1 from p) returning id, stock),
         m as (insert into store_stock_moves (goods_id, kind, delta, stock_after, actor_id, request_key) select id, 'add', $2, stock, $4, $3 from g returning 1)
         select exists (select 1 from store_goods where id = $1) as found, (select count(*) from m)::int as moves`,
        [input.id, input.quantity, key, user.id],
      );
      if (!r.found) throw new AppError('store.goods_not_found');
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    return this.info(user, input.id);
  }

  /** Lists or unlists a good on the version read. */
  async setListed(user: SessionUser, input: UnmountStoreGoodsInput): Promise<StoreGoods> {
    const rows: Array<{ id: number }> = await this.db.query(
      `with u as (update store_goods set listed = $3, version = version + 1, updated_at = now() where id = $1 and version = $2 returning id) select id from u`,
      [input.id, input.version, input.listed],
    );
    if (!rows.length) await this.staleOrMissing(input.id);
    return this.info(user, input.id);
  }

  private async staleOrMissing(id: number): Promise<never> {
    const rows: unknown[] = await this.db.query(`select 1 from store_goods where id = $1`, [id]);
    throw new AppError(rows.length ? 'store.goods_stale' : 'store.goods_not_found');
  }
}
