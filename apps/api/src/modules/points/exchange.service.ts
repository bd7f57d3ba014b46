import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  exchangeDecision,
  ORDER_STATES,
  orderTransition,
  type CancelScoreOrderInput,
  type ExchangeScoreGoodsInput,
  type HandOverScoreOrderInput,
  type OrderState,
  type ScoreOrder,
  type ScoreOrderListAnswer,
  type ScoreOrderListQuery,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { isUniqueViolation, offsetOf, pageOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { Sendable } from '../../core/http/sendable';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { PointsOrdersRepository, type PointsOrderRow } from './points-orders.repository';
import { lockAccounts } from './points.repository';

/**
 * Exchanges and their orders. Locks are always taken in the same order: an order row, then the student's points row,
 * then the good's row (an exchange: points row, good; a cancellation: order, points row, good), so they never deadlock.
 */
@Injectable()
export class ExchangeService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: PointsOrdersRepository,
  ) {}

  /**
   * Exchanges one unit of a good for a student's points in ONE statement, committed on its own (no transaction held
   * across round trips, so the good's row lock lasts that statement and its commit only): the student in the caller's
   * scope and no order yet for the request_id; the student's points row locked for the statement when it covers the
   * price (as every change of points locks it, before the good: never a deadlock); a unit of the good taken (`stock >
   * 0`, listed, at the price the caller saw) only then, so the charge that follows cannot fail; the points charged, the
   * order, its ledger entry and the stock move. When any part takes nothing the statement writes nothing, and a read
   * after it says why (refusal). A concurrent retry of the request_id fails on the order's unique key (nothing written)
   * and is answered with the first order.
   */
  async exchange(user: SchoolCaller, input: ExchangeScoreGoodsInput): Promise<Sendable<ScoreOrder>> {
    const schoolId = user.schoolId;
    for (let attempt = 1; ; attempt++) {
      let placed: PointsOrderRow[] = [];
      try {
        placed = await this.repo.exchange(user.role, {
          goodsId: input.goods_id,
          schoolId,
          price: input.price,
          studentId: input.student_id,
          actorId: user.id,
          requestId: input.request_id,
        });
      } catch (err) {
        // the same request_id placed by a concurrent retry: the refusal's read finds its order
        if (!isUniqueViolation(err)) throw err;
      }
      if (placed.length) return placed[0];
      const prior = await this.refusal(user, input, attempt);
      if (prior) return this.one(schoolId, prior);
    }
  }

  /**
   * Why an exchange took nothing, read after it (no lock), in the order the rules apply: the student out of scope; the
   * request_id already used (answered with its order's id when by this same exchange); the good gone, its price
   * changed, not listed, sold out, or more points than the balance (thrown as the AppError). When nothing refuses it
   * now (a unit given back, points awarded meanwhile) answers null for one more try; out of stock after the third.
   */
  private async refusal(user: SchoolCaller, input: ExchangeScoreGoodsInput, attempt: number): Promise<number | null> {
    const now = await this.repo.exchangeState(user, { studentId: input.student_id, requestId: input.request_id, goodsId: input.goods_id });
    if (!now.student) throw new AppError('points.student_not_found');
    if (now.prior) {
      if (now.prior.student_id !== input.student_id || now.prior.goods_id !== input.goods_id) throw new AppError('points.request_reused');
      return now.prior.id;
    }
    const goods = now.goods;
    if (!goods || goods.deleted) throw new AppError('points.goods_not_found');
    if (goods.price !== input.price) throw new AppError('points.price_changed', { price: goods.price });
    const d = exchangeDecision(now.balance ?? 0, goods);
    if (!d.ok) throw new AppError(d.error as 'points.insufficient', d.params);
    if (attempt >= 3) throw new AppError('points.out_of_stock');
    return null;
  }

  async one(schoolId: number, id: number): Promise<PointsOrderRow> {
    const o = await this.repo.one(schoolId, id);
    if (!o) throw new AppError('points.order_not_found');
    return o;
  }

  /** Orders the caller may see, newest first, with the counts by state for the same filters without the state. */
  async list(user: SchoolCaller, q: ScoreOrderListQuery): Promise<Sendable<ScoreOrderListAnswer>> {
    const rows = await this.repo.page(user, { studentId: q.student_id ?? null, state: q.state ?? null }, q.limit, offsetOf(q));
    const counts = Object.fromEntries(ORDER_STATES.map((s) => [s, 0])) as Record<OrderState, number>;
    for (const c of rows.counts) counts[c.state] = c.n;
    const total = q.state ? counts[q.state] : ORDER_STATES.reduce((n, s) => n + counts[s], 0);
    return { ...pageOf(rows.list, total, q), counts };
  }

  /** The school hands the good over: pending -> handed_over (a repeat answers the order as it is). */
  async handOver(user: SchoolCaller, input: HandOverScoreOrderInput): Promise<Sendable<ScoreOrder>> {
    const schoolId = user.schoolId;
    const handed = await this.repo.handOver(schoolId, input.id, user.id);
    const o = await this.one(schoolId, input.id);
    if (!handed) {
      const t = orderTransition(o.state, 'hand_over');
      if (!t.ok) throw new AppError(t.error as 'points.order_cancelled');
    }
    return o;
  }

  /**
   * Cancels a pending order: under the order's row lock, then the student's, one statement marks it cancelled, gives
   * the points back (a refund entry) and the unit of stock (a cancel move). A repeat, even a concurrent one, finds it
   * cancelled and gives back nothing (the unique refund per order is the last guard).
   */
  async cancel(user: SchoolCaller, input: CancelScoreOrderInput): Promise<Sendable<ScoreOrder>> {
    const schoolId = user.schoolId;
    await this.db.transaction(async (em) => {
      const o = await this.repo.lock(em, schoolId, input.id);
      if (!o) throw new AppError('points.order_not_found');
      const t = orderTransition(o.state, 'cancel');
      if (!t.ok) throw new AppError(t.error as 'points.order_handed_over');
      if (t.value.repeat) return;
      await lockAccounts(em, schoolId, [o.student_id]);
      await this.repo.cancel(em, schoolId, o.id, user.id, input.reason);
    });
    return this.one(schoolId, input.id);
  }
}
