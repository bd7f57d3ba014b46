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
import { DataSource, type EntityManager } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { PaymentProvider, type PayMerchant } from './provider';

const RECORD_COLUMNS = `m.id::int as id, m.sub_mchid, m.sub_appid, m.note, m.recorded_at, m.ended_at,
  (select u.name from users u where u.id = m.recorded_by) as recorded_by_name`;

type RecordRow = Omit<SubMerchantRecord, 'recorded_at' | 'ended_at'> & { recorded_at: Date; ended_at: Date | null };

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
    private readonly provider: PaymentProvider,
  ) {}

  /**
   * The merchant a new payment of `payee` is made with: the platform's own sub-merchant, or the school's current one —
   * a school without one takes no online payment from parents (payments.school_no_merchant).
   */
  async merchantFor(q: DataSource | EntityManager, schoolId: number, payee: Payee): Promise<PayMerchant> {
    if (payee === 'platform') return { subMchid: this.provider.platformSubMchid(), subAppid: null };
    const [m]: Array<{ sub_mchid: string; sub_appid: string | null }> = await q.query(
      `select sub_mchid, sub_appid from school_sub_merchants where school_id = $1 and ended_at is null`,
      [schoolId],
    );
    if (!m) throw new AppError('payments.school_no_merchant');
    return { subMchid: m.sub_mchid, subAppid: m.sub_appid };
  }

  /** The operator reads any school's (school_id required), the admin their own. */
  async state(user: SessionUser, q: SchoolSubMerchantQuery): Promise<SchoolSubMerchant> {
    const schoolId = user.role === Role.Operator ? q.school_id : user.schoolId!;
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
      const [cur]: Array<{ id: number; sub_mchid: string; sub_appid: string | null }> = await em.query(
        `select id::int as id, sub_mchid, sub_appid from school_sub_merchants where school_id = $1 and ended_at is null`,
        [input.school_id],
      );
      if ((cur?.id ?? null) !== input.expected_id) throw new AppError('payments.sub_merchant_changed');
      const subAppid = input.sub_appid ?? null;
      if (input.sub_mchid === null && !cur) throw new AppError('payments.sub_merchant_same');
      if (input.sub_mchid !== null) {
        if (cur && cur.sub_mchid === input.sub_mchid && cur.sub_appid === subAppid) throw new AppError('payments.sub_merchant_same');
        if (input.sub_mchid === this.provider.platformSubMchid()) throw new AppError('payments.sub_merchant_platform');
        const [taken]: unknown[] = await em.query(
          `select 1 from school_sub_merchants where sub_mchid = $1 and ended_at is null and school_id <> $2`,
          [input.sub_mchid, input.school_id],
        );
        if (taken) throw new AppError('payments.sub_merchant_taken');
      }
      if (cur) await em.query(`update school_sub_merchants set ended_at = now(), ended_by = $2 where id = $1`, [cur.id, user.id]);
      if (input.sub_mchid !== null) {
        await em.query(`insert into school_sub_merchants (school_id, sub_mchid, sub_appid, note, recorded_by) values ($1, $2, $3, $4, $5)`, [
          input.school_id,
          input.sub_mchid,
          subAppid,
          input.note,
          user.id,
        ]);
      }
      return this.read(em, input.school_id);
    });
  }

  /** The guardian's school: online payments or not, and where to pay otherwise. */
  async payOptions(user: SessionUser): Promise<ParentPayOptions> {
    const [s]: Array<ParentPayOptions> = await this.db.query(
      `select s.name as school_name, s.contact_phone,
              exists (select 1 from school_sub_merchants m where m.school_id = s.id and m.ended_at is null) as online
         from schools s where s.id = $1`,
      [user.schoolId],
    );
    if (!s) throw new AppError('school.not_found');
    return s;
  }

  private async requireSchool(q: DataSource | EntityManager, schoolId: number, lock = false): Promise<void> {
    const rows: unknown[] = await q.query(`select 1 from schools where id = $1 ${lock ? 'for update' : ''}`, [schoolId]);
    if (!rows.length) throw new AppError('school.not_found');
  }

  private async read(q: DataSource | EntityManager, schoolId: number): Promise<SchoolSubMerchant> {
    const rows: RecordRow[] = await q.query(
      `select ${RECORD_COLUMNS} from school_sub_merchants m where m.school_id = $1 order by m.recorded_at desc, m.id desc limit 50`,
      [schoolId],
    );
    const history = rows.map(toRecord);
    const current = history.find((r) => r.ended_at === null) ?? null;
    return { school_id: schoolId, state: current ? 'active' : 'none', current, history };
  }
}
