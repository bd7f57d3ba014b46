import { Injectable } from '@nestjs/common';
import { payeeOf } from '@wantuo/shared';
import type { EntityManager } from 'typeorm';

/** A payment as its settler sees it (the locked row). */
export interface PaidPayment {
  id: number;
  school_id: number;
  out_trade_no: string;
  kind: string;
  ref_id: string | null;
  amount_fen: number;
  method: 'wechat' | 'balance';
  meta: Record<string, unknown>;
  created_by: number | null;
}

/** What a paying module does when its payment is paid: runs in the transaction that marks the payment paid. */
export type Settler = (em: EntityManager, payment: PaidPayment) => Promise<void>;

/**
 * Settlement by payment kind. Each module that takes money registers the settler of its kinds at start (the school
 * registers top_up and school_renewal). Settling runs inside the one "mark paid" transaction, so a payment is never
 * paid without what it pays for, nor settled twice; side effects that may come later (messages, sockets) follow the
 * `payment.paid` domain event after commit.
 */
@Injectable()
export class PaymentSettlers {
  private readonly settlers = new Map<string, Settler>();

  register(kind: string, settler: Settler): void {
    if (this.settlers.has(kind)) throw new Error(`payment kind ${kind} has two settlers`);
    payeeOf(kind, 'staff'); // a kind must say who receives its money (PAYMENT_PAYEES, @wantuo/shared) before it takes any
    this.settlers.set(kind, settler);
  }

  /** The kinds with a settler (a process that may mark payments paid must have every kind the API takes). */
  kinds(): string[] {
    return [...this.settlers.keys()].sort();
  }

  async settle(em: EntityManager, payment: PaidPayment): Promise<void> {
    const settler = this.settlers.get(payment.kind);
    if (!settler) throw new Error(`no settler for payment kind ${payment.kind}`);
    await settler(em, payment);
  }
}
