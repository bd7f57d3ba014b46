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
  type MealCountRow,
  type OrderMealCountQuery,
  type Page,
  type SchoolDinnerOrderExportQuery,
  type SchoolDinnerOrderListQuery,
} from '@wantuo/shared';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { schoolTimeZone } from '../../core/database/school-zone';
import { escapeLike } from '../../core/database/sql-kit';
import { DomainEvents } from '../../core/events/domain-events';
import { AppError } from '../../core/http/app-error';
import type { FileAnswer } from '../../core/http/send-file';
import type { Sendable } from '../../core/http/sendable';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { sheet, xlsxFile } from '../../core/http/xlsx-file';
import { LOGGER } from '../../core/logging/logger';
import { ChildAccessLog } from '../privacy/access-log.service';
import { MealCountsRepository, type OrdersFilter } from './meals-counts.repository';
import { InFlight } from '../../core/events/in-flight';

const EXPORT_MAX_ROWS = 50_000;

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
    private readonly repo: MealCountsRepository,
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
    const r = await this.repo.live(schoolId, day, studentIds);
    if (!r?.today) return;
    this.events.emit('meals.count', { school_id: schoolId, day, class_ids: r.class_ids, items: r.items });
  }

  // ---------------------------------------------------------------- lists

  /** One student's or one class's orders over a range (a head teacher: own classes' students only), paged. */
  async dinnerOrderList(user: SchoolCaller, q: DinnerOrderListQuery): Promise<Page<Sendable<DinnerBooking>>> {
    return this.repo.orders(
      {
        schoolId: user.schoolId,
        from: q.from,
        to: q.to ?? q.from,
        studentId: q.student_id,
        classId: q.class_id,
        head: user.role === Role.HeadTeacher ? user.id : undefined,
      },
      q,
    );
  }

  private schoolFilter(schoolId: number, q: SchoolDinnerOrderExportQuery): OrdersFilter {
    return {
      schoolId,
      from: q.from,
      to: q.to ?? q.from,
      goodsId: q.goods_id,
      status: q.status,
      pattern: q.keyword ? `%${escapeLike(q.keyword)}%` : null,
    };
  }

  async schoolDinnerOrderList(user: SchoolCaller, q: SchoolDinnerOrderListQuery): Promise<Page<Sendable<DinnerBooking>>> {
    return this.repo.orders(this.schoolFilter(user.schoolId, q), q);
  }

  async schoolDinnerOrderExport(user: SchoolCaller, q: SchoolDinnerOrderExportQuery): Promise<FileAnswer> {
    const { list } = await this.repo.orders(this.schoolFilter(user.schoolId, q), { page: 1, limit: EXPORT_MAX_ROWS });
    // the children it names, in the access log
    await this.access.record(
      user,
      list.map((r) => r.student_id),
      ['export', 'profile'],
    );
    // booking and serving times on the school's clock
    const tz = await schoolTimeZone(this.db, user.schoolId);
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
  async orderMealCount(user: SchoolCaller, q: OrderMealCountQuery): Promise<MealCountAnswer> {
    const rows: MealCountRow[] = await this.repo.schoolCounts(user.schoolId, q.group, q.from, q.to);
    const totals = { booked: 0, cancelled: 0, served: 0, unbooked_served: 0 };
    for (const r of rows) for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += r[k];
    return { rows, totals };
  }

  /**
   * orderMealCount over the head teacher's own classes' students (the data centre of /A_data), from their bookings:
   * a class's term is a few thousand rows. Counted as meal_counts counts (booked, cancelled, served, served without
   * a booking), so the two agree.
   */
  async classMealCount(user: SchoolCaller, q: OrderMealCountQuery): Promise<MealCountAnswer> {
    const rows: MealCountRow[] = await this.repo.classCounts(user.schoolId, user.id, q.group, q.from, q.to);
    const totals = { booked: 0, cancelled: 0, served: 0, unbooked_served: 0 };
    for (const r of rows) for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += r[k];
    return { rows, totals };
  }

  async orderMealCountExport(user: SchoolCaller, q: OrderMealCountQuery): Promise<FileAnswer> {
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

  /** The head teacher's class(es) for a day: per item booked and served, unbooked dinners, students without a booking. */
  async dinnerBookingCount(user: SchoolCaller, q: DinnerBookingCountQuery): Promise<DinnerBookingCount> {
    const r = await this.repo.dayCount(user.schoolId, user.id, q.class_id ?? null, q.day);
    if (q.class_id && !r.classes.length) throw new AppError('meals.class_not_found');
    return { day: q.day, ...r };
  }

  /** Who booked what that day: every student of the class(es) with their booking (if any), by class and name, paged. */
  async dinnerBookingCountInfo(user: SchoolCaller, q: DinnerBookingCountInfoQuery): Promise<Page<Sendable<DinnerBookingInfoRow>>> {
    if (q.class_id && !(await this.repo.ownClass(user.schoolId, user.id, q.class_id))) throw new AppError('meals.class_not_found');
    const page = await this.repo.dayStudents(user.schoolId, user.id, q.class_id ?? null, q.day, q.goods_id ?? null, q);
    const ids = page.list.map((r) => r.booking_id).filter((id): id is number => id !== null);
    const bookings = ids.length ? await this.repo.byIds(ids) : [];
    const byId = new Map(bookings.map((b) => [b.id, b]));
    const list = page.list.map((r) => ({
      student_id: r.student_id,
      student_name: r.student_name,
      class_name: r.class_name,
      booking: r.booking_id ? (byId.get(r.booking_id) ?? null) : null,
      served_at: r.served_at,
    }));
    return { ...page, list };
  }
}
