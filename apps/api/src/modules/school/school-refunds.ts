import { addMonths, PERIOD_MONTHS } from '@wantuo/shared';
import type { EntityManager } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import { lockSchool, postEntry } from '../payments/ledger';
import type { PaymentRefund, Refunder } from '../payments/refunders';
import type { PaidPayment } from '../payments/settlers';
import { extendServiceEnd, setServiceEnd } from './school.repository';

/** Where a renewal's bought period starts: the later of now and the current expiry (as renewedUntil counts). */
export const renewalStart = (expiresAt: Date | null, now: Date): Date => (expiresAt && expiresAt.getTime() > now.getTime() ? expiresAt : now);

async function locked(em: EntityManager, p: PaidPayment) {
  const s = await lockSchool(em, p.school_id);
  if (!s) throw new AppError('school.not_found');
  return s;
}

/**
 * A top-up refunded through the provider: the money leaves the wallet too, by the amount refunded (a `refund` entry
 * with a negative amount). Never below zero: a balance already spent refuses the refund, and nothing is refunded.
 * Should the provider refuse the refund, a second `refund` entry gives the amount back.
 */
export const topUpRefunder: Refunder = {
  async apply(em, p, r) {
    if (p.method !== 'wechat') throw new Error(`top-up ${p.out_trade_no} was not paid through the provider`);
    const s = await locked(em, p);
    const entry = await postEntry(em, {
      schoolId: p.school_id,
      type: 'refund',
      amountFen: -r.amountFen,
      refKind: p.kind,
      refId: p.out_trade_no,
      paymentId: p.id,
      actorId: r.actorId,
      note: r.reason,
      key: `refund:${r.outRefundNo}`,
    });
    if (!entry) throw new AppError('school.refund_balance_insufficient', { balance: s.balance_fen / 100, amount: r.amountFen / 100 });
    return { ledger_entry_id: entry.id };
  },
  async revert(em, p, r) {
    await locked(em, p);
    const entry = await postEntry(em, {
      schoolId: p.school_id,
      type: 'refund',
      amountFen: r.amountFen,
      refKind: p.kind,
      refId: p.out_trade_no,
      paymentId: p.id,
      actorId: r.actorId,
      note: '退款未成功，退回余额',
      key: `refund-failed:${r.outRefundNo}`,
    });
    if (!entry) throw new Error(`refund ${r.outRefundNo}: the failed refund's credit was not posted`);
  },
};

/** The share of a renewal's bought span (ms) that refunds of `fen` in all take back: exact, so shares add up. */
function share(p: PaidPayment, fen: number, timeZone: string): bigint {
  const until = typeof p.meta.until === 'string' ? new Date(p.meta.until) : null;
  if (!until) return 0n;
  const start =
    typeof p.meta.start === 'string'
      ? new Date(p.meta.start)
      : addMonths(until, -PERIOD_MONTHS[p.meta.period === 'year' ? 'year' : 'term'], timeZone);
  const span = BigInt(Math.max(0, until.getTime() - start.getTime()));
  return (span * BigInt(fen)) / BigInt(p.amount_fen);
}

/**
 * A renewal refunded (through the provider or back to the balance) takes back the refunded share of the period it
 * bought: a refund of r fen of a payment of a fen that bought the span [start, until) moves the school's CURRENT expiry
 * back by (until − start) × r / a. Partial refunds add up exactly (each takes its cumulative share minus what the
 * earlier ones took), so refunding everything takes back the whole span. It is taken from the current expiry, whatever
 * later renewals added: the school loses exactly the time it got its money back for, and may then be expiring, in
 * grace or read-only by the usual rules. Days already used are not set apart: the operator decides the amount.
 * Should the provider refuse the refund, the time taken back is given back.
 */
export const renewalRefunder: Refunder = {
  async apply(em, p, r: PaymentRefund) {
    const s = await locked(em, p);
    if (!s.service_expires_at) return {};
    const takeBackMs = Number(share(p, r.refundedBeforeFen + r.amountFen, s.timezone) - share(p, r.refundedBeforeFen, s.timezone));
    const to = new Date(s.service_expires_at.getTime() - takeBackMs);
    await setServiceEnd(em, p.school_id, to);
    return { expires_from: s.service_expires_at.toISOString(), expires_to: to.toISOString(), taken_back_ms: takeBackMs };
  },
  async revert(em, p, _r, applied) {
    const ms = Number(applied.taken_back_ms ?? 0);
    if (!ms) return;
    await locked(em, p);
    await extendServiceEnd(em, p.school_id, ms);
  },
};
