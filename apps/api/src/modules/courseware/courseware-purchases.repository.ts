import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sql } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';
import { COURSEWARE_KIND, ownedBy } from './courseware-sql';

/** The payment that bought (PaymentKind.paidBy): the purchase this payment made, NULL when it bought nothing. */
export const COURSEWARE_PAID_BY = `(select x.out_trade_no from courseware_purchases x where x.school_id = p.school_id and x.out_trade_no = p.out_trade_no limit 1)`;

/** The purchase a refunded payment made is `refunded` now (its id), or undefined when it bought nothing. */
export async function refundPurchase(em: Queryable, schoolId: number, outTradeNo: string): Promise<number | undefined> {
  const r = await kdb(em)
    .updateTable('courseware_purchases')
    .set({ state: 'refunded', refunded_at: sql`now()` })
    .where('school_id', '=', schoolId)
    .where('out_trade_no', '=', outTradeNo)
    .where('state', '=', sql.lit('owned'))
    .returning('id')
    .executeTakeFirst();
  return r?.id;
}

/** The purchase is owned again (a refund the provider refused), unless the school bought the courseware again meanwhile. */
export async function restorePurchase(em: Queryable, purchaseId: number): Promise<void> {
  await kdb(em)
    .updateTable('courseware_purchases as x')
    .set({ state: 'owned', refunded_at: null })
    .where('x.id', '=', purchaseId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('courseware_purchases as o')
            .select(sql.lit(1).as('one'))
            .whereRef('o.school_id', '=', 'x.school_id')
            .whereRef('o.courseware_id', '=', 'x.courseware_id')
            .where('o.state', '=', sql.lit('owned')),
        ),
      ),
    )
    .execute();
}

/** Buying courseware: the courseware as a school would buy it, the balance payment, the purchase. */
@Injectable()
export class CoursewarePurchasesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The platform's courseware `id` as school `schoolId` would buy it (on `on`: the pool, or a transaction). */
  buyable(schoolId: number, id: number, on: Queryable = this.db) {
    return kdb(on)
      .selectFrom('coursewares as c')
      .select((eb) => [
        'c.id',
        'c.title',
        sql<number>`${eb.ref('c.price_fen')}::float8`.as('price_fen'),
        'c.status',
        ownedBy(eb, schoolId).$castTo<boolean>().as('owned'),
      ])
      .where('c.id', '=', id)
      .where('c.school_id', 'is', null)
      .executeTakeFirst();
  }

  /** The paid balance payment of a purchase; answers its id. */
  async insertBalancePayment(
    em: Queryable,
    p: { schoolId: number; outTradeNo: string; coursewareId: number; description: string; amountFen: number; userId: number },
  ): Promise<number> {
    const r = await kdb(em)
      .insertInto('payments')
      .values({
        school_id: p.schoolId,
        out_trade_no: p.outTradeNo,
        kind: COURSEWARE_KIND,
        ref_id: String(p.coursewareId),
        description: p.description,
        amount_fen: p.amountFen,
        method: 'balance',
        state: 'paid',
        meta: JSON.stringify({ courseware_id: p.coursewareId }),
        created_by: p.userId,
        paid_at: sql`now()`,
      })
      .returning((eb) => sql<number>`${eb.ref('id')}::int`.as('id'))
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /** The school owns the courseware, unless it already does (the owned-purchase unique index): whether it was written. */
  async insertPurchase(
    em: Queryable,
    b: { schoolId: number; coursewareId: number; priceFen: number; method: 'balance' | 'wechat'; outTradeNo: string; userId: number | null },
  ): Promise<boolean> {
    const rows = await kdb(em)
      .insertInto('courseware_purchases')
      .values({
        school_id: b.schoolId,
        courseware_id: b.coursewareId,
        price_fen: b.priceFen,
        method: b.method,
        out_trade_no: b.outTradeNo,
        bought_by: b.userId,
      })
      .onConflict((oc) => oc.columns(['school_id', 'courseware_id']).where('state', '=', sql.lit('owned')).doNothing())
      .returning('id')
      .execute();
    return rows.length > 0;
  }

  /** The school's balance now. */
  async balance(schoolId: number): Promise<number> {
    const r = await kdb(this.db)
      .selectFrom('schools')
      .select((eb) => sql<number>`${eb.ref('balance_fen')}::float8`.as('balance_fen'))
      .where('id', '=', schoolId)
      .executeTakeFirstOrThrow();
    return r.balance_fen;
  }
}
