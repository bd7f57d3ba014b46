import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sql, type ExpressionBuilder, type Insertable } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';
import type { PaidPayment } from './settlers';

/** The columns of a payment as a refund sees it: with the sub-merchant that received it, which the refund comes from. */
const paymentColumns = (eb: ExpressionBuilder<DB, 'payments'>) =>
  [
    'id',
    'school_id',
    'out_trade_no',
    'kind',
    'ref_id',
    'amount_fen',
    eb.ref('method').$castTo<PaidPayment['method']>().as('method'),
    eb.ref('meta').$castTo<PaidPayment['meta']>().as('meta'),
    'created_by',
    'state',
    'refunded_fen',
    'sub_mchid',
  ] as const;

const payments = (on: Queryable) =>
  kdb(on)
    .selectFrom('payments')
    .select((eb) => paymentColumns(eb));

/** A payment as a refund sees it. */
export type LockedPayment = NonNullable<Awaited<ReturnType<ReturnType<typeof payments>['executeTakeFirst']>>>;

/** The columns of a refund as PaymentRefund names them (`refundedBeforeFen` for the caller to set). */
const refundColumns = (eb: ExpressionBuilder<DB, 'payment_refunds'>) =>
  [
    'out_refund_no as outRefundNo',
    'amount_fen as amountFen',
    'reason',
    'actor_id as actorId',
    eb.ref('meta').$castTo<Record<string, unknown>>().as('meta'),
  ] as const;

