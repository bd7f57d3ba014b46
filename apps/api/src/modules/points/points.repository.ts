import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DATA_PERIOD_SQL, StudentStatus, type LedgerKind, type ScoreOrderCountQuery } from '@wantuo/shared';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { DataSource } from 'typeorm';
import { responsibleFor, studentAccess, type AccessCaller } from '../../core/access/access';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';

type S = DB & { s: DB['students'] };

/**
 * Takes the students' points rows (created at 0 when missing) in id order, so concurrent batches never deadlock: the
 * per-student lock every change of points holds until its commit. Answers the balances.
 */
export async function lockAccounts(em: Queryable, schoolId: number, ids: number[]): Promise<Map<number, number>> {
  const sorted = [...ids].sort((a, b) => a - b);
  const k = kdb(em);
  await k
    .insertInto('points_accounts')
    .columns(['student_id', 'school_id'])
    .expression(
      k
        .selectFrom(sql<{ id: number }>`unnest(${sorted}::int[])`.as<'id'>(sql`id`))
        .select((eb) => [eb.ref('id').as('student_id'), sql`${schoolId}`.as('school_id')])
        .orderBy('id'),
    )
    .onConflict((oc) => oc.column('student_id').doNothing())
    .execute();
  const rows = await k
    .selectFrom('points_accounts')
    .select(['student_id', 'balance'])
    .where('student_id', '=', sql<number>`any(${sorted}::int[])`)
    .orderBy('student_id')
    .forUpdate()
    .execute();
  return new Map(rows.map((r) => [r.student_id, r.balance]));
}

