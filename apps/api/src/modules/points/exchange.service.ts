import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  exchangeDecision,
  ORDER_STATES,
  orderTransition,
  Role,
  type CancelScoreOrderInput,
  type ExchangeScoreGoodsInput,
  type HandOverScoreOrderInput,
  type OrderState,
  type ScoreOrder,
  type ScoreOrderListAnswer,
  type ScoreOrderListQuery,
} from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { offsetOf, pageOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { lockAccounts, ORDER_COLUMNS, ORDER_JOINS, studentScope } from './points-sql';

/** Why an exchange that took nothing failed: the good as it is now. */
interface GoodsNow {
  price: number;
  stock: number;
  listed: boolean;
  deleted: boolean;
}

/**
 * Exchanges and their orders. Locks are always taken in the same order: an order row, then the student's points row,
 * then the good's row (an exchange: points row, good; a cancellation: order, points row, good), so they never deadlock.
 */
@Injectable()
export class ExchangeService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Exchanges one unit of a good for a student's points. Under the student's row lock (so the balance read is the balance
   * charged, and a retry of the same request_id finds the first order), one statement takes a unit of stock
   * (`stock > 0`, listed, at the price the caller saw), charges the points (`balance >= price`), creates the order and
   * appends the ledger entry and the stock move; when any part takes nothing the transaction rolls back.
   */
  async exchange(user: SessionUser, input: ExchangeScoreGoodsInput): Promise<ScoreOrder> {
    const schoolId = user.schoolId!;
    const id = await this.db.transaction(async (em) => {
      // the student in the caller's scope, and their points row locked (created at 0 when missing) in one statement
      const [acc]: Array<{ balance: number }> = await em.query(
        `with st as (select s.id from students s where s.school_id = $1 and s.id = $2 and s.status = 1 and ${studentScope(user.role, '$3')})
         insert into points_accounts (student_id, school_id) select id, $1 from st
         on conflict (student_id) do update set updated_at = points_accounts.updated_at returning balance`,
        [schoolId, input.student_id, user.id],
      );
      if (!acc) throw new AppError('points.student_not_found');
      const balance = acc.balance;
      // read after the lock: a retry of this request_id (same student) waited for it and finds the first order
      const [{ prior, goods }]: Array<{ prior: { id: number; student_id: number; goods_id: number } | null; goods: GoodsNow | null }> =
        await em.query(
          `select (select json_build_object('id', id, 'student_id', student_id, 'goods_id', goods_id) from points_orders where school_id = $1 and request_key = $2) as prior,
                (select json_build_object('price', price, 'stock', stock, 'listed', listed, 'deleted', deleted_at is not null) from points_goods where school_id = $1 and id = $3) as goods`,
          [schoolId, input.request_id, input.goods_id],
        );
      if (prior) {
        if (prior.student_id !== input.student_id || prior.goods_id !== input.goods_id) throw new AppError('points.request_reused');
        return prior.id;
      }
      // refuse early (no lock on the good) what cannot succeed
      if (!goods || goods.deleted) throw new AppError('points.goods_not_found');
      if (goods.price !== input.price) throw new AppError('points.price_changed', { price: goods.price });
      const d = exchangeDecision(balance, goods);
      if (!d.ok) throw new AppError(d.error as 'points.insufficient', d.params);

      const [r]: Array<{ took: number; order_id: number | null }> = await em.query(
        `with g as (
           update points_goods set stock = stock - 1, exchanged = exchanged + 1, updated_at = now()
            where id = $1 and school_id = $2 and deleted_at is null and listed and stock > 0 and price = $3
           returning id, name, price, stock),
         a as (
           update points_accounts p set balance = p.balance - g.price, updated_at = now() from g
            where p.student_id = $4 and p.balance >= g.price returning p.balance),
         n as (select nextval('points_orders_id_seq')::int as id from g, a),
         o as (
           insert into points_orders (id, no, school_id, student_id, goods_id, goods_name, price, placed_by, request_key)
           select n.id, 'DH' || lpad(n.id::text, 10, '0'), $2, $4, g.id, g.name, g.price, $5, $6 from n, g
           returning id, price),
         l as (
           insert into points_ledger (school_id, student_id, kind, delta, balance_after, reason, order_id, actor_id, request_key)
           select $2, $4, 'exchange', -o.price, a.balance, g.name, o.id, $5, 'xchg:' || $6 from o, a, g returning id),
         m as (
           insert into points_stock_moves (school_id, goods_id, kind, delta, stock_after, order_id, actor_id)
           select $2, g.id, 'exchange', -1, g.stock, o.id, $5 from o, g returning id)
         select (select count(*) from g)::int as took, (select id from o) as order_id, (select count(*) from l) + (select count(*) from m) as written`,
        [input.goods_id, schoolId, input.price, input.student_id, user.id, input.request_id],
      );
      if (r.order_id) return r.order_id;
      if (r.took) throw new AppError('points.insufficient', { balance, asked: input.price }); // rolled back with the unit taken
      const after = await this.goodsNow(em, schoolId, input.goods_id);
      if (after.price !== input.price) throw new AppError('points.price_changed', { price: after.price });
      const why = exchangeDecision(balance, after);
      throw new AppError(why.ok ? 'points.out_of_stock' : (why.error as 'points.out_of_stock'), why.ok ? {} : why.params);
    });
    return this.one(schoolId, id);
  }

  private async goodsNow(em: Pick<EntityManager, 'query'>, schoolId: number, id: number): Promise<GoodsNow> {
    const [g]: GoodsNow[] = await em.query(
      `select price, stock, listed, deleted_at is not null as deleted from points_goods where school_id = $1 and id = $2`,
      [schoolId, id],
    );
    if (!g || g.deleted) throw new AppError('points.goods_not_found');
    return g;
  }

  async one(schoolId: number, id: number): Promise<ScoreOrder> {
    const [o]: ScoreOrder[] = await this.db.query(
      `select ${ORDER_COLUMNS} from points_orders o ${ORDER_JOINS} where o.school_id = $1 and o.id = $2`,
      [schoolId, id],
    );
    if (!o) throw new AppError('points.order_not_found');
    return o;
  }

  /** Orders the caller may see, newest first, with the counts by state for the same filters without the state. */
  async list(user: SessionUser, q: ScoreOrderListQuery): Promise<ScoreOrderListAnswer> {
    const scoped =
      user.role === Role.Admin
        ? '($2::int is not null)'
        : `exists (select 1 from students s where s.id = o.student_id and ${studentScope(user.role, '$2')})`;
    const rows: Array<ScoreOrder & { counts: Array<{ state: OrderState; n: number }> }> = await this.db.query(
      `with f as materialized (
         select o.id, o.state, o.created_at from points_orders o
          where o.school_id = $1 and ($3::int is null or o.student_id = $3) and ${scoped}),
       x as (select id, created_at from f where $4::text is null or state = $4 order by created_at desc, id desc limit $5 offset $6)
       select (select coalesce(json_agg(json_build_object('state', c.state, 'n', c.n)), '[]') from (select state, count(*)::int as n from f group by 1) c) as counts, r.*
         from (select 1) one left join lateral (
           select ${ORDER_COLUMNS} from x join points_orders o on o.id = x.id ${ORDER_JOINS} order by x.created_at desc, x.id desc
         ) r on true`,
      [user.schoolId, user.id, q.student_id ?? null, q.state ?? null, q.limit, offsetOf(q)],
    );
    const counts = Object.fromEntries(ORDER_STATES.map((s) => [s, 0])) as Record<OrderState, number>;
    for (const c of rows[0].counts) counts[c.state] = c.n;
    const list = rows.filter((r) => r.id !== null).map(({ counts: _, ...r }) => r as ScoreOrder);
    const total = q.state ? counts[q.state] : ORDER_STATES.reduce((n, s) => n + counts[s], 0);
    return { ...pageOf(list, total, q), counts };
  }

  /** The school hands the good over: pending -> handed_over (a repeat answers the order as it is). */
  async handOver(user: SessionUser, input: HandOverScoreOrderInput): Promise<ScoreOrder> {
    const schoolId = user.schoolId!;
    const rows: Array<{ id: number }> = await this.db.query(
      `with u as (update points_orders set state = 'handed_over', handed_over_at = now(), handed_over_by = $3
                   where school_id = $1 and id = $2 and state = 'pending' returning id) select id from u`,
      [schoolId, input.id, user.id],
    );
    const o = await this.one(schoolId, input.id);
    if (!rows.length) {
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
  async cancel(user: SessionUser, input: CancelScoreOrderInput): Promise<ScoreOrder> {
    const schoolId = user.schoolId!;
    await this.db.transaction(async (em) => {
      const [o]: Array<{ id: number; state: OrderState; student_id: number }> = await em.query(
        `select id, state, student_id from points_orders where school_id = $1 and id = $2 for update`,
        [schoolId, input.id],
      );
      if (!o) throw new AppError('points.order_not_found');
      const t = orderTransition(o.state, 'cancel');
      if (!t.ok) throw new AppError(t.error as 'points.order_handed_over');
      if (t.value.repeat) return;
      await lockAccounts(em, schoolId, [o.student_id]);
      await em.query(
        `with o as (
           update points_orders set state = 'cancelled', cancelled_at = now(), cancelled_by = $3, cancel_reason = $4
            where id = $2 and school_id = $1 and state = 'pending' returning id, student_id, goods_id, price, goods_name),
         a as (update points_accounts p set balance = p.balance + o.price, updated_at = now() from o where p.student_id = o.student_id returning p.balance),
         l as (
           insert into points_ledger (school_id, student_id, kind, delta, balance_after, reason, order_id, actor_id)
           select $1, o.student_id, 'refund', o.price, a.balance, $4, o.id, $3 from o, a returning id),
         g as (update points_goods set stock = stock + 1, updated_at = now() from o where points_goods.id = o.goods_id returning points_goods.stock),
         m as (
           insert into points_stock_moves (school_id, goods_id, kind, delta, stock_after, order_id, reason, actor_id)
           select $1, o.goods_id, 'cancel', 1, g.stock, o.id, $4, $3 from o, g returning id)
         select (select count(*) from l)::int as refunds, (select count(*) from m)::int as moves`,
        [schoolId, o.id, user.id, input.reason],
      );
    });
    return this.one(schoolId, input.id);
  }
}
