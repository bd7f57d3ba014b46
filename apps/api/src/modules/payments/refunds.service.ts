import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RefundResult } from '@wantuo/shared';
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { DomainEvents } from '../../core/events/domain-events';
import { AppError } from '../../core/http/app-error';
import { JobsService } from '../../core/jobs/jobs.service';
import { LOGGER } from '../../core/logging/logger';
import { postEntry } from './ledger';
import { PaymentsRefundsRepository, type LockedPayment } from './payments-refunds.repository';
import { NotifyRefused, PaymentProvider, ProviderRefused, type ProviderRefundNotice } from './provider';
import { PaymentRefunders, type PaymentRefund } from './refunders';

/** What a module asks to refund: one of the school's payments, all that is left or part of it. */
export interface RefundRequest {
  schoolId: number;
  outTradeNo: string;
  /** omitted: all that is left to refund */
  amountFen?: number;
  /** kept with the refund, shown to the payer by the provider (at most 80 characters there) */
  reason: string;
  /** the caller's idempotency key, unique per payment: the same key refunds once and is answered from its refund */
  requestKey: string;
  actorId: number | null;
}

/** Retry delay of a refund whose provider answer is unknown (the `payments.refund` job). */
const REDRIVE_DELAY_MS = 60_000;

/**
 * The `payments.refundQuery` job: a provider refund still unfinished `afterS` after it was made (its notify lost, or
 * the process stopped before it asked) is asked about with the status query, then again after `firstDelayS`, doubling,
 * at most every `maxDelayS` (an ABNORMAL one too: the merchant platform may resolve it); at most `batch` a run, the
 * most overdue first.
 */
export const REFUND_QUERY = { afterS: 300, firstDelayS: 300, maxDelayS: 6 * 3600, batch: 200 };

/**
 * The provider's refund number: derived from the payment and the request key (WeChat Pay takes up to 64 of
 * [A-Za-z0-9_-|*@]), so a retried request always reaches the provider with the same number.
 */
export const outRefundNoOf = (outTradeNo: string, requestKey: string): string =>
  `F${createHash('sha256').update(`${outTradeNo}\n${requestKey}`).digest('hex').slice(0, 31).toUpperCase()}`;

/**
 * Refunds (design.md §5a), the one way every module gives money back: a provider payment through the provider
 * (`PaymentProvider.refund`), a balance payment back to the wallet (a `refund` ledger entry).
 *
 * 1. One transaction under the payment's row lock, so concurrent refunds of a payment are ordered and never exceed what
 *    was paid: a request key already used answers its refund; the amount is checked against what is left; the refund
 *    row and the payment's refunded_fen are written (the payment is `refunded` once fully refunded), for a balance
 *    payment with the ledger credit; and the kind's refunder (PaymentRefunders) reacts — or refuses, and then nothing
 *    is written. A balance refund is done here.
 * 2. A provider refund is then asked for, outside any transaction (no lock is held across the network; the local
 *    sandbox answers from the same database): accepted → `succeeded` or `processing`; refused → `failed`, and its
 *    effects are corrected in one transaction (refunded_fen back, the refunder's revert); no answer → it stays
 *    `pending` and the `payments.refund` job asks again with the same out_refund_no, which the provider answers
 *    without refunding twice.
 * 3. The provider's REFUND.* notify (recordNotice) finishes a refund it accepted as processing: recorded the same one
 *    way as its answers (record), so answers, the job's asking again and notifies never disagree or apply twice.
 * 4. A refund whose notify is lost, or left pending by a process that stopped, is asked about by the
 *    `payments.refundQuery` job (pollDue, poll): the provider's status query, recorded the same one way (record); a
 *    pending refund the provider never received is asked for (same out_refund_no).
 */
