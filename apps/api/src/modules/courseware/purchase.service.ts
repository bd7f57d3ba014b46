import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { BalancePayCoursewareInput, CoursewareBought, PendingPayment, WechatPayCoursewareInput } from '@wantuo/shared';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { isUniqueViolation } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { DealPasswordService } from '../payments/deal-password.service';
import { entryByKey, lockSchool, postEntry } from '../payments/ledger';
import { newOutTradeNo } from '../payments/out-trade-no';
import { PaymentKinds } from '../payments/payment-kinds';
import { PaymentsService } from '../payments/payments.service';
import type { Refunder } from '../payments/refunders';
import type { PaidPayment } from '../payments/settlers';
import { COURSEWARE_KIND } from './courseware-sql';

interface Buyable {
  id: number;
  title: string;
  price_fen: number;
  status: number;
  owned: boolean;
}

/** The platform's courseware $2 as school $1 would buy it. */
const BUYABLE_SQL = `select c.id, c.title, c.price_fen::float8 as price_fen, c.status,
    exists (select 1 from courseware_purchases p where p.school_id = $1 and p.courseware_id = c.id and p.state = 'owned') as owned
  from coursewares c where c.id = $2 and c.school_id is null`;

/**
 * A courseware payment refunded (the operator's refund): the purchase it made is `refunded`, so its files close at
 * once. Courseware is refunded in full only. A surplus payment (it bought nothing: the school owned the courseware
 * already; PaymentKinds, COURSEWARE_PAID_BY) is refunded without touching any purchase. Should the provider refuse the
 * refund, the purchase is owned again (unless the school bought it again meanwhile).
 */
export const coursewareRefunder: Refunder = {
  async apply(em, p) {
    const rows: Array<{ id: number }> = await em.query(
      `with u as (
         update courseware_purchases set state = 'refunded', refunded_at = now()
          where school_id = $1 and out_trade_no = $2 and state = 'owned' returning id
       ) select id from u`,
      [p.school_id, p.out_trade_no],
    );
    return rows.length ? { purchase_id: rows[0].id } : {};
  },
  async revert(em, _p, _r, applied) {
    if (typeof applied.purchase_id !== 'number') return;
    await em.query(
      `update courseware_purchases x set state = 'owned', refunded_at = null
        where x.id = $1 and not exists (select 1 from courseware_purchases o where o.school_id = x.school_id and o.courseware_id = x.courseware_id and o.state = 'owned')`,
      [applied.purchase_id],
    );
  },
};

/** The payment that bought (PaymentKind.paidBy): the purchase this payment made, NULL when it bought nothing. */
export const COURSEWARE_PAID_BY = `(select x.out_trade_no from courseware_purchases x where x.school_id = p.school_id and x.out_trade_no = p.out_trade_no limit 1)`;

/**
 * Buying courseware (payment kind `courseware`, ref_id the courseware): from the balance with the payment password in
 * one transaction under the school's row lock, or through WeChat Pay, settled in the transaction that marks the payment
 * paid. Buying twice charges once: a request key already used is answered from its entry; a courseware already owned
 * is answered as owned with nothing charged (the balance) or refused before a QR is made (WeChat); a second QR paid
 * anyway buys nothing (the owned-purchase unique index) and is refunded in full after its commit.
 */
