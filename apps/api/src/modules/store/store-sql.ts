import { Injectable } from '@nestjs/common';

/** The mall's clock: what "now" is for an order's 30 minutes to pay (tests move it). */
@Injectable()
export class StoreClock {
  now(): Date {
    return new Date();
  }
}

/** The payment kind of a mall order (balance or WeChat Pay); ref_id is the order's id. */
export const GOODS_ORDER_KIND = 'goods_order';

/*
 * The SQL text of the submit's named prepared statements (store-orders.repository.ts: the stock take, a hot statement
 * kept as its prepared text). Every other statement is built with Kysely in the repositories.
 */

export const ADDRESS_COLUMNS = `a.id, a.name, a.mobile, a.region, a.detail, a.is_default, a.version`;

/** The goods as an order is priced (priceOrder), by the ids a `where` after it names. */
export const GOODS_NOW = `select id, name, price_fen::float8 as price_fen, stock, listed, pictures->>0 as picture from store_goods`;

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
export const ORDER_JOINS = `join schools sc on sc.id = o.school_id left join users pu on pu.id = o.placed_by`;
