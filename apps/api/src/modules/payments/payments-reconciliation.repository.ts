import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { BillCheckRow, BillDifferenceRow } from '@wantuo/shared';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';

type C = DB & { c: DB['payment_bill_checks']; s: DB['schools'] };
type D = DB & { d: DB['payment_bill_differences']; s: DB['schools']; u: DB['users'] };

/** The columns of a BillCheckRow (`c` the check, `s` its school). */
const checkColumns = (eb: ExpressionBuilder<C, 'c' | 's'>) =>
  [
    'c.id',
    'c.bill_date',
    'c.sub_mchid',
    'c.school_id',
    's.name as school_name',
    eb.ref('c.state').$castTo<BillCheckRow['state']>().as('state'),
    'c.bill_lines',
    'c.payments_fen',
    'c.refunds_fen',
    'c.differences',
    'c.error',
    'c.checked_at',
  ] as const;

/** The columns of a BillDifferenceRow (`d` the difference, `s` its school, `u` who resolved it). */
const differenceColumns = (eb: ExpressionBuilder<D, 'd' | 's' | 'u'>) =>
  [
    'd.id',
    'd.check_id',
    'd.bill_date',
    'd.sub_mchid',
    'd.school_id',
    's.name as school_name',
    eb.ref('d.kind').$castTo<BillDifferenceRow['kind']>().as('kind'),
    eb.ref('d.line').$castTo<BillDifferenceRow['line']>().as('line'),
    'd.out_trade_no',
    'd.out_refund_no',
    'd.ours_fen',
    'd.theirs_fen',
    eb.ref('d.state').$castTo<BillDifferenceRow['state']>().as('state'),
    'd.resolution',
    'd.resolved_at',
    'u.name as resolved_by_name',
    'd.created_at',
  ] as const;

/** A school's sub-merchant record that was current at some moment of [from, to) (recorded before its end, not ended before its start). */
const currentWithin = (eb: ExpressionBuilder<DB, 'school_sub_merchants'>, from: Date, to: Date): Expression<SqlBool> =>
  eb.and([eb('recorded_at', '<', to), eb.or([eb('ended_at', 'is', null), eb('ended_at', '>', from)])]);

/** A difference found on a bill, before it is stored. */
export interface DifferenceIn {
  kind: string;
  line: string;
  out_trade_no: string;
  out_refund_no: string | null;
  ours_fen: number | null;
  theirs_fen: number | null;
}