@Injectable()
export class PurchaseService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly dealPwd: DealPasswordService,
    private readonly payments: PaymentsService,
    kinds: PaymentKinds,
  ) {
    kinds.register({
      kind: COURSEWARE_KIND,
      settle: (em, p) => this.settle(em, p),
      paidBy: COURSEWARE_PAID_BY,
      refunder: coursewareRefunder,
      surplusReason: '机构已拥有该课件，本次付款原路退回',
      inFullOnly: 'courseware.refund_partial',
    });
  }

  async balancePay(user: SessionUser, input: BalancePayCoursewareInput): Promise<CoursewareBought> {
    const schoolId = user.schoolId!;
    await this.dealPwd.verify(schoolId, input.deal_pwd);
    const key = `courseware:${input.request_id ?? randomUUID()}`;
    try {
      return await this.db.transaction(async (em) => {
        const school = await lockSchool(em, schoolId);
        if (!school) throw new AppError('school.not_found');
        // under the school's lock: a retry, or a purchase that committed while this one waited, is seen here
        const prior = await entryByKey(em, schoolId, key);
        const [c]: Buyable[] = await em.query(BUYABLE_SQL, [schoolId, input.id]);
        if (!c) throw new AppError('courseware.not_found');
        if (prior || c.owned) return { id: c.id, owned: true, charged: false, balance_fen: school.balance_fen };
        if (c.status !== 1) throw new AppError('courseware.not_on_sale');
        if (school.balance_fen < c.price_fen)
          throw new AppError('courseware.balance_insufficient', { balance: school.balance_fen / 100, amount: c.price_fen / 100 });
        const outTradeNo = newOutTradeNo('C');
        const description = `购买课件：${c.title}`.slice(0, 127);
        const [pay]: Array<{ id: number }> = await em.query(
          `insert into payments (school_id, out_trade_no, kind, ref_id, description, amount_fen, method, state, meta, created_by, paid_at)
           values ($1, $2, $3, $4, $5, $6, 'balance', 'paid', $7, $8, now()) returning id::int as id`,
          [schoolId, outTradeNo, COURSEWARE_KIND, String(c.id), description, c.price_fen, JSON.stringify({ courseware_id: c.id }), user.id],
        );
        const entry = await postEntry(em, {
          schoolId,
          type: 'payment',
          amountFen: -c.price_fen,
          refKind: COURSEWARE_KIND,
          refId: outTradeNo,
          paymentId: pay.id,
          actorId: user.id,
          note: description,
          key,
        });
        if (!entry) throw new AppError('courseware.balance_insufficient', { balance: school.balance_fen / 100, amount: c.price_fen / 100 });
        await this.insertPurchase(em, { schoolId, coursewareId: c.id, priceFen: c.price_fen, method: 'balance', outTradeNo, userId: user.id });
        return { id: c.id, owned: true, charged: true, balance_fen: entry.balance_after_fen };
      });
    } catch (err) {
      // a concurrent request with the same key, or for the same courseware, committed first: nothing was written here
      if (!isUniqueViolation(err)) throw err;
      const [now]: Array<{ balance_fen: number }> = await this.db.query(`select balance_fen::float8 as balance_fen from schools where id = $1`, [
        schoolId,
      ]);
      return { id: input.id, owned: true, charged: false, balance_fen: now.balance_fen };
    }
  }

  async wechatPay(user: SessionUser, input: WechatPayCoursewareInput): Promise<PendingPayment> {
    const [c]: Buyable[] = await this.db.query(BUYABLE_SQL, [user.schoolId, input.id]);
    if (!c) throw new AppError('courseware.not_found');
    if (c.owned) throw new AppError('courseware.already_owned');
    if (c.status !== 1) throw new AppError('courseware.not_on_sale');
    return this.payments.startWechat({
      schoolId: user.schoolId!,
      userId: user.id,
      kind: COURSEWARE_KIND,
      refId: String(c.id),
      amountFen: c.price_fen,
      description: `购买课件：${c.title}`,
      meta: { courseware_id: c.id },
    });
  }

  /** In the mark-paid transaction: the school owns the courseware, unless it already does (then the payment is a surplus). */
  async settle(em: EntityManager, p: PaidPayment): Promise<void> {
    await this.insertPurchase(em, {
      schoolId: p.school_id,
      coursewareId: Number(p.ref_id),
      priceFen: p.amount_fen,
      method: 'wechat',
      outTradeNo: p.out_trade_no,
      userId: p.created_by,
    });
  }

  private async insertPurchase(
    em: EntityManager,
    b: { schoolId: number; coursewareId: number; priceFen: number; method: 'balance' | 'wechat'; outTradeNo: string; userId: number | null },
  ): Promise<boolean> {
    const rows: unknown[] = await em.query(
      `insert into courseware_purchases (school_id, courseware_id, price_fen, method, out_trade_no, bought_by)
       values ($1, $2, $3, $4, $5, $6)
       on conflict (school_id, courseware_id) where state = 'owned' do nothing returning id`,
      [b.schoolId, b.coursewareId, b.priceFen, b.method, b.outTradeNo, b.userId],
    );
    return rows.length > 0;
  }
}
