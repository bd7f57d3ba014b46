import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { BalancePayCoursewareInput, CoursewareBought, PendingPayment, WechatPayCoursewareInput } from '@wantuo/shared';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { isUniqueViolation } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import { DealPasswordService } from '../payments/deal-password.service';
import { entryByKey, lockSchool, postEntry } from '../payments/ledger';
import { newOutTradeNo } from '../payments/out-trade-no';
import { PaymentKinds } from '../payments/payment-kinds';
import { PaymentsService } from '../payments/payments.service';
import type { Refunder } from '../payments/refunders';
import type { PaidPayment } from '../payments/settlers';
import { COURSEWARE_PAID_BY, CoursewarePurchasesRepository, refundPurchase, restorePurchase } from './courseware-purchases.repository';
import { COURSEWARE_KIND } from './courseware-sql';

/**
 * A courseware payment refunded (the operator's refund): the purchase it made is `refunded`, so its files close at
 * once. Courseware is refunded in full only. A surplus payment (it bought nothing: the school owned the courseware
 * already; PaymentKinds, COURSEWARE_PAID_BY) is refunded without touching any purchase. Should the provider refuse the
 * refund, the purchase is owned again (unless the school bought it again meanwhile).
 */
export const coursewareRefunder: Refunder = {
  async apply(em, p) {
    const id = await refundPurchase(em, p.school_id, p.out_trade_no);
    return id !== undefined ? { purchase_id: id } : {};
  },
  async revert(em, _p, _r, applied) {
    if (typeof applied.purchase_id !== 'number') return;
    await restorePurchase(em, applied.purchase_id);
  },
};

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
    private readonly repo: CoursewarePurchasesRepository,
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

  async balancePay(user: SchoolCaller, input: BalancePayCoursewareInput): Promise<CoursewareBought> {
    const schoolId = user.schoolId;
    await this.dealPwd.verify(schoolId, input.deal_pwd);
    const key = `courseware:${input.request_id ?? randomUUID()}`;
    try {
      return await this.db.transaction(async (em) => {
        const school = await lockSchool(em, schoolId);
        if (!school) throw new AppError('school.not_found');
        // under the school's lock: a retry, or a purchase that committed while this one waited, is seen here
        const prior = await entryByKey(em, schoolId, key);
        const c = await this.repo.buyable(schoolId, input.id, em);
        if (!c) throw new AppError('courseware.not_found');
        if (prior || c.owned) return { id: c.id, owned: true, charged: false, balance_fen: school.balance_fen };
        if (c.status !== 1) throw new AppError('courseware.not_on_sale');
        if (school.balance_fen < c.price_fen)
          throw new AppError('courseware.balance_insufficient', { balance: school.balance_fen / 100, amount: c.price_fen / 100 });
        const outTradeNo = newOutTradeNo('C');
        const description = `购买课件：${c.title}`.slice(0, 127);
        const paymentId = await this.repo.insertBalancePayment(em, {
          schoolId,
          outTradeNo,
          coursewareId: c.id,
          description,
          amountFen: c.price_fen,
          userId: user.id,
        });
        const entry = await postEntry(em, {
          schoolId,
          type: 'payment',
          amountFen: -c.price_fen,
          refKind: COURSEWARE_KIND,
          refId: outTradeNo,
          paymentId,
          actorId: user.id,
          note: description,
          key,
        });
        if (!entry) throw new AppError('courseware.balance_insufficient', { balance: school.balance_fen / 100, amount: c.price_fen / 100 });
        await this.repo.insertPurchase(em, { schoolId, coursewareId: c.id, priceFen: c.price_fen, method: 'balance', outTradeNo, userId: user.id });
        return { id: c.id, owned: true, charged: true, balance_fen: entry.balance_after_fen };
      });
    } catch (err) {
      // a concurrent request with the same key, or for the same courseware, committed first: nothing was written here
      if (!isUniqueViolation(err)) throw err;
      return { id: input.id, owned: true, charged: false, balance_fen: await this.repo.balance(schoolId) };
    }
  }

  async wechatPay(user: SchoolCaller, input: WechatPayCoursewareInput): Promise<PendingPayment> {
    const c = await this.repo.buyable(user.schoolId, input.id);
    if (!c) throw new AppError('courseware.not_found');
    if (c.owned) throw new AppError('courseware.already_owned');
    if (c.status !== 1) throw new AppError('courseware.not_on_sale');
    return this.payments.startWechat({
      schoolId: user.schoolId,
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
    await this.repo.insertPurchase(em, {
      schoolId: p.school_id,
      coursewareId: Number(p.ref_id),
      priceFen: p.amount_fen,
      method: 'wechat',
      outTradeNo: p.out_trade_no,
      userId: p.created_by,
    });
  }
}
