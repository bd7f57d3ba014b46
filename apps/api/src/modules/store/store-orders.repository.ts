import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { StoreAddress, StoreGoodNow, StoreOrder, StoreOrderLine, StoreOrderState } from '@wantuo/shared';
import { sql, type ExpressionBuilder, type InferResult, type Insertable } from 'kysely';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import { DataSource } from 'typeorm';
import { kdb, type DB } from '../../core/database/kysely';
import { preparedQuery } from '../../core/database/prepared-query';
import type { Queryable } from '../../core/database/sql-kit';
import { addressColumns } from './store-addresses.repository';
import { float8 } from './store-order-state.repository';
import { ADDRESS_COLUMNS, GOODS_NOW, ORDER_JOINS, orderColumns } from './store-sql';

type O = DB & { o: DB['store_orders'] };

/** A good as an order is priced (priceOrder). */
export type OrderGood = StoreGoodNow & { picture: string | null };

/** An order with its lines (`o` the order, `sc` its school, `pu` who placed it). */
const orders = (on: Queryable) =>
  kdb(on)
    .selectFrom('store_orders as o')
    .innerJoin('schools as sc', 'sc.id', 'o.school_id')
    .leftJoin('users as pu', 'pu.id', 'o.placed_by')
    .select((eb) => [
      'o.id',
      'o.no',
      'o.school_id',
      'sc.name as school_name',
      'o.state',
      eb.fn
        .coalesce(
          eb
            .selectFrom('store_order_lines as l')
            .select((x) =>
              x.fn
                .jsonAgg(
                  jsonBuildObject({
                    goods_id: x.ref('l.goods_id'),
                    name: x.ref('l.name'),
                    picture: x.ref('l.picture'),
                    price_fen: x.ref('l.price_fen'),
                    quantity: x.ref('l.quantity'),
                    amount_fen: x.ref('l.amount_fen'),
                  }),
                )
                .orderBy('l.goods_id')
                .as('j'),
            )
            .whereRef('l.order_id', '=', 'o.id'),
          sql`'[]'`,
        )
        .$castTo<StoreOrderLine[]>()
        .as('lines'),
      float8(eb, 'o.goods_fen').as('goods_fen'),
      float8(eb, 'o.freight_fen').as('freight_fen'),
      float8(eb, 'o.total_fen').as('total_fen'),
      eb.ref('o.address').$castTo<StoreOrder['address']>().as('address'),
      'o.remark',
      'pu.name as placed_by_name',
      'o.expires_at',
      eb.ref('o.pay_method').$castTo<StoreOrder['pay_method']>().as('pay_method'),
      'o.out_trade_no',
      'o.paid_at',
      'o.carrier',
      'o.tracking_no',
      'o.shipped_at',
      'o.done_at',
      'o.cancelled_at',
      'o.cancel_reason',
      float8(eb, 'o.refunded_fen').as('refunded_fen'),
      'o.version',
      'o.created_at',
    ]);

/** An order as `orders` selects it: the answer StoreOrder (its times still Dates). */
export type StoreOrderRow = InferResult<ReturnType<typeof orders>>[number];

