import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, StudentStatus, type OrderState, type ScoreOrder } from '@wantuo/shared';
import { sql, type InferResult } from 'kysely';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import { DataSource } from 'typeorm';
import { studentAccess, type AccessCaller } from '../../core/access/access';
import { kdb } from '../../core/database/kysely';
import { preparedQuery } from '../../core/database/prepared-query';
import type { Queryable } from '../../core/database/sql-kit';
import { ORDER_COLUMNS, ORDER_JOINS, studentScope } from './points-sql';

/** A ScoreOrder (`o` the order) with its student, class, good and the people who placed, handed over, cancelled it. */
const orders = (on: Queryable) =>
  kdb(on)
    .selectFrom('points_orders as o')
    .innerJoin('students as s', 's.id', 'o.student_id')
    .leftJoin('care_class_students as ccs', 'ccs.student_id', 's.id')
    .leftJoin('care_classes as cc', 'cc.id', 'ccs.class_id')
    .innerJoin('points_goods as g', 'g.id', 'o.goods_id')
    .leftJoin('users as pu', 'pu.id', 'o.placed_by')
    .leftJoin('users as hu', 'hu.id', 'o.handed_over_by')
    .leftJoin('users as cu', 'cu.id', 'o.cancelled_by')
    .select([
      'o.id',
      'o.no',
      'o.student_id',
      's.name as student_name',
      'cc.name as class_name',
      'o.goods_id',
      'o.goods_name',
      'g.picture_url',
      'o.price',
      'o.state',
      'pu.name as placed_by_name',
      'hu.name as handed_over_by_name',
      'o.handed_over_at',
      'cu.name as cancelled_by_name',
      'o.cancelled_at',
      'o.cancel_reason',
      'o.created_at',
    ]);

/** An order as `orders` selects it: the answer ScoreOrder (its times still Dates). */
export type PointsOrderRow = InferResult<ReturnType<typeof orders>>[number];

