import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DEFAULT_PRICE_FEN,
  renewedUntil,
  serviceState,
  type BalancePaySchoolInput,
  type ConsumeLogQuery,
  type EditSchoolInfoInput,
  type LedgerEntry,
  type Page,
  type RenewalPeriod,
  type SchoolInfo,
  type SetDealPwdInput,
} from '@wantuo/shared';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { verifyPassword } from '../auth/passwords';
import { SmsCodeService } from '../sms/sms-code.service';
import { DealPasswordService } from '../payments/deal-password.service';
import { entryByKey, LEDGER_COLUMNS, lockSchool, postEntry } from '../payments/ledger';
import { newOutTradeNo } from '../payments/out-trade-no';

/** The school's own row as the admin sees it (`s`). */
const SCHOOL_COLUMNS = `s.id, s.name, s.timezone, s.contact_name, s.contact_phone, s.city, s.address, s.balance_fen::float8 as balance_fen,
  s.service_expires_at, s.term_price_fen::float8 as term_price_fen, s.year_price_fen::float8 as year_price_fen,
  s.deal_pwd_hash is not null as has_deal_pwd, case when s.deal_pwd_locked_until > now() then s.deal_pwd_locked_until end as deal_pwd_locked_until,
  s.version`;

type SchoolRow = Omit<SchoolInfo, 'service_state' | 'price' | 'service_expires_at' | 'deal_pwd_locked_until'> & {
  service_expires_at: Date | null;
  deal_pwd_locked_until: Date | null;
  term_price_fen: number | null;
  year_price_fen: number | null;
};

/** The platform's price for a school: what the operator set, else the list price. */
export function priceOf(s: { term_price_fen: number | null; year_price_fen: number | null }): { term_fen: number; year_fen: number } {
  return { term_fen: s.term_price_fen ?? DEFAULT_PRICE_FEN.term, year_fen: s.year_price_fen ?? DEFAULT_PRICE_FEN.year };
}

const periodPrice = (s: { term_price_fen: number | null; year_price_fen: number | null }, period: RenewalPeriod) =>
  period === 'term' ? priceOf(s).term_fen : priceOf(s).year_fen;

/** What the school renewal payment carries, for the ledger and the payment row. */
export const RENEWAL_KIND = 'school_renewal';