@Injectable()
export class RefundsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: PaymentsRefundsRepository,
    private readonly provider: PaymentProvider,
    private readonly refunders: PaymentRefunders,
    private readonly jobs: JobsService,
    private readonly events: DomainEvents,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async refund(r: RefundRequest): Promise<RefundResult> {
    const recorded = await this.db.transaction(async (em) => {
      const p = await this.repo.lockPayment(em, r.schoolId, r.outTradeNo);
      if (!p) throw new AppError('payments.not_found');
      const prior = await this.repo.prior(em, p.id, r.requestKey);
      if (prior) return { outRefundNo: prior.out_refund_no, ask: null, failed: prior.state === 'failed' };
      if (p.state === 'refunded') throw new AppError('payments.fully_refunded');
      if (p.state !== 'paid') throw new AppError('payments.not_paid');
      if (!this.refunders.has(p.kind)) throw new AppError('payments.refund_unsupported');
      const remaining = p.amount_fen - p.refunded_fen;
      const amount = r.amountFen ?? remaining;
      if (amount <= 0 || amount > remaining) throw new AppError('payments.refund_too_much', { remaining: remaining / 100, amount: amount / 100 });

      const refund: PaymentRefund = {
        outRefundNo: outRefundNoOf(p.out_trade_no, r.requestKey),
        amountFen: amount,
        refundedBeforeFen: p.refunded_fen,
        reason: r.reason,
        actorId: r.actorId,
      };
      await this.repo.insert(em, {
        payment_id: p.id,
        school_id: p.school_id,
        out_refund_no: refund.outRefundNo,
        request_key: r.requestKey,
        amount_fen: amount,
        reason: r.reason,
        state: p.method === 'balance' ? 'succeeded' : 'pending',
        actor_id: r.actorId,
      });
      await this.repo.addRefunded(em, p.id, amount);
      if (p.method === 'balance') {
        const entry = await postEntry(em, {
          schoolId: p.school_id,
          type: 'refund',
          amountFen: amount,
          refKind: p.kind,
          refId: p.out_trade_no,
          paymentId: p.id,
          actorId: r.actorId,
          note: r.reason,
          key: `refund:${refund.outRefundNo}`,
        });
        if (!entry) throw new Error(`refund ${refund.outRefundNo}: the credit was not posted`);
      }
      const applied = await this.refunders.of(p.kind).apply(em, p, refund);
      await this.repo.setMeta(em, refund.outRefundNo, applied);
      return { outRefundNo: refund.outRefundNo, ask: p.method === 'wechat' ? { payment: p, refund } : null, failed: false };
    });
    if (recorded.ask) await this.ask(recorded.ask.payment, recorded.ask.refund, false);
    const { failure, ...answer } = await this.answer(recorded.outRefundNo);
    if (recorded.failed || answer.state === 'failed') throw new AppError('payments.refund_failed', { reason: failure ?? '' });
    return answer as RefundResult;
  }

  /** The `payments.refund` job: a refund still pending (the provider's answer was unknown) is asked for again. */
  async redrive(outRefundNo: string): Promise<void> {
    const row = await this.refundRow(outRefundNo);
    if (!row || row.state !== 'pending') return;
    const p = (await this.repo.payment(row.paymentId))!;
    await this.ask(p, row, true);
  }

  /**
   * Asks the provider for a recorded refund and records its answer. No answer: still pending, asked again later (the
   * job; `fromJob` rethrows so the job's own retries do it).
   */
  private async ask(p: LockedPayment, refund: PaymentRefund, fromJob: boolean): Promise<void> {
    let answer: { refundId: string; status: string };
    try {
      answer = await this.provider.refund({
        merchant: { subMchid: p.sub_mchid },
        outTradeNo: p.out_trade_no,
        outRefundNo: refund.outRefundNo,
        refundFen: refund.amountFen,
        totalFen: p.amount_fen,
        reason: refund.reason,
      });
    } catch (err) {
      if (err instanceof ProviderRefused) {
        this.log.warn(
          { outTradeNo: p.out_trade_no, outRefundNo: refund.outRefundNo, code: err.code, reason: err.reason },
          'provider refused a refund',
        );
        await this.fail(refund.outRefundNo, `${err.code} ${err.reason}`.trim());
        return;
      }
      this.log.error({ err, outTradeNo: p.out_trade_no, outRefundNo: refund.outRefundNo }, 'provider did not answer a refund: it stays pending');
      if (fromJob) throw err;
      await this.jobs.enqueue('payments.refund', { out_refund_no: refund.outRefundNo }, { delayMs: REDRIVE_DELAY_MS });
      return;
    }
    await this.record(refund.outRefundNo, answer.status, answer.refundId || null);
  }

  /**
   * A verified REFUND.* notify (the provider's word on a refund it finished): checked against the refund it names — an
   * unknown refund, another payment's or another amount is refused (NotifyRefused) and changes nothing — then recorded
   * as the provider's answers are (record), so a repeated notify changes nothing.
   */
  async recordNotice(n: ProviderRefundNotice): Promise<'recorded' | 'already'> {
    const r = await this.repo.notice(n.outRefundNo);
    if (!r) throw new NotifyRefused(404, `unknown refund ${n.outRefundNo.slice(0, 64)}`);
    if (r.out_trade_no !== n.outTradeNo) throw new NotifyRefused(400, `refund ${n.outRefundNo.slice(0, 64)} is of another order`);
    // a refund comes from the merchant that received the payment
    if ((n.subMchid ?? null) !== r.sub_mchid) throw new NotifyRefused(400, `refund ${n.outRefundNo.slice(0, 64)} is of another merchant`);
    if (n.refundFen !== null && n.refundFen !== r.amount_fen)
      throw new NotifyRefused(400, `refund amount ${n.refundFen} differs from the refund's ${r.amount_fen}`);
    if (r.state === 'failed' && n.status !== 'CLOSED') {
      // the provider says it made a refund we recorded as refused: nothing is undone here, people look at it
      this.log.error({ outRefundNo: n.outRefundNo, status: n.status }, 'provider notifies a refund recorded as failed');
      return 'already';
    }
    return (await this.record(n.outRefundNo, n.status, n.refundId, n.successTime)) ? 'recorded' : 'already';
  }

  /**
   * The `payments.refundQuery` job: the provider refunds still pending or processing REFUND_QUERY.afterS after they were
   * made, whose next poll is due (payment_refunds.meta: polls, next_poll_at), are each asked about (poll); one still
   * unfinished afterwards is polled again later, the delay doubling from firstDelayS up to maxDelayS. Answers how
   * many were polled and how many changed.
   */
  async pollDue(opts: Partial<typeof REFUND_QUERY> = {}): Promise<{ polled: number; changed: number }> {
    const { afterS, firstDelayS, maxDelayS, batch } = { ...REFUND_QUERY, ...opts };
    const due = await this.repo.due(afterS, batch);
    let changed = 0;
    for (const out_refund_no of due) {
      try {
        if (await this.poll(out_refund_no)) changed++;
      } catch (err) {
        this.log.warn({ err, outRefundNo: out_refund_no }, 'refund status query failed: asked again later');
      }
      // still unfinished: the next poll later, the delay doubling (the exponent bounded: the cap is reached long before)
      await this.repo.pollLater(out_refund_no, firstDelayS, maxDelayS);
    }
    return { polled: due.length, changed };
  }

  /**
   * Asks the provider where one unfinished provider refund is and records the answer the one way (record): SUCCESS →
   * succeeded; CLOSED → failed and corrected; ABNORMAL → processing, marked; PROCESSING → as it was. A pending refund
   * the provider does not have (RESOURCE_NOT_EXISTS: the request never reached it) is asked for, with the same
   * out_refund_no. An answer about another order or amount is logged and changes nothing. Answers whether the refund
   * changed. Throws when the provider did not answer.
   */
  async poll(outRefundNo: string): Promise<boolean> {
    const row = await this.refundRow(outRefundNo);
    if (!row || (row.state !== 'pending' && row.state !== 'processing')) return false;
    const p = (await this.repo.payment(row.paymentId))!;
    if (p.method !== 'wechat') return false;
    const q = await this.provider.queryRefund(outRefundNo, { subMchid: p.sub_mchid });
    if (!q) {
      if (row.state === 'pending') {
        await this.ask(p, row, true);
        return (await this.refundRow(outRefundNo))?.state !== 'pending';
      }
      this.log.error({ outRefundNo, outTradeNo: p.out_trade_no }, 'provider does not know a refund it accepted');
      return false;
    }
    if (q.outTradeNo !== p.out_trade_no || (q.refundFen !== null && q.refundFen !== row.amountFen)) {
      this.log.error(
        { outRefundNo, outTradeNo: p.out_trade_no, answered: q },
        'refund status query answered another order or amount: nothing recorded',
      );
      return false;
    }
    return this.record(outRefundNo, q.status, q.refundId, q.successTime);
  }

  /**
   * What the provider says of a refund — its answer to the request (or to the job's request again), a verified
   * notify or its status query — recorded one way, idempotently (each step only from the states before it): SUCCESS → `succeeded`;
   * PROCESSING → `processing`; CLOSED → `failed`, corrected (fail); ABNORMAL (the money left the merchant but the payer's
   * account refused it; the merchant platform resolves it by hand) stays `processing`, marked `abnormal` and logged —
   * never failed, since it may still be paid out. Answers whether anything changed.
   */
  private async record(outRefundNo: string, status: string, refundId: string | null, successTime: string | null = null): Promise<boolean> {
    if (status === 'CLOSED') return this.fail(outRefundNo, 'CLOSED');
    if (status === 'SUCCESS') {
      // succeeded_at: the provider's success_time when it says it (the refund's line is on that day's trade bill)
      // (an update's own RETURNING comes back from TypeORM as [rows, count]: the rows are read through a CTE)
      const done = await this.repo.succeeded(outRefundNo, refundId, successTime);
      if (done) this.events.emit('payment.refunded', { school_id: done.school_id, out_refund_no: outRefundNo, kind: done.kind });
      return done !== undefined;
    }
    if (status === 'PROCESSING') return this.repo.processing(outRefundNo, refundId);
    this.log.error({ outRefundNo, status }, 'provider refund needs handling at the merchant platform');
    return this.repo.abnormal(outRefundNo, refundId, status);
  }

  /**
   * The provider refused a refund, or closed it: it is `failed`, and what it did here is corrected (never edited) in
   * one transaction. Answers whether it changed anything (a refund already answered is left as it is).
   */
  private async fail(outRefundNo: string, why: string): Promise<boolean> {
    return this.db.transaction(async (em) => {
      const p = (await this.repo.lockPaymentOfRefund(em, outRefundNo))!;
      const failed = await this.repo.failed(em, outRefundNo, why.slice(0, 200));
      if (!failed) return false; // already answered (another run of the job, a repeated notify)
      const refund = { ...failed, refundedBeforeFen: p.refunded_fen - failed.amountFen };
      await this.repo.subtractRefunded(em, p.id, refund.amountFen);
      await this.refunders.of(p.kind).revert(em, p, refund, refund.meta);
      return true;
    });
  }

  private async refundRow(outRefundNo: string) {
    return (await this.repo.refund(outRefundNo)) ?? null;
  }

  private async answer(outRefundNo: string) {
    return (await this.repo.answer(outRefundNo))!;
  }
}
