import { Injectable } from '@nestjs/common';
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
import { escapeLike, isUniqueViolation } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import type { Sendable } from '../../core/http/sendable';
import { StoreGoodsRepository, type StoreGoodsRow } from './store-goods.repository';

/**
 * The mall's goods: categories, the schools' view (listed goods only) and the operator's (every good, with its
 * actions). Stock changes only through moves: the operator's adds here, orders' reservations and releases elsewhere.
 */
@Injectable()
export class StoreGoodsService {
  constructor(private readonly repo: StoreGoodsRepository) {}

  /** The categories with how many goods are on sale in each. */
  async types(): Promise<GoodsType[]> {
    return this.repo.types();
  }

  /** Goods on sale, newest first; the operator's list (listed null) sees every good. */
  private async page(
    q: { page: number; limit: number; type_id?: number; keyword?: string },
    listed: boolean | null,
  ): Promise<Page<Sendable<StoreGoods>>> {
    return this.repo.page({ typeId: q.type_id ?? null, pattern: q.keyword ? `%${escapeLike(q.keyword)}%` : null, listed }, q);
  }

  list(q: GoodsListQuery): Promise<Page<Sendable<StoreGoods>>> {
    return this.page(q, true);
  }

  operatorList(q: StoreGoodsListQuery): Promise<Page<Sendable<StoreGoods>>> {
    return this.page(q, q.listed ?? null);
  }

  /** One good: schools see it while it is on sale, the operator always. */
  async info(user: SessionUser, id: number): Promise<StoreGoodsRow> {
    const g = await this.repo.one(id, user.role !== Role.Operator);
    if (!g) throw new AppError('store.goods_not_found');
    return g;
  }

  private async typeExists(id: number): Promise<void> {
    if (!(await this.repo.typeExists(id))) throw new AppError('store.type_not_found');
  }

  /** Adds a good and its first stock (an `add` move keyed by the request): a retry answers the good it made. */
  async add(user: SessionUser, input: AddStoreGoodsInput): Promise<Sendable<StoreGoods>> {
    const key = `goods:${input.request_id}`;
    const prior = () => this.repo.byMoveKey(key);
    const done = await prior();
    if (done) return this.info(user, done);
    await this.typeExists(input.type_id);
    try {
      const id = await this.repo.add(
        {
          type_id: input.type_id,
          name: input.name,
          pictures: JSON.stringify(input.pictures ?? []),
          description: input.description ?? '',
          price_fen: input.price_fen,
          stock: input.stock,
          listed: input.listed ?? true,
          created_by: user.id,
        },
        key,
      );
      return this.info(user, id);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const id = await prior();
      if (!id) throw err;
      return this.info(user, id);
    }
  }

  /** Edits a good on the version read (not its stock); orders already placed keep their lines. */
  async edit(user: SessionUser, input: EditStoreGoodsInput): Promise<Sendable<StoreGoods>> {
    await this.typeExists(input.type_id);
    const rows = await this.repo.edit(input.id, input.version, {
      type_id: input.type_id,
      name: input.name,
      pictures: input.pictures ? JSON.stringify(input.pictures) : undefined,
      description: input.description ?? undefined,
      price_fen: input.price_fen,
    });
    if (!rows.length) await this.staleOrMissing(input.id);
    return this.info(user, input.id);
  }

  /** Adds stock (an `add` move keyed by the request: a retry adds nothing again). */
  async addStock(user: SessionUser, input: AddStoreGoodsStockInput): Promise<Sendable<StoreGoods>> {
    const key = `stock:${input.request_id}`;
    try {
      if (!(await this.repo.addStock(input.id, input.quantity, key, user.id))) throw new AppError('store.goods_not_found');
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    return this.info(user, input.id);
  }

  /** Lists or unlists a good on the version read. */
  async setListed(user: SessionUser, input: UnmountStoreGoodsInput): Promise<Sendable<StoreGoods>> {
    const rows = await this.repo.setListed(input.id, input.version, input.listed);
    if (!rows.length) await this.staleOrMissing(input.id);
    return this.info(user, input.id);
  }

  private async staleOrMissing(id: number): Promise<never> {
    throw new AppError((await this.repo.exists(id)) ? 'store.goods_stale' : 'store.goods_not_found');
  }
}
