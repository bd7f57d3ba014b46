import { Injectable } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';

/** The school's today (school-local), as a one-row table `d` (`offset 0`: evaluated once). */
const todayOf = (k: Kysely<DB>, schoolId: number) =>
  k
    .selectFrom('schools')
    .select((eb) => sql<string>`(now() at time zone ${eb.ref('timezone')})::date`.as('today'))
    .where('id', '=', schoolId)
    .offset(sql.lit(0))
    .as('d');

/**
 * The students' days `p` (student, day pairs) with their school and the flow's dinner (`sd`): what the bookings'
 * served time follows.
 */
const withDays = (em: Queryable, ids: number[], days: string[]) =>
  kdb(em)
    .with('p', (db) =>
      db.selectFrom(sql<{ student_id: number; day: string }>`unnest(${ids}::int[], ${days}::date[])`.as<'p'>(sql`p(student_id, day)`)).selectAll(),
    )
    .with('sd', (db) =>
      db
        .selectFrom('p')
        .innerJoin('students as s', 's.id', 'p.student_id')
        .leftJoin('student_days as d', (j) => j.onRef('d.student_id', '=', 'p.student_id').onRef('d.day', '=', 'p.day'))
        .select(['p.student_id', 'p.day', 's.school_id', 'd.dinner_at', 'd.dinner_by']),
    );

