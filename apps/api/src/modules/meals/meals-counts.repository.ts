import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { StudentStatus, type DinnerBookingCount, type MealCountMessage, type OrderMealCountQuery, type Page } from '@wantuo/shared';
import { sql, type Expression, type ExpressionBuilder } from 'kysely';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import { DataSource } from 'typeorm';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';
import { anyIn, bookings, headStudents, type BookingRow } from './meals-bookings.repository';

type B = DB & { b: DB['meal_bookings'] };

/** The period of a day (a date expression) for a grouping: its first day, as packages/shared periodOf names it. */
const periodOf = (group: OrderMealCountQuery['group'], day: Expression<string>) =>
  group === 'day' ? sql<string>`to_char(${day}, 'YYYY-MM-DD')` : sql<string>`to_char(date_trunc(${sql.lit(group)}, ${day}), 'YYYY-MM-DD')`;

/** Which bookings a list of orders shows (`b` the booking). */
export interface OrdersFilter {
  schoolId: number;
  from: string;
  to: string;
  studentId?: number | null;
  classId?: number | null;
  /** only students of this head teacher's own classes */
  head?: number;
  goodsId?: number | null;
  status?: string | null;
  /** a student-name ILIKE pattern */
  pattern?: string | null;
}

const ordersWhere = (f: OrdersFilter) => (eb: ExpressionBuilder<B, 'b'>) =>
  eb.and([
    eb('b.school_id', '=', f.schoolId),
    eb.between('b.day', f.from, f.to),
    ...(f.studentId ? [eb('b.student_id', '=', f.studentId)] : []),
    ...(f.classId
      ? [
          anyIn(
            eb.ref('b.student_id'),
            sql<number[]>`array(${eb.selectFrom('care_class_students as fc').select('fc.student_id').where('fc.class_id', '=', f.classId)})`,
          ),
        ]
      : []),
    ...(f.head !== undefined ? [anyIn(eb.ref('b.student_id'), headStudents(eb, f.head))] : []),
    ...(f.goodsId ? [eb('b.goods_id', '=', f.goodsId)] : []),
    ...(f.status ? [eb('b.status', '=', f.status as DB['meal_bookings']['status'])] : []),
    ...(f.pattern
      ? [
          eb(
            'b.student_id',
            'in',
            eb.selectFrom('students as ks').select('ks.id').where('ks.school_id', '=', f.schoolId).where('ks.name', 'ilike', f.pattern),
          ),
        ]
      : []),
  ]);

/** The head teacher's classes (`cls`: all own, or the one asked) and their active students (`st`). */
const withClasses = (on: Queryable, schoolId: number, head: number, classId: number | null) =>
  kdb(on)
    .with('cls', (db) =>
      db
        .selectFrom('care_classes as c')
        .select(['c.id', 'c.name'])
        .where('c.school_id', '=', schoolId)
        .where('c.head_teacher_id', '=', head)
        .where('c.deleted_at', 'is', null)
        .$if(classId !== null, (q) => q.where('c.id', '=', classId!)),
    )
    .with('st', (db) =>
      db
        .selectFrom('care_class_students as ccs')
        .innerJoin('cls', 'cls.id', 'ccs.class_id')
        .innerJoin('students as s', (j) => j.onRef('s.id', '=', 'ccs.student_id').on('s.status', '=', StudentStatus.Active))
        .select(['ccs.student_id', 'ccs.class_id']),
    );

