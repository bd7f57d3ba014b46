import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  billDateOf,
  billDaySpan,
  localTime,
  previousBillDate,
  WECHAT_BILL_ZONE,
  type BillCheckRow,
  type BillChecksQuery,
  type BillDifferenceRow,
  type BillDifferencesQuery,
  type CheckBillInput,
  type Page,
  type ResolveBillDifferenceInput,
} from '@wantuo/shared';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { pageOf, type Queryable } from '../../../core/database/sql-kit';
import { AppError } from '../../../core/http/app-error';
import type { SessionUser } from '../../../core/http/request-context';
import { LOGGER } from '../../../core/logging/logger';
import { PaymentsReconciliationRepository } from '../payments-reconciliation.repository';
import { BillNotReady, PaymentProvider } from '../provider';
import { parseTradeBill, type TradeBill } from './tradebill-csv';

type Kind = BillDifferenceRow['kind'];
type LineKind = BillDifferenceRow['line'];

/** One disagreement between the bill and what was recorded, before it is stored. */
export interface FoundDifference {
  kind: Kind;
  line: LineKind;
  out_trade_no: string;
  out_refund_no: string | null;
  ours_fen: number | null;
  theirs_fen: number | null;
}

/** What was recorded, as the comparison needs it. */
export interface Recorded {
  /** our paid payments of the merchant paid within the bill's day */
  paymentsInDay: Array<{ out_trade_no: string; amount_fen: number }>;
  /** our paid payments with the numbers the bill lists, whatever their day and merchant */
  paymentsListed: Array<{ out_trade_no: string; sub_mchid: string | null; amount_fen: number }>;
  /** our succeeded refunds of the merchant's payments finished within the bill's day */
  refundsInDay: Array<{ out_refund_no: string; out_trade_no: string; amount_fen: number }>;
  /** our succeeded refunds with the numbers the bill lists, whatever their day and merchant */
  refundsListed: Array<{ out_refund_no: string; out_trade_no: string; sub_mchid: string | null; amount_fen: number }>;
}

/**
 * The bill against what was recorded, line by line. A bill line is matched by its number whatever the day we recorded
 * it on (a payment finished at 23:59:59 may carry our next day's paid_at): only one we have not recorded as paid (or
 * succeeded), or recorded with another merchant, is missing_here. What we recorded within the day and the bill does not
 * list is missing_there.
 */
export function compareBill(subMchid: string, bill: TradeBill, ours: Recorded): FoundDifference[] {
  const found: FoundDifference[] = [];
  const paid = new Map(ours.paymentsListed.map((p) => [p.out_trade_no, p]));
  for (const line of bill.payments) {
    const p = paid.get(line.outTradeNo);
    const base = { line: 'payment' as const, out_trade_no: line.outTradeNo, out_refund_no: null, theirs_fen: line.amountFen };
    if (!p || p.sub_mchid !== subMchid) found.push({ ...base, kind: 'missing_here', ours_fen: null });
    else if (p.amount_fen !== line.amountFen) found.push({ ...base, kind: 'amount_differs', ours_fen: p.amount_fen });
  }
  const billed = new Set(bill.payments.map((l) => l.outTradeNo));
  for (const p of ours.paymentsInDay) {
    if (!billed.has(p.out_trade_no))
      found.push({
        kind: 'missing_there',
        line: 'payment',
        out_trade_no: p.out_trade_no,
        out_refund_no: null,
        ours_fen: p.amount_fen,
        theirs_fen: null,
      });
  }

  const refunded = new Map(ours.refundsListed.map((r) => [r.out_refund_no, r]));
  for (const line of bill.refunds) {
    const r = refunded.get(line.outRefundNo);
    const base = { line: 'refund' as const, out_trade_no: line.outTradeNo, out_refund_no: line.outRefundNo, theirs_fen: line.amountFen };
    if (!r || r.sub_mchid !== subMchid) found.push({ ...base, kind: 'missing_here', ours_fen: null });
    else if (r.amount_fen !== line.amountFen) found.push({ ...base, kind: 'amount_differs', ours_fen: r.amount_fen });
  }
  const billedRefunds = new Set(bill.refunds.map((l) => l.outRefundNo));
  for (const r of ours.refundsInDay) {
    if (!billedRefunds.has(r.out_refund_no))
      found.push({
        kind: 'missing_there',
        line: 'refund',
        out_trade_no: r.out_trade_no,
        out_refund_no: r.out_refund_no,
        ours_fen: r.amount_fen,
        theirs_fen: null,
      });
  }
  return found;
}

type CheckDbRow = Awaited<ReturnType<PaymentsReconciliationRepository['check']>>;
type DifferenceDbRow = Awaited<ReturnType<PaymentsReconciliationRepository['difference']>>;

