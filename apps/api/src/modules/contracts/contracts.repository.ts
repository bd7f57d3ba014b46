import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  EXPIRING_DAYS,
  EXPIRING_UNITS,
  Role,
  StudentStatus,
  type ContractEvent,
  type ContractState,
  type ContractStatus,
  type PackageKind,
} from '@wantuo/shared';
import { sql, type AliasedSelectQueryBuilder, type Expression, type ExpressionBuilder, type Insertable, type Nullable, type SqlBool } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';

/**
 * The SQL of the contracts module (issue 38): the derived state, a contract's row and detail, the locked contract of
 * the writers, signing, paying, editing, renewing and cancelling, the history append. Typed by the schema.
 */

/** The school's day as a one-row table `d` (`d.today` a date; `offset 0`: evaluated once, never folded in). */
export const todayOf = (on: Queryable, schoolId: number) =>
  kdb(on)
    .selectFrom('schools')
    .select(sql<string>`(now() at time zone timezone)::date`.as('today'))
    .where('id', '=', schoolId)
    .offset(0)
    .as('d');

/**
 * The state of a contract on `today` from its stored status, end day and units left (null for a contract without
 * units), as contractState computes it (the typed twin of contract-sql.ts stateOf): unpaid, cancelled and expired as
 * stored; an active one is expired past its end or with no units left, expiring within EXPIRING_DAYS of its end or
 * with EXPIRING_UNITS or fewer units left.
 */
export const contractState = (status: Expression<string>, endDay: Expression<string>, left: Expression<number | null>, today: Expression<string>) =>
  sql<ContractState>`(case
  when ${status} <> 'active' then ${status}
  when ${today} > ${endDay} or ${left} <= 0 then 'expired'
  when ${endDay} - ${today} < ${sql.lit(EXPIRING_DAYS)} or ${left} <= ${sql.lit(EXPIRING_UNITS)} then 'expiring'
  else 'active' end)`;

/** A contract `c` with the school's day `d`. */
export type CD = DB & { c: DB['contracts']; d: { today: string } };

/** The state of the contract `c` on `d.today` (see contractState). */
export const stateOfContract = (eb: ExpressionBuilder<CD, 'c' | 'd'>) =>
  contractState(
    eb.ref('c.status'),
    eb.ref('c.end_day'),
    sql<number | null>`(${eb.ref('c.units_total')} - ${eb.ref('c.units_used')})`,
    eb.ref('d.today'),
  );

/**
 * The contracts `c` in `state` on `d.today`, as a condition the planner can estimate and index (stored status, end
 * day ranges): `stateOfContract(...) = state` written out. An opaque CASE made it guess a few rows and pick a full scan
 * and sort for a deep page where walking the created-at index reads a few thousand.
 */
export function stateIs(eb: ExpressionBuilder<CD, 'c' | 'd'>, state: ContractState): Expression<SqlBool> {
  const [status, end, today] = [eb.ref('c.status'), eb.ref('c.end_day'), eb.ref('d.today')];
  const left = sql`(${eb.ref('c.units_total')} - ${eb.ref('c.units_used')})`;
  const over = sql`(${end} < ${today} or coalesce(${left} <= 0, false))`;
  const soon = sql`(${end} < ${today} + ${sql.lit(EXPIRING_DAYS)} or coalesce(${left} <= ${sql.lit(EXPIRING_UNITS)}, false))`;
  switch (state) {
    case 'unpaid':
    case 'cancelled':
      return sql<SqlBool>`${status} = ${sql.lit(state)}`;
    case 'expired':
      return sql<SqlBool>`(${status} = 'expired' or (${status} = 'active' and ${over}))`;
    case 'expiring':
      return sql<SqlBool>`(${status} = 'active' and not ${over} and ${soon})`;
    case 'active':
      return sql<SqlBool>`(${status} = 'active' and not ${over} and not ${soon})`;
  }
}

/** The tables of a contract's row: `c` the contract, `d` the school's day, its student, package, signer and class. */
type RowDB = CD & {
  st: DB['students'];
  p: DB['contract_packages'];
  g: Nullable<DB['users']>;
  ccs: Nullable<DB['care_class_students']>;
  cc: Nullable<DB['care_classes']>;
};

