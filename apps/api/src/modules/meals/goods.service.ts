import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  AddMealGoodsInput,
  DelMealGoodsResult,
  EditMealGoodsInput,
  EditMealGoodsPriceInput,
  MealGoods,
  MealGoodsListQuery,
  MealGoodsPrice,
  MealSettings,
  OperateMealGoodsInput,
  Page,
  SetMealSettingsInput,
  DelMealGoodsInput,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { containsPattern, isUniqueViolation } from '../../core/database/sql-kit';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { AppError } from '../../core/http/app-error';
import type { Sendable } from '../../core/http/sendable';
import { MealGoodsRepository, settingsOf, type GoodsRow } from './meals-goods.repository';

/** Meal items (price history append-only) and the school's booking cutoff. */
@Injectable()
export class MealGoodsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: MealGoodsRepository,
  ) {}

  async list(user: SchoolCaller, q: MealGoodsListQuery): Promise<Page<Sendable<MealGoods>>> {
    return this.repo.page(user.schoolId, { enabled: q.enabled ?? null, pattern: containsPattern(q.keyword) }, q);
  }

  async one(schoolId: number, id: number): Promise<GoodsRow> {
    const g = await this.repo.one(schoolId, id);
    if (!g) throw new AppError('meals.goods_not_found');
    return g;
  }

  /** Adds an item; its first price opens the price history. */
  async add(user: SchoolCaller, input: AddMealGoodsInput): Promise<Sendable<MealGoods>> {
    let id: number;
    try {
      id = await this.db.transaction(async (em) => {
        const goodsId = await this.repo.insert(em, {
          school_id: user.schoolId,
          name: input.name,
          description: input.description || null,
          picture_url: input.picture_url || null,
          price_fen: input.price_fen,
        });
        await this.repo.insertPrice(em, {
          school_id: user.schoolId,
          goods_id: goodsId,
          price_fen: input.price_fen,
          reason: '新增餐品',
          actor_id: user.id,
        });
        return goodsId;
      });
    } catch (err) {
      if (isUniqueViolation(err, 'meal_goods_name_idx')) throw new AppError('meals.goods_name_taken');
      throw err;
    }
    return this.one(user.schoolId, id);
  }

  /** Name, description and picture on the version read (the price has its own action). */
  async edit(user: SchoolCaller, input: EditMealGoodsInput): Promise<Sendable<MealGoods>> {
    let rows: Array<{ id: number }>;
    try {
      rows = await this.repo.update(user.schoolId, input.id, input.version, {
        name: input.name,
        description: input.description || null,
        picture_url: input.picture_url || null,
      });
    } catch (err) {
      if (isUniqueViolation(err, 'meal_goods_name_idx')) throw new AppError('meals.goods_name_taken');
      throw err;
    }
    return this.afterWrite(user, input.id, rows);
  }

  /** A new price from now on with a reason: appended to the history; bookings already made keep theirs. */
  async editPrice(user: SchoolCaller, input: EditMealGoodsPriceInput): Promise<Sendable<MealGoods>> {
    await this.db.transaction(async (em) => {
      const g = await this.repo.lockPrice(em, user.schoolId, input.id);
      if (!g) throw new AppError('meals.goods_not_found');
      if (g.version !== input.version) throw new AppError('meals.goods_stale');
      if (g.price_fen === input.price_fen) throw new AppError('meals.same_price');
      await this.repo.setPrice(em, input.id, input.price_fen);
      await this.repo.insertPrice(em, {
        school_id: user.schoolId,
        goods_id: input.id,
        price_fen: input.price_fen,
        reason: input.reason,
        actor_id: user.id,
      });
    });
    return this.one(user.schoolId, input.id);
  }

  async prices(user: SchoolCaller, id: number): Promise<Array<Sendable<MealGoodsPrice>>> {
    await this.one(user.schoolId, id);
    return this.repo.prices(user.schoolId, id);
  }

  async operate(user: SchoolCaller, input: OperateMealGoodsInput): Promise<Sendable<MealGoods>> {
    const rows = await this.repo.update(user.schoolId, input.id, input.version, { enabled: input.enabled });
    return this.afterWrite(user, input.id, rows);
  }

  /** Deletes (hides) an item never ordered; an item ever ordered is disabled instead (bookings point at it). */
  async del(user: SchoolCaller, input: DelMealGoodsInput): Promise<Sendable<DelMealGoodsResult>> {
    const deleted = await this.repo.delete(user.schoolId, input.id, input.version);
    if (deleted === undefined) {
      await this.one(user.schoolId, input.id);
      throw new AppError('meals.goods_stale');
    }
    return deleted ? { deleted: true, goods: null } : { deleted: false, goods: await this.one(user.schoolId, input.id) };
  }

  private async afterWrite(user: SchoolCaller, id: number, rows: Array<{ id: number }>): Promise<GoodsRow> {
    if (!rows.length) {
      await this.one(user.schoolId, id); // not_found first
      throw new AppError('meals.goods_stale');
    }
    return this.one(user.schoolId, id);
  }

  // ---------------------------------------------------------------- settings

  async settings(user: SchoolCaller): Promise<MealSettings> {
    return settingsOf(this.db, user.schoolId);
  }

  /** The cutoff on the version read (the default settings are version 1). */
  async setSettings(user: SchoolCaller, input: SetMealSettingsInput): Promise<MealSettings> {
    if (!(await this.repo.setSettings(user.schoolId, input.cutoff_time, input.days_before, input.version)))
      throw new AppError('meals.settings_stale');
    return settingsOf(this.db, user.schoolId);
  }
}
