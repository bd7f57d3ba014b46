import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  localDateTime,
  MEAL_BOOKING_STATUS_LABELS,
  MEAL_CANCEL_CAUSE_LABELS,
  MEAL_PAY_FROM_LABELS,
  Role,
  type DinnerBooking,
  type DinnerBookingCount,
  type DinnerBookingCountInfoQuery,
  type DinnerBookingCountQuery,
  type DinnerBookingInfoRow,
  type DinnerOrderListQuery,
  type MealCountAnswer,
  type MealCountMessage,
  type MealCountRow,
  type OrderMealCountQuery,
  type Page,
  type SchoolDinnerOrderExportQuery,
  type SchoolDinnerOrderListQuery,
} from '@wantuo/shared';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { schoolTimeZone } from '../../core/database/school-zone';
import { escapeLike, offsetOf, pageOf, SCHOOL_TODAY, totalOf, type PageQuery } from '../../core/database/sql-kit';
import { DomainEvents } from '../../core/events/domain-events';
import { AppError } from '../../core/http/app-error';
import type { FileAnswer } from '../../core/http/send-file';
import type { SessionUser } from '../../core/http/request-context';
import { sheet, xlsxFile } from '../../core/http/xlsx-file';
import { LOGGER } from '../../core/logging/logger';
import { ChildAccessLog } from '../privacy/access-log.service';
import { BOOKING_COLUMNS, BOOKING_JOINS, HEAD_STUDENTS } from './meals-sql';
import { InFlight } from '../../core/events/in-flight';

const EXPORT_MAX_ROWS = 50_000;

/** The period of a meal_counts row `k` for a grouping: its first day, as packages/shared periodOf names it. */
const PERIOD: Record<OrderMealCountQuery['group'], string> = {
  day: `to_char(k.day, 'YYYY-MM-DD')`,
  week: `to_char(date_trunc('week', k.day), 'YYYY-MM-DD')`,
  month: `to_char(date_trunc('month', k.day), 'YYYY-MM-DD')`,
};

/**
 * Meal lists and counts: the orders of a student or class, the school's orders (paged, .xlsx), the data centre's
 * counts per period and item (from meal_counts, kept by triggers: a term of a 10,000-student school is a few hundred
 * rows), the head teacher's class for a day, and the live kitchen count pushed after each change of today.
 */
