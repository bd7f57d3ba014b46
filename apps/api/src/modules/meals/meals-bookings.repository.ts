import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, StudentStatus } from '@wantuo/shared';
import { sql, type Expression, type ExpressionBuilder, type InferResult, type Insertable, type SqlBool } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { DataSource } from 'typeorm';
import { guardianOf } from '../../core/access/access';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';

/** Any query's expression builder: the conditions below reference their own tables and the id handed in. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEb = ExpressionBuilder<any, any>;
const on = (eb: AnyEb) => eb as unknown as ExpressionBuilder<DB, never>;

/** Who books: the caller's id and role. */
export interface Booker {
  id: number;
  role: Role;
}

/** The ids of the students of the head teacher `me`'s own classes (an array expression: index lookups of their rows). */
export function headStudents(eb: AnyEb, me: number) {
  const sub = on(eb)
    .selectFrom('care_class_students as hs')
    .innerJoin('care_classes as hc', (j) => j.onRef('hc.id', '=', 'hs.class_id').on('hc.deleted_at', 'is', null))
    .select('hs.student_id')
    .where('hc.head_teacher_id', '=', me);
  return sql<number[]>`array(${sub})`;
}

/** `id` (an id expression) is one of the array expression `ids`. */
export const anyIn = (id: Expression<number>, ids: Expression<number[]>) => sql<SqlBool>`${id} = any(${ids})`;

/**
 * Whether `user` may book for the student `student` (an id expression): a guardian an own child, a head teacher a
 * student of an own class, the admin any student of the school (the caller adds the school condition).
 */
export function mayBookFor(eb: AnyEb, student: Expression<number>, user: Booker): Expression<SqlBool> {
  if (user.role === Role.Parent) return guardianOf(eb, student, user.id);
  if (user.role === Role.HeadTeacher) return anyIn(student, headStudents(eb, user.id));
  return sql<SqlBool>`true`;
}

/** A DinnerBooking (`b` the booking) with its student, class, item and booker. */
export const bookings = (on: Queryable) =>
  kdb(on)
    .selectFrom('meal_bookings as b')
    .innerJoin('students as st', 'st.id', 'b.student_id')
    .leftJoin('care_class_students as ccs', 'ccs.student_id', 'b.student_id')
    .leftJoin('care_classes as cc', (j) => j.onRef('cc.id', '=', 'ccs.class_id').on('cc.deleted_at', 'is', null))
    .leftJoin('meal_goods as g', 'g.id', 'b.goods_id')
    .leftJoin('users as bu', 'bu.id', 'b.booked_by')
    .select((eb) => [
      'b.id',
      'b.student_id',
      'st.name as student_name',
      'cc.id as class_id',
      'cc.name as class_name',
      sql<string>`to_char(${eb.ref('b.day')}, 'YYYY-MM-DD')`.as('day'),
      'b.goods_id',
      'g.name as goods_name',
      sql<number>`${eb.ref('b.price_fen')}::float8`.as('price_fen'),
      'b.status',
      'b.cancel_cause',
      'b.pay_from',
      'bu.name as booked_by_name',
      'b.booked_at',
      'b.served_at',
      'b.version',
    ]);

/** A booking as `bookings` selects it: the answer DinnerBooking (its times still Dates). */
export type BookingRow = InferResult<ReturnType<typeof bookings>>[number];

/** A booking as the writes read it, locked (`b` the booking). */
const lockedColumns = (eb: ExpressionBuilder<DB & { b: DB['meal_bookings'] }, 'b'>) =>
  [
    'b.id',
    'b.student_id',
    sql<string>`to_char(${eb.ref('b.day')}, 'YYYY-MM-DD')`.as('day'),
    'b.goods_id',
    'b.status',
    'b.pay_from',
    'b.out_trade_no',
    'b.served_at',
    'b.version',
  ] as const;

/** Appends one entry to a booking's history (append-only). */
export async function appendBookingEvent(
  em: Queryable,
  schoolId: number,
  bookingId: number,
  type: string,
  actorId: number | null,
  data: Record<string, unknown> = {},
): Promise<void> {
  await kdb(em)
    .insertInto('meal_booking_events')
    .values({ school_id: schoolId, booking_id: bookingId, type, data: JSON.stringify(data), actor_id: actorId })
    .execute();
}

/** One of the school's items (not deleted), or `meals.goods_not_found`. */
export async function goodsRow(em: Queryable, schoolId: number, id: number) {
  const g = await kdb(em)
    .selectFrom('meal_goods')
    .select((eb) => ['id', 'name', sql<number>`${eb.ref('price_fen')}::float8`.as('price_fen'), 'enabled', 'version'])
    .where('school_id', '=', schoolId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!g) throw new AppError('meals.goods_not_found');
  return g;
}

/** The school calendar's entries of a range, by day, and the weekdays the student's care class meets (null: no class or no time slot). */
export interface ClassDays {
  weekdays: number[] | null;
  calendar: Map<string, { kind: 'holiday' | 'makeup'; works_as: number | null }>;
}

