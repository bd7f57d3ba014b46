import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { mealChangeRefusal, type PendingPayment, type WechatPayDinnerInput } from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { AppError } from '../../core/http/app-error';
import { PaymentKinds } from '../payments/payment-kinds';
import { PaymentsService } from '../payments/payments.service';
import type { Refunder } from '../payments/refunders';
import { RefundsService } from '../payments/refunds.service';
import type { PaidPayment } from '../payments/settlers';
import { MealCounts } from './counts.service';
import { appendBookingEvent, lockBookingForRefund, MealBookingsRepository } from './meals-bookings.repository';
import { settingsOf } from './meals-goods.repository';
import { clockOf, cutoffOf } from './meals-sql';

/** The payment kind of a dinner booking paid by the guardian through the provider; ref_id is the booking's id. */
export const MEAL_KIND = 'meal';

/**
 * A meal payment is refunded only in full: for a booking cancelled by a person or by an approved leave. A payment that
 * did not book its booking (a surplus: the booking was paid by another QR, cancelled or changed before the money
 * arrived; PaymentKinds, MEAL_PAID_BY) is refunded in full without reaching it.
 */
export const mealRefunder: Refunder = {
  async apply(em, p) {
    const b = await lockBookingForRefund(em, p.school_id, Number(p.ref_id));
    if (!b) throw new AppError('payments.refund_unsupported');
    if (b.status !== 'cancelled' || (b.cancel_cause !== 'user' && b.cancel_cause !== 'leave')) throw new AppError('payments.refund_unsupported');
    return { booking_id: b.id };
  },
  async revert() {
    // the cancellation stands; the payment shows the failed refund
  },
};

/** The payment that paid a booking (PaymentKind.paidBy): NULL while unpaid, cancelled unpaid or booked otherwise. */
export const MEAL_PAID_BY = `(select b.out_trade_no from meal_bookings b where b.id = p.ref_id::int and b.school_id = p.school_id)`;

/** Paying dinner bookings through the provider: the guardian's WeChat payment, its settler, its refunds. */
@Injectable()
export class MealPayments {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: MealBookingsRepository,
    private readonly payments: PaymentsService,
    private readonly refunds: RefundsService,
    private readonly counts: MealCounts,
    kinds: PaymentKinds,
  ) {
    kinds.register({
      kind: MEAL_KIND,
      settle: (em, p) => this.settle(em, p),
      paidBy: MEAL_PAID_BY,
      refunder: mealRefunder,
      surplusReason: '订餐已支付、已取消或已变更，本次付款原路退回',
      afterPaid: (e) => this.afterPaid(e.school_id, e.out_trade_no),
    });
  }

  /** A guardian pays an own child's unpaid booking (before the cutoff): a pending payment by the channel asked for. */
  async wechatPay(user: SchoolCaller, input: WechatPayDinnerInput, clientIp: string): Promise<PendingPayment> {
    const b = await this.repo.payable(user.schoolId, input.id, user.id);
    if (!b) throw new AppError('meals.booking_not_found');
    if (b.status !== 'unpaid') throw new AppError('meals.not_unpaid');
    const settings = await settingsOf(this.db, user.schoolId);
    const refusal = mealChangeRefusal(user.role, b.day, clockOf(settings), cutoffOf(settings));
    if (refusal) throw new AppError(refusal);
    return this.payments.startWechat({
      schoolId: user.schoolId,
      userId: user.id,
      kind: MEAL_KIND,
      refId: String(b.id),
      amountFen: b.price_fen,
      description: `晚餐 ${b.day} ${b.goods_name}`.slice(0, 40),
      meta: { day: b.day },
      channel: input.channel,
      clientIp,
    });
  }

  /** In the mark-paid transaction: the unpaid booking (at the paid price) becomes booked, once. */
  async settle(em: EntityManager, p: PaidPayment): Promise<void> {
    const id = await this.repo.settle(em, p.school_id, Number(p.ref_id), p.amount_fen, p.out_trade_no);
    if (id !== undefined)
      await appendBookingEvent(em, p.school_id, id, 'paid', p.created_by, { amount_fen: p.amount_fen, out_trade_no: p.out_trade_no });
  }

  /** After the commit of a payment that booked its booking: the day's count changed. */
  private async afterPaid(schoolId: number, outTradeNo: string): Promise<void> {
    const b = await this.repo.paidBooking(schoolId, outTradeNo);
    if (b) this.counts.changed(schoolId, b.day, [b.student_id]);
  }

  /** The full refund of a WeChat-paid booking an approved leave cancelled (idempotent per booking and leave). */
  async refundForLeave(r: { schoolId: number; outTradeNo: string; amountFen: number; bookingId: number; leaveId: number }): Promise<void> {
    await this.refunds.refund({
      schoolId: r.schoolId,
      outTradeNo: r.outTradeNo,
      amountFen: r.amountFen,
      reason: '请假取消订餐退款',
      requestKey: `leave:${r.bookingId}:${r.leaveId}`,
      actorId: null,
    });
  }

  /** The full refund of a booking cancelled by a person (idempotent by the booking's version). */
  async refund(r: { schoolId: number; outTradeNo: string; amountFen: number; bookingId: number; version: number; actorId: number }): Promise<void> {
    await this.refunds.refund({
      schoolId: r.schoolId,
      outTradeNo: r.outTradeNo,
      amountFen: r.amountFen,
      reason: '取消订餐退款',
      requestKey: `cancel:${r.bookingId}:${r.version}`,
      actorId: r.actorId,
    });
  }
}
