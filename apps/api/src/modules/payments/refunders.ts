import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { PaidPayment } from './settlers';

/** One refund as the payment's owner sees it, inside the refund's transaction. */
export interface PaymentRefund {
  outRefundNo: string;
  amountFen: number;
  /** what earlier refunds of this payment (not failed ones) already gave back or are giving back */
  refundedBeforeFen: number;
  reason: string;
  actorId: number | null;
}

/**
 * What a paying module does when one of its payments is refunded (all or part), and how it undoes it should the
 * provider refuse the refund.
 *
 * - `apply` runs in the transaction that records the refund, under the payment's row lock, BEFORE the provider is
 *   asked; throwing (an AppError) refuses the refund: nothing is written or refunded. What it answers is kept with the
 *   refund (payment_refunds.meta) and handed to `revert`.
 * - `revert` runs in the transaction that marks the refund failed (the provider refused it): a correction, never an
 *   edit (a new ledger entry, the time given back).
 */
export interface Refunder {
  apply(em: EntityManager, payment: PaidPayment, refund: PaymentRefund): Promise<Record<string, unknown>>;
  revert(em: EntityManager, payment: PaidPayment, refund: PaymentRefund, applied: Record<string, unknown>): Promise<void>;
}

/**
 * The owners' reactions to refunds, by payment kind, next to the settlers (PaymentSettlers): a kind is refundable only
 * once its module registers a refunder for it (the school: top_up, school_renewal).
 */
@Injectable()
export class PaymentRefunders {
  private readonly refunders = new Map<string, Refunder>();

  register(kind: string, refunder: Refunder): void {
    if (this.refunders.has(kind)) throw new Error(`payment kind ${kind} has two refunders`);
    this.refunders.set(kind, refunder);
  }

  has(kind: string): boolean {
    return this.refunders.has(kind);
  }

  of(kind: string): Refunder {
    const refunder = this.refunders.get(kind);
    if (!refunder) throw new Error(`no refunder for payment kind ${kind}`);
    return refunder;
  }
}