/** The exchange orders' statements (exchange.service.ts). */
@Injectable()
export class PointsOrdersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The exchange in ONE statement, committed on its own: a named prepared statement (one per role: the scope's text
   * differs), parsed and planned once per connection (a hot statement, kept as its prepared SQL text). The placed
   * order, or none when any part took nothing.
   */
  exchange(role: Role, v: { goodsId: number; schoolId: number; price: number; studentId: number; actorId: number; requestId: string }) {
    return preparedQuery<ScoreOrder>(
      this.db,
      `points.exchange.${role}`,
      `with st as (select s.id from students s where s.school_id = $2 and s.id = $4 and s.status = 1 and ${studentScope(role, '$5')}),
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
      [v.goodsId, v.schoolId, v.price, v.studentId, v.actorId, v.requestId],
    );
  }

  /** Why an exchange took nothing, read after it (no lock): the student in scope, the request's order, the good, the balance. */
  exchangeState(caller: AccessCaller, v: { studentId: number; requestId: string; goodsId: number }) {
    return kdb(this.db)
      .selectNoFrom((eb) => [
        eb
          .selectFrom('students as s')
          .select('s.id')
          .where('s.school_id', '=', caller.schoolId)
          .where('s.id', '=', v.studentId)
          .where('s.status', '=', StudentStatus.Active)
          .where((x) => studentAccess(x, x.ref('s.id'), caller))
          .as('student'),
        eb
          .selectFrom('points_orders')
          .select((x) => jsonBuildObject({ id: x.ref('id'), student_id: x.ref('student_id'), goods_id: x.ref('goods_id') }).as('o'))
          .where('school_id', '=', caller.schoolId)
          .where('request_key', '=', v.requestId)
          .as('prior'),
        eb
          .selectFrom('points_goods')
          .select((x) =>
            jsonBuildObject({
              price: x.ref('price'),
              stock: x.ref('stock'),
              listed: x.ref('listed'),
              deleted: x('deleted_at', 'is not', null).$castTo<boolean>(),
            }).as('g'),
          )
          .where('school_id', '=', caller.schoolId)
          .where('id', '=', v.goodsId)
          .as('goods'),
        eb.selectFrom('points_accounts').select('balance').where('student_id', '=', v.studentId).as('balance'),
      ])
      .executeTakeFirstOrThrow();
  }

  one(schoolId: number, id: number): Promise<PointsOrderRow | undefined> {
    return orders(this.db).where('o.school_id', '=', schoolId).where('o.id', '=', id).executeTakeFirst();
  }

  /**
   * One statement: the counts by state of the orders the caller may see (of one student), and the page of them (of
   * one state), newest first.
   */
  async page(caller: AccessCaller, f: { studentId: number | null; state: OrderState | null }, limit: number, offset: number) {
    const k = kdb(this.db);
    const counts = k.selectNoFrom((eb) =>
      eb.fn
        .coalesce(
          eb
            .selectFrom(
              eb
                .selectFrom('points_orders as o')
                .select(['o.state', sql<number>`count(*)::int`.as('n')])
                .where('o.school_id', '=', caller.schoolId)
                .$if(f.studentId !== null, (b) => b.where('o.student_id', '=', f.studentId!))
                .$if(caller.role !== Role.Admin, (b) =>
                  b.where((x) =>
                    x.exists(
                      x
                        .selectFrom('students as s')
                        .select(sql.lit(1).as('one'))
                        .whereRef('s.id', '=', 'o.student_id')
                        .where((y) => studentAccess(y, y.ref('s.id'), caller)),
                    ),
                  ),
                )
                .groupBy('o.state')
                .as('c'),
            )
            .select((x) => x.fn.jsonAgg(jsonBuildObject({ state: x.ref('c.state'), n: x.ref('c.n') })).as('j')),
          sql`'[]'`,
        )
        .$castTo<Array<{ state: OrderState; n: number }>>()
        .as('counts'),
    );
    const list = orders(this.db)
      .where('o.school_id', '=', caller.schoolId)
      .$if(f.studentId !== null, (b) => b.where('o.student_id', '=', f.studentId!))
      .$if(caller.role !== Role.Admin, (b) =>
        b.where((x) =>
          x.exists(
            x
              .selectFrom('students as s2')
              .select(sql.lit(1).as('one'))
              .whereRef('s2.id', '=', 'o.student_id')
              .where((y) => studentAccess(y, y.ref('s2.id'), caller)),
          ),
        ),
      )
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
    return { counts: rows[0].counts, list: rows.filter((r) => r.id !== null) as unknown as PointsOrderRow[] };
  }

  /** pending -> handed_over; whether it was. */
  async handOver(schoolId: number, id: number, actorId: number): Promise<boolean> {
    const r = await kdb(this.db)
      .updateTable('points_orders')
      .set({ state: 'handed_over', handed_over_at: sql`now()`, handed_over_by: actorId })
      .where('school_id', '=', schoolId)
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .returning('id')
      .executeTakeFirst();
    return r !== undefined;
  }

  /** The order, locked. */
  lock(em: Queryable, schoolId: number, id: number) {
    return kdb(em)
      .selectFrom('points_orders')
      .select(['id', 'state', 'student_id'])
      .where('school_id', '=', schoolId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
  }

  /**
   * One statement: the pending order cancelled, the points given back (a refund entry) and the unit of stock (a
   * cancel move).
   */
  async cancel(em: Queryable, schoolId: number, id: number, actorId: number, reason: string): Promise<void> {
    await kdb(em)
      .with('o', (db) =>
        db
          .updateTable('points_orders')
          .set({ state: 'cancelled', cancelled_at: sql`now()`, cancelled_by: actorId, cancel_reason: reason })
          .where('id', '=', id)
          .where('school_id', '=', schoolId)
          .where('state', '=', 'pending')
          .returning(['id', 'student_id', 'goods_id', 'price', 'goods_name']),
      )
      .with('a', (db) =>
        db
          .updateTable('points_accounts as p')
          .from('o')
          .set((eb) => ({ balance: eb('p.balance', '+', eb.ref('o.price')), updated_at: sql`now()` }))
          .whereRef('p.student_id', '=', 'o.student_id')
          .returning('p.balance'),
      )
      .with('l', (db) =>
        db
          .insertInto('points_ledger')
          .columns(['school_id', 'student_id', 'kind', 'delta', 'balance_after', 'reason', 'order_id', 'actor_id'])
          .expression(
            db
              .selectFrom(['o', 'a'])
              .select([
                sql`${schoolId}`.as('school_id'),
                'o.student_id',
                sql.lit('refund').as('kind'),
                'o.price',
                'a.balance',
                sql`${reason}`.as('reason'),
                'o.id',
                sql`${actorId}`.as('actor_id'),
              ]),
          )
          .returning('id'),
      )
      .with('g', (db) =>
        db
          .updateTable('points_goods')
          .from('o')
          .set((eb) => ({ stock: eb('points_goods.stock', '+', 1), updated_at: sql`now()` }))
          .whereRef('points_goods.id', '=', 'o.goods_id')
          .returning('points_goods.stock'),
      )
      .with('m', (db) =>
        db
          .insertInto('points_stock_moves')
          .columns(['school_id', 'goods_id', 'kind', 'delta', 'stock_after', 'order_id', 'reason', 'actor_id'])
          .expression(
            db
              .selectFrom(['o', 'g'])
              .select([
                sql`${schoolId}`.as('school_id'),
                'o.goods_id',
                sql.lit('cancel').as('kind'),
                sql.lit(1).as('delta'),
                'g.stock',
                'o.id',
                sql`${reason}`.as('reason'),
                sql`${actorId}`.as('actor_id'),
              ]),
          )
          .returning('id'),
      )
      .selectNoFrom((eb) => [
        eb
          .selectFrom('l')
          .select(sql<number>`count(*)::int`.as('n'))
          .as('refunds'),
        eb
          .selectFrom('m')
          .select(sql<number>`count(*)::int`.as('n'))
          .as('moves'),
      ])
      .execute();
  }
}
