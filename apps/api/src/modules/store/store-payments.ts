import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { storeOrderTransition, type BalancePayGoodsOrderInput, type GoodsOrderIdInput, type PendingPayment } from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { DealPasswordService } from '../payments/deal-password.service';
import { postEntry } from '../payments/ledger';
import { newOutTradeNo } from '../payments/out-trade-no';
import { PaymentKinds } from '../payments/payment-kinds';
import { PaymentsService } from '../payments/payments.service';
import type { Refunder } from '../payments/refunders';
import type { PaidPayment } from '../payments/settlers';
import { appendOrderEvent, cancelAndRelease, GOODS_ORDER_KIND, lockOrder, StoreClock } from './store-sql';

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
    await em.query(`update store_orders set refunded_fen = refunded_fen + $2 where id = $1`, [o.id, r.amountFen]);
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
    await em.query(`update store_orders set refunded_fen = refunded_fen - $2 where id = $1`, [applied.order_id, r.amountFen]);
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
  async balancePay(user: SessionUser, input: BalancePayGoodsOrderInput): Promise<{ order_id: number; balance_fen: number }> {
    const schoolId = user.schoolId!;
    await this.dealPwd.verify(schoolId, input.deal_pwd);
    const r = await this.db.transaction(async (em) => {
      const { o, repeat, expired } = await this.payable(em, schoolId, input.id);
      if (expired || repeat) return { expired, balance: null };
      const outTradeNo = newOutTradeNo('G');
      const description = `商城订单 ${o.no}`;
      const [pay]: Array<{ id: number }> = await em.query(
        `insert into payments (school_id, out_trade_no, kind, ref_id, description, amount_fen, method, state, meta, created_by, paid_at)
         values ($1, $2, $3, $4, $5, $6, 'balance', 'paid', $7, $8, now()) returning id::int as id`,
        [
          schoolId,
          outTradeNo,
          GOODS_ORDER_KIND,
          String(o.id),
          description,
          o.total_fen,
          JSON.stringify({ order_no: o.no, request_id: input.request_id ?? null }),
          user.id,
        ],
      );
      const entry = await postEntry(em, {
        schoolId,
        type: 'payment',
        amountFen: -o.total_fen,
        refKind: GOODS_ORDER_KIND,
        refId: outTradeNo,
        paymentId: pay.id,
        actorId: user.id,
        note: description,
        key: `goods:${o.id}`,
      });
      if (!entry) {
        const [s]: Array<{ balance_fen: number }> = await em.query(`select balance_fen::float8 as balance_fen from schools where id = $1`, [
          schoolId,
        ]);
        throw new AppError('store.balance_insufficient', { balance: (s.balance_fen / 100).toFixed(2), amount: (o.total_fen / 100).toFixed(2) });
      }
      await em.query(
        `update store_orders set state = 'paid', pay_method = 'balance', out_trade_no = $2, paid_at = now(), version = version + 1 where id = $1`,
        [o.id, outTradeNo],
      );
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
      const [s]: Array<{ balance_fen: number }> = await this.db.query(`select balance_fen::float8 as balance_fen from schools where id = $1`, [
        schoolId,
      ]);
      balance = s.balance_fen;
    }
    return { order_id: input.id, balance_fen: balance };
  }

  /** wechatPayGoodsOrder: a pending provider payment of the order's total and its QR; the verified payment settles it. */
  async wechatPay(user: SessionUser, input: GoodsOrderIdInput): Promise<PendingPayment> {
    const schoolId = user.schoolId!;
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
    const rows: Array<{ id: number }> = await em.query(
      `with u as (update store_orders set state = 'paid', pay_method = 'wechat', out_trade_no = $3, paid_at = now(), version = version + 1
                   where id = $1 and school_id = $2 and state = 'unpaid' and total_fen = $4 returning id) select id from u`,
      [Number(p.ref_id), p.school_id, p.out_trade_no, p.amount_fen],
    );
    if (rows.length) {
      await appendOrderEvent(em, {
        orderId: rows[0].id,
        schoolId: p.school_id,
        type: 'paid',
        actorId: p.created_by,
        data: { method: 'wechat', out_trade_no: p.out_trade_no, amount_fen: p.amount_fen },
      });
    }
  }
}
