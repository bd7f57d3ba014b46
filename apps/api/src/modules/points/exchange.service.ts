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
import { DataSource } from 'typeorm';
import { preparedQuery } from '../../core/database/prepared-query';
import { isUniqueViolation, offsetOf, pageOf } from '../../core/database/sql-kit';
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
   * Exchanges one unit of a good for a student's points in ONE statement, committed on its own (no transaction held
   * across round trips, so the good's row lock lasts that statement and its commit only): the student in the caller's
   * scope and no order yet for the request_id; the student's points row locked for the statement when it covers the
   * price (as every change of points locks it, before the good: never a deadlock); a unit of the good taken (`stock >
   * 0`, listed, at the price the caller saw) only then, so the charge that follows cannot fail; the points charged, the
   * order, its ledger entry and the stock move. When any part takes nothing the statement writes nothing, and a read
   * after it says why (refusal). A concurrent retry of the request_id fails on the order's unique key (nothing written)
   * and is answered with the first order.
   */
  async exchange(user: SessionUser, input: ExchangeScoreGoodsInput): Promise<ScoreOrder> {
    const schoolId = user.schoolId!;
    for (let attempt = 1; ; attempt++) {
      let placed: ScoreOrder[] = [];
      try {
        // a named prepared statement (one per role: the scope's text differs), parsed and planned once per connection
        placed = await preparedQuery<ScoreOrder>(
          this.db,
          `points.exchange.${user.role}`,
          `with st as (select s.id from students s where s.school_id = $2 and s.id = $4 and s.status = 1 and ${studentScope(user.role, '$5')}),
           acc as (
             select p.student_id from points_accounts p join st on st.id = p.student_id
              where p.balance >= $3 and not exists (select 1 from points_orders where school_id = $2 and request_key = $6)
              for update of p),
           took as (
             update points_goods set stock = stock - 1, exchanged = exchanged + 1, updated_at = now()
              where id = $1 and school_id = $2 and deleted_at is null and listed and stock > 0 and price = $3 and exists (select 1 from acc)
             returning id, name, price, stock),
           debit as (
             update points_accounts p set balance = p.balance - took.price, updated_at = now() from took, acc
              where p.student_id = acc.student_id and p.balance >= took.price returning p.balance),
           n as (select nextval('points_orders_id_seq')::int as id from took, debit),
           placed as (
             insert into points_orders (id, no, school_id, student_id, goods_id, goods_name, price, placed_by, request_key)
             select n.id, 'DH' || lpad(n.id::text, 10, '0'), $2, $4, took.id, took.name, took.price, $5, $6 from n, took
             returning *),
           entry as (
             insert into points_ledger (school_id, student_id, kind, delta, balance_after, reason, order_id, actor_id, request_key)
             select $2, $4, 'exchange', -placed.price, debit.balance, placed.goods_name, placed.id, $5, 'xchg:' || $6 from placed, debit returning id),
           move as (
             insert into points_stock_moves (school_id, goods_id, kind, delta, stock_after, order_id, actor_id)
             select $2, took.id, 'exchange', -1, took.stock, placed.id, $5 from placed, took returning id)
           select ${ORDER_COLUMNS} from placed o ${ORDER_JOINS}`,
          [input.goods_id, schoolId, input.price, input.student_id, user.id, input.request_id],
        );
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
  private async refusal(user: SessionUser, input: ExchangeScoreGoodsInput, attempt: number): Promise<number | null> {
    const [now]: Array<{
      student: number | null;
      prior: { id: number; student_id: number; goods_id: number } | null;
      goods: GoodsNow | null;
      balance: number | null;
    }> = await this.db.query(
      `select (select s.id from students s where s.school_id = $1 and s.id = $2 and s.status = 1 and ${studentScope(user.role, '$3')}) as student,
              (select json_build_object('id', id, 'student_id', student_id, 'goods_id', goods_id) from points_orders where school_id = $1 and request_key = $4) as prior,
              (select json_build_object('price', price, 'stock', stock, 'listed', listed, 'deleted', deleted_at is not null)
                 from points_goods where school_id = $1 and id = $5) as goods,
              (select balance from points_accounts where student_id = $2) as balance`,
      [user.schoolId, input.student_id, user.id, input.request_id, input.goods_id],
    );
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
