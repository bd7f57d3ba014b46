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
  type StoreAddress,
  type StoreGoodNow,
  type StoreOrder,
  type StoreOrderListAnswer,
  type StoreOrderListQuery,
  type StoreOrderState,
  type SubmitGoodsOrderInput,
} from '@wantuo/shared';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { preparedQuery } from '../../core/database/prepared-query';
import { escapeLike, isUniqueViolation, offsetOf, pageOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { JobsService } from '../../core/jobs/jobs.service';
import { LOGGER } from '../../core/logging/logger';
import { RefundsService } from '../payments/refunds.service';
import { ADDRESS_COLUMNS, appendOrderEvent, cancelAndRelease, lockOrder, ORDER_COLUMNS, ORDER_JOINS, orderColumns, StoreClock } from './store-sql';

const PAY_MS = STORE_LIMITS.payMinutes * 60_000;
type GoodsRow = StoreGoodNow & { picture: string | null };
/** The goods as an order is priced (priceOrder), by the ids a `where` after it names. */
const GOODS_NOW = `select id, name, price_fen::float8 as price_fen, stock, listed, pictures->>0 as picture from store_goods`;

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
    private readonly clock: StoreClock,
    private readonly jobs: JobsService,
    private readonly refunds: RefundsService,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  private async goodsNow(ids: number[]): Promise<GoodsRow[]> {
    return this.db.query(`${GOODS_NOW} where id = any($1::int[]) order by id`, [ids]);
  }

  /** GET submitGoodsOrder: what the order would be now (lines, prices, freight, total, address); writes nothing. */
  async preview(user: SessionUser, q: GoodsOrderPreviewQuery): Promise<GoodsOrderPreview> {
    const ids = [...new Set(q.items.map((i) => i.goods_id))];
    // the named address, else the default (the school's addresses themselves are addressList's)
    const [goods, [address]]: [GoodsRow[], StoreAddress[]] = await Promise.all([
      this.goodsNow(ids),
      this.db.query(
        `select ${ADDRESS_COLUMNS} from store_addresses a where a.school_id = $1 and ($2::int is null or a.id = $2) order by a.is_default desc, a.id limit 1`,
        [user.schoolId, q.address_id ?? null],
      ),
    ]);
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
  async submit(user: SessionUser, input: SubmitGoodsOrderInput): Promise<StoreOrder> {
    const schoolId = user.schoolId!;
    const ids = [...new Set(input.items.map((i) => i.goods_id))];
    for (let attempt = 1; ; attempt++) {
      // named prepared statements, parsed and planned once per connection
      const [now] = await preparedQuery<{ prior: { id: number; total_fen: number } | null; address: StoreAddress | null; goods: GoodsRow[] }>(
        this.db,
        'store.submit.read',
        `select (select json_build_object('id', id, 'total_fen', total_fen::float8) from store_orders where school_id = $1 and request_key = $2) as prior,
                (select row_to_json(a) from (select ${ADDRESS_COLUMNS} from store_addresses a where a.school_id = $1 and a.id = $3) a) as address,
                (select coalesce(json_agg(g order by g.id), '[]') from (${GOODS_NOW} where id = any($4::int[])) g) as goods`,
        [schoolId, input.request_id, input.address_id, ids],
      );
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
        placed = await preparedQuery<StoreOrder>(
          this.db,
          'store.submit.place',
          `with w as (select * from unnest($3::int[], $4::int[], $14::bigint[]) as w(goods_id, qty, price)),
           lk as (
             select s.id from store_goods s join w on w.goods_id = s.id
              where s.listed and s.stock >= w.qty and s.price_fen = w.price order by s.id for update of s),
           g as (
             update store_goods s set stock = s.stock - w.qty, sold = s.sold + w.qty, updated_at = now()
               from w where s.id = w.goods_id and s.stock >= w.qty and (select count(*) from lk) = cardinality($3::int[])
             returning s.id, s.stock, w.qty),
           n as (select nextval('store_orders_id_seq')::int as id where (select count(*) from g) = cardinality($3::int[])),
           o as (
             insert into store_orders (id, no, school_id, goods_fen, freight_fen, total_fen, address, remark, placed_by, request_key, expires_at)
             select n.id, 'SC' || to_char(now() at time zone 'Asia/Shanghai', 'YYMMDD') || lpad(n.id::text, 8, '0'), $1, $5, $6, $7, $8, $9, $10, $2, $11
               from n
             returning *),
           ln as (
             insert into store_order_lines (order_id, goods_id, name, picture, price_fen, quantity, amount_fen)
             select o.id, x.goods_id, x.name, x.picture, x.price, x.qty, x.price * x.qty
               from o, unnest($3::int[], $12::text[], $13::text[], $14::bigint[], $4::int[]) as x(goods_id, name, picture, price, qty)
             returning *),
           m as (
             insert into store_stock_moves (goods_id, kind, delta, stock_after, order_id, actor_id)
             select g.id, 'reserve', -g.qty, g.stock, o.id, $10 from g, o returning 1),
           e as (
             insert into store_order_events (order_id, school_id, type, actor_id, data)
             select o.id, $1, 'placed', $10, jsonb_build_object('total_fen', $7::bigint, 'expires_at', $11::timestamptz) from o returning 1)
           select ${orderColumns('ln')} from o ${ORDER_JOINS}`,
          [
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
          ],
        );
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

  async one(schoolId: number | null, id: number): Promise<StoreOrder> {
    const [o]: StoreOrder[] = await this.db.query(
      `select ${ORDER_COLUMNS} from store_orders o ${ORDER_JOINS} where o.id = $1 and ($2::int is null or o.school_id = $2)`,
      [id, schoolId],
    );
    if (!o) throw new AppError('store.order_not_found');
    return o;
  }

  /** A school's orders (goodsOrderList) or every school's (the operator's storeOrderList), newest first, with counts by state. */
  async list(user: SessionUser, q: GoodsOrderListQuery | StoreOrderListQuery): Promise<StoreOrderListAnswer> {
    const schoolId = user.role === Role.Operator ? null : user.schoolId;
    const keyword = 'keyword' in q && q.keyword ? escapeLike(q.keyword) : null;
    const rows: Array<StoreOrder & { counts: Array<{ state: StoreOrderState; n: number }> }> = await this.db.query(
      `with f as materialized (
         select o.id, o.state, o.created_at from store_orders o
          where ($1::int is null or o.school_id = $1)
            and ($2::text is null or o.no ilike '%' || $2 || '%' or exists (select 1 from schools s where s.id = o.school_id and s.name ilike '%' || $2 || '%'))),
       x as (select id, created_at from f where $3::text is null or state = $3 order by created_at desc, id desc limit $4 offset $5)
       select (select coalesce(json_agg(json_build_object('state', c.state, 'n', c.n)), '[]') from (select state, count(*)::int as n from f group by 1) c) as counts, r.*
         from (select 1) one left join lateral (
           select ${ORDER_COLUMNS} from x join store_orders o on o.id = x.id ${ORDER_JOINS} order by x.created_at desc, x.id desc
         ) r on true`,
      [schoolId, keyword, q.state ?? null, q.limit, offsetOf(q)],
    );
    const counts = Object.fromEntries(STORE_ORDER_STATES.map((s) => [s, 0])) as Record<StoreOrderState, number>;
    for (const c of rows[0].counts) counts[c.state] = c.n;
    const list = rows.filter((r) => r.id !== null).map(({ counts: _, ...r }) => r as StoreOrder);
    const total = q.state ? counts[q.state] : STORE_ORDER_STATES.reduce((n, s) => n + counts[s], 0);
    return { ...pageOf(list, total, q), counts };
  }

  /** A simple forward step (ship by the operator, confirm by the school): one conditional update; a repeat answers the order. */
  private async step(
    id: number,
    schoolId: number | null,
    cmd: 'ship' | 'confirm',
    sql: string,
    params: unknown[],
    event: { actorId: number; data?: Record<string, unknown> },
  ): Promise<StoreOrder> {
    await this.db.transaction(async (em) => {
      const o = await lockOrder(em, id, schoolId);
      if (!o) throw new AppError('store.order_not_found');
      const t = storeOrderTransition(o.state, cmd);
      if (!t.ok) throw new AppError(t.error as 'store.order_unpaid');
      if (t.value.repeat) return;
      await em.query(sql, [o.id, ...params]);
      await appendOrderEvent(em, { orderId: o.id, schoolId: o.school_id, type: t.value.state, actorId: event.actorId, data: event.data });
    });
    return this.one(schoolId, id);
  }

  /** The operator ships a paid order: carrier and tracking number. */
  ship(user: SessionUser, input: ShipGoodsOrderInput): Promise<StoreOrder> {
    return this.step(
      input.id,
      null,
      'ship',
      `update store_orders set state = 'shipped', carrier = $2, tracking_no = $3, shipped_at = now(), shipped_by = $4, version = version + 1 where id = $1`,
      [input.carrier, input.tracking_no, user.id],
      { actorId: user.id, data: { carrier: input.carrier, tracking_no: input.tracking_no } },
    );
  }

  /** The school confirms receipt of a shipped order. */
  confirm(user: SessionUser, input: GoodsOrderIdInput): Promise<StoreOrder> {
    return this.step(
      input.id,
      user.schoolId,
      'confirm',
      `update store_orders set state = 'done', done_at = now(), done_by = $2, version = version + 1 where id = $1`,
      [user.id],
      {
        actorId: user.id,
      },
    );
  }

  /**
   * Cancels an unpaid or paid order (the school its own, the operator any): the stock goes back at once; a paid order's
   * payment is then refunded in full (balance to the wallet, WeChat Pay through the provider), once by its request key
   * (a repeated cancel of a cancelled order whose refund did not go through asks for it again).
   */
  async cancel(user: SessionUser, input: CancelGoodsOrderInput): Promise<StoreOrder> {
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
