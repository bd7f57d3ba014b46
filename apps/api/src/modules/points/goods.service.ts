import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  AddScoreGoodsInput,
  AddScoreGoodsStockInput,
  DelScoreGoodsInput,
  DelScoreGoodsResult,
  EditScoreGoodsInput,
  EditScoreGoodsPriceInput,
  Page,
  PointsShopQuery,
  ScoreGoods,
  ScoreGoodsDetail,
  ScoreGoodsListQuery,
  UnmountScoreGoodsInput,
} from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { containsPattern, isUniqueViolation, offsetOf, pageOf, totalOf, type PageQuery } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { GOODS_COLUMNS } from './points-sql';

const HISTORY_ROWS = 100;

interface LockedGoods {
  id: number;
  price: number;
  stock: number;
  listed: boolean;
  exchanged: number;
  version: number;
}

/**
 * The points shop's goods: the admin's list, add, edit (version), price changes (history appended), stock added
 * (moves recorded, idempotent by request_id), list/unlist, delete (never exchanged; else unlisted); the goods on sale for
 * guardians and teachers.
 */
@Injectable()
export class GoodsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(user: SessionUser, q: ScoreGoodsListQuery): Promise<Page<ScoreGoods>> {
    return this.page(
      `g.school_id = $1 and g.deleted_at is null and ($2::boolean is null or g.listed = $2) and ($3::text is null or g.name like $3)`,
      [user.schoolId, q.listed ?? null, containsPattern(q.keyword)],
      'g.id desc',
      q,
    );
  }

  /** The goods on sale: listed, in stock first, cheaper first. */
  async shop(user: SessionUser, q: PointsShopQuery): Promise<Page<ScoreGoods>> {
    return this.page(`g.school_id = $1 and g.deleted_at is null and g.listed`, [user.schoolId], '(g.stock > 0) desc, g.price, g.id', q);
  }

  private async page(where: string, params: unknown[], order: string, pq: PageQuery): Promise<Page<ScoreGoods>> {
    const n = params.length;
    const rows: Array<ScoreGoods & { total: number }> = await this.db.query(
      `with f as (select g.id from points_goods g where ${where})
       select t.total, r.* from (select count(*)::int as total from f) t
       left join lateral (select ${GOODS_COLUMNS} from f join points_goods g on g.id = f.id order by ${order} limit $${n + 1} offset $${n + 2}) r on true`,
      [...params, pq.limit, offsetOf(pq)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as ScoreGoods);
    return pageOf(list, totalOf(rows), pq);
  }

  async one(schoolId: number, id: number, em: Pick<EntityManager, 'query'> = this.db): Promise<ScoreGoods> {
    const [g]: ScoreGoods[] = await em.query(
      `select ${GOODS_COLUMNS} from points_goods g where g.school_id = $1 and g.id = $2 and g.deleted_at is null`,
      [schoolId, id],
    );
    if (!g) throw new AppError('points.goods_not_found');
    return g;
  }

  /** One good with its price history and its stock moves (newest first, the last 100 of each). */
  async info(user: SessionUser, id: number): Promise<ScoreGoodsDetail> {
    const [g]: ScoreGoodsDetail[] = await this.db.query(
      `select ${GOODS_COLUMNS},
              coalesce((select json_agg(x order by x.id desc) from (
                select p.id::int as id, p.old_price, p.new_price, p.reason, u.name as actor_name, p.at from points_goods_prices p left join users u on u.id = p.actor_id
                 where p.goods_id = g.id order by p.id desc limit ${HISTORY_ROWS}) x), '[]') as prices,
              coalesce((select json_agg(x order by x.id desc) from (
                select m.id::int as id, m.kind, m.delta, m.stock_after, m.reason, m.order_id, u.name as actor_name, m.at from points_stock_moves m left join users u on u.id = m.actor_id
                 where m.goods_id = g.id order by m.id desc limit ${HISTORY_ROWS}) x), '[]') as stock_moves
         from points_goods g where g.school_id = $1 and g.id = $2 and g.deleted_at is null`,
      [user.schoolId, id],
    );
    if (!g) throw new AppError('points.goods_not_found');
    return g;
  }

  /** Adds a good with its first price and stock (a price row and an initial stock move); idempotent by request_id. */
  async add(user: SessionUser, input: AddScoreGoodsInput): Promise<ScoreGoods> {
    const schoolId = user.schoolId!;
    const key = `add:${input.request_id}`;
    try {
      const id = await this.db.transaction(async (em) => {
        const rows: Array<{ id: number }> = await em.query(
          `insert into points_goods (school_id, name, picture_url, description, price, stock, listed, request_key)
           values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (school_id, request_key) do nothing returning id`,
          [schoolId, input.name, input.picture_url || null, input.description || null, input.price, input.stock, input.listed ?? true, key],
        );
        if (!rows.length) {
          const [prior]: Array<{ id: number }> = await em.query(`select id from points_goods where school_id = $1 and request_key = $2`, [
            schoolId,
            key,
          ]);
          return prior.id;
        }
        const id = rows[0].id;
        await em.query(`insert into points_goods_prices (school_id, goods_id, old_price, new_price, actor_id) values ($1, $2, null, $3, $4)`, [
          schoolId,
          id,
          input.price,
          user.id,
        ]);
        await em.query(
          `insert into points_stock_moves (school_id, goods_id, kind, delta, stock_after, actor_id) values ($1, $2, 'initial', $3, $3, $4)`,
          [schoolId, id, input.stock, user.id],
        );
        return id;
      });
      return this.one(schoolId, id);
    } catch (err) {
      if (isUniqueViolation(err, 'points_goods_name_idx')) throw new AppError('points.goods_name_taken');
      throw err;
    }
  }

  /** Name, picture and description on the version read. */
  async edit(user: SessionUser, input: EditScoreGoodsInput): Promise<ScoreGoods> {
    let rows: Array<{ id: number }>;
    try {
      rows = await this.db.query(
        `with u as (
           update points_goods set name = $4, picture_url = $5, description = $6, version = version + 1, updated_at = now()
            where school_id = $1 and id = $2 and version = $3 and deleted_at is null returning id
         ) select id from u`,
        [user.schoolId, input.id, input.version, input.name, input.picture_url || null, input.description || null],
      );
    } catch (err) {
      if (isUniqueViolation(err, 'points_goods_name_idx')) throw new AppError('points.goods_name_taken');
      throw err;
    }
    if (!rows.length) await this.stale(user.schoolId!, input.id);
    return this.one(user.schoolId!, input.id);
  }

  /** not_found when the good is not the school's (or deleted), else stale. */
  private async stale(schoolId: number, id: number): Promise<never> {
    await this.one(schoolId, id);
    throw new AppError('points.goods_stale');
  }

  private async lock(em: EntityManager, schoolId: number, id: number): Promise<LockedGoods> {
    const [g]: LockedGoods[] = await em.query(
      `select id, price, stock, listed, exchanged, version from points_goods where school_id = $1 and id = $2 and deleted_at is null for update`,
      [schoolId, id],
    );
    if (!g) throw new AppError('points.goods_not_found');
    return g;
  }

  /** Changes the price on the version read; the history keeps the old and the new price. Pending orders keep theirs. */
  async editPrice(user: SessionUser, input: EditScoreGoodsPriceInput): Promise<ScoreGoods> {
    const schoolId = user.schoolId!;
    await this.db.transaction(async (em) => {
      const g = await this.lock(em, schoolId, input.id);
      if (g.version !== input.version) throw new AppError('points.goods_stale');
      if (g.price === input.price) throw new AppError('points.same_price');
      await em.query(`update points_goods set price = $2, version = version + 1, updated_at = now() where id = $1`, [g.id, input.price]);
      await em.query(
        `insert into points_goods_prices (school_id, goods_id, old_price, new_price, reason, actor_id) values ($1, $2, $3, $4, $5, $6)`,
        [schoolId, g.id, g.price, input.price, input.reason || null, user.id],
      );
    });
    return this.one(schoolId, input.id);
  }

  /**
   * Adds stock: one statement adds and records the move (stock after it), under the good's row lock, idempotent by
   * request_id. Not versioned: stock moves are additions, and exchanges change the stock all the time.
   */
  async addStock(user: SessionUser, input: AddScoreGoodsStockInput): Promise<ScoreGoods> {
    const schoolId = user.schoolId!;
    const key = `stock:${input.request_id}`;
    await this.db.transaction(async (em) => {
      const g = await this.lock(em, schoolId, input.id);
      const [prior]: Array<{ goods_id: number }> = await em.query(
        `select goods_id from points_stock_moves where school_id = $1 and request_key = $2`,
        [schoolId, key],
      );
      if (prior) {
        if (prior.goods_id !== g.id) throw new AppError('points.request_reused');
        return;
      }
      await em.query(
        `with u as (update points_goods set stock = stock + $2, updated_at = now() where id = $1 returning id, stock)
         insert into points_stock_moves (school_id, goods_id, kind, delta, stock_after, reason, actor_id, request_key)
         select $3, u.id, 'add', $2, u.stock, $4, $5, $6 from u`,
        [g.id, input.quantity, schoolId, input.reason || null, user.id, key],
      );
    });
    return this.one(schoolId, input.id);
  }

  async setListed(user: SessionUser, input: UnmountScoreGoodsInput): Promise<ScoreGoods> {
    const rows: Array<{ id: number }> = await this.db.query(
      `with u as (
         update points_goods set listed = $4, version = version + 1, updated_at = now()
          where school_id = $1 and id = $2 and version = $3 and deleted_at is null returning id
       ) select id from u`,
      [user.schoolId, input.id, input.version, input.listed],
    );
    if (!rows.length) await this.stale(user.schoolId!, input.id);
    return this.one(user.schoolId!, input.id);
  }

  /**
   * Deletes a good never exchanged (softly: its price history and stock moves stay); a good ever exchanged is unlisted
   * instead, so its orders keep pointing at it.
   */
  async remove(user: SessionUser, input: DelScoreGoodsInput): Promise<DelScoreGoodsResult> {
    const schoolId = user.schoolId!;
    const deleted = await this.db.transaction(async (em) => {
      const g = await this.lock(em, schoolId, input.id);
      if (g.version !== input.version) throw new AppError('points.goods_stale');
      const never = g.exchanged === 0;
      await em.query(
        `update points_goods set listed = false, deleted_at = case when $2 then now() end, version = version + 1, updated_at = now() where id = $1`,
        [g.id, never],
      );
      return never;
    });
    return { id: input.id, deleted, goods: deleted ? null : await this.one(schoolId, input.id) };
  }
}