@Injectable()
export class MealCounts {
  private readonly pushes = new InFlight((err) => this.log.error({ err }, 'meal count not pushed'));

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly events: DomainEvents,
    @Inject(LOGGER) private readonly log: Logger,
    private readonly access: ChildAccessLog,
  ) {}

  // ---------------------------------------------------------------- live

  /**
   * After a commit that changed bookings of `day` (of these students): when the day is the school's today, its
   * per-item counts go to the school's staff ('meals.count' domain event, pushed by the live channel).
   */
  changed(schoolId: number, day: string, studentIds: number[]): void {
    this.pushes.track(this.push(schoolId, day, studentIds));
  }

  async settled(): Promise<void> {
    await this.pushes.settled();
  }

  private async push(schoolId: number, day: string, studentIds: number[]): Promise<void> {
    const [r]: Array<{ today: boolean; class_ids: number[]; items: MealCountMessage['items'] }> = await this.db.query(
      `select d.today = $2::date as today,
              array(select distinct cs.class_id from care_class_students cs where cs.student_id = any($3::int[])) as class_ids,
              coalesce((select json_agg(json_build_object('goods_id', nullif(k.goods_id, 0), 'goods_name', g.name, 'booked', k.booked, 'served', k.served,
                                                          'unbooked_served', k.unbooked_served) order by k.goods_id)
                          from meal_counts k left join meal_goods g on g.id = k.goods_id where k.school_id = $1 and k.day = $2), '[]') as items
         from ${SCHOOL_TODAY} d`,
      [schoolId, day, studentIds],
    );
    if (!r?.today) return;
    this.events.emit('meals.count', { school_id: schoolId, day, class_ids: r.class_ids, items: r.items });
  }

  // ---------------------------------------------------------------- lists

  /** One student's or one class's orders over a range (a head teacher: own classes' students only), paged. */
  async dinnerOrderList(user: SessionUser, q: DinnerOrderListQuery): Promise<Page<DinnerBooking>> {
    const params: unknown[] = [user.schoolId, q.from, q.to ?? q.from];
    const p = (v: unknown) => `$${params.push(v)}`;
    const conds = ['b.school_id = $1', 'b.day between $2 and $3'];
    if (q.student_id) conds.push(`b.student_id = ${p(q.student_id)}`);
    if (q.class_id) conds.push(`b.student_id = any(array(select fc.student_id from care_class_students fc where fc.class_id = ${p(q.class_id)}))`);
    if (user.role === Role.HeadTeacher) conds.push(`b.student_id = any(${HEAD_STUDENTS(p(user.id))})`);
    return this.page(conds.join(' and '), params, q, 'b.day desc, b.id');
  }

  private schoolWhere(schoolId: number, q: SchoolDinnerOrderExportQuery): { where: string; params: unknown[] } {
    const params: unknown[] = [schoolId, q.from, q.to ?? q.from];
    const p = (v: unknown) => `$${params.push(v)}`;
    const conds = ['b.school_id = $1', 'b.day between $2 and $3'];
    if (q.goods_id) conds.push(`b.goods_id = ${p(q.goods_id)}`);
    if (q.status) conds.push(`b.status = ${p(q.status)}`);
    if (q.keyword)
      conds.push(`b.student_id in (select ks.id from students ks where ks.school_id = $1 and ks.name ilike ${p(`%${escapeLike(q.keyword)}%`)})`);
    return { where: conds.join(' and '), params };
  }

  async schoolDinnerOrderList(user: SessionUser, q: SchoolDinnerOrderListQuery): Promise<Page<DinnerBooking>> {
    const w = this.schoolWhere(user.schoolId!, q);
    return this.page(w.where, w.params, q, 'b.day desc, b.id');
  }

  /** A page with its total, one statement. */
  private async page(where: string, params: unknown[], pq: PageQuery, order: string): Promise<Page<DinnerBooking>> {
    const n = params.length;
    const rows: Array<DinnerBooking & { total: number }> = await this.db.query(
      `with f as (select b.id, b.day from meal_bookings b where ${where})
       select t.total, r.* from (select count(*)::int as total from f) t
       left join lateral (
         select ${BOOKING_COLUMNS} from (select id, day from f order by ${order.replace(/b\./g, '')} limit $${n + 1} offset $${n + 2}) x
           join meal_bookings b on b.id = x.id ${BOOKING_JOINS} order by ${order}
       ) r on true`,
      [...params, pq.limit, offsetOf(pq)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as DinnerBooking);
    return pageOf(list, totalOf(rows), pq);
  }

  async schoolDinnerOrderExport(user: SessionUser, q: SchoolDinnerOrderExportQuery): Promise<FileAnswer> {
    const w = this.schoolWhere(user.schoolId!, q);
    const { list } = await this.page(w.where, w.params, { page: 1, limit: EXPORT_MAX_ROWS }, 'b.day desc, b.id');
    // the children it names, in the access log
    await this.access.record(
      user,
      list.map((r) => r.student_id),
      ['export', 'profile'],
    );
    // booking and serving times on the school's clock
    const tz = await schoolTimeZone(this.db, user.schoolId!);
    return xlsxFile(`订餐-${q.from}-${q.to ?? q.from}.xlsx`, [
      sheet({
        name: '订餐',
        rows: list,
        columns: [
          { header: '日期', value: (r) => r.day, width: 12 },
          { header: '学生', value: (r) => r.student_name, width: 12 },
          { header: '班级', value: (r) => r.class_name, width: 12 },
          { header: '餐品', value: (r) => r.goods_name, width: 16 },
          { header: '价格（元）', value: (r) => r.price_fen, money: true, width: 10 },
          { header: '状态', value: (r) => MEAL_BOOKING_STATUS_LABELS[r.status]?.zh ?? r.status, width: 10 },
          { header: '取消原因', value: (r) => (r.cancel_cause ? MEAL_CANCEL_CAUSE_LABELS[r.cancel_cause].zh : ''), width: 10 },
          { header: '支付方式', value: (r) => (r.pay_from ? MEAL_PAY_FROM_LABELS[r.pay_from].zh : ''), width: 10 },
          { header: '预订人', value: (r) => r.booked_by_name, width: 12 },
          { header: '预订时间', value: (r) => (r.booked_at ? localDateTime(r.booked_at, tz) : ''), width: 18 },
          { header: '用餐时间', value: (r) => (r.served_at ? localDateTime(r.served_at, tz) : ''), width: 18 },
        ],
      }),
    ]);
  }

  // ---------------------------------------------------------------- counts

  /** Per period and item: booked, cancelled, served, unbooked served (goods_id null: dinners served without a booking of any item). */
  async orderMealCount(user: SessionUser, q: OrderMealCountQuery): Promise<MealCountAnswer> {
    const rows: MealCountRow[] = await this.db.query(
      `select ${PERIOD[q.group]} as period, nullif(k.goods_id, 0) as goods_id, min(g.name) as goods_name,
              sum(k.booked)::int as booked, sum(k.cancelled)::int as cancelled, sum(k.served)::int as served, sum(k.unbooked_served)::int as unbooked_served
         from meal_counts k left join meal_goods g on g.id = k.goods_id
        where k.school_id = $1 and k.day between $2 and $3
        group by 1, k.goods_id
       having sum(k.booked) <> 0 or sum(k.cancelled) <> 0 or sum(k.served) <> 0 or sum(k.unbooked_served) <> 0
        order by 1, k.goods_id`,
      [user.schoolId, q.from, q.to],
    );
    const totals = { booked: 0, cancelled: 0, served: 0, unbooked_served: 0 };
    for (const r of rows) for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += r[k];
    return { rows, totals };
  }

  /**
   * orderMealCount over the head teacher's own classes' students (the data centre of /A_data), from their bookings:
   * a class's term is a few thousand rows. Counted as meal_counts counts (booked, cancelled, served, served without
   * a booking), so the two agree.
   */
  async classMealCount(user: SessionUser, q: OrderMealCountQuery): Promise<MealCountAnswer> {
    const c = this.classesOf(user, undefined);
    const period = PERIOD[q.group].replace(/k\.day/g, 'b.day');
    const rows: MealCountRow[] = await this.db.query(
      `with ${c.sql}
       select ${period} as period, b.goods_id, min(g.name) as goods_name,
              count(*) filter (where b.status = 'booked')::int as booked, count(*) filter (where b.status = 'cancelled')::int as cancelled,
              count(*) filter (where b.status = 'booked' and b.served_at is not null)::int as served,
              count(*) filter (where b.status <> 'booked' and b.served_at is not null)::int as unbooked_served
         from meal_bookings b left join meal_goods g on g.id = b.goods_id
        where b.student_id = any(array(select student_id from st)) and b.day between $4 and $5 and b.school_id = $1
        group by 1, b.goods_id
       having count(*) filter (where b.status in ('booked', 'cancelled') or b.served_at is not null) > 0
        order by 1, b.goods_id`,
      [...c.params, q.from, q.to],
    );
    const totals = { booked: 0, cancelled: 0, served: 0, unbooked_served: 0 };
    for (const r of rows) for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += r[k];
    return { rows, totals };
  }

  async orderMealCountExport(user: SessionUser, q: OrderMealCountQuery): Promise<FileAnswer> {
    const { rows } = user.role === Role.HeadTeacher ? await this.classMealCount(user, q) : await this.orderMealCount(user, q);
    const periodHead = { day: '日期', week: '周（周一）', month: '月份' }[q.group];
    return xlsxFile(`订餐统计-${q.from}-${q.to}.xlsx`, [
      sheet({
        name: '订餐统计',
        rows,
        total: true,
        columns: [
          { header: periodHead, value: (r) => r.period, width: 14 },
          { header: '餐品', value: (r) => r.goods_name ?? '（未预订）', width: 18 },
          { header: '预订', value: (r) => r.booked, width: 10, sum: true },
          { header: '取消', value: (r) => r.cancelled, width: 10, sum: true },
          { header: '已用餐', value: (r) => r.served, width: 10, sum: true },
          { header: '未预订用餐', value: (r) => r.unbooked_served, width: 12, sum: true },
        ],
      }),
    ]);
  }

  /** The head teacher's classes (all own, or the one asked) and their active students. */
  private classesOf(user: SessionUser, classId: number | undefined): { sql: string; params: unknown[] } {
    return {
      sql: `cls as (select c.id, c.name from care_classes c where c.school_id = $1 and c.head_teacher_id = $2 and c.deleted_at is null and ($3::int is null or c.id = $3)),
            st as (select ccs.student_id, ccs.class_id from care_class_students ccs join cls on cls.id = ccs.class_id join students s on s.id = ccs.student_id and s.status = 1)`,
      params: [user.schoolId, user.id, classId ?? null],
    };
  }

  /** The head teacher's class(es) for a day: per item booked and served, unbooked dinners, students without a booking. */
  async dinnerBookingCount(user: SessionUser, q: DinnerBookingCountQuery): Promise<DinnerBookingCount> {
    const c = this.classesOf(user, q.class_id);
    const [r]: Array<Omit<DinnerBookingCount, 'day'>> = await this.db.query(
      `with ${c.sql},
            b as (select b.goods_id, b.status, b.served_at from meal_bookings b where b.student_id = any(array(select student_id from st)) and b.day = $4)
       select coalesce((select json_agg(json_build_object('id', id, 'name', name) order by id) from cls), '[]') as classes,
              (select count(*)::int from st) as students,
              coalesce((select json_agg(x order by x.goods_id) from (
                 select b.goods_id, g.name as goods_name, count(*)::int as booked, count(b.served_at)::int as served
                   from b join meal_goods g on g.id = b.goods_id where b.status = 'booked' group by b.goods_id, g.name) x), '[]') as items,
              (select count(*)::int from b where status = 'booked') as booked,
              (select count(*)::int from b where status = 'booked' and served_at is not null) as served,
              (select count(*)::int from b where status <> 'booked' and served_at is not null) as unbooked_served,
              (select count(*)::int from st) - (select count(*)::int from b where status = 'booked') as not_booked`,
      [...c.params, q.day],
    );
    if (q.class_id && !r.classes.length) throw new AppError('meals.class_not_found');
    return { day: q.day, ...r };
  }

  /** Who booked what that day: every student of the class(es) with their booking (if any), by class and name, paged. */
  async dinnerBookingCountInfo(user: SessionUser, q: DinnerBookingCountInfoQuery): Promise<Page<DinnerBookingInfoRow>> {
    const c = this.classesOf(user, q.class_id);
    if (q.class_id) {
      const [own]: unknown[] = await this.db.query(
        `select 1 from care_classes where school_id = $1 and head_teacher_id = $2 and id = $3 and deleted_at is null`,
        [...c.params],
      );
      if (!own) throw new AppError('meals.class_not_found');
    }
    const rows: Array<DinnerBookingInfoRow & { total: number; booking_id: number | null }> = await this.db.query(
      `with ${c.sql},
            f as (select st.student_id, st.class_id, mb.id as booking_id, mb.served_at from st
                    left join meal_bookings mb on mb.student_id = st.student_id and mb.day = $4
                   where $5::int is null or (mb.goods_id = $5 and mb.status = 'booked'))
       select t.total, r.* from (select count(*)::int as total from f) t
       left join lateral (
         select f.student_id, s.name as student_name, cls.name as class_name, f.booking_id, f.served_at
           from f join students s on s.id = f.student_id join cls on cls.id = f.class_id
          order by cls.id, s.name, s.id limit $6 offset $7
       ) r on true`,
      [...c.params, q.day, q.goods_id ?? null, q.limit, offsetOf(q)],
    );
    const present = rows.filter((r) => r.student_id !== null);
    const ids = present.map((r) => r.booking_id).filter((id): id is number => id !== null);
    const bookings: DinnerBooking[] = ids.length
      ? await this.db.query(`select ${BOOKING_COLUMNS} from meal_bookings b ${BOOKING_JOINS} where b.id = any($1::int[])`, [ids])
      : [];
    const byId = new Map(bookings.map((b) => [b.id, b]));
    const list = present.map((r) => ({
      student_id: r.student_id,
      student_name: r.student_name,
      class_name: r.class_name,
      booking: r.booking_id ? (byId.get(r.booking_id) ?? null) : null,
      served_at: r.served_at,
    }));
    return pageOf(list, totalOf(rows), q);
  }
}
