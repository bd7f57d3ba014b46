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
import { offsetOf, pageOf, totalOf, type Queryable } from '../../../core/database/sql-kit';
import { AppError } from '../../../core/http/app-error';
import type { SessionUser } from '../../../core/http/request-context';
import { LOGGER } from '../../../core/logging/logger';
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

const CHECK_COLUMNS = `c.id::int as id, to_char(c.bill_date, 'YYYY-MM-DD') as bill_date, c.sub_mchid, c.school_id, s.name as school_name, c.state,
  c.bill_lines, c.payments_fen::float8 as payments_fen, c.refunds_fen::float8 as refunds_fen, c.differences, c.error, c.checked_at`;

const DIFFERENCE_COLUMNS = `d.id::int as id, d.check_id::int as check_id, to_char(d.bill_date, 'YYYY-MM-DD') as bill_date, d.sub_mchid, d.school_id,
  s.name as school_name, d.kind, d.line, d.out_trade_no, d.out_refund_no, d.ours_fen::float8 as ours_fen, d.theirs_fen::float8 as theirs_fen,
  d.state, d.resolution, d.resolved_at, u.name as resolved_by_name, d.created_at`;

type CheckDbRow = Omit<BillCheckRow, 'checked_at'> & { checked_at: Date };
type DifferenceDbRow = Omit<BillDifferenceRow, 'resolved_at' | 'created_at'> & { resolved_at: Date | null; created_at: Date };

const toCheck = (r: CheckDbRow): BillCheckRow => ({ ...r, checked_at: new Date(r.checked_at).toISOString() });
const toDifference = (r: DifferenceDbRow): BillDifferenceRow => ({
  ...r,
  resolved_at: r.resolved_at ? new Date(r.resolved_at).toISOString() : null,
  created_at: new Date(r.created_at).toISOString(),
});