/** The students of `st` as an array expression. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const stIds = (eb: ExpressionBuilder<any, any>) => sql<number[]>`array(${eb.selectFrom('st').select('student_id')})`;

const count = sql<number>`count(*)::int`;

/** The meal lists' and counts' statements (counts.service.ts). */
@Injectable()
export class MealCountsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Whether `day` is the school's today, the care classes of these students, the day's counts per item. */
  live(schoolId: number, day: string, studentIds: number[]) {
    return kdb(this.db)
      .selectFrom((eb) =>
        eb
          .selectFrom('schools')
          .select((z) => sql<string>`(now() at time zone ${z.ref('timezone')})::date`.as('today'))
          .where('id', '=', schoolId)
          .offset(sql.lit(0))
          .as('d'),
      )
      .select((eb) => [
        sql<boolean>`${eb.ref('d.today')} = ${day}::date`.as('today'),
        sql<number[]>`array(${eb
          .selectFrom('care_class_students as cs')
          .select('cs.class_id')
          .distinct()
          .where('cs.student_id', '=', sql<number>`any(${studentIds}::int[])`)})`.as('class_ids'),
        eb.fn
          .coalesce(
            eb
              .selectFrom('meal_counts as k')
              .leftJoin('meal_goods as g', 'g.id', 'k.goods_id')
              .select((x) =>
                x.fn
                  .jsonAgg(
                    jsonBuildObject({
                      goods_id: x.fn('nullif', [x.ref('k.goods_id'), sql.lit(0)]),
                      goods_name: x.ref('g.name'),
                      booked: x.ref('k.booked'),
                      served: x.ref('k.served'),
                      unbooked_served: x.ref('k.unbooked_served'),
                    }),
                  )
                  .orderBy('k.goods_id')
                  .as('items'),
              )
              .where('k.school_id', '=', schoolId)
              .where('k.day', '=', day),
            sql`'[]'`,
          )
          .$castTo<MealCountMessage['items']>()
          .as('items'),
      ])
      .executeTakeFirst();
  }

  /** A page of the bookings `f` selects, newest day first, with the total (one statement). */
  orders(f: OrdersFilter, q: PageQuery): Promise<Page<BookingRow>> {
    const total = kdb(this.db).selectFrom('meal_bookings as b').select(count.as('total')).where(ordersWhere(f));
    const list = bookings(this.db).where(ordersWhere(f)).orderBy('b.day', 'desc').orderBy('b.id');
    return pageRows(this.db, total, list, q);
  }

  /** Per period and item, from meal_counts: booked, cancelled, served, unbooked served (goods_id null: without a booking). */
  schoolCounts(schoolId: number, group: OrderMealCountQuery['group'], from: string, to: string) {
    return kdb(this.db)
      .selectFrom('meal_counts as k')
      .leftJoin('meal_goods as g', 'g.id', 'k.goods_id')
      .select((eb) => [
        periodOf(group, eb.ref('k.day')).as('period'),
        eb.fn<number | null>('nullif', [eb.ref('k.goods_id'), sql.lit(0)]).as('goods_id'),
        eb.fn.min('g.name').as('goods_name'),
        eb.cast<number>(eb.fn.sum('k.booked'), 'integer').as('booked'),
        eb.cast<number>(eb.fn.sum('k.cancelled'), 'integer').as('cancelled'),
        eb.cast<number>(eb.fn.sum('k.served'), 'integer').as('served'),
        eb.cast<number>(eb.fn.sum('k.unbooked_served'), 'integer').as('unbooked_served'),
      ])
      .where('k.school_id', '=', schoolId)
      .where((eb) => eb.between('k.day', from, to))
      .groupBy((eb) => [periodOf(group, eb.ref('k.day')), 'k.goods_id'])
      .having((eb) =>
        eb.or([
          eb(eb.fn.sum('k.booked'), '<>', 0),
          eb(eb.fn.sum('k.cancelled'), '<>', 0),
          eb(eb.fn.sum('k.served'), '<>', 0),
          eb(eb.fn.sum('k.unbooked_served'), '<>', 0),
        ]),
      )
      .orderBy((eb) => periodOf(group, eb.ref('k.day')))
      .orderBy('k.goods_id')
      .execute();
  }

  /**
   * The same counts over the head teacher's own classes' students, from their bookings (counted as meal_counts
   * counts, so the two agree).
   */
  classCounts(schoolId: number, head: number, group: OrderMealCountQuery['group'], from: string, to: string) {
    const served = (eb: ExpressionBuilder<B, 'b'>) => eb('b.served_at', 'is not', null);
    return withClasses(this.db, schoolId, head, null)
      .selectFrom('meal_bookings as b')
      .leftJoin('meal_goods as g', 'g.id', 'b.goods_id')
      .select((eb) => [
        periodOf(group, eb.ref('b.day')).as('period'),
        'b.goods_id',
        eb.fn.min('g.name').as('goods_name'),
        eb.cast<number>(eb.fn.countAll().filterWhere('b.status', '=', 'booked'), 'integer').as('booked'),
        eb.cast<number>(eb.fn.countAll().filterWhere('b.status', '=', 'cancelled'), 'integer').as('cancelled'),
        eb
          .cast<number>(
            eb.fn.countAll().filterWhere((x) => x.and([x('b.status', '=', 'booked'), served(x)])),
            'integer',
          )
          .as('served'),
        eb
          .cast<number>(
            eb.fn.countAll().filterWhere((x) => x.and([x('b.status', '<>', 'booked'), served(x)])),
            'integer',
          )
          .as('unbooked_served'),
      ])
      .where((eb) => anyIn(eb.ref('b.student_id'), stIds(eb)))
      .where((eb) => eb.between('b.day', from, to))
      .where('b.school_id', '=', schoolId)
      .groupBy((eb) => [periodOf(group, eb.ref('b.day')), 'b.goods_id'])
      .having((eb) =>
        eb(
          eb.fn.countAll().filterWhere((x) => x.or([x('b.status', 'in', ['booked', 'cancelled']), served(x)])),
          '>',
          0,
        ),
      )
      .orderBy((eb) => periodOf(group, eb.ref('b.day')))
      .orderBy('b.goods_id')
      .execute();
  }

  /** Whether the care class is the head teacher's own. */
  async ownClass(schoolId: number, head: number, classId: number): Promise<boolean> {
    const r = await kdb(this.db)
      .selectFrom('care_classes')
      .select(sql.lit(1).as('one'))
      .where('school_id', '=', schoolId)
      .where('head_teacher_id', '=', head)
      .where('id', '=', classId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return r !== undefined;
  }

  /** The head teacher's class(es) for a day: per item booked and served, unbooked dinners, students without a booking. */
  dayCount(schoolId: number, head: number, classId: number | null, day: string) {
    return withClasses(this.db, schoolId, head, classId)
      .with('b', (db) =>
        db
          .selectFrom('meal_bookings as b')
          .select(['b.goods_id', 'b.status', 'b.served_at'])
          .where((eb) => anyIn(eb.ref('b.student_id'), stIds(eb)))
          .where('b.day', '=', day),
      )
      .selectNoFrom((eb) => {
        const students = () => eb.selectFrom('st').select(count.as('n'));
        const booked = () => eb.selectFrom('b').select(count.as('n')).where('b.status', '=', 'booked');
        const served = (isBooked: boolean) =>
          eb
            .selectFrom('b')
            .select(count.as('n'))
            .where('b.status', isBooked ? '=' : '<>', 'booked')
            .where('b.served_at', 'is not', null);
        return [
          eb.fn
            .coalesce(
              eb.selectFrom('cls').select((x) =>
                x.fn
                  .jsonAgg(jsonBuildObject({ id: x.ref('cls.id'), name: x.ref('cls.name') }))
                  .orderBy('cls.id')
                  .as('j'),
              ),
              sql`'[]'`,
            )
            .$castTo<DinnerBookingCount['classes']>()
            .as('classes'),
          students().$asScalar().$castTo<number>().as('students'),
          eb.fn
            .coalesce(
              eb
                .selectFrom(
                  eb
                    .selectFrom('b')
                    .innerJoin('meal_goods as g', 'g.id', 'b.goods_id')
                    .select((x) => [
                      'b.goods_id',
                      'g.name as goods_name',
                      count.as('booked'),
                      x.cast<number>(x.fn.count('b.served_at'), 'integer').as('served'),
                    ])
                    .where('b.status', '=', 'booked')
                    .groupBy(['b.goods_id', 'g.name'])
                    .as('x'),
                )
                .select((x) => x.fn.jsonAgg('x').orderBy('x.goods_id').as('j')),
              sql`'[]'`,
            )
            .$castTo<DinnerBookingCount['items']>()
            .as('items'),
          booked().$asScalar().$castTo<number>().as('booked'),
          served(true).$asScalar().$castTo<number>().as('served'),
          served(false).$asScalar().$castTo<number>().as('unbooked_served'),
          sql<number>`${students()} - ${booked()}`.as('not_booked'),
        ];
      })
      .executeTakeFirstOrThrow();
  }

  /** Every student of the class(es) with their booking of the day (if any; `goodsId`: only booked of it), by class and name, paged. */
  dayStudents(schoolId: number, head: number, classId: number | null, day: string, goodsId: number | null, q: PageQuery) {
    const withF = withClasses(this.db, schoolId, head, classId).with('f', (db) =>
      db
        .selectFrom('st')
        .leftJoin('meal_bookings as mb', (j) => j.onRef('mb.student_id', '=', 'st.student_id').on('mb.day', '=', day))
        .select(['st.student_id', 'st.class_id', 'mb.id as booking_id', 'mb.served_at'])
        .$if(goodsId !== null, (b) => b.where('mb.goods_id', '=', goodsId!).where('mb.status', '=', 'booked')),
    );
    const total = withF.selectFrom('f').select(count.as('total'));
    const list = withF
      .selectFrom('f')
      .innerJoin('students as s', 's.id', 'f.student_id')
      .innerJoin('cls', 'cls.id', 'f.class_id')
      .select(['f.student_id', 's.name as student_name', 'cls.name as class_name', 'f.booking_id', 'f.served_at'])
      .orderBy('cls.id')
      .orderBy('s.name')
      .orderBy('s.id');
    return pageRows(this.db, total, list, q);
  }

  /** These bookings. */
  byIds(ids: number[]): Promise<BookingRow[]> {
    return bookings(this.db)
      .where('b.id', '=', sql<number>`any(${ids}::int[])`)
      .execute();
  }
}
