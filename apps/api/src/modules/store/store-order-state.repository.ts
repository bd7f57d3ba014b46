import type { StoreOrder, StoreOrderState } from '@wantuo/shared';
import { sql, type ExpressionBuilder } from 'kysely';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';

/** The statements every change of a mall order's state shares: its lock, its cancellation, its history. */

type O = DB & { o: DB['store_orders'] };

/** A bigint money column of the order as a number. */
export const float8 = (eb: ExpressionBuilder<O, 'o'>, col: 'o.goods_fen' | 'o.freight_fen' | 'o.total_fen' | 'o.refunded_fen') =>
  sql<number>`${eb.ref(col)}::float8`;

/** The order row a state change works on, locked (`schoolId` null: the operator, any school). */
export function lockOrder(em: Queryable, id: number, schoolId: number | null) {
  const q = kdb(em)
    .selectFrom('store_orders as o')
    .select((eb) => [
      'o.id',
      'o.no',
      'o.school_id',
      'o.state',
      float8(eb, 'o.total_fen').as('total_fen'),
      float8(eb, 'o.refunded_fen').as('refunded_fen'),
      'o.expires_at',
      eb.ref('o.pay_method').$castTo<StoreOrder['pay_method']>().as('pay_method'),
      'o.out_trade_no',
    ])
    .where('o.id', '=', id);
  return (schoolId === null ? q : q.where('o.school_id', '=', schoolId)).forUpdate().executeTakeFirst();
}

/** A locked order as lockOrder answers it. */
export type LockedOrder = NonNullable<Awaited<ReturnType<typeof lockOrder>>>;

/**
 * Cancels a locked order that is in one of `from` and gives its stock back, in one statement after the goods' rows are
 * locked in id order (as a submit takes them, so the two never deadlock): the state, the stock and sold counts, a
 * `release` move per good and the order's event. Answers whether it cancelled (a repeat cancels nothing).
 */
export async function cancelAndRelease(
  em: Queryable,
  o: { id: number; school_id: number },
  from: readonly StoreOrderState[],
  why: { reason: string; actorId: number | null; event: 'cancelled' | 'expired' },
): Promise<boolean> {
  const k = kdb(em);
  await k
    .selectFrom('store_goods')
    .select('id')
    .where('id', 'in', (eb) => eb.selectFrom('store_order_lines').select('goods_id').where('order_id', '=', o.id))
    .orderBy('id')
    .forUpdate()
    .execute();
  const r = await k
    .with('o', (db) =>
      db
        .updateTable('store_orders')
        .set((eb) => ({
          state: 'cancelled',
          cancelled_at: sql`now()`,
          cancelled_by: why.actorId,
          cancel_reason: why.reason,
          version: eb('version', '+', 1),
        }))
        .where('id', '=', o.id)
        .where('state', '=', sql<StoreOrderState>`any(${[...from]}::text[])`)
        .returning(['id', 'school_id', 'state']),
    )
    .with('w', (db) => db.selectFrom('store_order_lines as l').innerJoin('o', 'o.id', 'l.order_id').select(['l.goods_id', 'l.quantity']))
    .with('g', (db) =>
      db
        .updateTable('store_goods as s')
        .from('w')
        .set((eb) => ({
          stock: eb('s.stock', '+', eb.ref('w.quantity')),
          sold: sql<number>`greatest(0, ${eb.ref('s.sold')} - ${eb.ref('w.quantity')})`,
          updated_at: sql`now()`,
        }))
        .whereRef('s.id', '=', 'w.goods_id')
        .returning(['s.id', 's.stock', 'w.quantity']),
    )
    .with('m', (db) =>
      db
        .insertInto('store_stock_moves')
        .columns(['goods_id', 'kind', 'delta', 'stock_after', 'order_id', 'actor_id'])
        .expression(
          db
            .selectFrom('g')
            .select([
              'g.id',
              sql.lit('release').as('kind'),
              'g.quantity',
              'g.stock',
              sql`${o.id}`.as('order_id'),
              sql`${why.actorId}`.as('actor_id'),
            ]),
        )
        .returning(sql.lit(1).as('one')),
    )
    .with('e', (db) =>
      db
        .insertInto('store_order_events')
        .columns(['order_id', 'school_id', 'type', 'actor_id', 'data'])
        .expression(
          db
            .selectFrom('o')
            .select([
              'o.id',
              'o.school_id',
              sql`${why.event}`.as('type'),
              sql`${why.actorId}`.as('actor_id'),
              sql`jsonb_build_object('reason', ${why.reason}::text)`.as('data'),
            ]),
        )
        .returning(sql.lit(1).as('one')),
    )
    .selectNoFrom((eb) => [
      eb
        .selectFrom('o')
        .select(sql<number>`count(*)::int`.as('n'))
        .$asScalar()
        .$castTo<number>()
        .as('cancelled'),
      eb
        .selectFrom('m')
        .select(sql<number>`count(*)::int`.as('n'))
        .as('moves'),
      eb
        .selectFrom('e')
        .select(sql<number>`count(*)::int`.as('n'))
        .as('events'),
    ])
    .executeTakeFirstOrThrow();
  return r.cancelled > 0;
}

export async function appendOrderEvent(
  em: Queryable,
  e: { orderId: number; schoolId: number; type: string; actorId: number | null; data?: Record<string, unknown> },
): Promise<void> {
  await kdb(em)
    .insertInto('store_order_events')
    .values({ order_id: e.orderId, school_id: e.schoolId, type: e.type, actor_id: e.actorId, data: JSON.stringify(e.data ?? {}) })
    .execute();
}

/** Moves an order's refunded amount (a refund applied, or undone). */
export async function addRefunded(em: Queryable, id: number, amountFen: number): Promise<void> {
  await kdb(em)
    .updateTable('store_orders')
    .set((eb) => ({ refunded_fen: eb('refunded_fen', '+', amountFen) }))
    .where('id', '=', id)
    .execute();
}
