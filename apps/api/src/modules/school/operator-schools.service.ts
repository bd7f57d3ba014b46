import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ledgerPage, operatorSchoolPage, paymentPage, setPrices } from './school.repository';
import {
  serviceState,
  type AdjustBalanceInput,
  type Page,
  type RefundResult,
  type RefundSchoolPaymentInput,
  type SchoolPaymentsQuery,
  type SchoolLedgerQuery,
  type SchoolListQuery,
  type SetSchoolPriceInput,
  type OperatorSchoolRow,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { entryByKey, lockSchool, postEntry } from '../payments/ledger';
import { RefundsService } from '../payments/refunds.service';
import { priceOf } from './school.service';

/** The platform operator's side of schools: the list with money and size, the renewal price, manual adjustments, refunds. */
@Injectable()
export class OperatorSchoolsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly refunds: RefundsService,
  ) {}

  /** Schools newest first with balance, expiry, price and head counts; counts by one grouped pass each, not per row. */
  async list(q: SchoolListQuery): Promise<Page<OperatorSchoolRow>> {
    const rows = await operatorSchoolPage(this.db, q.keyword ?? null, q.limit, offsetOf(q));
    const list = rows.flatMap(({ total: _, id, service_expires_at, term_price_fen, year_price_fen, created_at, ...r }) =>
      id === null
        ? []
        : [
            {
              id,
              name: r.name!,
              city: r.city,
              contact_name: r.contact_name,
              contact_phone: r.contact_phone,
              balance_fen: r.balance_fen,
              service_expires_at: service_expires_at?.toISOString() ?? null,
              service_state: serviceState(service_expires_at),
              price: priceOf({ term_price_fen, year_price_fen }),
              students: r.students,
              staff: r.staff,
              sub_mchid: r.sub_mchid,
              created_at: created_at!.toISOString(),
            },
          ],
    );
    return pageOf(list, totalOf(rows), q);
  }

  async setPrice(input: SetSchoolPriceInput): Promise<{ term_fen: number; year_fen: number }> {
    if (!(await setPrices(this.db, input.school_id, input.term_fen, input.year_fen))) throw new AppError('school.not_found');
    return { term_fen: input.term_fen, year_fen: input.year_fen };
  }

  /** A manual credit or debit with a reason: an `adjustment` entry; a request_id already used answers its entry. */
  async adjust(user: SessionUser, input: AdjustBalanceInput): Promise<{ balance_fen: number; entry_id: number }> {
    const key = `adjust:${input.request_id}`;
    return this.db.transaction(async (em) => {
      const s = await lockSchool(em, input.school_id);
      if (!s) throw new AppError('school.not_found');
      const prior = await entryByKey(em, s.id, key);
      if (prior) return { balance_fen: s.balance_fen, entry_id: prior.id };
      const entry = await postEntry(em, {
        schoolId: s.id,
        type: 'adjustment',
        amountFen: input.amount_fen,
        refKind: null,
        refId: null,
        paymentId: null,
        actorId: user.id,
        note: input.reason,
        key,
      });
      if (!entry) throw new AppError('school.balance_insufficient', { balance: s.balance_fen / 100, amount: -input.amount_fen / 100 });
      return { balance_fen: entry.balance_after_fen, entry_id: entry.id };
    });
  }

  ledger(q: SchoolLedgerQuery) {
    return ledgerPage(this.db, { schoolId: q.school_id }, q);
  }

  /** A school's payments, newest first, with what was refunded of each; rows and total in one query. */
  payments(q: SchoolPaymentsQuery) {
    return paymentPage(this.db, q.school_id, q.state ?? null, q);
  }

  /** Refunds one of the school's payments (all that is left unless an amount is given); idempotent by request_id. */
  refund(user: SessionUser, input: RefundSchoolPaymentInput): Promise<RefundResult> {
    return this.refunds.refund({
      schoolId: input.school_id,
      outTradeNo: input.out_trade_no,
      amountFen: input.amount_fen,
      reason: input.reason,
      requestKey: `operator:${input.request_id}`,
      actorId: user.id,
    });
  }
}
