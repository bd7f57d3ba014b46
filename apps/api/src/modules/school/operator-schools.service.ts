import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ledgerPage, paymentPage, setPrices } from './school.repository';
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
    const rows: Array<Record<string, unknown> & { total: number; id: number | null }> = await this.db.query(
      `with f as (
         select s.* from schools s where $1::text is null or strpos(lower(s.name), lower($1)) > 0 or strpos(coalesce(s.contact_phone, ''), $1) > 0
       ), p as (
         select * from f order by f.created_at desc, f.id desc limit $2 offset $3
       )
       select c.total, p.id, p.name, p.city, p.contact_name, p.contact_phone, p.balance_fen::float8 as balance_fen, p.service_expires_at,
              p.term_price_fen::float8 as term_price_fen, p.year_price_fen::float8 as year_price_fen, p.created_at,
              coalesce(st.n, 0)::int as students, coalesce(sf.n, 0)::int as staff, m.sub_mchid
         from (select count(*)::int as total from f) c
         left join p on true
         left join school_sub_merchants m on m.school_id = p.id and m.ended_at is null
         left join (select school_id, count(*) as n from students where school_id in (select id from p) and archived_at is null group by school_id) st on st.school_id = p.id
         left join (select school_id, count(*) as n from users where school_id in (select id from p) and role in (1, 2, 5) and deleted_at is null group by school_id) sf on sf.school_id = p.id
        order by p.created_at desc nulls last, p.id desc`,
      [q.keyword ?? null, q.limit, offsetOf(q)],
    );
    const list = rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        id: r.id as number,
        name: r.name as string,
        city: r.city as string | null,
        contact_name: r.contact_name as string | null,
        contact_phone: r.contact_phone as string | null,
        balance_fen: r.balance_fen as number,
        service_expires_at: (r.service_expires_at as Date | null)?.toISOString() ?? null,
        service_state: serviceState(r.service_expires_at as Date | null),
        price: priceOf({ term_price_fen: r.term_price_fen as number | null, year_price_fen: r.year_price_fen as number | null }),
        students: r.students as number,
        staff: r.staff as number,
        sub_mchid: r.sub_mchid as string | null,
        created_at: (r.created_at as Date).toISOString(),
      }));
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