/** The institution admin's school account: details, price, payment password, the ledger and paying the renewal. */
@Injectable()
export class SchoolService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly dealPwd: DealPasswordService,
    private readonly smsCodes: SmsCodeService,
  ) {}

  async info(user: SessionUser): Promise<SchoolInfo> {
    const [s]: SchoolRow[] = await this.db.query(`select ${SCHOOL_COLUMNS} from schools s where s.id = $1`, [user.schoolId]);
    if (!s) throw new AppError('school.not_found');
    const { term_price_fen, year_price_fen, ...rest } = s;
    return {
      ...rest,
      service_expires_at: s.service_expires_at?.toISOString() ?? null,
      service_state: serviceState(s.service_expires_at),
      price: priceOf({ term_price_fen, year_price_fen }),
      deal_pwd_locked_until: s.deal_pwd_locked_until?.toISOString() ?? null,
    };
  }

  async price(user: SessionUser): Promise<{ term_fen: number; year_fen: number }> {
    const [s]: Array<{ term_price_fen: number | null; year_price_fen: number | null }> = await this.db.query(
      `select term_price_fen::float8 as term_price_fen, year_price_fen::float8 as year_price_fen from schools where id = $1`,
      [user.schoolId],
    );
    if (!s) throw new AppError('school.not_found');
    return priceOf(s);
  }

  /** Contact details; the write lands only on the version the admin read. */
  async edit(user: SessionUser, input: EditSchoolInfoInput): Promise<SchoolInfo> {
    const rows: unknown[] = await this.db.query(
      // a CTE: TypeORM answers a bare UPDATE with [rows, count]
      `with u as (
         update schools set contact_name = $3, contact_phone = $4, city = $5, address = $6, version = version + 1, updated_at = now()
          where id = $1 and version = $2 returning id
       ) select id from u`,
      [user.schoolId, input.version, input.contact_name || null, input.contact_phone, input.city || null, input.address || null],
    );
    if (!rows.length) throw new AppError('error.conflict');
    return this.info(user);
  }

  /** Sets or changes the payment password, proven by the account password or an SMS code (event dealpwd) to the admin's mobile. */
  async setDealPwd(user: SessionUser, input: SetDealPwdInput): Promise<Record<string, never>> {
    const [me]: Array<{ password_hash: string | null; mobile: string | null }> = await this.db.query(
      `select password_hash, mobile from users where id = $1`,
      [user.id],
    );
    if (input.password !== undefined) {
      if (!(await verifyPassword(me?.password_hash ?? null, input.password))) throw new AppError('auth.old_password_wrong');
    } else {
      if (!me?.mobile || !(await this.smsCodes.consume(me.mobile, 'dealpwd', input.code!))) throw new AppError('auth.bad_sms_code');
    }
    await this.dealPwd.set(user.schoolId!, input.deal_pwd);
    return {};
  }

  /** The ledger, newest first, with the balance after each entry; rows and total in one query. */
  async consumeLog(user: SessionUser, q: ConsumeLogQuery): Promise<Page<LedgerEntry>> {
    const rows: Array<LedgerEntry & { total: number }> = await this.db.query(
      `with f as (
         select e.* from ledger_entries e, schools s
          where e.school_id = $1 and s.id = $1 and ($2::text is null or e.type = $2)
            and ($3::date is null or e.created_at >= ($3::date::timestamp at time zone s.timezone))
            and ($4::date is null or e.created_at < (($4::date + 1)::timestamp at time zone s.timezone))
       )
       select c.total, p.* from (select count(*)::int as total from f) c
       left join lateral (
         select ${LEDGER_COLUMNS} from f e left join users u on u.id = e.actor_id
          order by e.created_at desc, e.id desc limit $5 offset $6
       ) p on true`,
      [user.schoolId, q.type ?? null, q.from ?? null, q.to ?? null, q.limit, (q.page - 1) * q.limit],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as LedgerEntry);
    return { list, total: rows[0]?.total ?? 0, page: q.page, limit: q.limit };
  }

  /**
   * Renews the service from the balance: payment password, then in one transaction under the school's row lock the
   * debit, the payment row and the new expiry (from the later of now and the current expiry). A retry with the same
   * request_id is answered from the payment it made, never charged twice.
   */
  async balancePay(user: SessionUser, input: BalancePaySchoolInput): Promise<{ service_expires_at: string; balance_fen: number }> {
    const schoolId = user.schoolId!;
    await this.dealPwd.verify(schoolId, input.deal_pwd);
    const key = `renew:${input.request_id ?? randomUUID()}`;
    return this.db.transaction(async (em) => {
      const s = await lockSchool(em, schoolId);
      if (!s) throw new AppError('school.not_found');
      const prior = await entryByKey(em, schoolId, key);
      if (prior) return { service_expires_at: s.service_expires_at!.toISOString(), balance_fen: s.balance_fen };
      const amount = periodPrice(s, input.period);
      if (s.balance_fen < amount) throw new AppError('school.balance_insufficient', { balance: s.balance_fen / 100, amount: amount / 100 });
      const until = renewedUntil(s.service_expires_at, input.period);
      const outTradeNo = newOutTradeNo('R');
      const [payment]: Array<{ id: number }> = await em.query(
        `insert into payments (school_id, out_trade_no, kind, ref_id, description, amount_fen, method, state, meta, created_by, paid_at)
         values ($1, $2, $3, $4, $5, $6, 'balance', 'paid', $7, $8, now()) returning id::int as id`,
        [schoolId, outTradeNo, RENEWAL_KIND, String(schoolId), `平台服务续费（${input.period === 'term' ? '一学期' : '一年'}）`, amount,
          JSON.stringify({ period: input.period, from: s.service_expires_at, until }), user.id],
      );
      const entry = await postEntry(em, {
        schoolId,
        type: 'payment',
        amountFen: -amount,
        refKind: RENEWAL_KIND,
        refId: outTradeNo,
        paymentId: payment.id,
        actorId: user.id,
        note: input.period,
        key,
      });
      if (!entry) throw new AppError('school.balance_insufficient', { balance: s.balance_fen / 100, amount: amount / 100 });
      await em.query(`update schools set service_expires_at = $2, updated_at = now() where id = $1`, [schoolId, until]);
      return { service_expires_at: until.toISOString(), balance_fen: entry.balance_after_fen };
    });
  }
}
