import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { storeOrderTransition, type BalancePayGoodsOrderInput, type GoodsOrderIdInput, type PendingPayment } from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { DealPasswordService } from '../payments/deal-password.service';
import { postEntry } from '../payments/ledger';
import { newOutTradeNo } from '../payments/out-trade-no';
import { PaymentKinds } from '../payments/payment-kinds';
import { PaymentsService } from '../payments/payments.service';
import type { Refunder } from '../payments/refunders';
import type { PaidPayment } from '../payments/settlers';
import { addRefunded, appendOrderEvent, cancelAndRelease, lockOrder } from './store-order-state.repository';
import { StoreOrdersRepository } from './store-orders.repository';
import { GOODS_ORDER_KIND, StoreClock } from './store-sql';

/**
 * A mall order's payment refunded: the payment that paid the order once the order is cancelled (its refunded_fen
 * follows). A payment that did not pay it (a surplus: the order was paid otherwise, or cancelled or released before
 * the money arrived; PaymentKinds, GOODS_ORDER_PAID_BY) is refunded in full without reaching it. Any other refund is
 * refused. Should the provider refuse, the order shows what came back.
 */
export const goodsOrderRefunder: Refunder = {
  async apply(em, p, r) {
    const o = await lockOrder(em, Number(p.ref_id), p.school_id);
    if (!o) throw new AppError('payments.refund_unsupported');
    if (o.state !== 'cancelled') throw new AppError('payments.refund_unsupported');
    await addRefunded(em, o.id, r.amountFen);
    await appendOrderEvent(em, {
      orderId: o.id,
      schoolId: o.school_id,
      type: 'refunded',
      actorId: r.actorId,
      data: { amount_fen: r.amountFen, out_refund_no: r.outRefundNo },
    });
    return { order_id: o.id };
  },
  async revert(em, _p, r, applied) {
    if (!applied.order_id) return;
    await addRefunded(em, Number(applied.order_id), -r.amountFen);
  },
};

/** The payment that paid an order (PaymentKind.paidBy), by balance or WeChat: NULL while unpaid, cancelled or released unpaid. */
export const GOODS_ORDER_PAID_BY = `(select o.out_trade_no from store_orders o where o.id = p.ref_id::int and o.school_id = p.school_id)`;

/**
 * Paying mall orders (payment kind `goods_order`): from the school's balance with the payment password, or through
 * WeChat Pay (the settler marks the order paid in the transaction that marks the payment paid). Paying twice charges
 * once: the order's row lock orders the payments, the ledger key is the order's, and a provider payment that arrives
 * for an order paid otherwise (or released) goes back in full.
 */
