import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** The mall's clock: what "now" is for an order's 30 minutes to pay (tests move it). */
@Injectable()
export class StoreClock {
  now(): Date {
    return new Date();
  }
}

/** The payment kind of a mall order (balance or WeChat Pay); ref_id is the order's id. */
export const GOODS_ORDER_KIND = 'goods_order';

/** A good as lists show it (`g` the good, `t` its category). */
export const GOODS_COLUMNS = `g.id, g.type_id, t.name as type_name, g.name, g.pictures, g.description, g.price_fen::float8 as price_fen, g.stock, g.sold,
  g.listed, g.version, g.created_at`;
export const GOODS_JOINS = `join store_goods_types t on t.id = g.type_id`;

export const ADDRESS_COLUMNS = `a.id, a.name, a.mobile, a.region, a.detail, a.is_default, a.version`;

/**
 * An order with its lines (`o` the order, `sc` its school, `pu` who placed it); `lines` names where its lines are read
 * (a statement that has just inserted them reads them from its own CTE: its snapshot does not see them in the table).
 */
export const orderColumns = (lines = 'store_order_lines') => `o.id, o.no, o.school_id, sc.name as school_name, o.state,
  (select coalesce(json_agg(json_build_object('goods_id', l.goods_id, 'name', l.name, 'picture', l.picture, 'price_fen', l.price_fen,
          'quantity', l.quantity, 'amount_fen', l.amount_fen) order by l.goods_id), '[]') from ${lines} l where l.order_id = o.id) as lines,
  o.goods_fen::float8 as goods_fen, o.freight_fen::float8 as freight_fen, o.total_fen::float8 as total_fen, o.address, o.remark,
  pu.name as placed_by_name, o.expires_at, o.pay_method, o.out_trade_no, o.paid_at, o.carrier, o.tracking_no, o.shipped_at, o.done_at,
  o.cancelled_at, o.cancel_reason, o.refunded_fen::float8 as refunded_fen, o.version, o.created_at`;
export const ORDER_COLUMNS = orderColumns();
export const ORDER_JOINS = `join schools sc on sc.id = o.school_id left join users pu on pu.id = o.placed_by`;

/** The order row a state change works on, locked (`schoolId` null: the operator, any school). */
export interface LockedOrder {
  id: number;
  no: string;
  school_id: number;
  state: 'unpaid' | 'paid' | 'shipped' | 'done' | 'cancelled';
  total_fen: number;
  refunded_fen: number;
  expires_at: Date;
  pay_method: 'wechat' | 'balance' | null;
  out_trade_no: string | null;
}

export async function lockOrder(em: Pick<EntityManager, 'query'>, id: number, schoolId: number | null): Promise<LockedOrder | null> {
  const rows: LockedOrder[] = await em.query(
    `select id, no, school_id, state, total_fen::float8 as total_fen, refunded_fen::float8 as refunded_fen, expires_at, pay_method, out_trade_no
       from store_orders where id = $1 and ($2::int is null or school_id = $2) for update`,
    [id, schoolId],
  );
  return rows[0] ?? null;
}

/**
 * Cancels a locked order that is in one of `from` and gives its stock back, in one statement after the goods' rows are
 * locked in id order (as a submit takes them, so the two never deadlock): the state, the stock and sold counts, a
 * `release` move per good and the order's event. Answers whether it cancelled (a repeat cancels nothing).
 */
export async function cancelAndRelease(
  em: Pick<EntityManager, 'query'>,
  o: { id: number; school_id: number },
  from: readonly string[],
  why: { reason: string; actorId: number | null; event: 'cancelled' | 'expired' },
): Promise<boolean> {
  await em.query(`select id from store_goods where id in (select goods_id from store_order_lines where order_id = $1) order by id for update`, [
    o.id,
  ]);
  const [r]: Array<{ cancelled: number }> = await em.query(
    `with o as (
       update store_orders set state = 'cancelled', cancelled_at = now(), cancelled_by = $2, cancel_reason = $3, version = version + 1
        where id = $1 and state = any($4::text[]) returning id, school_id, state),
     w as (select l.goods_id, l.quantity from store_order_lines l join o on o.id = l.order_id),
     g as (update store_goods s set stock = s.stock + w.quantity, sold = greatest(0, s.sold - w.quantity), updated_at = now()
             from w where s.id = w.goods_id returning s.id, s.stock, w.quantity),
     m as (insert into store_stock_moves (goods_id, kind, delta, stock_after, order_id, actor_id)
           select g.id, 'release', g.quantity, g.stock, $1, $2 from g returning 1),
     e as (insert into store_order_events (order_id, school_id, type, actor_id, data)
           select o.id, o.school_id, $5, $2, jsonb_build_object('reason', $3::text) from o returning 1)
     select (select count(*) from o)::int as cancelled, (select count(*) from m)::int as moves, (select count(*) from e)::int as events`,
    [o.id, why.actorId, why.reason, from, why.event],
  );
  return r.cancelled > 0;
}

export async function appendOrderEvent(
  em: Pick<EntityManager, 'query'>,
  e: { orderId: number; schoolId: number; type: string; actorId: number | null; data?: Record<string, unknown> },
): Promise<void> {
  await em.query(`insert into store_order_events (order_id, school_id, type, actor_id, data) values ($1, $2, $3, $4, $5)`, [
    e.orderId,
    e.schoolId,
    e.type,
    e.actorId,
    JSON.stringify(e.data ?? {}),
  ]);
}
