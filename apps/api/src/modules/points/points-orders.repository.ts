import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, StudentStatus, type OrderState } from '@wantuo/shared';
import { sql, type InferResult, type QueryCreator } from 'kysely';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import { DataSource } from 'typeorm';
import { studentAccess, type AccessCaller } from '../../core/access/access';
import { compiledOnce, type Slots } from '../../core/database/compiled';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';

/** A ScoreOrder (`o` the order) with its student, class, good and the people who placed, handed over, cancelled it. */
const orders = (on: Queryable) => ordersOf(kdb(on));

/**
 * The orders as ScoreOrders from `db`'s points_orders, or from the exchange's `placed` (the rows it inserted, which a
 * read of the table in the same statement would not see; its columns are the table's own, `returningAll`).
 */
const ordersOf = (db: QueryCreator<DB>, source: 'points_orders' | 'placed' = 'points_orders') =>
  db
    .selectFrom(`${source} as o` as 'points_orders as o')
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

type ExchangeValues = {
  goodsId: number;
  schoolId: number;
  price: number;
  studentId: number;
  actorId: number;
  requestId: string;
};

/**
 * The exchange in ONE statement: the student in the caller's scope; its points account locked while the balance
 * covers the price and the request is new; one of the good's stock taken at that price; the balance debited; the
 * order, its ledger entry and its stock move written; the order answered. Any part taking nothing leaves the next
 * ones nothing to do, so nothing is written. A hot statement compiled once per role (the scope's condition differs)
 * and prepared per connection.
 */
const exchangeStatement = (role: Role) =>
  compiledOnce(`points.exchange.${role}`, (db, p: Slots<ExchangeValues>) => {
    const q = db
      .with('st', (d) =>
        d
          .selectFrom('students as s')
          .select('s.id')
          .where('s.school_id', '=', p.schoolId)
          .where('s.id', '=', p.studentId)
          .where('s.status', '=', sql.lit(StudentStatus.Active))
          .where((eb) => studentAccess(eb, eb.ref('s.id'), { role, id: p.actorId })),
      )
      .with('acc', (d) =>
        d
          .selectFrom('points_accounts as p')
          .innerJoin('st', 'st.id', 'p.student_id')
          .select('p.student_id')
          .where('p.balance', '>=', p.price)
          .where((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom('points_orders as po')
                  .select(sql.lit(1).as('one'))
                  .where('po.school_id', '=', p.schoolId)
                  .where('po.request_key', '=', p.requestId),
              ),
            ),
          )
          .forUpdate('p'),
      )
      .with('took', (d) =>
        d
          .updateTable('points_goods')
          .set((eb) => ({ stock: eb('stock', '-', sql.lit(1)), exchanged: eb('exchanged', '+', sql.lit(1)), updated_at: sql<Date>`now()` }))
          .where('id', '=', p.goodsId)
          .where('school_id', '=', p.schoolId)
          .where('deleted_at', 'is', null)
          .where('listed', '=', sql.lit(true))
          .where('stock', '>', sql.lit(0))
          .where('price', '=', p.price)
          .where((eb) => eb.exists(eb.selectFrom('acc').select(sql.lit(1).as('one'))))
          .returning(['id', 'name', 'price', 'stock']),
      )
      .with('debit', (d) =>
        d
          .updateTable('points_accounts as pa')
          .from(['took', 'acc'])
          .set((eb) => ({ balance: eb('pa.balance', '-', eb.ref('took.price')), updated_at: sql<Date>`now()` }))
          .whereRef('pa.student_id', '=', 'acc.student_id')
          .whereRef('pa.balance', '>=', 'took.price')
          .returning('pa.balance'),
      )
      .with('n', (d) => d.selectFrom(['took', 'debit']).select(sql<number>`nextval('points_orders_id_seq')::int`.as('id')))
      .with('placed', (d) =>
        d
          .insertInto('points_orders')
          .columns(['id', 'no', 'school_id', 'student_id', 'goods_id', 'goods_name', 'price', 'placed_by', 'request_key'])
          .expression((eb) =>
            eb
              .selectFrom(['n', 'took'])
              .select((x) => [
                'n.id',
                sql<string>`'DH' || lpad(${x.ref('n.id')}::text, 10, '0')`.as('no'),
                p.schoolId.as('school_id'),
                p.studentId.as('student_id'),
                'took.id as goods_id',
                'took.name as goods_name',
                'took.price',
                p.actorId.as('placed_by'),
                p.requestId.as('request_key'),
              ]),
          )
          .returningAll(),
      )
      .with('entry', (d) =>
        d
          .insertInto('points_ledger')
          .columns(['school_id', 'student_id', 'kind', 'delta', 'balance_after', 'reason', 'order_id', 'actor_id', 'request_key'])
          .expression((eb) =>
            eb
              .selectFrom(['placed', 'debit'])
              .select((x) => [
                p.schoolId.as('school_id'),
                p.studentId.as('student_id'),
                sql.lit('exchange').as('kind'),
                sql<number>`-${x.ref('placed.price')}`.as('delta'),
                'debit.balance as balance_after',
                'placed.goods_name as reason',
                'placed.id as order_id',
                p.actorId.as('actor_id'),
                sql<string>`'xchg:' || ${p.requestId}`.as('request_key'),
              ]),
          )
          .returning('id'),
      )
      .with('move', (d) =>
        d
          .insertInto('points_stock_moves')
          .columns(['school_id', 'goods_id', 'kind', 'delta', 'stock_after', 'order_id', 'actor_id'])
          .expression((eb) =>
            eb
              .selectFrom(['placed', 'took'])
              .select([
                p.schoolId.as('school_id'),
                'took.id as goods_id',
                sql.lit('exchange').as('kind'),
                sql.lit(-1).as('delta'),
                'took.stock as stock_after',
                'placed.id as order_id',
                p.actorId.as('actor_id'),
              ]),
          )
          .returning('id'),
      );
    // the CTEs' creator reads `placed` as the table its rows come from (ordersOf)
    return ordersOf(q as unknown as QueryCreator<DB>, 'placed');
  });
const EXCHANGE = new Map<Role, ReturnType<typeof exchangeStatement>>();
const exchangeOf = (role: Role) => EXCHANGE.get(role) ?? EXCHANGE.set(role, exchangeStatement(role)).get(role)!;

/** The exchange orders' statements (exchange.service.ts). */
@Injectable()
export class PointsOrdersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The exchange in ONE statement, committed on its own (EXCHANGE): the placed order, or none when any part took
   * nothing.
   */
  exchange(role: Role, v: ExchangeValues): Promise<PointsOrderRow[]> {
    return exchangeOf(role).run(this.db, v);
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