/** The statements of what other modules' domain events do to dinner bookings (meals-listener.ts). */
@Injectable()
export class MealEventsRepository {
  /** One leave's bookings at a time. */
  async lockLeave(em: Queryable, leaveId: number): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended('meals-leave:' || ${leaveId}, 0))`.execute(kdb(em));
  }

  /** The leave's status, student and days, with its school's today. */
  leave(em: Queryable, schoolId: number, leaveId: number) {
    const k = kdb(em);
    return k
      .selectFrom('leave_requests as l')
      .crossJoin(todayOf(k, schoolId))
      .select((eb) => [
        sql<number>`${eb.ref('l.status')}::int`.as('status'),
        'l.student_id',
        sql<string>`${eb.ref('l.start_day')}::text`.as('start_day'),
        sql<string>`${eb.ref('l.end_day')}::text`.as('end_day'),
        sql<string>`${eb.ref('d.today')}::text`.as('today'),
      ])
      .where('l.school_id', '=', schoolId)
      .where('l.id', '=', leaveId)
      .executeTakeFirst();
  }

  /**
   * Cancels the booked and unpaid (not served) dinners of the student over the leave's days from today on, the status
   * before kept with the history (so the leave's cancellation restores it).
   */
  cancelForLeave(em: Queryable, leaveId: number, studentId: number, start: string, end: string, today: string) {
    return kdb(em)
      .with('o', (db) =>
        db
          .selectFrom('meal_bookings as b')
          .select(['b.id', 'b.status'])
          .where('b.student_id', '=', studentId)
          .where((eb) => eb.between('b.day', sql<string>`greatest(${start}::date, ${today}::date)`, sql<string>`${end}::date`))
          .where('b.status', 'in', ['booked', 'unpaid'])
          .where('b.served_at', 'is', null)
          .forUpdate(),
      )
      .with('c', (db) =>
        db
          .updateTable('meal_bookings as b')
          .from('o')
          .set((eb) => ({
            status: 'cancelled',
            cancel_cause: 'leave',
            leave_id: leaveId,
            cancelled_at: sql`now()`,
            cancelled_by: null,
            version: eb('b.version', '+', 1),
            updated_at: sql`now()`,
          }))
          .whereRef('b.id', '=', 'o.id')
          .returning((eb) => [
            'b.id',
            'b.school_id',
            'b.day',
            'o.status as status_before',
            'b.pay_from',
            'b.out_trade_no',
            sql<number>`${eb.ref('b.price_fen')}::float8`.as('price_fen'),
          ]),
      )
      .with('h', (db) =>
        db
          .insertInto('meal_booking_events')
          .columns(['school_id', 'booking_id', 'type', 'data'])
          .expression(
            db
              .selectFrom('c')
              .select((eb) => [
                'c.school_id',
                'c.id',
                sql.lit('cancelled_by_leave').as('type'),
                sql`jsonb_build_object('leave_id', ${leaveId}::int, 'status_before', ${eb.ref('c.status_before')})`.as('data'),
              ]),
          ),
      )
      .selectFrom('c')
      .select((eb) => [
        'c.id',
        sql<string>`to_char(${eb.ref('c.day')}, 'YYYY-MM-DD')`.as('day'),
        'c.status_before',
        'c.pay_from',
        'c.out_trade_no',
        'c.price_fen',
      ])
      .execute();
  }

  /**
   * Restores the bookings the leave cancelled (from today on) as they were; a WeChat-paid dinner was refunded when the
   * leave cancelled it, so it waits for payment again.
   */
  restoreAfterLeave(em: Queryable, leaveId: number, today: string) {
    return kdb(em)
      .with('w', (db) =>
        db
          .selectFrom('meal_booking_events as v')
          .distinctOn('v.booking_id')
          .select((eb) => ['v.booking_id', sql<string | null>`${eb.ref('v.data')}->>'status_before'`.as('status_before')])
          .where('v.type', '=', 'cancelled_by_leave')
          .where((eb) => eb(sql<number>`(${eb.ref('v.data')}->>'leave_id')::int`, '=', leaveId))
          .orderBy('v.booking_id')
          .orderBy('v.id', 'desc'),
      )
      .with('r', (db) =>
        db
          .updateTable('meal_bookings as b')
          .from('w')
          .set((eb) => ({
            status: eb
              .case()
              .when(eb.or([eb('b.pay_from', '=', 'wechat'), eb('w.status_before', '=', 'unpaid')]))
              .then(sql.lit('unpaid'))
              .else(sql.lit('booked'))
              .end()
              .$castTo<'unpaid' | 'booked'>(),
            out_trade_no: eb.case().when('b.pay_from', '=', 'wechat').then(null).else(eb.ref('b.out_trade_no')).end(),
            cancel_cause: null,
            leave_id: null,
            cancelled_at: null,
            version: eb('b.version', '+', 1),
            updated_at: sql`now()`,
          }))
          .whereRef('b.id', '=', 'w.booking_id')
          .where('b.leave_id', '=', leaveId)
          .where('b.cancel_cause', '=', 'leave')
          .where('b.status', '=', 'cancelled')
          .where('b.day', '>=', sql<string>`${today}::date`)
          .returning(['b.id', 'b.school_id', 'b.day', 'b.status']),
      )
      .with('h', (db) =>
        db
          .insertInto('meal_booking_events')
          .columns(['school_id', 'booking_id', 'type', 'data'])
          .expression(
            db
              .selectFrom('r')
              .select((eb) => [
                'r.school_id',
                'r.id',
                sql.lit('restored_after_leave').as('type'),
                sql`jsonb_build_object('leave_id', ${leaveId}::int, 'status', ${eb.ref('r.status')})`.as('data'),
              ]),
          ),
      )
      .selectFrom('r')
      .select((eb) => ['r.id', sql<string>`to_char(${eb.ref('r.day')}, 'YYYY-MM-DD')`.as('day')])
      .execute();
  }

  /** The bookings' served time follows the students' days (history for real bookings): the changed ones. */
  serve(em: Queryable, ids: number[], days: string[]) {
    return withDays(em, ids, days)
      .with('u', (db) =>
        db
          .updateTable('meal_bookings as b')
          .from('sd')
          .set((eb) => ({
            served_at: eb.ref('sd.dinner_at'),
            served_by: eb.ref('sd.dinner_by'),
            version: eb('b.version', '+', 1),
            updated_at: sql`now()`,
          }))
          .whereRef('b.student_id', '=', 'sd.student_id')
          .whereRef('b.day', '=', 'sd.day')
          .where((eb) => eb('b.served_at', 'is distinct from', eb.ref('sd.dinner_at')))
          .returning(['b.id', 'b.school_id', 'b.student_id', 'b.day', 'b.status', 'b.served_at']),
      )
      .with('h', (db) =>
        db
          .insertInto('meal_booking_events')
          .columns(['school_id', 'booking_id', 'type', 'data'])
          .expression(
            db
              .selectFrom('u')
              .select((eb) => [
                'u.school_id',
                'u.id',
                eb.case().when('u.served_at', 'is', null).then(sql.lit('unserved')).else(sql.lit('served')).end().as('type'),
                sql.lit('{}').as('data'),
              ])
              .where('u.status', '<>', 'none'),
          ),
      )
      .selectFrom('u')
      .select((eb) => ['u.school_id', sql<string>`to_char(${eb.ref('u.day')}, 'YYYY-MM-DD')`.as('day'), 'u.student_id'])
      .execute();
  }

  /** A dinner without a booking is kept as a 'none' row (counted as unbooked served): the ones added. */
  keepUnbooked(em: Queryable, ids: number[], days: string[]) {
    return withDays(em, ids, days)
      .insertInto('meal_bookings')
      .columns(['school_id', 'student_id', 'day', 'status', 'served_at', 'served_by'])
      .expression((eb) =>
        eb
          .selectFrom('sd')
          .select(['sd.school_id', 'sd.student_id', 'sd.day', sql.lit('none').as('status'), 'sd.dinner_at', 'sd.dinner_by'])
          .where('sd.dinner_at', 'is not', null),
      )
      .onConflict((oc) => oc.columns(['student_id', 'day']).doNothing())
      .returning((eb) => ['school_id', sql<string>`to_char(${eb.ref('day')}, 'YYYY-MM-DD')`.as('day'), 'student_id'])
      .execute();
  }

  /** A 'none' row whose dinner was voided goes. */
  async dropUnserved(em: Queryable, ids: number[], days: string[]): Promise<void> {
    await kdb(em)
      .deleteFrom('meal_bookings as b')
      .using(sql<{ student_id: number; day: string }>`unnest(${ids}::int[], ${days}::date[])`.as<'p'>(sql`p(student_id, day)`))
      .whereRef('b.student_id', '=', 'p.student_id')
      .whereRef('b.day', '=', 'p.day')
      .where('b.status', '=', 'none')
      .where('b.served_at', 'is', null)
      .execute();
  }
}
