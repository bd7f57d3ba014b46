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
import { containsPattern, isUniqueViolation, offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { GOODS_COLUMNS, settingsOf } from './meals-sql';

/** Meal items (price history append-only) and the school's booking cutoff. */
@Injectable()
export class MealGoodsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(user: SessionUser, q: MealGoodsListQuery): Promise<Page<MealGoods>> {
    const rows: Array<MealGoods & { total: number }> = await this.db.query(
      `with f as (select * from meal_goods g where g.school_id = $1 and g.deleted_at is null and ($2::boolean is null or g.enabled = $2)
                    and ($3::text is null or g.name ilike $3))
       select c.total, p.* from (select count(*)::int as total from f) c
       left join lateral (select ${GOODS_COLUMNS} from f g order by g.enabled desc, g.id desc limit $4 offset $5) p on true`,
      [user.schoolId, q.enabled ?? null, containsPattern(q.keyword), q.limit, offsetOf(q)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as MealGoods);
    return pageOf(list, totalOf(rows), q);
  }

  async one(schoolId: number, id: number): Promise<MealGoods> {
    const [g]: MealGoods[] = await this.db.query(
      `select ${GOODS_COLUMNS} from meal_goods g where g.school_id = $1 and g.id = $2 and g.deleted_at is null`,
      [schoolId, id],
    );
    if (!g) throw new AppError('meals.goods_not_found');
    return g;
  }

  /** Adds an item; its first price opens the price history. */
  async add(user: SessionUser, input: AddMealGoodsInput): Promise<MealGoods> {
    let id: number;
    try {
      id = await this.db.transaction(async (em) => {
        const [g]: Array<{ id: number }> = await em.query(
          `insert into meal_goods (school_id, name, description, picture_url, price_fen) values ($1, $2, $3, $4, $5) returning id`,
          [user.schoolId, input.name, input.description || null, input.picture_url || null, input.price_fen],
        );
        await em.query(`insert into meal_goods_prices (school_id, goods_id, price_fen, reason, actor_id) values ($1, $2, $3, '新增餐品', $4)`, [
          user.schoolId,
          g.id,
          input.price_fen,
          user.id,
        ]);
        return g.id;
      });
    } catch (err) {
      if (isUniqueViolation(err, 'meal_goods_name_idx')) throw new AppError('meals.goods_name_taken');
      throw err;
    }
    return this.one(user.schoolId!, id);
  }

  /** Name, description and picture on the version read (the price has its own action). */
  async edit(user: SessionUser, input: EditMealGoodsInput): Promise<MealGoods> {
    let rows: Array<{ id: number }>;
    try {
      rows = await this.db.query(
        `with u as (update meal_goods set name = $4, description = $5, picture_url = $6, version = version + 1, updated_at = now()
                     where school_id = $1 and id = $2 and version = $3 and deleted_at is null returning id) select id from u`,
        [user.schoolId, input.id, input.version, input.name, input.description || null, input.picture_url || null],
      );
    } catch (err) {
      if (isUniqueViolation(err, 'meal_goods_name_idx')) throw new AppError('meals.goods_name_taken');
      throw err;
    }
    return this.afterWrite(user, input.id, rows);
  }

  /** A new price from now on with a reason: appended to the history; bookings already made keep theirs. */
  async editPrice(user: SessionUser, input: EditMealGoodsPriceInput): Promise<MealGoods> {
    await this.db.transaction(async (em) => {
      const [g]: Array<{ price_fen: number; version: number }> = await em.query(
        `select price_fen::float8 as price_fen, version from meal_goods where school_id = $1 and id = $2 and deleted_at is null for update`,
        [user.schoolId, input.id],
      );
      if (!g) throw new AppError('meals.goods_not_found');
      if (g.version !== input.version) throw new AppError('meals.goods_stale');
      if (g.price_fen === input.price_fen) throw new AppError('meals.same_price');
      await em.query(`update meal_goods set price_fen = $2, version = version + 1, updated_at = now() where id = $1`, [input.id, input.price_fen]);
      await em.query(`insert into meal_goods_prices (school_id, goods_id, price_fen, reason, actor_id) values ($1, $2, $3, $4, $5)`, [
        user.schoolId,
        input.id,
        input.price_fen,
        input.reason,
        user.id,
      ]);
    });
    return this.one(user.schoolId!, input.id);
  }

  async prices(user: SessionUser, id: number): Promise<MealGoodsPrice[]> {
    await this.one(user.schoolId!, id);
    return this.db.query(
      `select p.id, p.price_fen::float8 as price_fen, p.reason, u.name as actor_name, p.at from meal_goods_prices p left join users u on u.id = p.actor_id
        where p.school_id = $1 and p.goods_id = $2 order by p.id desc limit 200`,
      [user.schoolId, id],
    );
  }

  async operate(user: SessionUser, input: OperateMealGoodsInput): Promise<MealGoods> {
    const rows: Array<{ id: number }> = await this.db.query(
      `with u as (update meal_goods set enabled = $4, version = version + 1, updated_at = now()
                   where school_id = $1 and id = $2 and version = $3 and deleted_at is null returning id) select id from u`,
      [user.schoolId, input.id, input.version, input.enabled],
    );
    return this.afterWrite(user, input.id, rows);
  }

  /** Deletes (hides) an item never ordered; an item ever ordered is disabled instead (bookings point at it). */
  async del(user: SessionUser, input: DelMealGoodsInput): Promise<DelMealGoodsResult> {
    const [r]: Array<{ deleted: boolean } | undefined> = await this.db.query(
      `with g as (select id, exists (select 1 from meal_bookings b where b.goods_id = meal_goods.id) as ordered from meal_goods
                   where school_id = $1 and id = $2 and version = $3 and deleted_at is null for update),
            u as (update meal_goods m set deleted_at = case when g.ordered then null else now() end, enabled = false, version = m.version + 1, updated_at = now()
                   from g where m.id = g.id returning not g.ordered as deleted)
       select deleted from u`,
      [user.schoolId, input.id, input.version],
    );
    if (!r) {
      await this.one(user.schoolId!, input.id);
      throw new AppError('meals.goods_stale');
    }
    return r.deleted ? { deleted: true, goods: null } : { deleted: false, goods: await this.one(user.schoolId!, input.id) };
  }

  private async afterWrite(user: SessionUser, id: number, rows: Array<{ id: number }>): Promise<MealGoods> {
    if (!rows.length) {
      await this.one(user.schoolId!, id); // not_found first
      throw new AppError('meals.goods_stale');
    }
    return this.one(user.schoolId!, id);
  }

  // ---------------------------------------------------------------- settings

  async settings(user: SessionUser): Promise<MealSettings> {
    return settingsOf(this.db, user.schoolId!);
  }

  /** The cutoff on the version read (the default settings are version 1). */
  async setSettings(user: SessionUser, input: SetMealSettingsInput): Promise<MealSettings> {
    const rows: Array<{ school_id: number }> = await this.db.query(
      `with cur as (select coalesce((select version from meal_settings where school_id = $1), 1) as v),
            w as (insert into meal_settings as m (school_id, cutoff_time, days_before, version)
                  select $1, $2, $3, $4 + 1 from cur where cur.v = $4
                  on conflict (school_id) do update set cutoff_time = excluded.cutoff_time, days_before = excluded.days_before,
                     version = m.version + 1, updated_at = now() where m.version = $4
                  returning school_id)
       select school_id from w`,
      [user.schoolId, input.cutoff_time, input.days_before, input.version],
    );
    if (!rows.length) throw new AppError('meals.settings_stale');
    return settingsOf(this.db, user.schoolId!);
  }
}
