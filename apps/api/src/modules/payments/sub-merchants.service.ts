import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  Role,
  type ParentPayOptions,
  type Payee,
  type SchoolSubMerchant,
  type SchoolSubMerchantQuery,
  type SetSchoolSubMerchantInput,
  type SubMerchantRecord,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { Queryable } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { PaymentsMerchantsRepository } from './payments-merchants.repository';
import { PaymentProvider, type PayMerchant } from './provider';

type RecordRow = Awaited<ReturnType<PaymentsMerchantsRepository['history']>>[number];

const toRecord = (r: RecordRow): SubMerchantRecord => ({
  ...r,
  recorded_at: r.recorded_at.toISOString(),
  ended_at: r.ended_at ? r.ended_at.toISOString() : null,
});

/**
 * Each school's WeChat Pay sub-merchant (特约商户, design.md §5b2): the sub_mchid WeChat gave the school after its own
 * onboarding (进件), recorded by the platform operator. A change ends the current record and adds one (the history is
 * the table); a payment copies the merchant it is made with, so a change never moves an open order or a refund.
 */
@Injectable()
export class SubMerchantsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: PaymentsMerchantsRepository,
    private readonly provider: PaymentProvider,
  ) {}

  /**
   * The merchant a new payment of `payee` is made with: the platform's own sub-merchant, or the school's current one —
   * a school without one takes no online payment from parents (payments.school_no_merchant).
   */
  async merchantFor(q: Queryable, schoolId: number, payee: Payee): Promise<PayMerchant> {
    if (payee === 'platform') return { subMchid: this.provider.platformSubMchid(), subAppid: null };
    const m = await this.repo.current(q, schoolId);
    if (!m) throw new AppError('payments.school_no_merchant');
    return { subMchid: m.sub_mchid, subAppid: m.sub_appid };
  }

  /** The operator reads any school's (school_id required), the admin their own. */
  async state(user: SessionUser, q: SchoolSubMerchantQuery): Promise<SchoolSubMerchant> {
    const schoolId = user.role === Role.Operator ? q.school_id : user.schoolId;
    if (!schoolId) throw new AppError('school.v.id_invalid');
    await this.requireSchool(this.db, schoolId);
    return this.read(this.db, schoolId);
  }

  /**
   * Records, changes or withdraws a school's sub-merchant, under the school's row lock: the record the operator saw
   * must still be the current one (expected_id), the number must not be the platform's own nor another school's
   * current one, and a record equal to the current one changes nothing (refused, so the history holds changes only).
   */
  async set(user: SessionUser, input: SetSchoolSubMerchantInput): Promise<SchoolSubMerchant> {
    return this.db.transaction(async (em) => {
      await this.requireSchool(em, input.school_id, true);
      const cur = await this.repo.current(em, input.school_id);
      if ((cur?.id ?? null) !== input.expected_id) throw new AppError('payments.sub_merchant_changed');
      const subAppid = input.sub_appid ?? null;
      if (input.sub_mchid === null && !cur) throw new AppError('payments.sub_merchant_same');
      if (input.sub_mchid !== null) {
        if (cur && cur.sub_mchid === input.sub_mchid && cur.sub_appid === subAppid) throw new AppError('payments.sub_merchant_same');
        if (input.sub_mchid === this.provider.platformSubMchid()) throw new AppError('payments.sub_merchant_platform');
        if (await this.repo.takenElsewhere(em, input.sub_mchid, input.school_id)) throw new AppError('payments.sub_merchant_taken');
      }
      if (cur) await this.repo.end(em, cur.id, user.id);
      if (input.sub_mchid !== null) {
        await this.repo.record(em, {
          school_id: input.school_id,
          sub_mchid: input.sub_mchid,
          sub_appid: subAppid,
          note: input.note,
          recorded_by: user.id,
        });
      }
      return this.read(em, input.school_id);
    });
  }

  /** The guardian's school: online payments or not, and where to pay otherwise. */
  async payOptions(user: SessionUser): Promise<ParentPayOptions> {
    // a caller without a school has none to pay
    const s = user.schoolId === null ? undefined : await this.repo.payOptions(user.schoolId);
    if (!s) throw new AppError('school.not_found');
    return s;
  }

  private async requireSchool(q: Queryable, schoolId: number, lock = false): Promise<void> {
    if (!(await this.repo.school(q, schoolId, lock))) throw new AppError('school.not_found');
  }

  private async read(q: Queryable, schoolId: number): Promise<SchoolSubMerchant> {
    const rows = await this.repo.history(q, schoolId);
    const history = rows.map(toRecord);
    const current = history.find((r) => r.ended_at === null) ?? null;
    return { school_id: schoolId, state: current ? 'active' : 'none', current, history };
  }
}