/** What mealDayRefusal needs for a student over from..to: one query. */
export async function classDaysOf(em: Queryable, schoolId: number, studentId: number, from: string, to: string): Promise<ClassDays> {
  const r = await kdb(em)
    .selectNoFrom((eb) => [
      eb
        .selectFrom('care_class_students as cs')
        .innerJoin('care_classes as cc', (j) => j.onRef('cc.id', '=', 'cs.class_id').on('cc.deleted_at', 'is', null))
        .innerJoin('class_times as ct', 'ct.id', 'cc.class_time_id')
        .select((x) => sql<number[]>`${x.ref('ct.weekdays')}::int[]`.as('weekdays'))
        .where('cs.student_id', '=', studentId)
        .as('weekdays'),
      jsonArrayFrom(
        eb
          .selectFrom('school_calendar_days as d')
          .select((x) => [
            sql<string>`to_char(${x.ref('d.day')}, 'YYYY-MM-DD')`.as('day'),
            x.ref('d.kind').$castTo<'holiday' | 'makeup'>().as('kind'),
            'd.works_as',
          ])
          .where('d.school_id', '=', schoolId)
          .where('d.day', '>=', sql<string>`${from}::date`)
          .where('d.day', '<=', sql<string>`${to}::date`),
      ).as('calendar'),
    ])
    .executeTakeFirstOrThrow();
  return { weekdays: r.weekdays, calendar: new Map(r.calendar.map((c) => [c.day, { kind: c.kind, works_as: c.works_as }])) };
}

/** The booking a refund is for, locked (a meal payment's refunder). */
export function lockBookingForRefund(em: Queryable, schoolId: number, id: number) {
  return kdb(em)
    .selectFrom('meal_bookings')
    .select(['id', 'status', 'cancel_cause'])
    .where('id', '=', id)
    .where('school_id', '=', schoolId)
    .forUpdate()
    .executeTakeFirst();
}

