import { sql, type ExpressionBuilder } from 'kysely';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';

/**
 * The dinner bookings on days the school calendar closes (teaching's holidayImportPreview lists them, importHolidays
 * cancels them in its transaction).
 */

/** The school's bookings a closed day cancels: booked or unpaid, not served, on these days (`b` the booking). */
const closedDay = (eb: ExpressionBuilder<DB & { b: DB['meal_bookings'] }, 'b'>, schoolId: number, days: string[]) =>
  eb.and([
    eb('b.school_id', '=', schoolId),
    eb('b.day', '=', sql<string>`any(${days}::date[])`),
    eb('b.status', 'in', ['booked', 'unpaid']),
    eb('b.served_at', 'is', null),
  ]);

/** The dinner bookings closing these days would cancel (the school's, booked or unpaid, not served). */
export async function closedDayBookings(em: Queryable, schoolId: number, days: string[]) {
  if (!days.length) return [];
  return kdb(em)
    .selectFrom('meal_bookings as b')
    .innerJoin('students as st', 'st.id', 'b.student_id')
    .select((eb) => [
      'b.id',
      sql<string>`to_char(${eb.ref('b.day')}, 'YYYY-MM-DD')`.as('day'),
      'b.student_id',
      'st.name as student_name',
      eb.ref('b.status').$castTo<'booked' | 'unpaid'>().as('status'),
      'b.pay_from',
    ])
    .where((eb) => closedDay(eb, schoolId, days))
    .orderBy('b.day')
    .orderBy('st.name')
    .orderBy('b.id')
    .execute();
}

/** A dinner booking a closed day cancels (holidayImportPreview lists these; importHolidays cancels exactly these). */
export type ClosedDayBooking = Awaited<ReturnType<typeof closedDayBookings>>[number];

/**
 * Cancels, in the caller's transaction, the bookings closedDayBookings lists for these days, as a person's cancellation
 * by `actorId` (cancel_cause 'user', history 'cancelled' with `why`): the caller emits 'meals.closed_day_cancelled'
 * after its commit so the meals module refunds the WeChat-paid ones and recounts the days. Each answers the booking
 * before (for the refund after the commit and the counts) and the version it had when cancelled (a refund's
 * idempotency key, as cancel() uses).
 */
export async function cancelClosedDayBookings(em: Queryable, schoolId: number, days: string[], actorId: number, why: Record<string, unknown>) {
  if (!days.length) return [];
  return kdb(em)
    .with('o', (db) =>
      db
        .selectFrom('meal_bookings as b')
        .select(['b.id', 'b.status', 'b.version'])
        .where((eb) => closedDay(eb, schoolId, days))
        .forUpdate(),
    )
    .with('c', (db) =>
      db
        .updateTable('meal_bookings as b')
        .from('o')
        .set((eb) => ({
          status: 'cancelled',
          cancel_cause: 'user',
          cancelled_by: actorId,
          cancelled_at: sql`now()`,
          version: eb('b.version', '+', 1),
          updated_at: sql`now()`,
        }))
        .whereRef('b.id', '=', 'o.id')
        .returning((eb) => [
          'b.id',
          'b.school_id',
          'b.day',
          'b.student_id',
          eb.ref('o.status').$castTo<'booked' | 'unpaid'>().as('was'),
          'b.pay_from',
          'b.out_trade_no',
          sql<number>`${eb.ref('b.price_fen')}::float8`.as('price_fen'),
          'o.version',
        ]),
    )
    .with('h', (db) =>
      db
        .insertInto('meal_booking_events')
        .columns(['school_id', 'booking_id', 'type', 'data', 'actor_id'])
        .expression(
          db
            .selectFrom('c')
            .select((eb) => [
              'c.school_id',
              'c.id',
              sql.lit('cancelled').as('type'),
              sql`jsonb_build_object('was', ${eb.ref('c.was')}) || ${JSON.stringify(why)}::jsonb`.as('data'),
              sql`${actorId}`.as('actor_id'),
            ]),
        ),
    )
    .selectFrom('c')
    .select((eb) => [
      'c.id',
      sql<string>`to_char(${eb.ref('c.day')}, 'YYYY-MM-DD')`.as('day'),
      'c.student_id',
      'c.was',
      'c.pay_from',
      'c.out_trade_no',
      'c.price_fen',
      'c.version',
    ])
    .orderBy('c.id')
    .execute();
}

/** What a cancellation on a closed day answers. */
export type ClosedDayCancelled = Awaited<ReturnType<typeof cancelClosedDayBookings>>[number];
