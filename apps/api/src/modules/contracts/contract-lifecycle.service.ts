import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  contractTerms,
  refundFigure,
  renewalStartDay,
  type CancelContractInput,
  type ContractDetail,
  type RefundPreview,
  type RenewContractInput,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { ContractPayments } from './contract-payments';
import { appendEvent, lockContract, newContractNo, type LockedContract } from './contract-sql';
import { ContractsService, packageOf } from './contracts.service';

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
    private readonly contracts: ContractsService,
    private readonly payments: ContractPayments,
  ) {}

  /**
   * Renews a contract once: the new one starts the day after its end (or today when it has ended), at the package's
   * current price and terms. Under the contract's row lock, and backed by the unique renewed_from, so concurrent
   * renewals give one; a retry with the same request_id answers the renewal it made.
   */
  async renew(user: SessionUser, input: RenewContractInput): Promise<ContractDetail> {
    const schoolId = user.schoolId!;
    const requestKey = `renew:${input.request_id}`;
    const id = await this.db.transaction(async (em) => {
      const c = await lockContract(em, schoolId, input.id);
      const [prior]: Array<{ id: number; renewed_from: number | null }> = await em.query(
        `select id, renewed_from from contracts where school_id = $1 and request_key = $2`,
        [schoolId, requestKey],
      );
      if (prior && prior.renewed_from === c.id) return prior.id;
      const [next]: Array<{ id: number }> = await em.query(`select id from contracts where renewed_from = $1`, [c.id]);
      if (next) throw new AppError('contracts.already_renewed');
      if (c.version !== input.version) throw new AppError('contracts.stale');
      if (c.status === 'cancelled') throw new AppError('contracts.not_renewable');
      if (prior) throw new AppError('contracts.v.request_id_invalid');
      const k = await packageOf(em, schoolId, c.package_id);
      const terms = contractTerms(k, renewalStartDay(c.end_day, c.today));
      const paid = input.payment;
      const rows: Array<{ id: number; no: string }> = await em.query(
        `insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, units_total, list_price_fen, price_fen, paid_fen, status,
                                auto_renew, guardian_id, renewed_from, pay_method, receipt_no, request_key, created_by, paid_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10, $11::varchar, $12, $13, $14, $15, $16, $17, $18, case when $11::varchar = 'active' then now() end)
         on conflict do nothing returning id, no`,
        [
          schoolId,
          newContractNo(c.today),
          c.student_id,
          k.id,
          k.kind,
          terms.start_day,
          terms.end_day,
          terms.units_total,
          k.price_fen,
          paid ? k.price_fen : 0,
          paid ? 'active' : 'unpaid',
          c.auto_renew,
          c.guardian_id,
          c.id,
          paid?.method ?? null,
          paid?.receipt_no || null,
          requestKey,
          user.id,
        ],
      );
      if (!rows.length) throw new AppError('contracts.already_renewed');
      const n = rows[0];
      await em.query(`update contracts set version = version + 1, updated_at = now() where id = $1`, [c.id]);
      await appendEvent(em, { schoolId, contractId: c.id, type: 'renewed', actorId: user.id, data: { to_id: n.id, to_no: n.no } });
      await appendEvent(em, {
        schoolId,
        contractId: n.id,
        type: 'renewed',
        actorId: user.id,
        data: { from_id: c.id, from_no: c.no, package_id: k.id, package_name: k.name, ...terms, price_fen: k.price_fen },
      });
      if (paid)
        await appendEvent(em, {
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
  async refundPreview(user: SessionUser, id: number): Promise<RefundPreview> {
    const c = await lockContract(this.db.manager, user.schoolId!, id, false);
    if (c.status !== 'unpaid' && c.status !== 'active') throw new AppError('contracts.not_cancellable');
    const f = figureOf(c);
    return { contract_id: c.id, ...f, via: viaOf(c) };
  }

  /**
   * Cancels a contract with a reason: the refund is recomputed and must equal what was shown (refund_fen); the contract
   * is cancelled with the refund recorded in one transaction; a WeChat payment is then refunded through the provider
   * (RefundsService, idempotent by the request key: a retry of the same cancellation asks again, never refunds twice).
   */
  async cancel(user: SessionUser, input: CancelContractInput): Promise<ContractDetail> {
    const schoolId = user.schoolId!;
    const requestKey = `cancel:${input.request_id}`;
    const wechat = await this.db.transaction(async (em) => {
      const c = await lockContract(em, schoolId, input.id);
      if (c.status === 'cancelled') {
        const [prior]: Array<{ data: { request_key?: string; via?: string; refund_fen?: number; out_trade_no?: string | null } }> = await em.query(
          `select data from contract_events where contract_id = $1 and type = 'cancelled' and data->>'request_key' = $2`,
          [c.id, requestKey],
        );
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
      await em.query(
        `update contracts set status = 'cancelled', refunded_fen = refunded_fen + $2, cancelled_at = now(), version = version + 1, updated_at = now() where id = $1`,
        [c.id, f.refund_fen],
      );
      await appendEvent(em, {
        schoolId,
        contractId: c.id,
        type: 'cancelled',
        actorId: user.id,
        reason: input.reason,
        data: { ...f, via, request_key: requestKey, out_trade_no: outTradeNo, today: c.today },
      });
      if (f.refund_fen > 0) {
        await appendEvent(em, {
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