/** The dinner bookings' statements (bookings.service.ts, meal-payments.ts). */
@Injectable()
export class MealBookingsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The booking a request key made. */
  async byRequest(em: Queryable, schoolId: number, requestKey: string): Promise<number | null> {
    const b = await kdb(em)
      .selectFrom('meal_bookings')
      .select('id')
      .where('school_id', '=', schoolId)
      .where('request_key', '=', requestKey)
      .executeTakeFirst();
    return b?.id ?? null;
  }

  /** Whether the student is the school's (and active, with `activeOnly`) and one `user` may book for. */
  async bookable(em: Queryable, schoolId: number, studentId: number, user: Booker, activeOnly: boolean): Promise<boolean> {
    const st = await kdb(em)
      .selectFrom('students as s')
      .select('s.id')
      .where('s.school_id', '=', schoolId)
      .where('s.id', '=', studentId)
      .$if(activeOnly, (b) => b.where('s.status', '=', StudentStatus.Active))
      .where((eb) => mayBookFor(eb, eb.ref('s.id'), user))
      .executeTakeFirst();
    return st !== undefined;
  }

  /** The student's booking of the day, locked. */
  lockDay(em: Queryable, studentId: number, day: string) {
    return kdb(em)
      .selectFrom('meal_bookings as b')
      .select(lockedColumns)
      .where('b.student_id', '=', studentId)
      .where('b.day', '=', day)
      .forUpdate()
      .executeTakeFirst();
  }

  /** The student's active contract that includes dinner and covers the day (the earliest). */
  async dinnerContract(em: Queryable, schoolId: number, studentId: number, day: string): Promise<number | undefined> {
    const c = await kdb(em)
      .selectFrom('contracts as c')
      .innerJoin('contract_packages as p', 'p.id', 'c.package_id')
      .select('c.id')
      .where('c.school_id', '=', schoolId)
      .where('c.student_id', '=', studentId)
      .where('c.status', '=', 'active')
      .where((eb) => eb(sql.lit('dinner'), '=', eb.fn.any('p.includes')))
      .where((eb) => eb.between(sql<string>`${day}::date`, eb.ref('c.start_day'), eb.ref('c.end_day')))
      .orderBy('c.start_day')
      .limit(1)
      .executeTakeFirst();
    return c?.id;
  }

  /** Books the student's day: a new booking, or the day's booking (of any status) booked again. */
  async upsert(em: Queryable, row: Insertable<DB['meal_bookings']>): Promise<number> {
    const r = await kdb(em)
      .insertInto('meal_bookings')
      .values({ ...row, booked_at: sql`now()` })
      .onConflict((oc) =>
        oc.columns(['student_id', 'day']).doUpdateSet((eb) => ({
          goods_id: eb.ref('excluded.goods_id'),
          price_fen: eb.ref('excluded.price_fen'),
          status: eb.ref('excluded.status'),
          cancel_cause: null,
          leave_id: null,
          pay_from: eb.ref('excluded.pay_from'),
          contract_id: eb.ref('excluded.contract_id'),
          out_trade_no: null,
          booked_by: eb.ref('excluded.booked_by'),
          booked_at: sql`now()`,
          cancelled_by: null,
          cancelled_at: null,
          request_key: eb.ref('excluded.request_key'),
          version: eb('meal_bookings.version', '+', 1),
          updated_at: sql`now()`,
        })),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /** The school's booking `user` may book for, locked, with its price. */
  lockForCancel(em: Queryable, schoolId: number, id: number, user: Booker) {
    return kdb(em)
      .selectFrom('meal_bookings as b')
      .innerJoin('students as s', 's.id', 'b.student_id')
      .select(lockedColumns)
      .select((eb) => sql<number>`${eb.ref('b.price_fen')}::float8`.as('price_fen'))
      .where('b.school_id', '=', schoolId)
      .where('b.id', '=', id)
      .where((eb) => mayBookFor(eb, eb.ref('s.id'), user))
      .forUpdate('b')
      .executeTakeFirst();
  }

  /** A person's cancellation. */
  async cancel(em: Queryable, id: number, actorId: number): Promise<void> {
    await kdb(em)
      .updateTable('meal_bookings')
      .set((eb) => ({
        status: 'cancelled',
        cancel_cause: 'user',
        cancelled_by: actorId,
        cancelled_at: sql`now()`,
        version: eb('version', '+', 1),
        updated_at: sql`now()`,
      }))
      .where('id', '=', id)
      .execute();
  }

  /** One of the school's bookings. */
  one(schoolId: number, id: number): Promise<BookingRow | undefined> {
    return bookings(this.db).where('b.school_id', '=', schoolId).where('b.id', '=', id).executeTakeFirst();
  }

  /** A student's bookings over from..to, by day. */
  ofStudent(studentId: number, from: string, to: string): Promise<BookingRow[]> {
    return bookings(this.db).where('b.student_id', '=', studentId).where('b.day', '>=', from).where('b.day', '<=', to).orderBy('b.day').execute();
  }

  /** The days of from..to an active contract of the student that includes dinner covers. */
  async coveredDays(studentId: number, from: string, to: string): Promise<string[]> {
    const rows = await kdb(this.db)
      .selectFrom(sql<{ d: string }>`generate_series(${from}::date, ${to}::date, interval '1 day')`.as('d'))
      .select((eb) => sql<string>`to_char(${eb.ref('d.d')}, 'YYYY-MM-DD')`.as('day'))
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('contracts as c')
            .innerJoin('contract_packages as p', 'p.id', 'c.package_id')
            .select(sql.lit(1).as('one'))
            .where('c.student_id', '=', studentId)
            .where('c.status', '=', 'active')
            .where((x) => x(sql.lit('dinner'), '=', x.fn.any('p.includes')))
            .where((x) => x.between(sql<string>`${x.ref('d.d')}::date`, x.ref('c.start_day'), x.ref('c.end_day'))),
        ),
      )
      .execute();
    return rows.map((r) => r.day);
  }

  /** The school's booking of a child of the guardian, with its item's name (what a payment for it needs). */
  payable(schoolId: number, id: number, guardian: number) {
    return kdb(this.db)
      .selectFrom('meal_bookings as b')
      .innerJoin('meal_goods as g', 'g.id', 'b.goods_id')
      .innerJoin('student_guardians as sg', (j) => j.onRef('sg.student_id', '=', 'b.student_id').on('sg.user_id', '=', guardian))
      .select((eb) => [
        'b.id',
        sql<string>`to_char(${eb.ref('b.day')}, 'YYYY-MM-DD')`.as('day'),
        sql<number>`${eb.ref('b.price_fen')}::float8`.as('price_fen'),
        'b.status',
        'g.name as goods_name',
      ])
      .where('b.school_id', '=', schoolId)
      .where('b.id', '=', id)
      .executeTakeFirst();
  }

  /** The unpaid booking (at the paid price) becomes booked by the payment; the id when it did. */
  async settle(em: Queryable, schoolId: number, id: number, amountFen: number, outTradeNo: string): Promise<number | undefined> {
    const r = await kdb(em)
      .updateTable('meal_bookings')
      .set((eb) => ({ status: 'booked', out_trade_no: outTradeNo, version: eb('version', '+', 1), updated_at: sql`now()` }))
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .where('status', '=', 'unpaid')
      .where('price_fen', '=', amountFen)
      .returning('id')
      .executeTakeFirst();
    return r?.id;
  }

  /** The day and student of the booking a payment paid. */
  paidBooking(schoolId: number, outTradeNo: string) {
    return kdb(this.db)
      .selectFrom('payments as p')
      .innerJoin('meal_bookings as b', (j) =>
        j.on((eb) => eb('b.id', '=', sql<number>`${eb.ref('p.ref_id')}::int`)).onRef('b.school_id', '=', 'p.school_id'),
      )
      .select((eb) => [sql<string>`to_char(${eb.ref('b.day')}, 'YYYY-MM-DD')`.as('day'), 'b.student_id'])
      .where('p.school_id', '=', schoolId)
      .where('p.out_trade_no', '=', outTradeNo)
      .executeTakeFirst();
  }
}
