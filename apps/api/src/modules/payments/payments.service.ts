import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PAYMENT_TIMING, payeeOf, Role, type PayChannel, type PaymentState, type PendingPayment } from '@wantuo/shared';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { DomainEvents } from '../../core/events/domain-events';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { JobsService } from '../../core/jobs/jobs.service';
import { LOGGER } from '../../core/logging/logger';
import { newOutTradeNo } from './out-trade-no';
import { PaymentsRepository } from './payments.repository';
import { NotifyRefused, PaymentProvider, type PayMerchant, type ProviderTransaction } from './provider';
import { PaymentSettlers } from './settlers';
import { SubMerchantsService } from './sub-merchants.service';

/** What a module asks to be paid through the provider. */
export interface WechatPaymentRequest {
  schoolId: number;
  userId: number;
  /** the settler's kind (top_up, school_renewal, …) and what it pays for */
  kind: string;
  refId: string | null;
  amountFen: number;
  /** shown to the payer by the provider (at most 127 bytes there) */
  description: string;
  meta?: Record<string, unknown>;
  /** how the payer pays (Native QR unless told): JSAPI inside WeChat (by the payer's openid), H5 in a phone browser */
  channel?: PayChannel;
  /** the payer's IP (H5 orders carry it in scene_info) */
  clientIp?: string;
}

/** The first letter of an out_trade_no by kind, so a number read aloud says what it was for. */
const PREFIX: Record<string, string> = { top_up: 'T', school_renewal: 'R' };

/**
 * Provider payments (design.md §5a): one row per payment with a unique out_trade_no, the Native order at the provider,
 * and ONE idempotent "mark paid" that the verified notify, the `payments.check` job and the payer's polling all end in:
 * it locks the row, checks the amount, marks it paid and runs the kind's settler in the same transaction, exactly once;
 * then emits `payment.paid`.
 */
