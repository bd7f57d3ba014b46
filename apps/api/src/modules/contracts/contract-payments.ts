import { Injectable } from '@nestjs/common';
import type { PendingPayment, WechatPayContractInput } from '@wantuo/shared';
import type { EntityManager } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { AppError } from '../../core/http/app-error';
import { PaymentKinds } from '../payments/payment-kinds';
import { PaymentsService } from '../payments/payments.service';
import type { Refunder } from '../payments/refunders';
import { RefundsService } from '../payments/refunds.service';
import type { PaidPayment } from '../payments/settlers';
import { ContractsRepository } from './contracts.repository';

/** The payment kind of a contract paid by the guardian through the provider; ref_id is the contract's id. */
export const CONTRACT_KIND = 'contract';

/**
 * A contract payment refunded through the provider: the payment that paid the contract only as part of the
 * contract's cancellation, which records the refund on the contract first (cancellationContract); any other refund of
 * it (the operator's) is refused. A payment that did not pay its contract (a surplus: PaymentKinds, CONTRACT_PAID_BY)
 * never reaches it. Should the provider refuse a refund, the contract stays as it is and the failed refund shows on the
 * payment.
 */
export const contractRefunder = (repo: ContractsRepository): Refunder => ({
  async apply(em, p, r) {
    const c = await repo.forRefund(em, p.school_id, Number(p.ref_id));
    if (!c) throw new AppError('payments.refund_unsupported');
    if (c.status !== 'cancelled' || r.refundedBeforeFen + r.amountFen > c.refunded_fen) throw new AppError('payments.refund_unsupported');
    return { contract_id: c.id };
  },
  async revert() {
    // nothing to undo here: the contract's cancellation stands, the payment keeps the failed refund
  },
});

/**
 * The payment that paid a contract (PaymentKind.paidBy, an SQL text fragment over `p` for PaymentKinds): its receipt
 * when it was paid by WeChat, NULL otherwise (unpaid, cancelled unpaid, paid at the desk). Its typed twin, for this
 * module's own statements: contracts.repository.ts paidBy.
 */
export const CONTRACT_PAID_BY = `(select case when c.pay_method = 'wechat' then c.receipt_no end from contracts c where c.id = p.ref_id::int and c.school_id = p.school_id)`;

/** Paying contracts through the provider: the guardian's WeChat payment, its settler, and the refund of it. */
@Injectable()
export class ContractPayments {
  constructor(
    private readonly repo: ContractsRepository,
    private readonly payments: PaymentsService,
    private readonly refunds: RefundsService,
    kinds: PaymentKinds,
  ) {
    kinds.register({
      kind: CONTRACT_KIND,
      settle: (em, p) => this.settle(em, p),
      paidBy: CONTRACT_PAID_BY,
      refunder: contractRefunder(repo),
      surplusReason: '合同已付款或已取消，本次付款原路退回',
    });
  }

  /** A guardian pays an own child's unpaid contract: a pending payment by the channel asked for; the paid notify activates it (settle). */
  async wechatPay(user: SchoolCaller, input: WechatPayContractInput, clientIp: string): Promise<PendingPayment> {
    const c = await this.repo.guardiansContract(user.schoolId, input.id, user.id);
    if (!c) throw new AppError('contracts.not_found');
    if (c.status !== 'unpaid') throw new AppError('contracts.not_unpaid');
    return this.payments.startWechat({
      schoolId: user.schoolId,
      userId: user.id,
      kind: CONTRACT_KIND,
      refId: String(c.id),
      amountFen: c.price_fen,
      description: `晚托合同 ${c.no}`,
      meta: { contract_no: c.no },
      channel: input.channel,
      clientIp,
    });
  }

  /**
   * In the mark-paid transaction: the contract becomes active, paid by WeChat, once (only while still unpaid). A
   * payment for a contract paid meanwhile at the desk (or cancelled) is a surplus, refunded after the commit
   * (PaymentKinds).
   */
  async settle(em: EntityManager, p: PaidPayment): Promise<void> {
    const u = await this.repo.settle(em, { id: Number(p.ref_id), schoolId: p.school_id, amountFen: p.amount_fen, outTradeNo: p.out_trade_no });
    if (!u) return;
    await this.repo.appendEvent(em, {
      schoolId: p.school_id,
      contractId: u.id,
      type: 'paid',
      actorId: p.created_by,
      data: { amount_fen: p.amount_fen, method: 'wechat', out_trade_no: p.out_trade_no },
    });
  }

  /**
   * The WeChat payment that paid the contract, if any: the one CONTRACT_PAID_BY names (never a surplus payment of it,
   * whichever was paid first).
   */
  paymentOf(em: EntityManager, schoolId: number, contractId: number): Promise<string | null> {
    return this.repo.paymentOf(em, schoolId, CONTRACT_KIND, contractId);
  }

  /** Gives a cancelled contract's refund back through the provider (idempotent by the request key). */
  async refund(r: { schoolId: number; outTradeNo: string; amountFen: number; reason: string; requestKey: string; actorId: number }): Promise<void> {
    await this.refunds.refund({
      schoolId: r.schoolId,
      outTradeNo: r.outTradeNo,
      amountFen: r.amountFen,
      reason: r.reason,
      requestKey: r.requestKey,
      actorId: r.actorId,
    });
  }
}