/** A school's sub-merchant record that was current at some moment of [$2, $3) (recorded before its end, not ended before its start). */
const CURRENT_WITHIN = `recorded_at < $3 and (ended_at is null or ended_at > $2)`;

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
    private readonly provider: PaymentProvider,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async checks(q: BillChecksQuery): Promise<Page<BillCheckRow>> {
    const rows: Array<CheckDbRow & { total: number }> = await this.db.query(
      `with f as (select * from payment_bill_checks where ($1::int is null or school_id = $1) and ($2::text is null or state = $2))
       select t.total, p.* from (select count(*)::int as total from f) t
       left join lateral (
         select ${CHECK_COLUMNS} from f c left join schools s on s.id = c.school_id
          order by c.bill_date desc, c.id desc limit $3 offset $4
       ) p on true`,
      [q.school_id ?? null, q.state ?? null, q.limit, offsetOf(q)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => toCheck(r));
    return pageOf(list, totalOf(rows), q);
  }

  /** Open ones first (what is left to do), then the newest. */
  async differences(q: BillDifferencesQuery): Promise<Page<BillDifferenceRow>> {
    const rows: Array<DifferenceDbRow & { total: number }> = await this.db.query(
      `with f as (
         select * from payment_bill_differences
          where ($1::int is null or school_id = $1) and ($2::bigint is null or check_id = $2) and ($3::text is null or state = $3)
       )
       select t.total, p.* from (select count(*)::int as total from f) t
       left join lateral (
         select ${DIFFERENCE_COLUMNS} from f d left join schools s on s.id = d.school_id left join users u on u.id = d.resolved_by
          order by (d.state = 'open') desc, d.created_at desc, d.id desc limit $4 offset $5
       ) p on true`,
      [q.school_id ?? null, q.check_id ?? null, q.state ?? null, q.limit, offsetOf(q)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => toDifference(r));
    return pageOf(list, totalOf(rows), q);
  }

  /** Closes an open difference with what was done, under its row lock (two operators cannot both resolve it). */
  async resolve(user: SessionUser, input: ResolveBillDifferenceInput): Promise<BillDifferenceRow> {
    return this.db.transaction(async (em) => {
      const [d]: Array<{ state: string }> = await em.query(`select state from payment_bill_differences where id = $1 for update`, [input.id]);
      if (!d) throw new AppError('payments.bill_difference_not_found');
      if (d.state !== 'open') throw new AppError('payments.bill_difference_resolved');
      await em.query(`update payment_bill_differences set state = 'resolved', resolution = $2, resolved_by = $3, resolved_at = now() where id = $1`, [
        input.id,
        input.resolution,
        user.id,
      ]);
      const [row]: DifferenceDbRow[] = await em.query(
        `select ${DIFFERENCE_COLUMNS} from payment_bill_differences d left join schools s on s.id = d.school_id left join users u on u.id = d.resolved_by where d.id = $1`,
        [input.id],
      );
      return toDifference(row);
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
      const rows: Array<{ sub_mchid: string }> = await this.db.query(
        `select sub_mchid from school_sub_merchants where school_id = $1 and ${CURRENT_WITHIN} group by sub_mchid order by max(recorded_at), sub_mchid`,
        [input.school_id, from, to],
      );
      if (!rows.length) throw new AppError('payments.school_no_merchant');
      merchants = rows.map((r) => r.sub_mchid);
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
    const due: Array<{ sub_mchid: string }> = await this.db.query(
      `with m as (
         select $1::text as sub_mchid
         union select sub_mchid from school_sub_merchants where ${CURRENT_WITHIN}
         union select sub_mchid from payments where method = 'wechat' and sub_mchid is not null and paid_at >= $2 and paid_at < $3
         union select p.sub_mchid from payment_refunds r join payments p on p.id = r.payment_id
                where r.state = 'succeeded' and r.succeeded_at >= $2 and r.succeeded_at < $3 and p.sub_mchid is not null
       )
       select m.sub_mchid from m
        where not exists (select 1 from payment_bill_checks c where c.sub_mchid = m.sub_mchid and c.bill_date = $4 and c.state in ('matched', 'differences'))
        order by m.sub_mchid`,
      [this.provider.platformSubMchid(), from, to, billDate],
    );
    const run: DailyRun = { bill_date: billDate, checked: 0, not_ready: 0 };
    for (const { sub_mchid } of due) {
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
    const schoolId = await this.schoolOf(subMchid, from, to);
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
    const paidState = `p.state in ('paid', 'refunded') and p.paid_at is not null`;
    const [paymentsInDay, paymentsListed, refundsInDay, refundsListed] = await Promise.all([
      this.db.query(
        `select p.out_trade_no, p.amount_fen::float8 as amount_fen from payments p
          where p.method = 'wechat' and p.sub_mchid = $1 and p.paid_at >= $2 and p.paid_at < $3 and ${paidState}`,
        [subMchid, from, to],
      ),
      bill.payments.length
        ? this.db.query(
            `select p.out_trade_no, p.sub_mchid, p.amount_fen::float8 as amount_fen from payments p
              where p.out_trade_no = any($1::text[]) and p.method = 'wechat' and ${paidState}`,
            [bill.payments.map((l) => l.outTradeNo)],
          )
        : [],
      this.db.query(
        `select r.out_refund_no, p.out_trade_no, r.amount_fen::float8 as amount_fen from payment_refunds r join payments p on p.id = r.payment_id
          where p.sub_mchid = $1 and r.state = 'succeeded' and r.succeeded_at >= $2 and r.succeeded_at < $3`,
        [subMchid, from, to],
      ),
      bill.refunds.length
        ? this.db.query(
            `select r.out_refund_no, p.out_trade_no, p.sub_mchid, r.amount_fen::float8 as amount_fen from payment_refunds r join payments p on p.id = r.payment_id
              where r.out_refund_no = any($1::text[]) and r.state = 'succeeded'`,
            [bill.refunds.map((l) => l.outRefundNo)],
          )
        : [],
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
      const [{ id }]: Array<{ id: number }> = await em.query(
        `insert into payment_bill_checks (sub_mchid, school_id, bill_date, state, bill_lines, payments_fen, refunds_fen, differences, error, checked_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())
         on conflict (sub_mchid, bill_date) do update set school_id = excluded.school_id, state = excluded.state, bill_lines = excluded.bill_lines,
           payments_fen = excluded.payments_fen, refunds_fen = excluded.refunds_fen, differences = excluded.differences, error = excluded.error,
           checked_at = excluded.checked_at
         returning id::int as id`,
        [subMchid, schoolId, billDate, c.state, c.bill_lines ?? 0, c.payments_fen ?? 0, c.refunds_fen ?? 0, c.differences ?? 0, c.error ?? null],
      );
      if (found.length) {
        await em.query(
          `insert into payment_bill_differences (check_id, sub_mchid, school_id, bill_date, kind, line, out_trade_no, out_refund_no, ours_fen, theirs_fen)
           select $1::bigint, $2::varchar, $3::int, $4::date, f.kind, f.line, f.out_trade_no, f.out_refund_no, f.ours_fen, f.theirs_fen
             from jsonb_to_recordset($5::jsonb) as f(kind text, line text, out_trade_no text, out_refund_no text, ours_fen bigint, theirs_fen bigint)
           on conflict (sub_mchid, bill_date, line, out_trade_no, out_refund_no) do nothing`,
          [id, subMchid, schoolId, billDate, JSON.stringify(found)],
        );
      }
      return id;
    });
  }

  /**
   * The school a merchant was that day: the school whose record of it was current then (the latest, should two have
   * held it in turn), else the school of a parent's payment made with it; none for the platform's own.
   */
  private async schoolOf(subMchid: string, from: Date, to: Date): Promise<number | null> {
    if (subMchid === this.provider.platformSubMchid()) return null;
    const [r]: Array<{ school_id: number | null }> = await this.db.query(
      `select coalesce(
         (select school_id from school_sub_merchants where sub_mchid = $1 and ${CURRENT_WITHIN} order by recorded_at desc, id desc limit 1),
         (select school_id from payments where sub_mchid = $1 and payee = 'school' and paid_at >= $2 and paid_at < $3 limit 1)
       ) as school_id`,
      [subMchid, from, to],
    );
    return r?.school_id ?? null;
  }

  private async checkRow(q: Queryable, id: number): Promise<BillCheckRow> {
    const [row]: CheckDbRow[] = await q.query(
      `select ${CHECK_COLUMNS} from payment_bill_checks c left join schools s on s.id = c.school_id where c.id = $1`,
      [id],
    );
    return toCheck(row);
  }
}

function emptyBill(): TradeBill {
  return {
    payments: [],
    refunds: [],
    summary: { lines: 0, settlementFen: 0, refundFen: 0, couponRefundFen: 0, feeMicroYuan: 0, orderFen: 0, appliedRefundFen: 0 },
  };
}
