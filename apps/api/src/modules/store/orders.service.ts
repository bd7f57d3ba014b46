import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  formatFen,
  priceOrder,
  Role,
  STORE_LIMITS,
  STORE_ORDER_STATES,
  storeOrderTransition,
  type CancelGoodsOrderInput,
  type GoodsOrderIdInput,
  type GoodsOrderListQuery,
  type GoodsOrderPreview,
  type GoodsOrderPreviewQuery,
  type ShipGoodsOrderInput,
  type StoreOrder,
  type StoreOrderListAnswer,
  type StoreOrderListQuery,
  type StoreOrderState,
  type SubmitGoodsOrderInput,
} from '@wantuo/shared';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { escapeLike, isUniqueViolation, offsetOf, pageOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import type { Sendable } from '../../core/http/sendable';
import { JobsService } from '../../core/jobs/jobs.service';
import { LOGGER } from '../../core/logging/logger';
import { RefundsService } from '../payments/refunds.service';
import { StoreClock } from './store-sql';
import { appendOrderEvent, cancelAndRelease, lockOrder } from './store-order-state.repository';
import { StoreOrdersRepository, type StoreOrderRow } from './store-orders.repository';

const PAY_MS = STORE_LIMITS.payMinutes * 60_000;

/**
 * Mall orders: the confirm-order preview, placing an order (its stock reserved atomically), the lists, shipping,
 * receipt, cancellation (stock released; a paid order refunded) and the 30-minute release of unpaid orders (the
 * `store.release` job). Locks are taken in one order everywhere: an order's row, then its goods' rows in id order (or
 * the school's row, paying), so nothing deadlocks; a submit locks only goods rows, in id order, within its one statement.
 */
@Injectable()
export class StoreOrdersService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: StoreOrdersRepository,
    private readonly clock: StoreClock,
    private readonly jobs: JobsService,
    private readonly refunds: RefundsService,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /** GET submitGoodsOrder: what the order would be now (lines, prices, freight, total, address); writes nothing. */
  async preview(user: SchoolCaller, q: GoodsOrderPreviewQuery): Promise<GoodsOrderPreview> {
    const ids = [...new Set(q.items.map((i) => i.goods_id))];
    // the named address, else the default (the school's addresses themselves are addressList's)
    const [goods, address] = await Promise.all([this.repo.goodsNow(ids), this.repo.previewAddress(user.schoolId, q.address_id ?? null)]);
    const priced = priceOrder(q.items, goods, false);
    if (!priced.ok) throw new AppError(priced.error as 'store.goods_not_found', priced.params);
    if (q.address_id && !address) throw new AppError('store.address_not_found');
    const lines = priced.value.lines.map(({ stock, ...l }) => ({ ...l, stock, enough: stock >= l.quantity }));
    const { lines: _, ...totals } = priced.value;
    return { lines, ...totals, address: address ?? null, orderable: !!address && lines.every((l) => l.enough) };
  }

  /**
   * POST submitGoodsOrder, a read then ONE statement committed on its own (no transaction held across round trips, so
   * a good's row lock lasts that statement and its commit only). The read (no lock): a prior order of the request id
   * (answered), the address, the goods, priced by the pure priceOrder (listed, in stock, the total the caller saw).
   * The statement locks the goods' rows in id order, and only when every one is still listed, at the price read and
   * with the quantity in stock takes the stock (never below zero), writes the order with the address copied, its
   * lines, the `reserve` moves and the event, and answers the order; otherwise it writes nothing and the read again
   * says why (a good sold out meanwhile, unlisted, repriced). After it the `store.release` job is queued for the time
   * to pay. A concurrent retry of the request id fails on the order's unique key and is answered with the first order.
   */
  async submit(user: SchoolCaller, input: SubmitGoodsOrderInput): Promise<Sendable<StoreOrder>> {
    const schoolId = user.schoolId;
    const ids = [...new Set(input.items.map((i) => i.goods_id))];
    for (let attempt = 1; ; attempt++) {
      // named prepared statements, parsed and planned once per connection
      const [now] = await this.repo.submitRead(schoolId, input.request_id, input.address_id, ids);
      if (now.prior) {
        if (now.prior.total_fen !== input.total_fen) throw new AppError('store.request_reused');
        return this.one(schoolId, now.prior.id);
      }
      const address = now.address;
      if (!address) throw new AppError('store.address_not_found');
      const priced = priceOrder(input.items, now.goods);
      if (!priced.ok) throw new AppError(priced.error as 'store.out_of_stock', priced.params);
      const p = priced.value;
      if (p.total_fen !== input.total_fen) throw new AppError('store.price_changed', { total: formatFen(p.total_fen) });
      // a good sold out, unlisted or repriced since the read: read again (three times at most)
      if (attempt > 3) throw new AppError('store.out_of_stock', { name: p.lines[0].name, stock: 0 });
      const expiresAt = new Date(this.clock.now().getTime() + PAY_MS);
      let placed: StoreOrder[] = [];
      try {
        placed = await this.repo.submitPlace([
          schoolId,
          input.request_id,
          p.lines.map((l) => l.goods_id),
          p.lines.map((l) => l.quantity),
          p.goods_fen,
          p.freight_fen,
          p.total_fen,
          JSON.stringify({ name: address.name, mobile: address.mobile, region: address.region, detail: address.detail }),
          input.remark || null,
          user.id,
          expiresAt,
          p.lines.map((l) => l.name),
          p.lines.map((l) => l.picture),
          p.lines.map((l) => l.price_fen),
        ]);
      } catch (err) {
        // the same request id placed by a concurrent retry: the next read answers its order
        if (!isUniqueViolation(err)) throw err;
      }
      if (placed.length) {
        await this.jobs.enqueue('store.release', { order_id: placed[0].id }, { delayMs: PAY_MS });
        return placed[0];
      }
    }
  }

  async one(schoolId: number | null, id: number): Promise<StoreOrderRow> {
    const o = await this.repo.one(schoolId, id);
    if (!o) throw new AppError('store.order_not_found');
    return o;
  }

  /** A school's orders (goodsOrderList) or every school's (the operator's storeOrderList), newest first, with counts by state. */
  async list(user: SessionUser, q: GoodsOrderListQuery | StoreOrderListQuery): Promise<Sendable<StoreOrderListAnswer>> {
    const schoolId = user.role === Role.Operator ? null : user.schoolId;
    const keyword = 'keyword' in q && q.keyword ? escapeLike(q.keyword) : null;
    const rows = await this.repo.page({ schoolId, pattern: keyword === null ? null : `%${keyword}%`, state: q.state ?? null }, q.limit, offsetOf(q));
    const counts = Object.fromEntries(STORE_ORDER_STATES.map((s) => [s, 0])) as Record<StoreOrderState, number>;
    for (const c of rows.counts) counts[c.state] = c.n;
    const total = q.state ? counts[q.state] : STORE_ORDER_STATES.reduce((n, s) => n + counts[s], 0);
    return { ...pageOf(rows.list, total, q), counts };
  }

  /** A simple forward step (ship by the operator, confirm by the school): one conditional update; a repeat answers the order. */
  private async step(
    id: number,
    schoolId: number | null,
    cmd: 'ship' | 'confirm',
    write: (em: EntityManager, id: number) => Promise<void>,
    event: { actorId: number; data?: Record<string, unknown> },
  ): Promise<StoreOrderRow> {
    await this.db.transaction(async (em) => {
      const o = await lockOrder(em, id, schoolId);
      if (!o) throw new AppError('store.order_not_found');
      const t = storeOrderTransition(o.state, cmd);
      if (!t.ok) throw new AppError(t.error as 'store.order_unpaid');
      if (t.value.repeat) return;
      await write(em, o.id);
      await appendOrderEvent(em, { orderId: o.id, schoolId: o.school_id, type: t.value.state, actorId: event.actorId, data: event.data });
    });
    return this.one(schoolId, id);
  }

  /** The operator ships a paid order: carrier and tracking number. */
  ship(user: SessionUser, input: ShipGoodsOrderInput): Promise<Sendable<StoreOrder>> {
    return this.step(input.id, null, 'ship', (em, id) => this.repo.ship(em, id, input.carrier, input.tracking_no, user.id), {
      actorId: user.id,
      data: { carrier: input.carrier, tracking_no: input.tracking_no },
    });
  }

  /** The school confirms receipt of a shipped order. */
  confirm(user: SchoolCaller, input: GoodsOrderIdInput): Promise<Sendable<StoreOrder>> {
    return this.step(input.id, user.schoolId, 'confirm', (em, id) => this.repo.confirm(em, id, user.id), {
      actorId: user.id,
    });
  }

  /**
   * Cancels an unpaid or paid order (the school its own, the operator any): the stock goes back at once; a paid order's
   * payment is then refunded in full (balance to the wallet, WeChat Pay through the provider), once by its request key
   * (a repeated cancel of a cancelled order whose refund did not go through asks for it again).
   */
  async cancel(user: SessionUser, input: CancelGoodsOrderInput): Promise<Sendable<StoreOrder>> {
    const schoolId = user.role === Role.Operator ? null : user.schoolId;
    const o = await this.db.transaction(async (em) => {
      const o = await lockOrder(em, input.id, schoolId);
      if (!o) throw new AppError('store.order_not_found');
      const t = storeOrderTransition(o.state, 'cancel');
      if (!t.ok) throw new AppError(t.error as 'store.order_shipped');
      if (!t.value.repeat) await cancelAndRelease(em, o, ['unpaid', 'paid'], { reason: input.reason, actorId: user.id, event: 'cancelled' });
      return o;
    });
    if (o.out_trade_no && o.refunded_fen < o.total_fen) {
      await this.refunds.refund({
        schoolId: o.school_id,
        outTradeNo: o.out_trade_no,
        reason: `商城订单取消：${input.reason}`.slice(0, 80),
        requestKey: `cancel:${o.id}`,
        actorId: user.id,
      });
    }
    return this.one(schoolId, o.id);
  }

  /**
   * The `store.release` job: an order still unpaid at its time is cancelled and its stock released, in one transaction
   * under the order's row lock. Idempotent (a second run finds it cancelled); an order paid meanwhile is not touched; a
   * run before the time (a clock moved back, a job early) comes back for the rest of it.
   */
  async release(orderId: number): Promise<'released' | 'skipped' | 'early'> {
    const outcome = await this.db.transaction(async (em) => {
      const o = await lockOrder(em, orderId, null);
      if (!o || o.state !== 'unpaid') return { r: 'skipped' as const };
      const left = new Date(o.expires_at).getTime() - this.clock.now().getTime();
      if (left > 0) return { r: 'early' as const, left };
      await cancelAndRelease(em, o, ['unpaid'], { reason: '超时未支付，订单自动取消', actorId: null, event: 'expired' });
      return { r: 'released' as const };
    });
    if (outcome.r === 'early') await this.jobs.enqueue('store.release', { order_id: orderId }, { delayMs: outcome.left });
    if (outcome.r === 'released') this.log.info({ orderId }, 'unpaid mall order released');
    return outcome.r;
  }
}
