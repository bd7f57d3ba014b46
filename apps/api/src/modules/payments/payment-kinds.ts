import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MessageKey } from '@wantuo/shared';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { Queryable } from '../../core/database/sql-kit';
import { DomainEvents, type DomainEventMap } from '../../core/events/domain-events';
import { AppError } from '../../core/http/app-error';
import { LOGGER } from '../../core/logging/logger';
import { PaymentsRepository } from './payments.repository';
import { PaymentRefunders, type Refunder } from './refunders';
import { RefundsService } from './refunds.service';
import { PaymentSettlers, type Settler } from './settlers';
import { InFlight } from '../../core/events/in-flight';

export type PaidEvent = DomainEventMap['payment.paid'];

/**
 * A payment kind that pays for one object (a contract, a dinner booking, a mall order, a courseware purchase), as its
 * module declares it to PaymentKinds.register.
 */
export interface PaymentKind {
  kind: string;
  /**
   * In the transaction that marks the payment paid: the object becomes paid BY THIS PAYMENT, once, and only while it
   * is still payable (an object paid otherwise, cancelled or changed meanwhile is left alone: the payment is a surplus).
   */
  settle: Settler;
  /**
   * Which payment paid the object: an SQL scalar expression over `p` (the payments row) answering the out_trade_no
   * that paid this payment's object, or NULL when none did (unpaid, cancelled unpaid, gone, paid at the desk).
   * A paid payment for which it `is distinct from p.out_trade_no` is a surplus (NULL-safe: a NULL answer is a surplus,
   * never "unknown").
   */
  paidBy: string;
  /**
   * The refunds of a payment that DID pay its object (a cancellation's, the operator's): checked, and undone should
   * the provider refuse. Never reached for a surplus, which is refunded without touching the object.
   */
  refunder: Refunder;
  /** Shown to the payer with the surplus refund (the provider keeps 80 characters). */
  surplusReason: string;
  /** Refunds of this kind must give back all that is left (this error otherwise). */
  inFullOnly?: MessageKey;
  /** After the commit of a payment that paid its object (not a surplus): live counts and the like. */
  afterPaid?: (e: PaidEvent) => Promise<void> | void;
}

/** The request key of a surplus refund: one per payment, so a surplus goes back once however often it is noticed. */
export const SURPLUS_REQUEST_KEY = 'surplus';

/**
 * The `payments.surplus` sweep: payments paid at least `graceS` ago (the after-commit refund has had its chance) and
 * at most `maxAgeDays` ago (WeChat Pay refunds a payment within a year of it), at most `batch` a run (the next run
 * takes the rest: those refunded now have a refund).
 */
export const SURPLUS_SWEEP = { graceS: 60, maxAgeDays: 365, batch: 500 };

/**
 * The one rule of the paying modules (design.md §5a): a provider payment is settled in the transaction that marks it
 * paid — or, when its object was paid otherwise, cancelled or changed before the money arrived, it is a surplus and
 * goes back to the payer in full, once, after the commit (and, should that never happen, by the `payments.surplus`
 * sweep: sweepSurplus). `register` gives a kind its settler and its refunder (which
 * lets a surplus through in full and hands the other refunds to the module), subscribes the kind to `payment.paid` and
 * tracks the work after the commit (`settled()` awaits it: tests, shutdown).
 */
