import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  CONTRACT_STATE_LABELS,
  CONTRACT_STATES,
  contractTerms,
  localDay,
  PACKAGE_KIND_LABELS,
  Role,
  type AddContractInput,
  type ContractCounts,
  type ContractDetail,
  type ContractExportQuery,
  type ContractListAnswer,
  type ContractListQuery,
  type ContractRow,
  type EditContractInput,
  type Page,
  type PayContractOfflineInput,
  type StudentContractListQuery,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { schoolTimeZone } from '../../core/database/school-zone';
import { offsetOf, pageOf, schoolToday, type Queryable } from '../../core/database/sql-kit';
import { DomainEvents } from '../../core/events/domain-events';
import { AppError } from '../../core/http/app-error';
import type { FileAnswer } from '../../core/http/send-file';
import type { Sendable } from '../../core/http/sendable';
import { sheet, xlsxFile } from '../../core/http/xlsx-file';
import { ChildAccessLog } from '../privacy/access-log.service';
import { newContractNo } from './contract-sql';
import { ContractsListRepository, type StateCount } from './contracts-list.repository';
import { ContractsRepository } from './contracts.repository';

const EXPORT_MAX_ROWS = 50_000;

/** A contract as the answers send it (its times still Dates). */
export type ContractDetailOut = Sendable<ContractDetail>;

/** A package's terms as signing reads them (`contracts.package_not_found` when not the school's). */
export async function packageOf(repo: ContractsRepository, em: Queryable, schoolId: number, id: number) {
  const k = await repo.packageTerms(em, schoolId, id);
  if (!k) throw new AppError('contracts.package_not_found');
  return k;
}

/** One of the school's contracts locked for update with the school's day (`contracts.not_found` otherwise). */
export async function lockContract(repo: ContractsRepository, em: Queryable, schoolId: number, id: number, lock = true) {
  const c = await repo.lock(em, schoolId, id, lock);
  if (!c) throw new AppError('contracts.not_found');
  return c;
}

/** A contract as the writers see it (locked). */
export type LockedContract = Awaited<ReturnType<typeof lockContract>>;

/** Contracts: signing, the desk payment, edits, the list with counts and its export, one contract with its history. */
/** Counts by state (every state, 0 when absent) from rows of (state, n). */
function countsOf(rows: StateCount[]): ContractCounts {
  const counts = Object.fromEntries(CONTRACT_STATES.map((s) => [s, 0])) as ContractCounts;
  for (const r of rows) counts[r.state] = r.n;
  return counts;
}

