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
import { DataSource } from 'typeorm';
import { containsPattern, isUniqueViolation, type Queryable } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { Sendable } from '../../core/http/sendable';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { PointsGoodsRepository, type PointsGoodsRow } from './points-goods.repository';

/**
 * The points shop's goods: the admin's list, add, edit (version), price changes (history appended), stock added
 * (moves recorded, idempotent by request_id), list/unlist, delete (never exchanged; else unlisted); the goods on sale for
 * guardians and teachers.
 */
@Injectable()
export class GoodsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: PointsGoodsRepository,
  ) {}

  async list(user: SchoolCaller, q: ScoreGoodsListQuery): Promise<Page<Sendable<ScoreGoods>>> {
    return this.repo.page(user.schoolId, { shop: false, listed: q.listed ?? null, pattern: containsPattern(q.keyword) }, q);
  }

  /** The goods on sale: listed, in stock first, cheaper first. */
  async shop(user: SchoolCaller, q: PointsShopQuery): Promise<Page<Sendable<ScoreGoods>>> {
    return this.repo.page(user.schoolId, { shop: true }, q);
  }

  async one(schoolId: number, id: number, em: Queryable = this.db): Promise<PointsGoodsRow> {
    const g = await this.repo.one(schoolId, id, em);
    if (!g) throw new AppError('points.goods_not_found');
    return g;
  }

  /** One good with its price history and its stock moves (newest first, the last 100 of each). */
  async info(user: SchoolCaller, id: number): Promise<Sendable<ScoreGoodsDetail>> {
    const g = await this.repo.info(user.schoolId, id);
    if (!g) throw new AppError('points.goods_not_found');
    return g;
  }

  /** Adds a good with its first price and stock (a price row and an initial stock move); idempotent by request_id. */
  async add(user: SchoolCaller, input: AddScoreGoodsInput): Promise<Sendable<ScoreGoods>> {
    const schoolId = user.schoolId;
    const key = `add:${input.request_id}`;
    try {
      const id = await this.db.transaction(async (em) => {
        const id = await this.repo.insert(em, {
          school_id: schoolId,
          name: input.name,
          picture_url: input.picture_url || null,
          description: input.description || null,
          price: input.price,
          stock: input.stock,
          listed: input.listed ?? true,
          request_key: key,
        });
        if (id === undefined) return this.repo.byKey(em, schoolId, key);
        await this.repo.insertPrice(em, { school_id: schoolId, goods_id: id, old_price: null, new_price: input.price, actor_id: user.id });
        await this.repo.insertMove(em, {
          school_id: schoolId,
          goods_id: id,
          kind: 'initial',
          delta: input.stock,
          stock_after: input.stock,
          actor_id: user.id,
        });
        return id;
      });
      return this.one(schoolId, id);
    } catch (err) {
      if (isUniqueViolation(err, 'points_goods_name_idx')) throw new AppError('points.goods_name_taken');
      throw err;
    }
  }

  /** Name, picture and description on the version read. */
  async edit(user: SchoolCaller, input: EditScoreGoodsInput): Promise<Sendable<ScoreGoods>> {
    let rows: Array<{ id: number }>;
    try {
      rows = await this.repo.update(user.schoolId, input.id, input.version, {
        name: input.name,
        picture_url: input.picture_url || null,
        description: input.description || null,
      });
    } catch (err) {
      if (isUniqueViolation(err, 'points_goods_name_idx')) throw new AppError('points.goods_name_taken');
      throw err;
    }
    if (!rows.length) await this.stale(user.schoolId, input.id);
    return this.one(user.schoolId, input.id);
  }

  /** not_found when the good is not the school's (or deleted), else stale. */
  private async stale(schoolId: number, id: number): Promise<never> {
    await this.one(schoolId, id);
    throw new AppError('points.goods_stale');
  }

  private async lock(em: Queryable, schoolId: number, id: number) {
    const g = await this.repo.lock(em, schoolId, id);
    if (!g) throw new AppError('points.goods_not_found');
    return g;
  }

  /** Changes the price on the version read; the history keeps the old and the new price. Pending orders keep theirs. */
  async editPrice(user: SchoolCaller, input: EditScoreGoodsPriceInput): Promise<Sendable<ScoreGoods>> {
    const schoolId = user.schoolId;
    await this.db.transaction(async (em) => {
      const g = await this.lock(em, schoolId, input.id);
      if (g.version !== input.version) throw new AppError('points.goods_stale');
      if (g.price === input.price) throw new AppError('points.same_price');
      await this.repo.setPrice(em, g.id, input.price);
      await this.repo.insertPrice(em, {
        school_id: schoolId,
        goods_id: g.id,
        old_price: g.price,
        new_price: input.price,
        reason: input.reason || null,
        actor_id: user.id,
      });
    });
    return this.one(schoolId, input.id);
  }

  /**
   * Adds stock: one statement adds and records the move (stock after it), under the good's row lock, idempotent by
   * request_id. Not versioned: stock moves are additions, and exchanges change the stock all the time.
   */
  async addStock(user: SchoolCaller, input: AddScoreGoodsStockInput): Promise<Sendable<ScoreGoods>> {
    const schoolId = user.schoolId;
    const key = `stock:${input.request_id}`;
    await this.db.transaction(async (em) => {
      const g = await this.lock(em, schoolId, input.id);
      const prior = await this.repo.priorMove(em, schoolId, key);
      if (prior) {
        if (prior.goods_id !== g.id) throw new AppError('points.request_reused');
        return;
      }
      await this.repo.addStock(em, { id: g.id, quantity: input.quantity, schoolId, reason: input.reason || null, actorId: user.id, key });
    });
    return this.one(schoolId, input.id);
  }

  async setListed(user: SchoolCaller, input: UnmountScoreGoodsInput): Promise<Sendable<ScoreGoods>> {
    const rows = await this.repo.update(user.schoolId, input.id, input.version, { listed: input.listed });
    if (!rows.length) await this.stale(user.schoolId, input.id);
    return this.one(user.schoolId, input.id);
  }

  /**
   * Deletes a good never exchanged (softly: its price history and stock moves stay); a good ever exchanged is unlisted
   * instead, so its orders keep pointing at it.
   */
  async remove(user: SchoolCaller, input: DelScoreGoodsInput): Promise<Sendable<DelScoreGoodsResult>> {
    const schoolId = user.schoolId;
    const deleted = await this.db.transaction(async (em) => {
      const g = await this.lock(em, schoolId, input.id);
      if (g.version !== input.version) throw new AppError('points.goods_stale');
      const never = g.exchanged === 0;
      await this.repo.remove(em, g.id, never);
      return never;
    });
    return { id: input.id, deleted, goods: deleted ? null : await this.one(schoolId, input.id) };
  }
}