@Injectable()
export class PaymentsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: PaymentsRepository,
    private readonly provider: PaymentProvider,
    private readonly settlers: PaymentSettlers,
    private readonly events: DomainEvents,
    private readonly jobs: JobsService,
    private readonly merchants: SubMerchantsService,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /**
   * A pending payment and how to pay it: the row first (so a notify always finds it), then the provider's order of the
   * channel — Native (its QR), JSAPI (the bridge's parameters, for the payer's openid of the merchant's app id: a
   * guardian not bound to WeChat is refused before anything is written) or H5 (WeChat's cashier page). Whatever the
   * channel, the notify, the check job and the polling end in the one markPaid.
   */
  async startWechat(r: WechatPaymentRequest): Promise<PendingPayment> {
    const channel = r.channel ?? 'native';
    // who receives it (design.md §5b2): the one rule, by the kind and whether the payer is a parent
    const role = await this.repo.roleOf(r.userId);
    const payee = payeeOf(r.kind, role === Role.Parent ? 'parent' : 'staff');
    const merchant = await this.merchants.merchantFor(this.db, r.schoolId, payee);
    let openid: string | null = null;
    let openidOf: 'sp' | 'sub' = 'sp';
    if (channel === 'jsapi') {
      // the payer's openid of the sub-merchant's own official account when it has one and the payer is bound to it,
      // else of the service provider's (sp_openid); not bound at all, or only under another account: say so
      const b = await this.repo.bindings(r.userId, this.provider.appId(), merchant.subAppid ?? null);
      if (!b) throw new AppError('payments.wechat_not_bound');
      if (b.sub) {
        openid = b.sub;
        openidOf = 'sub';
      } else if (b.sp) {
        openid = b.sp;
      } else {
        throw new AppError('payments.wechat_other_account');
      }
    }
    if (channel === 'h5' && !r.clientIp) throw new Error("an H5 order needs the payer's IP");
    const outTradeNo = newOutTradeNo(PREFIX[r.kind] ?? 'P');
    const row = await this.repo.insertPending(
      {
        school_id: r.schoolId,
        out_trade_no: outTradeNo,
        kind: r.kind,
        ref_id: r.refId,
        description: r.description.slice(0, 127),
        amount_fen: r.amountFen,
        method: 'wechat',
        meta: JSON.stringify(r.meta ?? {}),
        created_by: r.userId,
        channel,
        payee,
        sub_mchid: merchant.subMchid,
        sub_appid: openidOf === 'sub' ? merchant.subAppid : null,
        payer_openid_kind: channel === 'jsapi' ? openidOf : null,
      },
      PAYMENT_TIMING.closeAfterMinutes,
    );
    const expiresAt = row.expires_at!;
    const order = {
      merchant: { subMchid: merchant.subMchid, subAppid: openidOf === 'sub' ? merchant.subAppid : null },
      outTradeNo,
      description: r.description,
      amountFen: r.amountFen,
      expiresAt,
      notifyUrl: this.provider.notifyUrl(),
    };
    const base = { out_trade_no: outTradeNo, amount_fen: r.amountFen, expires_at: expiresAt.toISOString() };
    let pending: PendingPayment;
    try {
      if (channel === 'jsapi') {
        const { prepayId } = await this.provider.createJsapi({ ...order, openid: openid!, openidOf });
        await this.repo.setOrder(row.id, 'prepay_id', prepayId);
        const appId = openidOf === 'sub' ? merchant.subAppid! : this.provider.appId();
        pending = { ...base, channel, jsapi: this.provider.jsapiParams(prepayId, appId) };
      } else if (channel === 'h5') {
        const { h5Url } = await this.provider.createH5({ ...order, clientIp: r.clientIp! });
        await this.repo.setOrder(row.id, 'h5_url', h5Url);
        pending = { ...base, channel, h5_url: h5Url };
      } else {
        const { codeUrl } = await this.provider.createNative(order);
        await this.repo.setOrder(row.id, 'code_url', codeUrl);
        pending = { ...base, channel: 'native', code_url: codeUrl };
      }
    } catch (err) {
      this.log.error({ err, outTradeNo, channel, subMchid: merchant.subMchid }, 'provider refused or did not answer an order');
      await this.repo.closeRefused(row.id);
      // WeChat refusing the sub-merchant (NO_AUTH: not bound to the service provider, or its product not open) is the
      // school's account, not WeChat being down: the parent is told to pay at the desk
      const code = (err as { response?: { data?: { code?: unknown } } }).response?.data?.code;
      if (payee === 'school' && code === 'NO_AUTH') throw new AppError('payments.merchant_unavailable');
      throw new AppError('payments.provider_unavailable');
    }
    await this.jobs.enqueue('payments.check', { out_trade_no: outTradeNo }, { delayMs: PAYMENT_TIMING.firstCheckSeconds * 1000 });
    return pending;
  }

  /**
   * Marks a payment paid from what the provider says (a verified notify or a query): unknown orders and amounts that
   * differ from the order are refused (NotifyRefused) and credit nothing; a payment already paid answers `already`.
   */
  async markPaid(t: ProviderTransaction): Promise<'paid' | 'already'> {
    if (t.tradeState !== 'SUCCESS') throw new NotifyRefused(400, `trade_state ${t.tradeState} is not a payment`);
    const result = await this.db.transaction(async (em) => {
      const p = await this.repo.lockPaid(em, t.outTradeNo);
      if (!p || p.method !== 'wechat') throw new NotifyRefused(404, `unknown order ${t.outTradeNo.slice(0, 40)}`);
      // the money must have reached the merchant the order was made with (a school's sub-merchant, the platform's own)
      if ((t.subMchid ?? null) !== p.sub_mchid) throw new NotifyRefused(400, `order ${t.outTradeNo.slice(0, 40)} was paid to another merchant`);
      if (t.amountFen !== p.amount_fen) throw new NotifyRefused(400, `amount ${t.amountFen} differs from the order's ${p.amount_fen}`);
      if (p.state === 'paid' || p.state === 'refunded') return { status: 'already' as const, payment: p };
      // a closed order the payer still managed to pay is paid: the money arrived
      await this.repo.markPaid(em, p.id, t.successTime, t.transactionId);
      await this.settlers.settle(em, p);
      return { status: 'paid' as const, payment: p };
    });
    if (result.status === 'paid') {
      const p = result.payment;
      this.events.emit('payment.paid', {
        school_id: p.school_id,
        out_trade_no: p.out_trade_no,
        kind: p.kind,
        ref_id: p.ref_id,
        amount_fen: p.amount_fen,
      });
    }
    return result.status;
  }

  /**
   * The payer's polling: the state of one of the school's payments. A pending provider payment is asked at the
   * provider, so a lost notify still ends in "paid".
   */
  async state(user: SessionUser, outTradeNo: string): Promise<PaymentState> {
    // a caller without a school has none of a school's payments
    const schoolId = user.schoolId;
    if (schoolId === null) throw new AppError('payments.not_found');
    // a parent sees only the payments they started
    const read = () => this.repo.polled(schoolId, outTradeNo, user.role === Role.Parent ? user.id : null);
    let p = await read();
    if (!p) throw new AppError('payments.not_found');
    if (p.state === 'pending' && p.method === 'wechat') {
      await this.reconcile(outTradeNo).catch((err) => this.log.warn({ err, outTradeNo }, 'payment state could not be asked at the provider'));
      p = (await read())!;
    }
    const { method: _m, created_by: _c, ...state } = p;
    return {
      ...state,
      paid_at: state.paid_at ? new Date(state.paid_at).toISOString() : null,
      expires_at: state.expires_at ? new Date(state.expires_at).toISOString() : null,
    };
  }

  /**
   * Asks the provider about a pending payment: paid → mark paid; closed there → closed here; open past its time →
   * closed at the provider and here. Answers whether it is still pending.
   */
  async reconcile(outTradeNo: string): Promise<boolean> {
    const p = await this.repo.toReconcile(outTradeNo);
    if (!p || p.state !== 'pending') return false;
    const merchant: PayMerchant = { subMchid: p.sub_mchid, subAppid: p.sub_appid };
    const t = await this.provider.query(outTradeNo, merchant);
    if (t.tradeState === 'SUCCESS') {
      await this.markPaid(t);
      return false;
    }
    if (t.tradeState === 'CLOSED' || t.tradeState === 'REVOKED' || p.expired) {
      if (t.tradeState !== 'CLOSED') await this.provider.close(outTradeNo, merchant);
      await this.repo.closePending(outTradeNo);
      return false;
    }
    return true;
  }

  /** The `payments.check` job: reconcile, and come back later while the payment is still open. */
  async check(outTradeNo: string): Promise<void> {
    if (await this.reconcile(outTradeNo)) {
      await this.jobs.enqueue('payments.check', { out_trade_no: outTradeNo }, { delayMs: PAYMENT_TIMING.recheckSeconds * 1000 });
    }
  }
}