@Injectable()
export class StorePayments {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: StoreOrdersRepository,
    private readonly payments: PaymentsService,
    private readonly dealPwd: DealPasswordService,
    private readonly clock: StoreClock,
    kinds: PaymentKinds,
  ) {
    kinds.register({
      kind: GOODS_ORDER_KIND,
      settle: (em, p) => this.settle(em, p),
      paidBy: GOODS_ORDER_PAID_BY,
      refunder: goodsOrderRefunder,
      surplusReason: '订单已支付或已取消，本次付款原路退回',
    });
  }

  /** The order to pay: the school's own, unpaid and within its time (an order past it is released now). */
  private async payable(em: EntityManager, schoolId: number, id: number) {
    const o = await lockOrder(em, id, schoolId);
    if (!o) throw new AppError('store.order_not_found');
    const t = storeOrderTransition(o.state, 'pay');
    if (!t.ok) throw new AppError(t.error as 'store.order_cancelled');
    if (t.value.repeat) return { o, repeat: true as const, expired: false };
    if (new Date(o.expires_at).getTime() <= this.clock.now().getTime()) {
      await cancelAndRelease(em, o, ['unpaid'], { reason: '超时未支付，订单自动取消', actorId: null, event: 'expired' });
      return { o, repeat: false as const, expired: true };
    }
    return { o, repeat: false as const, expired: false };
  }

  /**
   * balancePayGoodsOrder: the payment password, then one transaction under the order's row lock: a paid order is
   * answered as it is (charged once); the debit (never below zero; keyed by the order), the paid payment and the order
   * paid.
   */
  async balancePay(user: SchoolCaller, input: BalancePayGoodsOrderInput): Promise<{ order_id: number; balance_fen: number }> {
    const schoolId = user.schoolId;
    await this.dealPwd.verify(schoolId, input.deal_pwd);
    const r = await this.db.transaction(async (em) => {
      const { o, repeat, expired } = await this.payable(em, schoolId, input.id);
      if (expired || repeat) return { expired, balance: null };
      const outTradeNo = newOutTradeNo('G');
      const description = `商城订单 ${o.no}`;
      const paymentId = await this.repo.insertPayment(em, {
        school_id: schoolId,
        out_trade_no: outTradeNo,
        kind: GOODS_ORDER_KIND,
        ref_id: String(o.id),
        description,
        amount_fen: o.total_fen,
        method: 'balance',
        state: 'paid',
        meta: JSON.stringify({ order_no: o.no, request_id: input.request_id ?? null }),
        created_by: user.id,
      });
      const entry = await postEntry(em, {
        schoolId,
        type: 'payment',
        amountFen: -o.total_fen,
        refKind: GOODS_ORDER_KIND,
        refId: outTradeNo,
        paymentId,
        actorId: user.id,
        note: description,
        key: `goods:${o.id}`,
      });
      if (!entry) {
        const balanceFen = await this.repo.balance(em, schoolId);
        throw new AppError('store.balance_insufficient', { balance: (balanceFen / 100).toFixed(2), amount: (o.total_fen / 100).toFixed(2) });
      }
      await this.repo.paidByBalance(em, o.id, outTradeNo);
      await appendOrderEvent(em, {
        orderId: o.id,
        schoolId,
        type: 'paid',
        actorId: user.id,
        data: { method: 'balance', out_trade_no: outTradeNo, amount_fen: o.total_fen },
      });
      return { expired: false, balance: entry.balance_after_fen };
    });
    if (r.expired) throw new AppError('store.order_expired');
    let balance = r.balance;
    if (balance === null) {
      balance = await this.repo.balance(this.db, schoolId);
    }
    return { order_id: input.id, balance_fen: balance };
  }

  /** wechatPayGoodsOrder: a pending provider payment of the order's total and its QR; the verified payment settles it. */
  async wechatPay(user: SchoolCaller, input: GoodsOrderIdInput): Promise<PendingPayment> {
    const schoolId = user.schoolId;
    const r = await this.db.transaction(async (em) => this.payable(em, schoolId, input.id));
    if (r.expired) throw new AppError('store.order_expired');
    if (r.repeat) throw new AppError('store.order_paid');
    return this.payments.startWechat({
      schoolId,
      userId: user.id,
      kind: GOODS_ORDER_KIND,
      refId: String(r.o.id),
      amountFen: r.o.total_fen,
      description: `商城订单 ${r.o.no}`,
      meta: { order_no: r.o.no },
    });
  }

  /** In the mark-paid transaction: the unpaid order (of this total) becomes paid by WeChat, once; otherwise a surplus. */
  async settle(em: EntityManager, p: PaidPayment): Promise<void> {
    const id = await this.repo.paidByWechat(em, { id: Number(p.ref_id), schoolId: p.school_id, outTradeNo: p.out_trade_no, amountFen: p.amount_fen });
    if (id !== undefined) {
      await appendOrderEvent(em, {
        orderId: id,
        schoolId: p.school_id,
        type: 'paid',
        actorId: p.created_by,
        data: { method: 'wechat', out_trade_no: p.out_trade_no, amount_fen: p.amount_fen },
      });
    }
  }
}
