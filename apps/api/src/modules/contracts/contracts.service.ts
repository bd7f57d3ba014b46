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
  type ContractState,
  type ContractDetail,
  type ContractEvent,
  type ContractExportQuery,
  type ContractListAnswer,
  type ContractListQuery,
  type ContractRow,
  type EditContractInput,
  type Page,
  type PayContractOfflineInput,
  type StudentContractListQuery,
} from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { schoolTimeZone } from '../../core/database/school-zone';
import { offsetOf, pageOf, SCHOOL_TODAY, schoolToday, totalOf, type PageQuery } from '../../core/database/sql-kit';
import { DomainEvents } from '../../core/events/domain-events';
import { AppError } from '../../core/http/app-error';
import type { FileAnswer } from '../../core/http/send-file';
import { sheet, xlsxFile } from '../../core/http/xlsx-file';
import type { SessionUser } from '../../core/http/request-context';
import { ChildAccessLog } from '../privacy/access-log.service';
import { appendEvent, listWhere, lockContract, newContractNo, ROW_COLUMNS, ROW_JOINS, stateSql, countStateSql } from './contract-sql';

const EXPORT_MAX_ROWS = 50_000;

/** A package as signing reads it. */
export interface PackageTermsRow {
  id: number;
  name: string;
  kind: 'term' | 'month' | 'days' | 'sessions';
  length: number;
  valid_months: number | null;
  price_fen: number;
  active: boolean;
}

export async function packageOf(em: Pick<EntityManager, 'query'>, schoolId: number, id: number): Promise<PackageTermsRow> {
  const [k]: PackageTermsRow[] = await em.query(
    `select id, name, kind, length, valid_months, price_fen::float8 as price_fen, active from contract_packages where school_id = $1 and id = $2`,
    [schoolId, id],
  );
  if (!k) throw new AppError('contracts.package_not_found');
  return k;
}

/** Contracts: signing, the desk payment, edits, the list with counts and its export, one contract with its history. */
/** Counts by state (every state, 0 when absent) from rows of (state, n). */
function countsOf(rows: Array<{ state: ContractState; n: number }>): ContractCounts {
  const counts = Object.fromEntries(CONTRACT_STATES.map((s) => [s, 0])) as ContractCounts;
  for (const r of rows) counts[r.state] = r.n;
  return counts;
}