/** The ledger's and the counts' statements (ledger.service.ts, counts.service.ts). */
@Injectable()
export class PointsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The active students the caller may award (by name pattern, class) with their balances, by class then name, paged. */
  students(caller: AccessCaller, f: { pattern: string | null; classId: number | null }, q: PageQuery) {
    const k = kdb(this.db);
    const base = () =>
      k
        .selectFrom('students as s')
        .leftJoin('care_class_students as ccs', 'ccs.student_id', 's.id')
        .leftJoin('care_classes as cc', 'cc.id', 'ccs.class_id')
        .where('s.school_id', '=', caller.schoolId)
        .where('s.status', '=', StudentStatus.Active)
        .where((eb) => studentAccess(eb, eb.ref('s.id'), caller))
        .$if(f.pattern !== null, (b) => b.where('s.name', 'like', f.pattern!))
        .$if(f.classId !== null, (b) => b.where('ccs.class_id', '=', f.classId!));
    const total = base().select(sql<number>`count(*)::int`.as('total'));
    const list = base()
      .leftJoin('points_accounts as a', 'a.student_id', 's.id')
      .select((eb) => [
        's.id',
        's.name',
        's.photo_url',
        'cc.id as class_id',
        'cc.name as class_name',
        eb.fn.coalesce('a.balance', sql.lit(0)).$castTo<number>().as('balance'),
      ])
      .orderBy('cc.name', (ob) => ob.nullsLast())
      .orderBy('s.name')
      .orderBy('s.id');
    return pageRows(this.db, total, list, q);
  }

  /** The active students of `ids` the caller may award, with their names. */
  awardable(em: Queryable, caller: AccessCaller, ids: number[]) {
    return kdb(em)
      .selectFrom('students as s')
      .select(['s.id', 's.name'])
      .where('s.school_id', '=', caller.schoolId)
      .where('s.id', '=', sql<number>`any(${ids}::int[])`)
      .where('s.status', '=', StudentStatus.Active)
      .where((eb) => studentAccess(eb, eb.ref('s.id'), caller))
      .execute();
  }

  /** The ledger entries of these request keys. */
  priorEntries(em: Queryable, schoolId: number, keys: string[]) {
    return kdb(em)
      .selectFrom('points_ledger')
      .select((eb) => ['student_id', sql<number>`${eb.ref('id')}::int`.as('entry_id'), 'delta'])
      .where('school_id', '=', schoolId)
      .where('request_key', '=', sql<string>`any(${keys}::text[])`)
      .execute();
  }

  /**
   * One statement: the students' balances change by `points` (none below 0) and each gets its ledger entry (keyed
   * by the request and the student).
   */
  award(em: Queryable, v: { schoolId: number; ids: number[]; points: number; kind: LedgerKind; reason: string; actorId: number; requestId: string }) {
    return kdb(em)
      .with('u', (db) =>
        db
          .updateTable('points_accounts as a')
          .set((eb) => ({ balance: eb('a.balance', '+', v.points), updated_at: sql`now()` }))
          .where('a.student_id', '=', sql<number>`any(${v.ids}::int[])`)
          .where((eb) => eb(eb('a.balance', '+', v.points), '>=', 0))
          .returning(['a.student_id', 'a.balance']),
      )
      .insertInto('points_ledger')
      .columns(['school_id', 'student_id', 'kind', 'delta', 'balance_after', 'reason', 'actor_id', 'request_key'])
      .expression((eb) =>
        eb
          .selectFrom('u')
          .select((x) => [
            sql`${v.schoolId}`.as('school_id'),
            'u.student_id',
            sql`${v.kind}`.as('kind'),
            sql`${v.points}`.as('delta'),
            'u.balance',
            sql`${v.reason}`.as('reason'),
            sql`${v.actorId}`.as('actor_id'),
            sql`'pts:' || ${v.requestId} || ':' || ${x.ref('u.student_id')}`.as('request_key'),
          ]),
      )
      .returning((eb) => ['student_id', sql<number>`${eb.ref('id')}::int`.as('entry_id'), 'balance_after as balance'])
      .execute();
  }

  /** The student the caller may see, with the balance and the number of ledger entries. */
  studentBalance(caller: AccessCaller, studentId: number) {
    return kdb(this.db)
      .selectFrom('students as s')
      .leftJoin('points_accounts as a', 'a.student_id', 's.id')
      .select((eb) => [
        's.id',
        's.name',
        eb.fn.coalesce('a.balance', sql.lit(0)).$castTo<number>().as('balance'),
        eb
          .selectFrom('points_ledger as l')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('l.student_id', '=', 's.id')
          .$asScalar()
          .$castTo<number>()
          .as('total'),
      ])
      .where('s.school_id', '=', caller.schoolId)
      .where('s.id', '=', studentId)
      .where((eb) => studentAccess(eb, eb.ref('s.id'), caller))
      .executeTakeFirst();
  }

  /** A page of the student's ledger, newest first. */
  ledger(studentId: number, limit: number, offset: number) {
    return kdb(this.db)
      .selectFrom('points_ledger as l')
      .leftJoin('users as u', 'u.id', 'l.actor_id')
      .select((eb) => [
        sql<number>`${eb.ref('l.id')}::int`.as('id'),
        'l.kind',
        'l.delta',
        'l.balance_after',
        'l.reason',
        'l.order_id',
        'u.name as actor_name',
        'l.created_at',
      ])
      .where('l.student_id', '=', studentId)
      .orderBy('l.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** Whether the care class is the school's (not deleted). */
  async classExists(schoolId: number, classId: number): Promise<boolean> {
    const c = await kdb(this.db)
      .selectFrom('care_classes')
      .select('id')
      .where('school_id', '=', schoolId)
      .where('id', '=', classId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return c !== undefined;
  }

  /**
   * The data centre's points numbers per period of `periods` (school-local days), in one statement: the time bounds
   * are the school's local midnights so the indexes on (school_id, created_at / handed_over_at / cancelled_at) serve
   * the ranges. `responsible`: only the students this teacher is responsible for; `classId`: only one class's.
   */
  counts(v: {
    schoolId: number;
    from: string;
    to: string;
    group: ScoreOrderCountQuery['group'];
    periods: string[];
    classId: number | null;
    responsible: number | null;
  }) {
    /** The school-local period of a time column of the row (a constant column reference). */
    const local = (col: string) => sql.raw<string>(DATA_PERIOD_SQL[v.group](`(${col} at time zone b.tz)::date`));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const mine = (eb: ExpressionBuilder<any, any>, student: Expression<number>): Expression<SqlBool> =>
      eb.and([
        ...(v.responsible === null
          ? []
          : [
              eb.exists(
                (eb as unknown as ExpressionBuilder<S, never>)
                  .selectFrom('students as s')
                  .select(sql.lit(1).as('one'))
                  .where('s.id', '=', student)
                  .where((x) => responsibleFor(x, x.ref('s.id'), v.responsible!)),
              ),
            ]),
        ...(v.classId === null
          ? []
          : [
              eb.exists(
                (eb as unknown as ExpressionBuilder<DB, never>)
                  .selectFrom('care_class_students as c')
                  .select(sql.lit(1).as('one'))
                  .where('c.student_id', '=', student)
                  .where('c.class_id', '=', v.classId),
              ),
            ]),
      ]);
    return kdb(this.db)
      .with('b', (db) =>
        db
          .selectFrom('schools as sc')
          .select((eb) => [
            'sc.timezone as tz',
            sql<Date>`(${v.from}::date)::timestamp at time zone ${eb.ref('sc.timezone')}`.as('lo'),
            sql<Date>`(${v.to}::date + 1)::timestamp at time zone ${eb.ref('sc.timezone')}`.as('hi'),
          ])
          .where('sc.id', '=', v.schoolId),
      )
      .with('led', (db) =>
        db
          .selectFrom(['points_ledger as l', 'b'])
          .select((eb) => {
            const sum = (kind: LedgerKind, sign: '' | '-') =>
              sql<number>`coalesce(${sql.raw(sign)}sum(${eb.ref('l.delta')}) filter (where ${eb.ref('l.kind')} = ${kind}), 0)::int`;
            return [
              local('l.created_at').as('period'),
              sum('award', '').as('awarded'),
              sum('deduct', '-').as('deducted'),
              sum('exchange', '-').as('spent'),
              sum('refund', '').as('refunded'),
            ];
          })
          .where('l.school_id', '=', v.schoolId)
          .whereRef('l.created_at', '>=', 'b.lo')
          .whereRef('l.created_at', '<', 'b.hi')
          .where((eb) => mine(eb, eb.ref('l.student_id')))
          .groupBy(sql`1`),
      )
      .with('made', (db) =>
        db
          .selectFrom(['points_orders as o', 'b'])
          .select([local('o.created_at').as('period'), sql<number>`count(*)::int`.as('n')])
          .where('o.school_id', '=', v.schoolId)
          .whereRef('o.created_at', '>=', 'b.lo')
          .whereRef('o.created_at', '<', 'b.hi')
          .where((eb) => mine(eb, eb.ref('o.student_id')))
          .groupBy(sql`1`),
      )
      .with('handed', (db) =>
        db
          .selectFrom(['points_orders as o', 'b'])
          .select([local('o.handed_over_at').as('period'), sql<number>`count(*)::int`.as('n')])
          .where('o.school_id', '=', v.schoolId)
          .whereRef('o.handed_over_at', '>=', 'b.lo')
          .whereRef('o.handed_over_at', '<', 'b.hi')
          .where((eb) => mine(eb, eb.ref('o.student_id')))
          .groupBy(sql`1`),
      )
      .with('cancelled', (db) =>
        db
          .selectFrom(['points_orders as o', 'b'])
          .select([local('o.cancelled_at').as('period'), sql<number>`count(*)::int`.as('n')])
          .where('o.school_id', '=', v.schoolId)
          .whereRef('o.cancelled_at', '>=', 'b.lo')
          .whereRef('o.cancelled_at', '<', 'b.hi')
          .where((eb) => mine(eb, eb.ref('o.student_id')))
          .groupBy(sql`1`),
      )
      .selectFrom(sql<{ period: string }>`unnest(${v.periods}::date[])`.as<'p'>(sql`p(period)`))
      .leftJoin('led', 'led.period', 'p.period')
      .leftJoin('made', 'made.period', 'p.period')
      .leftJoin('handed', 'handed.period', 'p.period')
      .leftJoin('cancelled', 'cancelled.period', 'p.period')
      .select((eb) => {
        const zero = (e: Expression<number | null>) => eb.fn.coalesce(e, sql.lit(0)).$castTo<number>();
        return [
          sql<string>`to_char(${eb.ref('p.period')}, 'YYYY-MM-DD')`.as('period'),
          zero(eb.ref('led.awarded')).as('awarded'),
          zero(eb.ref('led.deducted')).as('deducted'),
          zero(eb.ref('led.spent')).as('spent'),
          zero(eb.ref('led.refunded')).as('refunded'),
          zero(eb.ref('made.n')).as('orders'),
          zero(eb.ref('handed.n')).as('handed_over'),
          zero(eb.ref('cancelled.n')).as('cancelled'),
        ];
      })
      .orderBy('p.period')
      .execute();
  }
}