/** The SQL of refunds (issue 38): the payment's lock, the refund rows and the states the provider's word moves them to. */
@Injectable()
export class PaymentsRefundsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One of the school's payments, locked. */
  lockPayment(em: Queryable, schoolId: number, outTradeNo: string): Promise<LockedPayment | undefined> {
    return payments(em).where('out_trade_no', '=', outTradeNo).where('school_id', '=', schoolId).forUpdate().executeTakeFirst();
  }

  /** A payment by its id. */
  payment(id: number): Promise<LockedPayment | undefined> {
    return payments(this.db).where('id', '=', id).executeTakeFirst();
  }

  /** The payment of a refund, locked. */
  lockPaymentOfRefund(em: Queryable, outRefundNo: string): Promise<LockedPayment | undefined> {
    return payments(em)
      .where('id', '=', (eb) => eb.selectFrom('payment_refunds').select('payment_id').where('out_refund_no', '=', outRefundNo))
      .forUpdate()
      .executeTakeFirst();
  }

  /** The payment's refund made by the request key, if any. */
  prior(em: Queryable, paymentId: number, requestKey: string) {
    return kdb(em)
      .selectFrom('payment_refunds')
      .select(['out_refund_no', 'state'])
      .where('payment_id', '=', paymentId)
      .where('request_key', '=', requestKey)
      .executeTakeFirst();
  }

  async insert(em: Queryable, v: Insertable<DB['payment_refunds']>): Promise<void> {
    await kdb(em).insertInto('payment_refunds').values(v).execute();
  }

  /** The payment gives back `amountFen` more (refunded once it is all given back). */
  async addRefunded(em: Queryable, paymentId: number, amountFen: number): Promise<void> {
    await kdb(em)
      .updateTable('payments')
      .set((eb) => ({
        refunded_fen: eb('refunded_fen', '+', amountFen),
        state: sql<string>`case when ${eb('refunded_fen', '+', amountFen)} = amount_fen then 'refunded' else state end`,
        version: eb('version', '+', 1),
      }))
      .where('id', '=', paymentId)
      .execute();
  }

  /** A failed refund's amount is the payment's again (paid again when it was all refunded). */
  async subtractRefunded(em: Queryable, paymentId: number, amountFen: number): Promise<void> {
    await kdb(em)
      .updateTable('payments')
      .set((eb) => ({
        refunded_fen: eb('refunded_fen', '-', amountFen),
        state: sql<string>`case when state = 'refunded' then 'paid' else state end`,
        version: eb('version', '+', 1),
      }))
      .where('id', '=', paymentId)
      .execute();
  }

  /** What the refunder answered, kept with the refund. */
  async setMeta(em: Queryable, outRefundNo: string, meta: Record<string, unknown>): Promise<void> {
    await kdb(em)
      .updateTable('payment_refunds')
      .set({ meta: JSON.stringify(meta) })
      .where('out_refund_no', '=', outRefundNo)
      .execute();
  }

  /** The provider refund a notify names, with its payment's number and merchant. */
  notice(outRefundNo: string) {
    return kdb(this.db)
      .selectFrom('payment_refunds as r')
      .innerJoin('payments as p', 'p.id', 'r.payment_id')
      .select(['p.out_trade_no', 'r.amount_fen', 'r.state', 'p.sub_mchid'])
      .where('r.out_refund_no', '=', outRefundNo)
      .where('p.method', '=', 'wechat')
      .executeTakeFirst();
  }

  /** The unfinished provider refunds made at least `afterS` ago whose next poll is due, the most overdue first. */
  async due(afterS: number, batch: number): Promise<string[]> {
    const nextPoll = sql<Date>`(r.meta->>'next_poll_at')::timestamptz`;
    const r = await kdb(this.db)
      .selectFrom('payment_refunds as r')
      .innerJoin('payments as p', 'p.id', 'r.payment_id')
      .select('r.out_refund_no')
      .where('r.state', 'in', ['pending', 'processing'])
      .where('p.method', '=', 'wechat')
      .where('r.created_at', '<=', sql<Date>`now() - make_interval(secs => ${afterS})`)
      .where(sql`coalesce(${nextPoll}, '-infinity')`, '<=', sql<Date>`now()`)
      .orderBy(sql`coalesce(${nextPoll}, r.created_at)`)
      .limit(batch)
      .execute();
    return r.map((x) => x.out_refund_no);
  }

  /** A refund still unfinished is polled again later, the delay doubling (the exponent bounded: the cap comes first). */
  async pollLater(outRefundNo: string, firstDelayS: number, maxDelayS: number): Promise<void> {
    await kdb(this.db)
      .updateTable('payment_refunds')
      .set({
        meta: sql`meta || jsonb_build_object('polls', coalesce((meta->>'polls')::int, 0) + 1,
                  'next_poll_at', now() + make_interval(secs => least(${firstDelayS} * power(2, least(coalesce((meta->>'polls')::int, 0), 20)), ${maxDelayS})))`,
      })
      .where('out_refund_no', '=', outRefundNo)
      .where('state', 'in', ['pending', 'processing'])
      .execute();
  }

  /** The refund succeeded (once): its school and kind, or undefined when it was already answered. */
  succeeded(outRefundNo: string, refundId: string | null, successTime: string | null) {
    return kdb(this.db)
      .with('u', (db) =>
        db
          .updateTable('payment_refunds')
          .set({
            state: 'succeeded',
            provider_refund_id: sql<string>`coalesce(${refundId}, provider_refund_id)`,
            succeeded_at: sql<Date>`coalesce(${successTime}::timestamptz, now())`,
          })
          .where('out_refund_no', '=', outRefundNo)
          .where('state', 'in', ['pending', 'processing'])
          .returning(['school_id', 'payment_id']),
      )
      .selectFrom('u')
      .innerJoin('payments as p', 'p.id', 'u.payment_id')
      .select(['u.school_id', 'p.kind'])
      .executeTakeFirst();
  }

  /** A pending refund the provider is processing: whether it changed. */
  async processing(outRefundNo: string, refundId: string | null): Promise<boolean> {
    const r = await kdb(this.db)
      .updateTable('payment_refunds')
      .set({ state: 'processing', provider_refund_id: sql<string>`coalesce(${refundId}, provider_refund_id)` })
      .where('out_refund_no', '=', outRefundNo)
      .where('state', '=', 'pending')
      .returning('id')
      .executeTakeFirst();
    return r !== undefined;
  }

  /** A refund the merchant platform must handle: processing, marked with the provider's status (once per status). */
  async abnormal(outRefundNo: string, refundId: string | null, status: string): Promise<boolean> {
    const r = await kdb(this.db)
      .updateTable('payment_refunds')
      .set({
        state: 'processing',
        provider_refund_id: sql<string>`coalesce(${refundId}, provider_refund_id)`,
        meta: sql`meta || jsonb_build_object('abnormal', ${status}::text)`,
      })
      .where('out_refund_no', '=', outRefundNo)
      .where('state', 'in', ['pending', 'processing'])
      .where(sql`meta->>'abnormal'`, 'is distinct from', sql<string>`${status}::text`)
      .returning('id')
      .executeTakeFirst();
    return r !== undefined;
  }

  /** An unfinished refund fails, with why: the refund (undefined when it was already answered). */
  failed(em: Queryable, outRefundNo: string, why: string) {
    return kdb(em)
      .updateTable('payment_refunds')
      .set({ state: 'failed', meta: sql`meta || jsonb_build_object('failure', ${why}::text)` })
      .where('out_refund_no', '=', outRefundNo)
      .where('state', 'in', ['pending', 'processing'])
      .returning((eb) => refundColumns(eb))
      .executeTakeFirst();
  }

  /** A refund as PaymentRefund names it, with its state, meta and payment (`refundedBeforeFen` 0: not known here). */
  refund(outRefundNo: string) {
    return kdb(this.db)
      .selectFrom('payment_refunds')
      .select((eb) => [...refundColumns(eb), 'state', 'payment_id as paymentId', sql.lit(0).$castTo<number>().as('refundedBeforeFen')])
      .where('out_refund_no', '=', outRefundNo)
      .executeTakeFirst();
  }

  /** The answer of a refund: the refund, its payment's state and amounts, the school's balance. */
  answer(outRefundNo: string) {
    return kdb(this.db)
      .selectFrom('payment_refunds as r')
      .innerJoin('payments as p', 'p.id', 'r.payment_id')
      .innerJoin('schools as s', 's.id', 'r.school_id')
      .select((eb) => [
        'p.out_trade_no',
        'r.out_refund_no',
        'r.amount_fen',
        'r.state',
        sql<string | null>`${eb.ref('r.meta')}->>'failure'`.as('failure'),
        'p.state as payment_state',
        'p.refunded_fen',
        eb(eb.ref('p.amount_fen'), '-', eb.ref('p.refunded_fen')).$castTo<number>().as('remaining_fen'),
        's.balance_fen',
      ])
      .where('r.out_refund_no', '=', outRefundNo)
      .executeTakeFirst();
  }
}
