import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DEFAULT_PRICE_FEN,
  formatFen,
  LEDGER_TYPE_LABELS,
  localDay,
  renewedUntil,
  serviceState,
  type BalancePaySchoolInput,
  type ConsumeLogExportQuery,
  type ConsumeLogQuery,
  type EditSchoolInfoInput,
  type PaymentState,
  type PaymentStateQuery,
  type PendingPayment,
  type RechargeInput,
  type RenewalPeriod,
  type WechatPaySchoolInput,
  type SchoolInfo,
  type SetDealPwdInput,
} from '@wantuo/shared';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { schoolCaller } from '../../core/auth/current-user.decorator';
import { schoolTimeZone } from '../../core/database/school-zone';
import { AppError } from '../../core/http/app-error';
import type { FileAnswer } from '../../core/http/send-file';
import { sheet, xlsxFile } from '../../core/http/xlsx-file';
import type { SessionUser } from '../../core/http/request-context';
import { verifyPassword } from '../auth/passwords';
import { SmsCodeService } from '../sms/sms-code.service';
import { DealPasswordService } from '../payments/deal-password.service';
import { lockSchool, postEntry } from '../payments/ledger';
import { newOutTradeNo } from '../payments/out-trade-no';
import { PaymentsService } from '../payments/payments.service';
import { PaymentRefunders } from '../payments/refunders';
import { PaymentSettlers, type PaidPayment } from '../payments/settlers';
import { renewFromBalance } from './balance-renewal';
import {
  credentials,
  editContact,
  ledgerExport,
  ledgerPage,
  mergePaymentMeta,
  schoolPrices,
  schoolRecord,
  serviceAndBalance,
  setServiceEnd,
} from './school.repository';
import { renewalRefunder, renewalStart, topUpRefunder } from './school-refunds';

/** The school's own row as the admin sees it (`s`). */

/** The platform's price for a school: what the operator set, else the list price. */
export function priceOf(s: { term_price_fen: number | null; year_price_fen: number | null }): { term_fen: number; year_fen: number } {
  return { term_fen: s.term_price_fen ?? DEFAULT_PRICE_FEN.term, year_fen: s.year_price_fen ?? DEFAULT_PRICE_FEN.year };
}

/** The payment kinds of this module: the settlers registered for them are settleTopUp and settleRenewal. */
export const RENEWAL_KIND = 'school_renewal';
export const TOP_UP_KIND = 'top_up';
const PERIOD_LABEL: Record<RenewalPeriod, string> = { term: '一学期', year: '一年' };
/** An export holds at most this many entries (the newest). */
const LEDGER_EXPORT_MAX_ROWS = 50_000;