@Injectable()
export class PaymentKinds implements BeforeApplicationShutdown {
  private readonly kinds = new Map<string, PaymentKind>();
  private readonly inFlight = new InFlight((err) => this.log.error({ err }, 'after a paid payment: settling or refunding the surplus failed'));

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: PaymentsRepository,
    private readonly settlers: PaymentSettlers,
    private readonly refunders: PaymentRefunders,
    private readonly refunds: RefundsService,
    events: DomainEvents,
    @Inject(LOGGER) private readonly log: Logger,
  ) {
    events.on('payment.paid', (e) => {
      const k = this.kinds.get(e.kind);
      if (k) this.track(this.afterPaid(k, e), k.kind);
    });
  }

  register(k: PaymentKind): void {
    if (this.kinds.has(k.kind)) throw new Error(`payment kind ${k.kind} is registered twice`);
    this.kinds.set(k.kind, k);
    this.settlers.register(k.kind, k.settle);
    this.refunders.register(k.kind, {
      apply: async (em, p, r) => {
        if (k.inFullOnly && r.refundedBeforeFen + r.amountFen !== p.amount_fen) throw new AppError(k.inFullOnly);
        if (await this.isSurplus(em, k, p.school_id, p.out_trade_no)) return { surplus: true };
        return k.refunder.apply(em, p, r);
      },
      revert: async (em, p, r, applied) => {
        if (applied.surplus === true) return; // nothing was done to the object
        await k.refunder.revert(em, p, r, applied);
      },
    });
  }

  /**
   * Whether a payment of kind k is a surplus: it did not pay its object. Null when there is no such payment. Reads the
   * object as committed; the payment's own settling is over once it is paid, so the answer no longer changes then.
   */
  async isSurplus(q: Queryable, k: PaymentKind, schoolId: number, outTradeNo: string): Promise<boolean | null> {
    return (await this.repo.isSurplus(q, k.paidBy, k.kind, schoolId, outTradeNo)) ?? null;
  }

  /** After a payment's commit: a surplus goes back in full, once (the request key); otherwise the kind's own follow-up. */
  private async afterPaid(k: PaymentKind, e: PaidEvent): Promise<void> {
    const surplus = await this.repo.isSurplus(this.db, k.paidBy, k.kind, e.school_id, e.out_trade_no, true);
    if (surplus === undefined) return; // refunded meanwhile
    if (surplus) {
      await this.refundSurplus(k, e.school_id, e.out_trade_no);
    } else {
      await k.afterPaid?.(e);
    }
  }

  /** A surplus goes back in full, once: the request key is the same wherever it is noticed (after the commit, the sweep). */
  private async refundSurplus(k: PaymentKind, schoolId: number, outTradeNo: string): Promise<void> {
    await this.refunds.refund({ schoolId, outTradeNo, reason: k.surplusReason, requestKey: SURPLUS_REQUEST_KEY, actorId: null });
  }

  /**
   * The `payments.surplus` job, the durable half of the surplus rule: the refund after the commit runs in this process
   * from an event, so a crash (or a failure before the refund was recorded) between the mark-paid commit and it would
   * leave a surplus paid for good. This finds, in one statement over every registered kind, the provider payments that
   * are paid, have no refund at all (a refund of any key, failed ones too: those are the refunders' and people's to
   * look at), were paid more than a minute ago and are a surplus by their kind's `paidBy` — and refunds each exactly as
   * the after-commit path does (same request key: a payment noticed by both goes back once). Answers how many it
   * refunded; a refund that fails before it is recorded is logged and tried again by the next run (one the provider
   * refused is recorded failed, as every refused refund is, and left to people).
   */
  async sweepSurplus(opts: Partial<typeof SURPLUS_SWEEP> = {}): Promise<number> {
    const { graceS, maxAgeDays, batch } = { ...SURPLUS_SWEEP, ...opts };
    const kinds = [...this.kinds.values()];
    if (!kinds.length) return 0;
    const found = await this.repo.surplusesDue(kinds, graceS, maxAgeDays, batch);
    let refunded = 0;
    for (const f of found) {
      try {
        await this.refundSurplus(this.kinds.get(f.kind)!, f.school_id, f.out_trade_no);
        refunded++;
      } catch (err) {
        this.log.error({ err, outTradeNo: f.out_trade_no, kind: f.kind }, 'surplus sweep: the refund failed');
      }
    }
    if (found.length) this.log.warn({ found: found.length, refunded }, 'surplus sweep: paid surplus payments without a refund were refunded');
    return refunded;
  }

  /**
   * Work after a commit, awaited by settled(); a failure is logged. (A surplus refund the provider did not answer stays
   * pending and its `payments.refund` job asks again; one that failed before it was recorded, or never ran because the
   * process stopped, is refunded by the `payments.surplus` sweep.)
   */
  track(work: Promise<void>, kind: string): void {
    this.inFlight.track(work, (err) => this.log.error({ err, kind }, 'after a paid payment: settling or refunding the surplus failed'));
  }

  /** Resolves once the work after every payment.paid received so far is done (tests). */
  async settled(): Promise<void> {
    await this.inFlight.settled();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.settled();
  }
}