@Injectable()
export class ContractsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: ContractsRepository,
    private readonly lists: ContractsListRepository,
    private readonly events: DomainEvents,
    private readonly log: ChildAccessLog,
  ) {}

  /** After a commit that changed a contract: what depends on it (attendance usage) follows. */
  changed(schoolId: number, d: ContractDetailOut): ContractDetailOut {
    this.events.emit('contract.changed', { school_id: schoolId, contract_id: d.id, student_id: d.student_id });
    return d;
  }

  /**
   * Signs a contract from a package, paid at the desk now or left unpaid for the guardian to pay. Idempotent by
   * request_id: a retry (even a concurrent one) answers the contract the first request made.
   */
  async add(user: SchoolCaller, input: AddContractInput): Promise<ContractDetailOut> {
    const schoolId = user.schoolId;
    const requestKey = `sign:${input.request_id}`;
    const id = await this.db.transaction(async (em) => {
      const prior = await this.repo.byRequest(em, schoolId, requestKey);
      if (prior) return prior.id;
      if (!(await this.repo.activeStudent(em, schoolId, input.student_id))) throw new AppError('contracts.student_not_found');
      if (!(await this.repo.isGuardian(em, schoolId, input.student_id, input.guardian_id))) throw new AppError('contracts.guardian_not_found');
      const k = await packageOf(this.repo, em, schoolId, input.package_id);
      if (!k.active) throw new AppError('contracts.package_inactive');
      const price = input.price_fen ?? k.price_fen;
      if (price > k.price_fen) throw new AppError('contracts.v.price_invalid');
      if (price < k.price_fen && !input.discount_reason) throw new AppError('contracts.discount_reason_required');
      const terms = contractTerms(k, input.start_day);
      const today = await schoolToday(em, schoolId);
      const paid = input.payment;
      const made = await this.repo.insert(
        em,
        {
          school_id: schoolId,
          no: newContractNo(today),
          student_id: input.student_id,
          package_id: k.id,
          kind: k.kind,
          start_day: terms.start_day,
          end_day: terms.end_day,
          units_total: terms.units_total,
          list_price_fen: k.price_fen,
          price_fen: price,
          discount_reason: price < k.price_fen ? input.discount_reason : null,
          paid_fen: paid ? price : 0,
          status: paid ? 'active' : 'unpaid',
          auto_renew: input.auto_renew ?? false,
          guardian_id: input.guardian_id,
          pay_method: paid?.method ?? null,
          receipt_no: paid?.receipt_no || null,
          remark: input.remark || null,
          request_key: requestKey,
          created_by: user.id,
        },
        'request',
      );
      // a concurrent retry committed first: answer its contract
      if (!made) return (await this.repo.byRequest(em, schoolId, requestKey))!.id;
      const cid = made.id;
      await this.repo.appendEvent(em, {
        schoolId,
        contractId: cid,
        type: 'signed',
        actorId: user.id,
        data: {
          package_id: k.id,
          package_name: k.name,
          ...terms,
          list_price_fen: k.price_fen,
          price_fen: price,
          discount_reason: price < k.price_fen ? input.discount_reason : null,
        },
      });
      if (paid)
        await this.repo.appendEvent(em, {
          schoolId,
          contractId: cid,
          type: 'paid',
          actorId: user.id,
          data: { amount_fen: price, method: paid.method, receipt_no: paid.receipt_no ?? null },
        });
      return cid;
    });
    return this.changed(schoolId, await this.info(schoolId, id));
  }

  /** Records the desk payment of an unpaid contract. */
  async payOffline(user: SchoolCaller, input: PayContractOfflineInput): Promise<ContractDetailOut> {
    const schoolId = user.schoolId;
    await this.db.transaction(async (em) => {
      const c = await lockContract(this.repo, em, schoolId, input.id);
      if (c.version !== input.version) throw new AppError('contracts.stale');
      if (c.status !== 'unpaid') throw new AppError('contracts.not_unpaid');
      await this.repo.payOffline(em, c.id, input.payment.method, input.payment.receipt_no || null);
      await this.repo.appendEvent(em, {
        schoolId,
        contractId: c.id,
        type: 'paid',
        actorId: user.id,
        data: { amount_fen: c.price_fen, method: input.payment.method, receipt_no: input.payment.receipt_no ?? null },
      });
    });
    return this.changed(schoolId, await this.info(schoolId, input.id));
  }

  /** Changes an unpaid or active contract (end, units, auto-renew, remark) with a reason; the history keeps before and after. */
  async edit(user: SchoolCaller, input: EditContractInput): Promise<ContractDetailOut> {
    const schoolId = user.schoolId;
    await this.db.transaction(async (em) => {
      const c = await lockContract(this.repo, em, schoolId, input.id);
      if (c.version !== input.version) throw new AppError('contracts.stale');
      if (c.status !== 'unpaid' && c.status !== 'active') throw new AppError('contracts.not_editable');
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      const change = (field: 'end_day' | 'units_total' | 'auto_renew' | 'remark', value: unknown) => {
        if (value === undefined || value === c[field]) return;
        before[field] = c[field];
        after[field] = value;
      };
      change('end_day', input.end_day);
      if (input.units_total !== undefined) {
        if (c.units_total === null) throw new AppError('contracts.v.units_invalid');
        if (input.units_total < c.units_used) throw new AppError('contracts.units_below_used', { used: c.units_used });
        change('units_total', input.units_total);
      }
      change('auto_renew', input.auto_renew);
      change('remark', input.remark === undefined ? undefined : input.remark || null);
      if (!Object.keys(after).length) throw new AppError('contracts.nothing_to_edit');
      if (input.end_day !== undefined && input.end_day < c.start_day) throw new AppError('contracts.end_before_start');
      await this.repo.edit(em, c.id, {
        end_day: (after.end_day as string | undefined) ?? c.end_day,
        units_total: 'units_total' in after ? (after.units_total as number | null) : c.units_total,
        auto_renew: 'auto_renew' in after ? (after.auto_renew as boolean) : c.auto_renew,
        remark: 'remark' in after ? (after.remark as string | null) : c.remark,
      });
      await this.repo.appendEvent(em, {
        schoolId,
        contractId: c.id,
        type: 'edited',
        actorId: user.id,
        reason: input.reason,
        data: { before, after },
      });
    });
    return this.changed(schoolId, await this.info(schoolId, input.id));
  }

  /** One contract with its history, oldest first. */
  async info(schoolId: number, id: number): Promise<ContractDetailOut> {
    const row = await this.repo.detail(schoolId, id);
    if (!row) throw new AppError('contracts.not_found');
    return { ...row, history: row.history.map((e) => ({ ...e, id: Number(e.id) })) };
  }

  /**
   * The filtered page (newest first) with the counts by state for the same filters without the state; the page's
   * total is one of those counts (or their sum), so the contracts are counted once. Two statements whatever the
   * filters.
   */
  async list(user: SchoolCaller, q: ContractListQuery): Promise<Sendable<ContractListAnswer>> {
    const schoolId = user.schoolId;
    if (q.student_id || q.class_id || q.keyword) return this.listNarrow(schoolId, q);
    const counts = countsOf(await this.lists.summedCounts(schoolId, q));
    const total = q.state ? counts[q.state] : CONTRACT_STATES.reduce((n, s) => n + counts[s], 0);
    const offset = offsetOf(q);
    const list = offset < total ? await this.lists.rows(schoolId, q, q.limit, offset) : [];
    return { ...pageOf(list, total, q), counts };
  }

  /**
   * The list narrowed by student, class or keyword (a few thousand contracts at most): one statement finds the
   * matching contracts once, counts them by state and takes the page of the asked state.
   */
  private async listNarrow(schoolId: number, q: ContractListQuery): Promise<Sendable<ContractListAnswer>> {
    const r = await this.lists.narrow(schoolId, q, q);
    const counts = countsOf(r.counts);
    const total = q.state ? counts[q.state] : CONTRACT_STATES.reduce((sum, s) => sum + counts[s], 0);
    return { ...pageOf(r.list, total, q), counts };
  }

  /** A student's contracts: the admin any student of the school, a guardian only an own child. */
  async studentList(user: SchoolCaller, q: StudentContractListQuery): Promise<Sendable<Page<ContractRow>>> {
    const schoolId = user.schoolId;
    if (!(await this.lists.studentVisible(schoolId, q.student_id, user.role === Role.Parent ? user.id : null)))
      throw new AppError('contracts.student_not_found');
    const r = await this.lists.page(schoolId, { student_id: q.student_id }, q);
    return pageOf(r.list, r.total, q);
  }

  /**
   * The filtered list as an .xlsx: Chinese headers, amounts in yuan, newest first; recorded in the access log with the
   * children it names (and their signing guardians).
   */
  async export(user: SchoolCaller, q: ContractExportQuery): Promise<FileAnswer> {
    const { list } = await this.lists.page(user.schoolId, q, { page: 1, limit: EXPORT_MAX_ROWS });
    await this.log.record(
      user,
      list.map((r) => r.student_id),
      ['export', 'profile', 'guardians'],
    );
    // the signing date and the file's date are the school's local days
    const tz = await schoolTimeZone(this.db, user.schoolId);
    const stamp = localDay(new Date(), tz).replace(/-/g, '');
    return xlsxFile(`合同-${stamp}.xlsx`, [
      sheet({
        name: '合同',
        rows: list,
        columns: [
          { header: '合同编号', value: (r) => r.no, width: 20 },
          { header: '学生', value: (r) => r.student_name, width: 12 },
          { header: '班级', value: (r) => r.class_name, width: 12 },
          { header: '套餐', value: (r) => r.package_name, width: 16 },
          { header: '类型', value: (r) => PACKAGE_KIND_LABELS[r.kind]?.zh ?? r.kind, width: 8 },
          { header: '开始日期', value: (r) => r.start_day, width: 12 },
          { header: '结束日期', value: (r) => r.end_day, width: 12 },
          { header: '总次数', value: (r) => r.units_total, width: 8 },
          { header: '已用', value: (r) => (r.units_total === null ? '' : r.units_used), width: 8 },
          { header: '剩余', value: (r) => r.units_left, width: 8 },
          { header: '套餐价（元）', value: (r) => r.list_price_fen, money: true, width: 12 },
          { header: '合同价（元）', value: (r) => r.price_fen, money: true, width: 12 },
          { header: '已付（元）', value: (r) => r.paid_fen, money: true, width: 12 },
          { header: '已退（元）', value: (r) => r.refunded_fen, money: true, width: 12 },
          { header: '状态', value: (r) => CONTRACT_STATE_LABELS[r.state]?.zh ?? r.state, width: 10 },
          { header: '自动续约', value: (r) => (r.auto_renew ? '是' : '否'), width: 8 },
          { header: '签约人', value: (r) => r.guardian_name, width: 12 },
          { header: '签约时间', value: (r) => localDay(r.created_at, tz), width: 12 },
        ],
      }),
    ]);
  }
}
