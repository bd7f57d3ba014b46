import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { contractTerms, refundFigure, renewalStartDay, type CancelContractInput, type RefundPreview, type RenewContractInput } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { AppError } from '../../core/http/app-error';
import { ContractPayments } from './contract-payments';
import { newContractNo } from './contract-sql';
import { ContractsRepository } from './contracts.repository';
import { ContractsService, lockContract, packageOf, type ContractDetailOut, type LockedContract } from './contracts.service';

/** How a contract's refund goes back: through the provider, at the desk, or nothing was paid. */
const viaOf = (c: LockedContract): RefundPreview['via'] =>
  c.paid_fen - c.refunded_fen <= 0 ? 'none' : c.pay_method === 'wechat' ? 'wechat' : 'offline';

const figureOf = (c: LockedContract) =>
  refundFigure({
    kind: c.kind,
    list_price_fen: c.list_price_fen,
    price_fen: c.price_fen,
    paid_fen: Math.max(0, c.paid_fen - c.refunded_fen),
    start_day: c.start_day,
    end_day: c.end_day,
    units_total: c.units_total,
    units_used: c.units_used,
    today: c.today,
  });

/** Renewal and cancellation (with the refund figure) of contracts. */
@Injectable()
export class ContractLifecycleService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: ContractsRepository,
    private readonly contracts: ContractsService,
    private readonly payments: ContractPayments,
  ) {}

  /**
   * Renews a contract once: the new one starts the day after its end (or today when it has ended), at the package's
   * current price and terms. Under the contract's row lock, and backed by the unique renewed_from, so concurrent
   * renewals give one; a retry with the same request_id answers the renewal it made.
   */
  async renew(user: SchoolCaller, input: RenewContractInput): Promise<ContractDetailOut> {
    const schoolId = user.schoolId;
    const requestKey = `renew:${input.request_id}`;
    const id = await this.db.transaction(async (em) => {
      const c = await lockContract(this.repo, em, schoolId, input.id);
      const prior = await this.repo.byRequest(em, schoolId, requestKey);
      if (prior && prior.renewed_from === c.id) return prior.id;
      const next = await this.repo.renewalOf(em, c.id);
      if (next) throw new AppError('contracts.already_renewed');
      if (c.version !== input.version) throw new AppError('contracts.stale');
      if (c.status === 'cancelled') throw new AppError('contracts.not_renewable');
      if (prior) throw new AppError('contracts.v.request_id_invalid');
      const k = await packageOf(this.repo, em, schoolId, c.package_id);
      const terms = contractTerms(k, renewalStartDay(c.end_day, c.today));
      const paid = input.payment;
      const n = await this.repo.insert(
        em,
        {
          school_id: schoolId,
          no: newContractNo(c.today),
          student_id: c.student_id,
          package_id: k.id,
          kind: k.kind,
          start_day: terms.start_day,
          end_day: terms.end_day,
          units_total: terms.units_total,
          list_price_fen: k.price_fen,
          price_fen: k.price_fen,
          paid_fen: paid ? k.price_fen : 0,
          status: paid ? 'active' : 'unpaid',
          auto_renew: c.auto_renew,
          guardian_id: c.guardian_id,
          renewed_from: c.id,
          pay_method: paid?.method ?? null,
          receipt_no: paid?.receipt_no || null,
          request_key: requestKey,
          created_by: user.id,
        },
        'any',
      );
      if (!n) throw new AppError('contracts.already_renewed');
      await this.repo.touch(em, c.id);
      await this.repo.appendEvent(em, { schoolId, contractId: c.id, type: 'renewed', actorId: user.id, data: { to_id: n.id, to_no: n.no } });
      await this.repo.appendEvent(em, {
        schoolId,
        contractId: n.id,
        type: 'renewed',
        actorId: user.id,
        data: { from_id: c.id, from_no: c.no, package_id: k.id, package_name: k.name, ...terms, price_fen: k.price_fen },
      });
      if (paid)
        await this.repo.appendEvent(em, {
          schoolId,
          contractId: n.id,
          type: 'paid',
          actorId: user.id,
          data: { amount_fen: k.price_fen, method: paid.method, receipt_no: paid.receipt_no ?? null },
        });
      return n.id;
    });
    return this.contracts.changed(schoolId, await this.contracts.info(schoolId, id));
  }

  /** The refund a cancellation would give today (school-local), and how it would go back. */
  async refundPreview(user: SchoolCaller, id: number): Promise<RefundPreview> {
    const c = await lockContract(this.repo, this.db.manager, user.schoolId, id, false);
    if (c.status !== 'unpaid' && c.status !== 'active') throw new AppError('contracts.not_cancellable');
    const f = figureOf(c);
    return { contract_id: c.id, ...f, via: viaOf(c) };
  }

  /**
   * Cancels a contract with a reason: the refund is recomputed and must equal what was shown (refund_fen); the contract
   * is cancelled with the refund recorded in one transaction; a WeChat payment is then refunded through the provider
   * (RefundsService, idempotent by the request key: a retry of the same cancellation asks again, never refunds twice).
   */
  async cancel(user: SchoolCaller, input: CancelContractInput): Promise<ContractDetailOut> {
    const schoolId = user.schoolId;
    const requestKey = `cancel:${input.request_id}`;
    const wechat = await this.db.transaction(async (em) => {
      const c = await lockContract(this.repo, em, schoolId, input.id);
      if (c.status === 'cancelled') {
        const prior = await this.repo.cancellation(em, c.id, requestKey);
        if (!prior) throw new AppError('contracts.not_cancellable');
        const d = prior.data;
        return d.via === 'wechat' && d.out_trade_no && (d.refund_fen ?? 0) > 0
          ? { outTradeNo: d.out_trade_no, amountFen: d.refund_fen!, reason: input.reason }
          : null;
      }
      if (c.version !== input.version) throw new AppError('contracts.stale');
      if (c.status !== 'unpaid' && c.status !== 'active') throw new AppError('contracts.not_cancellable');
      const f = figureOf(c);
      const via = viaOf(c);
      if (f.refund_fen !== input.refund_fen) throw new AppError('contracts.refund_changed', { refund: (f.refund_fen / 100).toFixed(2) });
      if (via === 'offline' && f.refund_fen > 0 && !input.refund_method) throw new AppError('contracts.refund_method_required');
      const outTradeNo = via === 'wechat' && f.refund_fen > 0 ? await this.payments.paymentOf(em, schoolId, c.id) : null;
      if (via === 'wechat' && f.refund_fen > 0 && !outTradeNo) throw new AppError('payments.not_found');
      await this.repo.cancel(em, c.id, f.refund_fen);
      await this.repo.appendEvent(em, {
        schoolId,
        contractId: c.id,
        type: 'cancelled',
        actorId: user.id,
        reason: input.reason,
        data: { ...f, via, request_key: requestKey, out_trade_no: outTradeNo, today: c.today },
      });
      if (f.refund_fen > 0) {
        await this.repo.appendEvent(em, {
          schoolId,
          contractId: c.id,
          type: 'refunded',
          actorId: user.id,
          reason: input.reason,
          data: { amount_fen: f.refund_fen, via, method: via === 'wechat' ? 'wechat' : input.refund_method, out_trade_no: outTradeNo },
        });
      }
      return outTradeNo ? { outTradeNo, amountFen: f.refund_fen, reason: input.reason } : null;
    });
    if (wechat) await this.payments.refund({ schoolId, ...wechat, requestKey, actorId: user.id });
    return this.contracts.changed(schoolId, await this.contracts.info(schoolId, input.id));
  }
}