/** The mall orders' statements (orders.service.ts, store-payments.ts). */
@Injectable()
export class StoreOrdersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The goods as an order is priced, by id. */
  goodsNow(ids: number[]): Promise<OrderGood[]> {
    return kdb(this.db)
      .selectFrom('store_goods')
      .select((eb) => [
        'id',
        'name',
        sql<number>`${eb.ref('price_fen')}::float8`.as('price_fen'),
        'stock',
        'listed',
        sql<string | null>`${eb.ref('pictures')}->>0`.as('picture'),
      ])
      .where('id', '=', sql<number>`any(${ids}::int[])`)
      .orderBy('id')
      .execute();
  }

  /** The school's address named, else its default. */
  previewAddress(schoolId: number, addressId: number | null): Promise<StoreAddress | undefined> {
    return kdb(this.db)
      .selectFrom('store_addresses as a')
      .select(addressColumns)
      .where('a.school_id', '=', schoolId)
      .$if(addressId !== null, (b) => b.where('a.id', '=', addressId!))
      .orderBy('a.is_default', 'desc')
      .orderBy('a.id')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * The submit's read, a named prepared statement (a hot statement, kept as its prepared SQL text): a prior order of
   * the request id, the address, the goods.
   */
  submitRead(schoolId: number, requestId: string, addressId: number, ids: number[]) {
    return preparedQuery<{ prior: { id: number; total_fen: number } | null; address: StoreAddress | null; goods: OrderGood[] }>(
      this.db,
      'store.submit.read',
      `select (select json_build_object('id', id, 'total_fen', total_fen::float8) from store_orders where school_id = $1 and request_key = $2) as prior,
                (select row_to_json(a) from (select ${ADDRESS_COLUMNS} from store_addresses a where a.school_id = $1 and a.id = $3) a) as address,
                (select coalesce(json_agg(g order by g.id), '[]') from (${GOODS_NOW} where id = any($4::int[])) g) as goods`,
      [schoolId, requestId, addressId, ids],
    );
  }

  /**
   * The stock take, a named prepared statement (a hot statement, kept as its prepared SQL text): the goods' rows
   * locked in id order, the stock taken, the order, its lines, the `reserve` moves and the event; the order placed,
   * or none.
   */
  submitPlace(params: unknown[]) {
    return preparedQuery<StoreOrder>(
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
      params,
    );
  }

  /** One order (`schoolId` null: of any school). */
  one(schoolId: number | null, id: number): Promise<StoreOrderRow | undefined> {
    const q = orders(this.db).where('o.id', '=', id);
    return (schoolId === null ? q : q.where('o.school_id', '=', schoolId)).executeTakeFirst();
  }

  /**
   * One statement: the counts by state of a school's orders (`schoolId` null: every school's), by no or school name
   * pattern, and the page of them (of one state), newest first.
   */
  async page(f: { schoolId: number | null; pattern: string | null; state: StoreOrderState | null }, limit: number, offset: number) {
    const where = (eb: ExpressionBuilder<O, 'o'>) =>
      eb.and([
        ...(f.schoolId === null ? [] : [eb('o.school_id', '=', f.schoolId)]),
        ...(f.pattern === null
          ? []
          : [
              eb.or([
                eb('o.no', 'ilike', f.pattern),
                eb.exists(
                  eb.selectFrom('schools as s').select(sql.lit(1).as('one')).whereRef('s.id', '=', 'o.school_id').where('s.name', 'ilike', f.pattern),
                ),
              ]),
            ]),
      ]);
    const k = kdb(this.db);
    const counts = k.selectNoFrom((eb) =>
      eb.fn
        .coalesce(
          eb
            .selectFrom(
              eb
                .selectFrom('store_orders as o')
                .select(['o.state', sql<number>`count(*)::int`.as('n')])
                .where(where)
                .groupBy('o.state')
                .as('c'),
            )
            .select((x) => x.fn.jsonAgg(jsonBuildObject({ state: x.ref('c.state'), n: x.ref('c.n') })).as('j')),
          sql`'[]'`,
        )
        .$castTo<Array<{ state: StoreOrderState; n: number }>>()
        .as('counts'),
    );
    const list = orders(this.db)
      .where(where)
      .$if(f.state !== null, (b) => b.where('o.state', '=', f.state!))
      .orderBy('o.created_at', 'desc')
      .orderBy('o.id', 'desc')
      .limit(limit)
      .offset(offset);
    const rows = await k
      .selectFrom(counts.as('one'))
      .leftJoinLateral(list.as('r'), (j) => j.onTrue())
      .selectAll()
      .execute();
    return { counts: rows[0].counts, list: rows.filter((r) => r.id !== null) as unknown as StoreOrderRow[] };
  }

  /** The operator ships the order. */
  async ship(em: Queryable, id: number, carrier: string, trackingNo: string, actorId: number): Promise<void> {
    await kdb(em)
      .updateTable('store_orders')
      .set((eb) => ({
        state: 'shipped',
        carrier,
        tracking_no: trackingNo,
        shipped_at: sql`now()`,
        shipped_by: actorId,
        version: eb('version', '+', 1),
      }))
      .where('id', '=', id)
      .execute();
  }

  /** The school has received the order. */
  async confirm(em: Queryable, id: number, actorId: number): Promise<void> {
    await kdb(em)
      .updateTable('store_orders')
      .set((eb) => ({ state: 'done', done_at: sql`now()`, done_by: actorId, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  /** A paid payment (from the balance). */
  async insertPayment(em: Queryable, row: Insertable<DB['payments']>): Promise<number> {
    const r = await kdb(em)
      .insertInto('payments')
      .values({ ...row, paid_at: sql`now()` })
      .returning((eb) => sql<number>`${eb.ref('id')}::int`.as('id'))
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /** The school's balance. */
  async balance(on: Queryable, schoolId: number): Promise<number> {
    const r = await kdb(on)
      .selectFrom('schools')
      .select((eb) => sql<number>`${eb.ref('balance_fen')}::float8`.as('balance_fen'))
      .where('id', '=', schoolId)
      .executeTakeFirst();
    return r!.balance_fen;
  }

  /** The order paid from the balance. */
  async paidByBalance(em: Queryable, id: number, outTradeNo: string): Promise<void> {
    await kdb(em)
      .updateTable('store_orders')
      .set((eb) => ({ state: 'paid', pay_method: 'balance', out_trade_no: outTradeNo, paid_at: sql`now()`, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  /** The unpaid order (of this total) paid by WeChat; its id when it was. */
  async paidByWechat(em: Queryable, v: { id: number; schoolId: number; outTradeNo: string; amountFen: number }): Promise<number | undefined> {
    const r = await kdb(em)
      .updateTable('store_orders')
      .set((eb) => ({ state: 'paid', pay_method: 'wechat', out_trade_no: v.outTradeNo, paid_at: sql`now()`, version: eb('version', '+', 1) }))
      .where('id', '=', v.id)
      .where('school_id', '=', v.schoolId)
      .where('state', '=', 'unpaid')
      .where('total_fen', '=', v.amountFen)
      .returning('id')
      .executeTakeFirst();
    return r?.id;
  }
}