@Injectable()
export class ContractsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly events: DomainEvents,
    private readonly log: ChildAccessLog,
  ) {}

  /** After a commit that changed a contract: what depends on it (attendance usage) follows. */
  changed(schoolId: number, d: ContractDetail): ContractDetail {
    this.events.emit('contract.changed', { school_id: schoolId, contract_id: d.id, student_id: d.student_id });
    return d;
  }

  /**
   * Signs a contract from a package, paid at the desk now or left unpaid for the guardian to pay. Idempotent by
   * request_id: a retry (even a concurrent one) answers the contract the first request made.
   */
  async add(user: SessionUser, input: AddContractInput): Promise<ContractDetail> {
    const schoolId = user.schoolId!;
    const requestKey = `sign:${input.request_id}`;
    const id = await this.db.transaction(async (em) => {
      const prior = await this.byRequest(em, schoolId, requestKey);
      if (prior) return prior;
      const [st]: Array<{ id: number }> = await em.query(`select id from students where school_id = $1 and id = $2 and status = 1`, [
        schoolId,
        input.student_id,
      ]);
      if (!st) throw new AppError('contracts.student_not_found');
      const [g]: Array<{ user_id: number }> = await em.query(
        `select g.user_id from student_guardians g join users u on u.id = g.user_id
          where g.student_id = $1 and g.user_id = $2 and u.school_id = $3 and u.role = 6 and u.deleted_at is null`,
        [input.student_id, input.guardian_id, schoolId],
      );
      if (!g) throw new AppError('contracts.guardian_not_found');
      const k = await packageOf(em, schoolId, input.package_id);
      if (!k.active) throw new AppError('contracts.package_inactive');
      const price = input.price_fen ?? k.price_fen;
      if (price > k.price_fen) throw new AppError('contracts.v.price_invalid');
      if (price < k.price_fen && !input.discount_reason) throw new AppError('contracts.discount_reason_required');
      const terms = contractTerms(k, input.start_day);
      const today = await schoolToday(em, schoolId);
      const paid = input.payment;
      const rows: Array<{ id: number }> = await em.query(
        `insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, units_total, list_price_fen, price_fen, discount_reason,
                                paid_fen, status, auto_renew, guardian_id, pay_method, receipt_no, remark, request_key, created_by, paid_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::varchar, $14, $15, $16, $17, $18, $19, $20, case when $13::varchar = 'active' then now() end)
         on conflict (school_id, request_key) do nothing returning id`,
        [
          schoolId,
          newContractNo(today),
          input.student_id,
          k.id,
          k.kind,
          terms.start_day,
          terms.end_day,
          terms.units_total,
          k.price_fen,
          price,
          price < k.price_fen ? input.discount_reason : null,
          paid ? price : 0,
          paid ? 'active' : 'unpaid',
          input.auto_renew ?? false,
          input.guardian_id,
          paid?.method ?? null,
          paid?.receipt_no || null,
          input.remark || null,
          requestKey,
          user.id,
        ],
      );
      // a concurrent retry committed first: answer its contract
      if (!rows.length) return (await this.byRequest(em, schoolId, requestKey))!;
      const cid = rows[0].id;
      await appendEvent(em, {
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
        await appendEvent(em, {
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

  private async byRequest(em: EntityManager, schoolId: number, requestKey: string): Promise<number | null> {
    const [c]: Array<{ id: number }> = await em.query(`select id from contracts where school_id = $1 and request_key = $2`, [schoolId, requestKey]);
    return c?.id ?? null;
  }

  /** Records the desk payment of an unpaid contract. */
  async payOffline(user: SessionUser, input: PayContractOfflineInput): Promise<ContractDetail> {
    const schoolId = user.schoolId!;
    await this.db.transaction(async (em) => {
      const c = await lockContract(em, schoolId, input.id);
      if (c.version !== input.version) throw new AppError('contracts.stale');
      if (c.status !== 'unpaid') throw new AppError('contracts.not_unpaid');
      await em.query(
        `update contracts set status = 'active', paid_fen = price_fen, pay_method = $2, receipt_no = $3, paid_at = now(), version = version + 1, updated_at = now()
          where id = $1`,
        [c.id, input.payment.method, input.payment.receipt_no || null],
      );
      await appendEvent(em, {
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
  async edit(user: SessionUser, input: EditContractInput): Promise<ContractDetail> {
    const schoolId = user.schoolId!;
    await this.db.transaction(async (em) => {
      const c = await lockContract(em, schoolId, input.id);
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
      await em.query(
        `update contracts set end_day = $2, units_total = $3, auto_renew = $4, remark = $5, version = version + 1, updated_at = now() where id = $1`,
        [
          c.id,
          after.end_day ?? c.end_day,
          'units_total' in after ? after.units_total : c.units_total,
          'auto_renew' in after ? after.auto_renew : c.auto_renew,
          'remark' in after ? after.remark : c.remark,
        ],
      );
      await appendEvent(em, { schoolId, contractId: c.id, type: 'edited', actorId: user.id, reason: input.reason, data: { before, after } });
    });
    return this.changed(schoolId, await this.info(schoolId, input.id));
  }

  /** One contract with its history, oldest first. */
  async info(schoolId: number, id: number): Promise<ContractDetail> {
    const [row]: Array<ContractDetail> = await this.db.query(
      `select ${ROW_COLUMNS}, c.discount_reason, c.remark, c.pay_method, c.receipt_no,
              coalesce((select json_agg(json_build_object('id', e.id, 'type', e.type, 'data', e.data, 'reason', e.reason, 'actor_name', u.name, 'at', e.at) order by e.id)
                          from contract_events e left join users u on u.id = e.actor_id where e.contract_id = c.id), '[]') as history
         from contracts c ${ROW_JOINS} where c.school_id = $1 and c.id = $2`,
      [schoolId, id],
    );
    if (!row) throw new AppError('contracts.not_found');
    row.history = (row.history as Array<ContractEvent & { id: number | string }>).map((e) => ({ ...e, id: Number(e.id) }));
    return row;
  }

  /**
   * The filtered page (newest first) with the counts by state for the same filters without the state; the page's
   * total is one of those counts (or their sum), so the contracts are counted once. Two statements whatever the
   * filters.
   */
  async list(user: SessionUser, q: ContractListQuery): Promise<ContractListAnswer> {
    const schoolId = user.schoolId!;
    if (q.student_id || q.class_id || q.keyword) return this.listNarrow(schoolId, q);
    const counts = await this.summedCounts(schoolId, q);
    const total = q.state ? counts[q.state] : CONTRACT_STATES.reduce((n, s) => n + counts[s], 0);
    const offset = offsetOf(q);
    const list = offset < total ? await this.rows(schoolId, q, q.limit, offset) : [];
    return { ...pageOf(list, total, q), counts };
  }

  /**
   * The counts by state for the filters without the state, summed from contract_counts (a few hundred rows per
   * school, kept by triggers): counting a school's contracts on every request grew with the school (65 ms at
   * 100,000). For the list without a filter or filtered by package and end day.
   */
  private async summedCounts(schoolId: number, f: ContractExportQuery): Promise<ContractCounts> {
    const conds = ['k.school_id = $1', 'k.n <> 0'];
    const params: unknown[] = [schoolId];
    const p = (v: unknown) => `$${params.push(v)}`;
    if (f.package_id) conds.push(`k.package_id = ${p(f.package_id)}`);
    if (f.end_from) conds.push(`k.end_day >= ${p(f.end_from)}::date`);
    if (f.end_to) conds.push(`k.end_day <= ${p(f.end_to)}::date`);
    const rows: Array<{ state: ContractState; n: number }> = await this.db.query(
      `select ${countStateSql('k', 'd.today')} as state, sum(k.n)::int as n from contract_counts k cross join ${SCHOOL_TODAY} d
        where ${conds.join(' and ')} group by 1`,
      params,
    );
    return countsOf(rows);
  }

  /**
   * The list narrowed by student, class or keyword (a few thousand contracts at most): one statement finds the
   * matching contracts once, counts them by state and takes the page of the asked state.
   */
  private async listNarrow(schoolId: number, q: ContractListQuery): Promise<ContractListAnswer> {
    const w = listWhere(q, false);
    const n = w.params.length;
    const rows: Array<ContractRow & { counts: Array<{ state: ContractState; n: number }> }> = await this.db.query(
      `with f as materialized (
         select c.id, c.created_at, ${stateSql('c', 'd.today')} as state from contracts c cross join ${SCHOOL_TODAY} d where ${w.where}),
       x as (select id, created_at from f where $${n + 2}::text is null or state = $${n + 2} order by created_at desc, id desc limit $${n + 3} offset $${n + 4})
       select (select coalesce(json_agg(json_build_object('state', s.state, 'n', s.n)), '[]') from (select state, count(*)::int as n from f group by 1) s) as counts, r.*
         from (select 1) one left join lateral (
           select ${ROW_COLUMNS} from x join contracts c on c.id = x.id ${ROW_JOINS} order by x.created_at desc, x.id desc
         ) r on true`,
      [schoolId, ...w.params, q.state ?? null, q.limit, offsetOf(q)],
    );
    const counts = countsOf(rows[0].counts);
    const list = rows.filter((r) => r.id !== null).map(({ counts: _, ...r }) => r as ContractRow);
    const total = q.state ? counts[q.state] : CONTRACT_STATES.reduce((sum, s) => sum + counts[s], 0);
    return { ...pageOf(list, total, q), counts };
  }

  /** One page of the filtered rows, newest first. */
  private async rows(schoolId: number, f: ContractExportQuery, limit: number, offset: number): Promise<ContractRow[]> {
    const w = listWhere(f, true);
    const n = w.params.length;
    return this.db.query(
      `select ${ROW_COLUMNS} from (
         select c.id, c.created_at from contracts c cross join ${SCHOOL_TODAY} d where ${w.where}
          order by c.created_at desc, c.id desc limit $${n + 2} offset $${n + 3}) x
       join contracts c on c.id = x.id ${ROW_JOINS} order by x.created_at desc, x.id desc`,
      [schoolId, ...w.params, limit, offset],
    );
  }

  /** A page with its total (one statement): the student's contracts and the export. */
  private async page(schoolId: number, f: ContractExportQuery, pq: PageQuery): Promise<Page<ContractRow>> {
    const w = listWhere(f, true);
    const n = w.params.length;
    const rows: Array<ContractRow & { total: number }> = await this.db.query(
      `with f as (select c.id, c.created_at from contracts c cross join ${SCHOOL_TODAY} d where ${w.where})
       select t.total, r.* from (select count(*)::int as total from f) t
       left join lateral (
         select ${ROW_COLUMNS} from (select id, created_at from f order by created_at desc, id desc limit $${n + 2} offset $${n + 3}) x
           join contracts c on c.id = x.id ${ROW_JOINS} order by x.created_at desc, x.id desc
       ) r on true`,
      [schoolId, ...w.params, pq.limit, offsetOf(pq)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as ContractRow);
    return pageOf(list, totalOf(rows), pq);
  }

  /** A student's contracts: the admin any student of the school, a guardian only an own child. */
  async studentList(user: SessionUser, q: StudentContractListQuery): Promise<Page<ContractRow>> {
    const schoolId = user.schoolId!;
    const [st]: Array<{ id: number }> = await this.db.query(
      user.role === Role.Parent
        ? `select s.id from students s join student_guardians g on g.student_id = s.id and g.user_id = $3 where s.school_id = $1 and s.id = $2`
        : `select s.id from students s where s.school_id = $1 and s.id = $2`,
      user.role === Role.Parent ? [schoolId, q.student_id, user.id] : [schoolId, q.student_id],
    );
    if (!st) throw new AppError('contracts.student_not_found');
    return this.page(schoolId, { student_id: q.student_id }, q);
  }

  /**
   * The filtered list as an .xlsx: Chinese headers, amounts in yuan, newest first; recorded in the access log with the
   * children it names (and their signing guardians).
   */
  async export(user: SessionUser, q: ContractExportQuery): Promise<FileAnswer> {
    const { list } = await this.page(user.schoolId!, q, { page: 1, limit: EXPORT_MAX_ROWS });
    await this.log.record(
      user,
      list.map((r) => r.student_id),
      ['export', 'profile', 'guardians'],
    );
    // the signing date and the file's date are the school's local days
    const tz = await schoolTimeZone(this.db, user.schoolId!);
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