/** The columns of a ContractRow (after rowJoins). */
const rowColumns = (eb: ExpressionBuilder<RowDB, 'c' | 'd' | 'st' | 'p' | 'g' | 'cc'>) =>
  [
    'c.id',
    'c.no',
    'c.student_id',
    'st.name as student_name',
    'cc.name as class_name',
    'c.package_id',
    'p.name as package_name',
    eb.ref('c.kind').$castTo<PackageKind>().as('kind'),
    'c.start_day',
    'c.end_day',
    'c.units_total',
    'c.units_used',
    sql<
      number | null
    >`case when ${eb.ref('c.units_total')} is null then null else greatest(0, ${eb.ref('c.units_total')} - ${eb.ref('c.units_used')}) end`.as(
      'units_left',
    ),
    'c.price_fen',
    'c.list_price_fen',
    'c.paid_fen',
    'c.refunded_fen',
    eb.ref('c.status').$castTo<ContractStatus>().as('status'),
    stateOfContract(eb).as('state'),
    'c.auto_renew',
    'g.name as guardian_name',
    'c.renewed_from',
    'c.created_at',
    'c.version',
  ] as const;

/** The contracts of the school `schoolId` whose ids `x` (id, created_at) holds, as ContractRows in x's order. */
export const rowsOf = (on: Queryable, schoolId: number, x: AliasedSelectQueryBuilder<{ id: number; created_at: Date }, 'x'>) =>
  kdb(on)
    .selectFrom(x)
    .innerJoin('contracts as c', 'c.id', 'x.id')
    .crossJoin(todayOf(on, schoolId))
    .innerJoin('students as st', 'st.id', 'c.student_id')
    .innerJoin('contract_packages as p', 'p.id', 'c.package_id')
    .leftJoin('users as g', 'g.id', 'c.guardian_id')
    .leftJoin('care_class_students as ccs', 'ccs.student_id', 'c.student_id')
    .leftJoin('care_classes as cc', (j) => j.onRef('cc.id', '=', 'ccs.class_id').on('cc.deleted_at', 'is', null))
    .select((eb) => rowColumns(eb))
    .orderBy('x.created_at', 'desc')
    .orderBy('x.id', 'desc');

/** A ContractRow as the lists answer it (its created_at still a Date). */
export type ContractRowOf = Awaited<ReturnType<ReturnType<typeof rowsOf>['execute']>>[number];

/** The columns of a contract as the writers read it (LockedContract), with the school's day. */
const lockColumns = [
  'c.id',
  'c.school_id',
  'c.no',
  'c.student_id',
  'c.package_id',
  'c.start_day',
  'c.end_day',
  'c.units_total',
  'c.units_used',
  'c.list_price_fen',
  'c.price_fen',
  'c.paid_fen',
  'c.refunded_fen',
  'c.auto_renew',
  'c.guardian_id',
  'c.pay_method',
  'c.remark',
  'c.version',
  'd.today',
] as const;

/** A contract signed (or renewed) by a person: the columns its insert writes. */
export type NewContract = Insertable<DB['contracts']> & { request_key: string };

export type EventType = 'signed' | 'paid' | 'edited' | 'renewed' | 'cancelled' | 'refunded';

