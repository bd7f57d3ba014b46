import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DEAL_PWD_LOCK, type PaymentState } from '@wantuo/shared';
import { sql, type Expression, type Insertable } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';
import type { PaidPayment } from './settlers';

/** Which of a pending payment's provider answers is kept: the JSAPI prepay id, the H5 page, the Native QR. */
export type OrderColumn = 'prepay_id' | 'h5_url' | 'code_url';

/**
 * The SQL of provider payments (issue 38): the pending row, the provider's order kept on it, the one "mark paid"
 * (locked), the payer's polling and the reconciliation of one payment; and the school's payment password.
 */
@Injectable()
export class PaymentsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The payer's role (undefined: no such user). */
  async roleOf(userId: number) {
    const r = await kdb(this.db).selectFrom('users').select('role').where('id', '=', userId).executeTakeFirst();
    return r?.role;
  }

  /**
   * The payer's live openids of the sub-merchant's app id (`sub`) and of the service provider's (`sp`); undefined
   * when the payer has no live WeChat binding at all.
   */
  bindings(userId: number, spAppid: string, subAppid: string | null) {
    const openid = (appid: string | null) =>
      kdb(this.db)
        .selectFrom('wechat_bindings')
        .select('openid')
        .where('user_id', '=', userId)
        .where('appid', '=', sql<string>`${appid}`)
        .where('unbound_at', 'is', null);
    return kdb(this.db)
      .selectNoFrom([openid(subAppid).$asScalar().as('sub'), openid(spAppid).$asScalar().as('sp')])
      .where((eb) =>
        eb.exists(eb.selectFrom('wechat_bindings').select(sql.lit(1).as('one')).where('user_id', '=', userId).where('unbound_at', 'is', null)),
      )
      .executeTakeFirst();
  }

  /** A pending provider payment, closing after `closeAfterMinutes`: its id and when it closes. */
  insertPending(v: Omit<Insertable<DB['payments']>, 'expires_at'>, closeAfterMinutes: number) {
    return kdb(this.db)
      .insertInto('payments')
      .values({ ...v, expires_at: sql<Date>`now() + make_interval(mins => ${closeAfterMinutes})` })
      .returning(['id', 'expires_at'])
      .executeTakeFirstOrThrow();
  }

  /** Keeps the provider's answer to the order on the payment. */
  async setOrder(id: number, column: OrderColumn, value: string): Promise<void> {
    await kdb(this.db)
      .updateTable('payments')
      .set({ [column]: value })
      .where('id', '=', id)
      .execute();
  }

  /** A pending payment whose order the provider refused (or did not answer) is closed. */
  async closeRefused(id: number): Promise<void> {
    await kdb(this.db)
      .updateTable('payments')
      .set({ state: 'closed', closed_at: sql`now()` })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .execute();
  }

  /** The payment of the out_trade_no, locked, as its settler sees it (with its state, close time and merchant). */
  async lockPaid(em: Queryable, outTradeNo: string) {
    const p = await kdb(em)
      .selectFrom('payments')
      .select((eb) => [
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
        'expires_at',
        'sub_mchid',
      ])
      .where('out_trade_no', '=', outTradeNo)
      .forUpdate()
      .executeTakeFirst();
    return p satisfies (PaidPayment & { state: string }) | undefined;
  }

  /** Marks the payment paid (a closed order the payer still managed to pay is paid: the money arrived). */
  async markPaid(em: Queryable, id: number, successTime: string | null, transactionId: string | null): Promise<void> {
    await kdb(em)
      .updateTable('payments')
      .set((eb) => ({
        state: 'paid',
        paid_at: sql<Date>`coalesce(${successTime}::timestamptz, now())`,
        provider_txn_id: transactionId,
        version: eb('version', '+', 1),
      }))
      .where('id', '=', id)
      .execute();
  }

  /** One of the school's payments as its payer polls it (`startedBy`: only one that user started). */
  polled(schoolId: number, outTradeNo: string, startedBy: number | null) {
    return kdb(this.db)
      .selectFrom('payments')
      .select((eb) => [
        'out_trade_no',
        'kind',
        'amount_fen',
        eb.ref('state').$castTo<PaymentState['state']>().as('state'),
        'paid_at',
        'expires_at',
        'method',
        'created_by',
      ])
      .where('out_trade_no', '=', outTradeNo)
      .where('school_id', '=', schoolId)
      .$if(startedBy !== null, (q) => q.where('created_by', '=', startedBy!))
      .executeTakeFirst();
  }

  /** A provider payment to reconcile: its state, whether its time is up, its merchant. */
  toReconcile(outTradeNo: string) {
    return kdb(this.db)
      .selectFrom('payments')
      .select((eb) => ['state', eb('expires_at', '<=', sql<Date>`now()`).as('expired'), 'sub_mchid', 'sub_appid'])
      .where('out_trade_no', '=', outTradeNo)
      .where('method', '=', 'wechat')
      .executeTakeFirst();
  }

  /** Closes a payment still pending. */
  async closePending(outTradeNo: string): Promise<void> {
    await kdb(this.db)
      .updateTable('payments')
      .set((eb) => ({ state: 'closed', closed_at: sql`now()`, version: eb('version', '+', 1) }))
      .where('out_trade_no', '=', outTradeNo)
      .where('state', '=', 'pending')
      .execute();
  }

  // ---------------------------------------------------------------- surpluses (PaymentKinds)

  /**
   * Whether the kind's payment is a surplus (its `paidBy`, an SQL text fragment over `p` each paying module declares,
   * is distinct from it); undefined when there is no such payment (`paidOnly`: no such paid payment).
   */
  async isSurplus(on: Queryable, paidBy: string, kind: string, schoolId: number, outTradeNo: string, paidOnly = false) {
    const r = await kdb(on)
      .selectFrom('payments as p')
      .select(isSurplus(paidBy).as('surplus'))
      .where('p.school_id', '=', schoolId)
      .where('p.out_trade_no', '=', outTradeNo)
      .where('p.kind', '=', kind)
      .$if(paidOnly, (q) => q.where('p.state', '=', 'paid'))
      .executeTakeFirst();
    return r?.surplus;
  }

  /**
   * The provider payments of the kinds (each with its `paidBy`) paid at least `graceS` ago and at most `maxAgeDays`
   * ago, with no refund at all, that are a surplus: the oldest first, at most `batch`. Each kind's paidBy only ever
   * sees that kind's payments (it may cast ref_id, which other kinds fill otherwise): the kind's rows are fenced off
   * first (offset 0 keeps the planner from merging the filters).
   */
  surplusesDue(kinds: ReadonlyArray<{ kind: string; paidBy: string }>, graceS: number, maxAgeDays: number, batch: number) {
    const k = kdb(this.db);
    const branches = kinds.map((x) =>
      k
        .selectFrom(
          k
            .selectFrom('payments')
            .selectAll()
            .where('kind', '=', x.kind)
            .where('method', '=', 'wechat')
            .where('state', '=', 'paid')
            .where('refunded_fen', '=', 0)
            .where('paid_at', '<=', sql<Date>`now() - make_interval(secs => ${graceS})`)
            .where('paid_at', '>', sql<Date>`now() - make_interval(days => ${maxAgeDays})`)
            .offset(0)
            .as('p'),
        )
        .select(['p.school_id', 'p.out_trade_no', 'p.kind', 'p.paid_at'])
        .where((eb) => eb.not(eb.exists(eb.selectFrom('payment_refunds as r').select(sql.lit(1).as('one')).whereRef('r.payment_id', '=', 'p.id'))))
        .where(isSurplus(x.paidBy)),
    );
    const all = branches.slice(1).reduce((u, b) => u.unionAll(b), branches[0]);
    return k.selectFrom(all.as('s')).select(['school_id', 'out_trade_no', 'kind']).orderBy('paid_at').limit(batch).execute();
  }

  // ---------------------------------------------------------------- the school's payment password (DealPasswordService)

  async setDealPassword(schoolId: number, hash: string): Promise<void> {
    await kdb(this.db)
      .updateTable('schools')
      .set({ deal_pwd_hash: hash, deal_pwd_failures: 0, deal_pwd_locked_until: null, updated_at: sql`now()` })
      .where('id', '=', schoolId)
      .execute();
  }

  /** The school's password hash and, while locked, until when. */
  dealPassword(schoolId: number) {
    return kdb(this.db)
      .selectFrom('schools')
      .select((eb) => ['deal_pwd_hash', lockedUntil(eb.ref('deal_pwd_locked_until')).as('locked_until')])
      .where('id', '=', schoolId)
      .executeTakeFirst();
  }

  /** A right password starts the count of wrong tries over. */
  async dealPasswordRight(schoolId: number): Promise<void> {
    await kdb(this.db).updateTable('schools').set({ deal_pwd_failures: 0 }).where('id', '=', schoolId).where('deal_pwd_failures', '<>', 0).execute();
  }

  /**
   * A wrong try, counted atomically: concurrent wrong tries each count; the one reaching the limit sets the lock and
   * starts over. Answers the count after it and, when locked, until when.
   */
  dealPasswordWrong(schoolId: number) {
    const reached = sql<boolean>`deal_pwd_failures + 1 >= ${DEAL_PWD_LOCK.maxFailures}`;
    return kdb(this.db)
      .updateTable('schools')
      .set({
        deal_pwd_failures: sql<number>`case when ${reached} then 0 else deal_pwd_failures + 1 end`,
        deal_pwd_locked_until: sql<Date>`case when ${reached} then now() + make_interval(mins => ${DEAL_PWD_LOCK.minutes}) else deal_pwd_locked_until end`,
      })
      .where('id', '=', schoolId)
      .returning((eb) => ['deal_pwd_failures as failures', lockedUntil(eb.ref('deal_pwd_locked_until')).as('locked_until')])
      .executeTakeFirstOrThrow();
  }
}

/** The lock's end while it is still ahead, else null. */
const lockedUntil = (until: Expression<Date | null>) => sql<Date | null>`case when ${until} > now() then ${until} end`;

/**
 * Whether the payment `p` is a surplus: its kind's `paidBy` (a constant SQL fragment over `p`, declared by the paying
 * module's code, never built from input) is distinct from it.
 */
const isSurplus = (paidBy: string) => sql<boolean>`(${sql.raw(paidBy)}) is distinct from p.out_trade_no`;