/** The SQL of the trade bills' reconciliation (issue 38): the checks, their differences, what was recorded. */
@Injectable()
export class PaymentsReconciliationRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A page of the checks (of a school, in a state), newest bill day first, with the total. */
  checks(f: { school: number | null; state: string | null }, q: PageQuery) {
    const total = kdb(this.db)
      .selectFrom('payment_bill_checks as c')
      .select(sql<number>`count(*)::int`.as('total'))
      .$if(f.school !== null, (b) => b.where('c.school_id', '=', f.school!))
      .$if(f.state !== null, (b) => b.where('c.state', '=', f.state!));
    const list = kdb(this.db)
      .selectFrom('payment_bill_checks as c')
      .leftJoin('schools as s', 's.id', 'c.school_id')
      .select((eb) => checkColumns(eb))
      .$if(f.school !== null, (b) => b.where('c.school_id', '=', f.school!))
      .$if(f.state !== null, (b) => b.where('c.state', '=', f.state!))
      .orderBy('c.bill_date', 'desc')
      .orderBy('c.id', 'desc');
    return pageRows(this.db, total, list, q);
  }

  /** A page of the differences (of a school, a check, in a state), open ones first, then the newest, with the total. */
  differences(f: { school: number | null; checkId: number | null; state: string | null }, q: PageQuery) {
    const total = kdb(this.db)
      .selectFrom('payment_bill_differences as d')
      .select(sql<number>`count(*)::int`.as('total'))
      .$if(f.school !== null, (b) => b.where('d.school_id', '=', f.school!))
      .$if(f.checkId !== null, (b) => b.where('d.check_id', '=', f.checkId!))
      .$if(f.state !== null, (b) => b.where('d.state', '=', f.state!));
    const list = differences(this.db)
      .$if(f.school !== null, (b) => b.where('d.school_id', '=', f.school!))
      .$if(f.checkId !== null, (b) => b.where('d.check_id', '=', f.checkId!))
      .$if(f.state !== null, (b) => b.where('d.state', '=', f.state!))
      .orderBy(sql`d.state = 'open'`, 'desc')
      .orderBy('d.created_at', 'desc')
      .orderBy('d.id', 'desc');
    return pageRows(this.db, total, list, q);
  }

  /** A difference's state, locked (two operators cannot both resolve it). */
  lockDifference(em: Queryable, id: number) {
    return kdb(em).selectFrom('payment_bill_differences').select('state').where('id', '=', id).forUpdate().executeTakeFirst();
  }

  async resolveDifference(em: Queryable, id: number, resolution: string, by: number): Promise<void> {
    await kdb(em)
      .updateTable('payment_bill_differences')
      .set({ state: 'resolved', resolution, resolved_by: by, resolved_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  difference(em: Queryable, id: number) {
    return differences(em).where('d.id', '=', id).executeTakeFirstOrThrow();
  }

  /** The school's sub-merchants current at some moment of [from, to), the last one recorded last. */
  async schoolMerchants(schoolId: number, from: Date, to: Date): Promise<string[]> {
    const r = await kdb(this.db)
      .selectFrom('school_sub_merchants')
      .select('sub_mchid')
      .where('school_id', '=', schoolId)
      .where((eb) => currentWithin(eb, from, to))
      .groupBy('sub_mchid')
      .orderBy(sql`max(recorded_at)`)
      .orderBy('sub_mchid')
      .execute();
    return r.map((x) => x.sub_mchid);
  }

  /**
   * Every merchant that could have a bill of the day [from, to) not reconciled yet (matched or differences): the
   * platform's own, each school's current at any moment of the day, and any a payment was paid with or a refund
   * finished from that day (a merchant since withdrawn).
   */
  async dueMerchants(platform: string, from: Date, to: Date, billDate: string): Promise<string[]> {
    const r = await kdb(this.db)
      .with('m', (db) =>
        db
          .selectNoFrom(sql<string>`${platform}::text`.as('sub_mchid'))
          .union(
            db
              .selectFrom('school_sub_merchants')
              .select('sub_mchid')
              .where((eb) => currentWithin(eb, from, to)),
          )
          .union(
            db
              .selectFrom('payments')
              .select((eb) => eb.ref('sub_mchid').$castTo<string>().as('sub_mchid'))
              .where('method', '=', 'wechat')
              .where('sub_mchid', 'is not', null)
              .where('paid_at', '>=', from)
              .where('paid_at', '<', to),
          )
          .union(
            db
              .selectFrom('payment_refunds as r')
              .innerJoin('payments as p', 'p.id', 'r.payment_id')
              .select((eb) => eb.ref('p.sub_mchid').$castTo<string>().as('sub_mchid'))
              .where('r.state', '=', 'succeeded')
              .where('r.succeeded_at', '>=', from)
              .where('r.succeeded_at', '<', to)
              .where('p.sub_mchid', 'is not', null),
          ),
      )
      .selectFrom('m')
      .select('m.sub_mchid')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('payment_bill_checks as c')
              .select(sql.lit(1).as('one'))
              .whereRef('c.sub_mchid', '=', 'm.sub_mchid')
              .where('c.bill_date', '=', billDate)
              .where('c.state', 'in', ['matched', 'differences']),
          ),
        ),
      )
      .orderBy('m.sub_mchid')
      .execute();
    return r.map((x) => x.sub_mchid);
  }

  /** Our paid provider payments of the merchant paid within [from, to). */
  paymentsInDay(subMchid: string, from: Date, to: Date) {
    return paidPayments(this.db)
      .select(['p.out_trade_no', 'p.amount_fen'])
      .where('p.sub_mchid', '=', subMchid)
      .where('p.paid_at', '>=', from)
      .where('p.paid_at', '<', to)
      .execute();
  }

  /** Our paid provider payments with these numbers, whatever their day and merchant. */
  paymentsListed(outTradeNos: string[]) {
    return paidPayments(this.db)
      .select(['p.out_trade_no', 'p.sub_mchid', 'p.amount_fen'])
      .where('p.out_trade_no', '=', sql<string>`any(${outTradeNos}::text[])`)
      .execute();
  }

  /** Our succeeded refunds of the merchant's payments finished within [from, to). */
  refundsInDay(subMchid: string, from: Date, to: Date) {
    return kdb(this.db)
      .selectFrom('payment_refunds as r')
      .innerJoin('payments as p', 'p.id', 'r.payment_id')
      .select(['r.out_refund_no', 'p.out_trade_no', 'r.amount_fen'])
      .where('p.sub_mchid', '=', subMchid)
      .where('r.state', '=', 'succeeded')
      .where('r.succeeded_at', '>=', from)
      .where('r.succeeded_at', '<', to)
      .execute();
  }

  /** Our succeeded refunds with these numbers, whatever their day and merchant. */
  refundsListed(outRefundNos: string[]) {
    return kdb(this.db)
      .selectFrom('payment_refunds as r')
      .innerJoin('payments as p', 'p.id', 'r.payment_id')
      .select(['r.out_refund_no', 'p.out_trade_no', 'p.sub_mchid', 'r.amount_fen'])
      .where('r.out_refund_no', '=', sql<string>`any(${outRefundNos}::text[])`)
      .where('r.state', '=', 'succeeded')
      .execute();
  }

  /** Upserts the merchant's check of the day (a re-check replaces the counts): its id. */
  async saveCheck(
    em: Queryable,
    v: {
      sub_mchid: string;
      school_id: number | null;
      bill_date: string;
      state: string;
      bill_lines: number;
      payments_fen: number;
      refunds_fen: number;
      differences: number;
      error: string | null;
    },
  ): Promise<number> {
    const r = await kdb(em)
      .insertInto('payment_bill_checks')
      .values({ ...v, checked_at: sql`now()` })
      .onConflict((oc) =>
        oc.columns(['sub_mchid', 'bill_date']).doUpdateSet((eb) => ({
          school_id: eb.ref('excluded.school_id'),
          state: eb.ref('excluded.state'),
          bill_lines: eb.ref('excluded.bill_lines'),
          payments_fen: eb.ref('excluded.payments_fen'),
          refunds_fen: eb.ref('excluded.refunds_fen'),
          differences: eb.ref('excluded.differences'),
          error: eb.ref('excluded.error'),
          checked_at: eb.ref('excluded.checked_at'),
        })),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /**
   * Appends the differences not already listed: the unique key (sub_mchid, bill_date, line, out_trade_no,
   * out_refund_no) compares a payment line's null out_refund_no too (nulls not distinct).
   */
  async addDifferences(
    em: Queryable,
    check: { id: number; subMchid: string; schoolId: number | null; billDate: string },
    found: DifferenceIn[],
  ): Promise<void> {
    await kdb(em)
      .insertInto('payment_bill_differences')
      .columns(['check_id', 'sub_mchid', 'school_id', 'bill_date', 'kind', 'line', 'out_trade_no', 'out_refund_no', 'ours_fen', 'theirs_fen'])
      .expression(
        sql`select ${check.id}::bigint, ${check.subMchid}::varchar, ${check.schoolId}::int, ${check.billDate}::date, f.kind, f.line, f.out_trade_no, f.out_refund_no, f.ours_fen, f.theirs_fen
             from jsonb_to_recordset(${JSON.stringify(found)}::jsonb) as f(kind text, line text, out_trade_no text, out_refund_no text, ours_fen bigint, theirs_fen bigint)`,
      )
      .onConflict((oc) => oc.columns(['sub_mchid', 'bill_date', 'line', 'out_trade_no', 'out_refund_no']).doNothing())
      .execute();
  }

  /**
   * The school a merchant was during [from, to): the school whose record of it was current then (the latest, should
   * two have held it in turn), else the school of a parent's payment made with it.
   */
  async schoolOfMerchant(subMchid: string, from: Date, to: Date): Promise<number | null> {
    const r = await kdb(this.db)
      .selectNoFrom((eb) =>
        eb.fn
          .coalesce(
            eb
              .selectFrom('school_sub_merchants')
              .select('school_id')
              .where('sub_mchid', '=', subMchid)
              .where((w) => currentWithin(w, from, to))
              .orderBy('recorded_at', 'desc')
              .orderBy('id', 'desc')
              .limit(1)
              .$asScalar(),
            eb
              .selectFrom('payments')
              .select('school_id')
              .where('sub_mchid', '=', subMchid)
              .where('payee', '=', 'school')
              .where('paid_at', '>=', from)
              .where('paid_at', '<', to)
              .limit(1)
              .$asScalar(),
          )
          .as('school_id'),
      )
      .executeTakeFirst();
    return r?.school_id ?? null;
  }

  check(on: Queryable, id: number) {
    return kdb(on)
      .selectFrom('payment_bill_checks as c')
      .leftJoin('schools as s', 's.id', 'c.school_id')
      .select((eb) => checkColumns(eb))
      .where('c.id', '=', id)
      .executeTakeFirstOrThrow();
  }
}

/** Differences with their school and resolver. */
const differences = (on: Queryable) =>
  kdb(on)
    .selectFrom('payment_bill_differences as d')
    .leftJoin('schools as s', 's.id', 'd.school_id')
    .leftJoin('users as u', 'u.id', 'd.resolved_by')
    .select((eb) => differenceColumns(eb));

/** Our paid (or since refunded) provider payments `p`. */
const paidPayments = (on: Queryable) =>
  kdb(on)
    .selectFrom('payments as p')
    .where('p.method', '=', 'wechat')
    .where('p.state', 'in', ['paid', 'refunded'])
    .where('p.paid_at', 'is not', null);