/** The SQL of the contract writers and of one contract's detail (issue 38). */
@Injectable()
export class ContractsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One contract with its history, oldest first (undefined when not the school's). */
  async detail(schoolId: number, id: number) {
    return kdb(this.db)
      .selectFrom('contracts as c')
      .crossJoin(todayOf(this.db, schoolId))
      .innerJoin('students as st', 'st.id', 'c.student_id')
      .innerJoin('contract_packages as p', 'p.id', 'c.package_id')
      .leftJoin('users as g', 'g.id', 'c.guardian_id')
      .leftJoin('care_class_students as ccs', 'ccs.student_id', 'c.student_id')
      .leftJoin('care_classes as cc', (j) => j.onRef('cc.id', '=', 'ccs.class_id').on('cc.deleted_at', 'is', null))
      .select((eb) => [
        ...rowColumns(eb),
        'c.discount_reason',
        'c.remark',
        'c.pay_method',
        'c.receipt_no',
        eb.fn
          .coalesce(
            eb
              .selectFrom('contract_events as e')
              .leftJoin('users as u', 'u.id', 'e.actor_id')
              .select((x) =>
                sql<
                  Array<ContractEvent & { id: number | string; at: string }>
                >`json_agg(json_build_object('id', ${x.ref('e.id')}, 'type', ${x.ref('e.type')}, 'data', ${x.ref('e.data')}, 'reason', ${x.ref('e.reason')}, 'actor_name', ${x.ref('u.name')}, 'at', ${x.ref('e.at')}) order by ${x.ref('e.id')})`.as(
                  'history',
                ),
              )
              .whereRef('e.contract_id', '=', 'c.id')
              .$asScalar(),
            sql<Array<ContractEvent & { id: number | string; at: string }>>`'[]'`,
          )
          .as('history'),
      ])
      .where('c.school_id', '=', schoolId)
      .where('c.id', '=', id)
      .executeTakeFirst();
  }

  /** One of the school's contracts with the school's day, locked for update unless `lock` is false. */
  lock(em: Queryable, schoolId: number, id: number, lock = true) {
    return kdb(em)
      .selectFrom('contracts as c')
      .crossJoin(todayOf(em, schoolId))
      .select((eb) => [...lockColumns, eb.ref('c.kind').$castTo<PackageKind>().as('kind'), eb.ref('c.status').$castTo<ContractStatus>().as('status')])
      .where('c.school_id', '=', schoolId)
      .where('c.id', '=', id)
      .$if(lock, (q) => q.forUpdate('c'))
      .executeTakeFirst();
  }

  /** Appends one entry to a contract's history (append-only: never updated). */
  async appendEvent(
    em: Queryable,
    e: { schoolId: number; contractId: number; type: EventType; data?: Record<string, unknown>; reason?: string | null; actorId: number | null },
  ): Promise<void> {
    await kdb(em)
      .insertInto('contract_events')
      .values({
        school_id: e.schoolId,
        contract_id: e.contractId,
        type: e.type,
        data: JSON.stringify(e.data ?? {}),
        reason: e.reason ?? null,
        actor_id: e.actorId,
      })
      .execute();
  }

  /** A package's terms as signing reads them. */
  packageTerms(em: Queryable, schoolId: number, id: number) {
    return kdb(em)
      .selectFrom('contract_packages')
      .select((eb) => ['id', 'name', eb.ref('kind').$castTo<PackageKind>().as('kind'), 'length', 'valid_months', 'price_fen', 'active'])
      .where('school_id', '=', schoolId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The contract a request key made, if any (with the contract it renewed). */
  byRequest(em: Queryable, schoolId: number, requestKey: string) {
    return kdb(em)
      .selectFrom('contracts')
      .select(['id', 'renewed_from'])
      .where('school_id', '=', schoolId)
      .where('request_key', '=', requestKey)
      .executeTakeFirst();
  }

  /** Whether the student is an active student of the school. */
  async activeStudent(em: Queryable, schoolId: number, studentId: number): Promise<boolean> {
    const r = await kdb(em)
      .selectFrom('students')
      .select('id')
      .where('school_id', '=', schoolId)
      .where('id', '=', studentId)
      .where('status', '=', StudentStatus.Active)
      .executeTakeFirst();
    return r !== undefined;
  }

  /** Whether the user is a live parent account of the school and a guardian of the student. */
  async isGuardian(em: Queryable, schoolId: number, studentId: number, userId: number): Promise<boolean> {
    const r = await kdb(em)
      .selectFrom('student_guardians as g')
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .select('g.user_id')
      .where('g.student_id', '=', studentId)
      .where('g.user_id', '=', userId)
      .where('u.school_id', '=', schoolId)
      .where('u.role', '=', Role.Parent)
      .where('u.deleted_at', 'is', null)
      .executeTakeFirst();
    return r !== undefined;
  }

  /**
   * Inserts a signed or renewed contract (paid_at now when it is signed active) unless its key is taken: by the
   * request key (`conflict` 'request'), or by any unique key (a renewal: renewed_from). Undefined when taken.
   */
  insert(em: Queryable, v: NewContract, conflict: 'request' | 'any') {
    return kdb(em)
      .insertInto('contracts')
      .values({ ...v, paid_at: v.status === 'active' ? sql<Date>`now()` : null })
      .onConflict((oc) => (conflict === 'request' ? oc.columns(['school_id', 'request_key']) : oc).doNothing())
      .returning(['id', 'no'])
      .executeTakeFirst();
  }

  /** The contract's renewal, if any. */
  renewalOf(em: Queryable, id: number) {
    return kdb(em).selectFrom('contracts').select('id').where('renewed_from', '=', id).executeTakeFirst();
  }

  /** A new version of the contract (renewed: its row changed nothing else). */
  async touch(em: Queryable, id: number): Promise<void> {
    await kdb(em)
      .updateTable('contracts')
      .set((eb) => ({ version: eb('version', '+', 1), updated_at: sql`now()` }))
      .where('id', '=', id)
      .execute();
  }

  /** The desk payment of an unpaid contract: active, paid in full. */
  async payOffline(em: Queryable, id: number, method: string, receiptNo: string | null): Promise<void> {
    await kdb(em)
      .updateTable('contracts')
      .set((eb) => ({
        status: 'active',
        paid_fen: eb.ref('price_fen'),
        pay_method: method,
        receipt_no: receiptNo,
        paid_at: sql`now()`,
        version: eb('version', '+', 1),
        updated_at: sql`now()`,
      }))
      .where('id', '=', id)
      .execute();
  }

  /** The edited end, units, auto-renew and remark. */
  async edit(
    em: Queryable,
    id: number,
    v: { end_day: string; units_total: number | null; auto_renew: boolean; remark: string | null },
  ): Promise<void> {
    await kdb(em)
      .updateTable('contracts')
      .set((eb) => ({ ...v, version: eb('version', '+', 1), updated_at: sql`now()` }))
      .where('id', '=', id)
      .execute();
  }

  /** Cancels the contract with its refund recorded. */
  async cancel(em: Queryable, id: number, refundFen: number): Promise<void> {
    await kdb(em)
      .updateTable('contracts')
      .set((eb) => ({
        status: 'cancelled',
        refunded_fen: eb('refunded_fen', '+', refundFen),
        cancelled_at: sql`now()`,
        version: eb('version', '+', 1),
        updated_at: sql`now()`,
      }))
      .where('id', '=', id)
      .execute();
  }

  /** The data of the contract's cancellation made by the request key, if any. */
  async cancellation(em: Queryable, contractId: number, requestKey: string) {
    const r = await kdb(em)
      .selectFrom('contract_events')
      .select('data')
      .where('contract_id', '=', contractId)
      .where('type', '=', 'cancelled')
      .where(sql`data->>'request_key'`, '=', requestKey)
      .executeTakeFirst();
    return r && { data: r.data as { request_key?: string; via?: string; refund_fen?: number; out_trade_no?: string | null } };
  }

  // ---------------------------------------------------------------- the provider's payment (ContractPayments)

  /** A guardian's own child's contract of the school, to pay. */
  guardiansContract(schoolId: number, id: number, guardian: number) {
    return kdb(this.db)
      .selectFrom('contracts as c')
      .innerJoin('student_guardians as g', (j) => j.onRef('g.student_id', '=', 'c.student_id').on('g.user_id', '=', guardian))
      .select(['c.id', 'c.no', 'c.price_fen', 'c.status'])
      .where('c.school_id', '=', schoolId)
      .where('c.id', '=', id)
      .executeTakeFirst();
  }

  /** The paid notify's settling: active, paid by WeChat, once (only while still unpaid at this price). */
  settle(em: Queryable, p: { id: number; schoolId: number; amountFen: number; outTradeNo: string }) {
    return kdb(em)
      .updateTable('contracts')
      .set((eb) => ({
        status: 'active',
        paid_fen: eb.ref('price_fen'),
        pay_method: 'wechat',
        receipt_no: p.outTradeNo,
        paid_at: sql`now()`,
        version: eb('version', '+', 1),
        updated_at: sql`now()`,
      }))
      .where('id', '=', p.id)
      .where('school_id', '=', p.schoolId)
      .where('status', '=', 'unpaid')
      .where('price_fen', '=', p.amountFen)
      .returning('id')
      .executeTakeFirst();
  }

  /** The contract a refund of its payment concerns, locked. */
  forRefund(em: Queryable, schoolId: number, id: number) {
    return kdb(em)
      .selectFrom('contracts')
      .select(['id', 'status', 'refunded_fen'])
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .forUpdate()
      .executeTakeFirst();
  }

  /** The WeChat payment of kind `kind` that paid the contract (paidBy), if any (never a surplus payment of it). */
  async paymentOf(em: Queryable, schoolId: number, kind: string, contractId: number): Promise<string | null> {
    const r = await kdb(em)
      .selectFrom('payments as p')
      .select('p.out_trade_no')
      .where('p.school_id', '=', schoolId)
      .where('p.kind', '=', kind)
      .where('p.ref_id', '=', String(contractId))
      .where('p.state', 'in', ['paid', 'refunded'])
      .where((eb) => eb('p.out_trade_no', '=', paidBy(eb)))
      .executeTakeFirst();
    return r?.out_trade_no ?? null;
  }
}

/**
 * The payment that paid a contract (PaymentKind.paidBy) over a payments row `p`: its receipt when it was paid by
 * WeChat, NULL otherwise (unpaid, cancelled unpaid, paid at the desk). The typed twin of CONTRACT_PAID_BY.
 */
export const paidBy = (eb: ExpressionBuilder<DB & { p: DB['payments'] }, 'p'>) =>
  eb
    .selectFrom('contracts as c')
    .select((x) => sql<string | null>`case when ${x.ref('c.pay_method')} = 'wechat' then ${x.ref('c.receipt_no')} end`.as('paid_by'))
    .where('c.id', '=', sql<number>`${eb.ref('p.ref_id')}::int`)
    .whereRef('c.school_id', '=', 'p.school_id')
    .$asScalar();