/** The institution admin's school account: details, price, payment password, the ledger and paying the renewal. */
@Injectable()
export class SchoolService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly dealPwd: DealPasswordService,
    private readonly smsCodes: SmsCodeService,
    private readonly payments: PaymentsService,
    settlers: PaymentSettlers,
    refunders: PaymentRefunders,
  ) {
    settlers.register(TOP_UP_KIND, (em, p) => this.settleTopUp(em, p));
    settlers.register(RENEWAL_KIND, (em, p) => this.settleRenewal(em, p));
    refunders.register(TOP_UP_KIND, topUpRefunder);
    refunders.register(RENEWAL_KIND, renewalRefunder);
  }

  async info(user: SessionUser): Promise<SchoolInfo> {
    const s = await schoolRecord(this.db, schoolCaller(user).schoolId);
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
    const s = await schoolPrices(this.db, schoolCaller(user).schoolId);
    if (!s) throw new AppError('school.not_found');
    return priceOf(s);
  }

  /** Contact details; the write lands only on the version the admin read. */
  async edit(user: SessionUser, input: EditSchoolInfoInput): Promise<SchoolInfo> {
    const edited = await editContact(this.db, schoolCaller(user).schoolId, input.version, {
      contact_name: input.contact_name || null,
      contact_phone: input.contact_phone,
      city: input.city || null,
      address: input.address || null,
    });
    if (!edited) throw new AppError('error.conflict');
    return this.info(user);
  }

  /** Sets or changes the payment password, proven by the account password or an SMS code (event dealpwd) to the admin's mobile. */
  async setDealPwd(user: SessionUser, input: SetDealPwdInput): Promise<Record<string, never>> {
    const me = await credentials(this.db, user.id);
    if (input.password !== undefined) {
      if (!(await verifyPassword(me?.password_hash ?? null, input.password))) throw new AppError('auth.old_password_wrong');
    } else {
      if (!me?.mobile || !(await this.smsCodes.consume(me.mobile, 'dealpwd', input.code!))) throw new AppError('auth.bad_sms_code');
    }
    await this.dealPwd.set(schoolCaller(user).schoolId, input.deal_pwd);
    return {};
  }

  /** The ledger, newest first, with the balance after each entry; rows and total in one query. */
  consumeLog(user: SessionUser, q: ConsumeLogQuery) {
    return ledgerPage(this.db, { schoolId: schoolCaller(user).schoolId, type: q.type, from: q.from, to: q.to }, q);
  }

  /** The ledger with the list's filters as an .xlsx (times in the school's timezone, amounts in yuan), newest first. */
  async consumeLogExport(user: SessionUser, q: ConsumeLogExportQuery): Promise<FileAnswer> {
    const rows = await ledgerExport(this.db, { schoolId: schoolCaller(user).schoolId, type: q.type, from: q.from, to: q.to }, LEDGER_EXPORT_MAX_ROWS);
    const stamp = localDay(new Date(), await schoolTimeZone(this.db, schoolCaller(user).schoolId)).replace(/-/g, '');
    return xlsxFile(`账户流水-${stamp}.xlsx`, [
      sheet({
        name: '账户流水',
        rows,
        columns: [
          { header: '时间', value: (r) => r.at, width: 20 },
          { header: '类型', value: (r) => LEDGER_TYPE_LABELS[r.type].zh, width: 10 },
          { header: '金额（元）', value: (r) => r.amount_fen, money: true, width: 14 },
          { header: '余额（元）', value: (r) => r.balance_after_fen, money: true, width: 14 },
          { header: '关联单号', value: (r) => r.ref_id, width: 30 },
          { header: '操作人', value: (r) => r.actor_name, width: 12 },
          { header: '备注', value: (r) => r.note, width: 30 },
        ],
      }),
    ]);
  }

  /**
   * Renews the service from the balance: payment password, then in one transaction under the school's row lock the
   * debit, the payment row and the new expiry (from the later of now and the current expiry). A retry with the same
   * request_id is answered from the payment it made, never charged twice.
   */
  /** A top-up by WeChat Pay: a pending payment and its QR; the verified payment credits the wallet once (settleTopUp). */
  async recharge(user: SessionUser, input: RechargeInput): Promise<PendingPayment> {
    return this.payments.startWechat({
      schoolId: schoolCaller(user).schoolId,
      userId: user.id,
      kind: TOP_UP_KIND,
      refId: String(user.schoolId),
      amountFen: input.amount_fen,
      description: `账户充值 ${formatFen(input.amount_fen)} 元`,
    });
  }

  /** The renewal by WeChat Pay: the price of the period now; the verified payment extends the service (settleRenewal). */
  async wechatPay(user: SessionUser, input: WechatPaySchoolInput): Promise<PendingPayment> {
    const price = await this.price(user);
    return this.payments.startWechat({
      schoolId: schoolCaller(user).schoolId,
      userId: user.id,
      kind: RENEWAL_KIND,
      refId: String(user.schoolId),
      amountFen: input.period === 'term' ? price.term_fen : price.year_fen,
      description: `平台服务续费（${PERIOD_LABEL[input.period]}）`,
      meta: { period: input.period },
    });
  }

  paymentState(user: SessionUser, q: PaymentStateQuery): Promise<PaymentState> {
    return this.payments.state(user, q.out_trade_no);
  }

  /** Settles a paid top-up: one credit, keyed by the payment, in the transaction that marks it paid. */
  async settleTopUp(em: EntityManager, p: PaidPayment): Promise<void> {
    const posted = await postEntry(em, {
      schoolId: p.school_id,
      type: 'top_up',
      amountFen: p.amount_fen,
      refKind: TOP_UP_KIND,
      refId: p.out_trade_no,
      paymentId: p.id,
      actorId: p.created_by,
      note: '微信支付充值',
      key: `pay:${p.out_trade_no}`,
    });
    if (!posted) throw new Error(`top-up ${p.out_trade_no} could not be credited`);
  }

  /** Settles a paid renewal: the service extends from the later of now and the current expiry. */
  async settleRenewal(em: EntityManager, p: PaidPayment): Promise<void> {
    const s = await lockSchool(em, p.school_id);
    if (!s) throw new Error(`renewal ${p.out_trade_no}: no school ${p.school_id}`);
    const period = p.meta.period === 'year' ? 'year' : 'term';
    const now = new Date();
    const until = renewedUntil(s.service_expires_at, period, now, s.timezone);
    await setServiceEnd(em, p.school_id, until);
    // the span bought (start → until): a refund takes back its share of it (refundRenewal)
    const bought = { from: s.service_expires_at, start: renewalStart(s.service_expires_at, now), until };
    await mergePaymentMeta(em, p.id, bought);
  }

  async balancePay(user: SessionUser, input: BalancePaySchoolInput): Promise<{ service_expires_at: string; balance_fen: number }> {
    const schoolId = schoolCaller(user).schoolId;
    await this.dealPwd.verify(schoolId, input.deal_pwd);
    const r = await renewFromBalance(this.db, {
      schoolId,
      period: input.period,
      key: `renew:${input.request_id ?? randomUUID()}`,
      outTradeNo: newOutTradeNo('R'),
      kind: RENEWAL_KIND,
      description: `平台服务续费（${PERIOD_LABEL[input.period]}）`,
      actorId: user.id,
    });
    if (r.outcome === 'no_school') throw new AppError('school.not_found');
    if (r.outcome === 'insufficient') throw new AppError('school.balance_insufficient', { balance: r.balance_fen / 100, amount: r.amount_fen / 100 });
    if (r.outcome === 'charged') return { service_expires_at: r.service_expires_at.toISOString(), balance_fen: r.balance_fen };
    // a retry of a payment already made: answered with the school as it is now, charged nothing
    const now = await serviceAndBalance(this.db, schoolId);
    return { service_expires_at: new Date(now.service_expires_at ?? 0).toISOString(), balance_fen: now.balance_fen };
  }
}