const toCheck = (r: CheckDbRow): BillCheckRow => ({ ...r, checked_at: new Date(r.checked_at).toISOString() });
const toDifference = (r: DifferenceDbRow): BillDifferenceRow => ({
  ...r,
  resolved_at: r.resolved_at ? new Date(r.resolved_at).toISOString() : null,
  created_at: new Date(r.created_at).toISOString(),
});

/** WeChat makes the day's bills from 09:00 China time the next day and has them ready by 10:00: asked from then on. */
const BILLS_READY_AT = '10:00';

export interface DailyRun {
  bill_date: string;
  /** merchants reconciled this run (matched, differences or failed) */
  checked: number;
  /** merchants whose bill WeChat was still making: asked again next hour */
  not_ready: number;
}

/**
 * The daily reconciliation of each merchant's WeChat trade bill against the payments and refunds recorded (issue 36
 * item 4): the platform's own sub-merchant and every school's, one check per merchant and day (payment_bill_checks),
 * each disagreement kept (payment_bill_differences) until the operator resolves it with a note.
 */
@Injectable()
export class ReconciliationService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: PaymentsReconciliationRepository,
    private readonly provider: PaymentProvider,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async checks(q: BillChecksQuery): Promise<Page<BillCheckRow>> {
    const page = await this.repo.checks({ school: q.school_id ?? null, state: q.state ?? null }, q);
    return pageOf(page.list.map(toCheck), page.total, q);
  }

  /** Open ones first (what is left to do), then the newest. */
  async differences(q: BillDifferencesQuery): Promise<Page<BillDifferenceRow>> {
    const page = await this.repo.differences({ school: q.school_id ?? null, checkId: q.check_id ?? null, state: q.state ?? null }, q);
    return pageOf(page.list.map(toDifference), page.total, q);
  }

  /** Closes an open difference with what was done, under its row lock (two operators cannot both resolve it). */
  async resolve(user: SessionUser, input: ResolveBillDifferenceInput): Promise<BillDifferenceRow> {
    return this.db.transaction(async (em) => {
      const d = await this.repo.lockDifference(em, input.id);
      if (!d) throw new AppError('payments.bill_difference_not_found');
      if (d.state !== 'open') throw new AppError('payments.bill_difference_resolved');
      await this.repo.resolveDifference(em, input.id, input.resolution, user.id);
      return toDifference(await this.repo.difference(em, input.id));
    });
  }

  /**
   * Reconciles one merchant's bill of one past day now (again): a school's sub-merchant(s) of that day — each, the
   * last one answered, when the school changed its merchant that day — or the platform's own.
   */
  async checkNow(input: CheckBillInput): Promise<BillCheckRow> {
    if (input.bill_date >= billDateOf(new Date())) throw new AppError('payments.bill_date_future');
    let merchants = [this.provider.platformSubMchid()];
    if (input.school_id !== undefined) {
      const { from, to } = billDaySpan(input.bill_date);
      merchants = await this.repo.schoolMerchants(input.school_id, from, to);
      if (!merchants.length) throw new AppError('payments.school_no_merchant');
    }
    let id = 0;
    for (const subMchid of merchants) {
      try {
        id = await this.reconcile(subMchid, input.bill_date);
      } catch (err) {
        if (err instanceof BillNotReady) throw new AppError('payments.bill_not_ready');
        throw err;
      }
    }
    return this.checkRow(this.db, id);
  }

  /**
   * The hourly job: the previous bill day's bill of every merchant that could have one, from 10:00 China time. Those
   * already reconciled (matched or differences) are not asked again; a failed one is; a bill WeChat is still making
   * leaves no row and is asked for at the next run.
   */
  async runDaily(now: Date): Promise<DailyRun | null> {
    // WeChat makes the bills of the day before from 09:00 China time, ready by 10:00: asking earlier only hears "not yet"
    if (localTime(now, WECHAT_BILL_ZONE) < BILLS_READY_AT) return null;
    const billDate = previousBillDate(now);
    const { from, to } = billDaySpan(billDate);
    // every merchant that could have a bill of that day, in one query: the platform's own, each school's current at any
    // moment of the day, and any a payment was paid with or a refund finished from that day (a merchant since withdrawn)
    const due = await this.repo.dueMerchants(this.provider.platformSubMchid(), from, to, billDate);
    const run: DailyRun = { bill_date: billDate, checked: 0, not_ready: 0 };
    for (const sub_mchid of due) {
      try {
        await this.reconcile(sub_mchid, billDate);
        run.checked++;
      } catch (err) {
        if (err instanceof BillNotReady) {
          run.not_ready++;
          continue;
        }
        // one merchant's trouble (the database) does not keep the others from being reconciled; the next run retries it
        this.log.error({ err, sub_mchid, bill_date: billDate }, 'reconciliation: a merchant could not be reconciled');
      }
    }
    if (run.not_ready) this.log.info({ bill_date: billDate, not_ready: run.not_ready }, 'reconciliation: bills not ready yet, asked again next hour');
    return run;
  }

  /**
   * Fetches one merchant's bill of one day and compares it with what was recorded; upserts its check (a re-check
   * replaces the counts) and appends the differences not already listed. Answers the check's id. A bill that cannot
   * be fetched or read is a failed check (its error kept, nothing compared); BillNotReady is thrown (no row).
   */
  async reconcile(subMchid: string, billDate: string): Promise<number> {
    const { from, to } = billDaySpan(billDate);
    const schoolId = await this.schoolOfMerchant(subMchid, from, to);
    let bill: TradeBill;
    try {
      const text = await this.provider.tradeBill(subMchid, billDate);
      // no bill (NO_STATEMENT_EXIST): WeChat saw no trade that day, which is a bill without lines
      bill = text === null ? emptyBill() : parseTradeBill(text);
      const stranger = [...bill.payments, ...bill.refunds].find((l) => l.subMchid !== subMchid);
      if (stranger) throw new Error(`the bill of ${subMchid} lists a line of sub-merchant ${stranger.subMchid || '(none)'}`);
    } catch (err) {
      if (err instanceof BillNotReady) throw err;
      const error = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
      this.log.warn({ sub_mchid: subMchid, school_id: schoolId, bill_date: billDate, error }, 'reconciliation: the trade bill could not be read');
      return this.save(subMchid, schoolId, billDate, { state: 'failed', error }, []);
    }

    const found = compareBill(subMchid, bill, await this.recorded(subMchid, bill, from, to));
    if (found.length) {
      const count = (kind: Kind) => found.filter((f) => f.kind === kind).length;
      this.log.warn(
        {
          sub_mchid: subMchid,
          school_id: schoolId,
          bill_date: billDate,
          differences: found.length,
          missing_here: count('missing_here'),
          missing_there: count('missing_there'),
          amount_differs: count('amount_differs'),
        },
        'reconciliation: the trade bill differs from the payments recorded',
      );
    }
    return this.save(
      subMchid,
      schoolId,
      billDate,
      {
        state: found.length ? 'differences' : 'matched',
        bill_lines: bill.payments.length + bill.refunds.length,
        payments_fen: bill.payments.reduce((s, l) => s + l.amountFen, 0),
        refunds_fen: bill.refunds.reduce((s, l) => s + l.amountFen, 0),
        differences: found.length,
      },
      found,
    );
  }

  /** What we recorded for the comparison: four reads, whatever the number of lines. */
  private async recorded(subMchid: string, bill: TradeBill, from: Date, to: Date): Promise<Recorded> {
    const [paymentsInDay, paymentsListed, refundsInDay, refundsListed] = await Promise.all([
      this.repo.paymentsInDay(subMchid, from, to),
      bill.payments.length ? this.repo.paymentsListed(bill.payments.map((l) => l.outTradeNo)) : [],
      this.repo.refundsInDay(subMchid, from, to),
      bill.refunds.length ? this.repo.refundsListed(bill.refunds.map((l) => l.outRefundNo)) : [],
    ]);
    return { paymentsInDay, paymentsListed, refundsInDay, refundsListed };
  }

  /**
   * Upserts the check and appends the differences in one transaction. A difference found again is not added twice: the
   * unique key (sub_mchid, bill_date, line, out_trade_no, out_refund_no) compares a payment line's null out_refund_no
   * too (nulls not distinct).
   */
  private async save(
    subMchid: string,
    schoolId: number | null,
    billDate: string,
    c: { state: BillCheckRow['state']; bill_lines?: number; payments_fen?: number; refunds_fen?: number; differences?: number; error?: string },
    found: FoundDifference[],
  ): Promise<number> {
    return this.db.transaction(async (em) => {
      const id = await this.repo.saveCheck(em, {
        sub_mchid: subMchid,
        school_id: schoolId,
        bill_date: billDate,
        state: c.state,
        bill_lines: c.bill_lines ?? 0,
        payments_fen: c.payments_fen ?? 0,
        refunds_fen: c.refunds_fen ?? 0,
        differences: c.differences ?? 0,
        error: c.error ?? null,
      });
      if (found.length) await this.repo.addDifferences(em, { id, subMchid, schoolId, billDate }, found);
      return id;
    });
  }

  /**
   * The school a merchant was that day: the school whose record of it was current then (the latest, should two have
   * held it in turn), else the school of a parent's payment made with it; none for the platform's own.
   */
  private async schoolOfMerchant(subMchid: string, from: Date, to: Date): Promise<number | null> {
    if (subMchid === this.provider.platformSubMchid()) return null;
    return this.repo.schoolOfMerchant(subMchid, from, to);
  }

  private async checkRow(q: Queryable, id: number): Promise<BillCheckRow> {
    return toCheck(await this.repo.check(q, id));
  }
}

function emptyBill(): TradeBill {
  return {
    payments: [],
    refunds: [],
    summary: { lines: 0, settlementFen: 0, refundFen: 0, couponRefundFen: 0, feeMicroYuan: 0, orderFen: 0, appliedRefundFen: 0 },
  };
}
