import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  addDays,
  cutoffBinds,
  mealChangeRefusal,
  mealDayRefusal,
  Role,
  type BookDinnerInput,
  type CancelDinnerInput,
  type DinnerBooking,
  type ParentMeals,
  type ParentMealsQuery,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { isUniqueViolation } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { Sendable } from '../../core/http/sendable';
import { MealCounts } from './counts.service';
import { MealPayments } from './meal-payments';
import { appendBookingEvent, classDaysOf, goodsRow, MealBookingsRepository, type BookingRow } from './meals-bookings.repository';
import { enabledGoods, settingsOf } from './meals-goods.repository';
import { clockOf, cutoffOf } from './meals-sql';

/**
 * Dinner bookings: one per student and day. Guardians book their own children before the school's cutoff; the school
 * (head teacher for an own class, admin for anyone) any time. Paid from a contract with dinner when one covers the
 * day, else by the guardian through WeChat Pay (unpaid until paid) or recorded by the school.
 */
@Injectable()
export class MealBookingsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: MealBookingsRepository,
    private readonly counts: MealCounts,
    private readonly payments: MealPayments,
  ) {}

  async book(user: SchoolCaller, input: BookDinnerInput): Promise<Sendable<DinnerBooking>> {
    const schoolId = user.schoolId;
    const requestKey = `book:${user.id}:${input.request_id}`;
    let id: number;
    try {
      id = await this.db.transaction(async (em) => {
        const prior = await this.repo.byRequest(em, schoolId, requestKey);
        if (prior) return prior;
        if (!(await this.repo.bookable(em, schoolId, input.student_id, user, true))) throw new AppError('meals.student_not_found');
        const g = await goodsRow(em, schoolId, input.goods_id);
        if (!g.enabled) throw new AppError('meals.goods_disabled');
        const settings = await settingsOf(em, schoolId);
        const refusal = mealChangeRefusal(user.role, input.day, clockOf(settings), cutoffOf(settings));
        if (refusal) throw new AppError(refusal);
        // a guardian books only the days the child's class meets (the school may book any day: an outing, a make-up)
        if (cutoffBinds(user.role)) {
          const days = await classDaysOf(em, schoolId, input.student_id, input.day, input.day);
          const closed = mealDayRefusal(input.day, days.weekdays, days.calendar.get(input.day) ?? null);
          if (closed) throw new AppError(closed);
        }
        const cur = await this.repo.lockDay(em, input.student_id, input.day);
        if (cur && (cur.status === 'booked' || cur.status === 'unpaid')) {
          if (cur.goods_id === g.id) return cur.id;
          if (cur.status === 'booked' && cur.served_at) throw new AppError('meals.already_served');
          if (cur.status === 'booked' && cur.pay_from === 'wechat') throw new AppError('meals.cancel_first');
        }
        // a contract that includes dinner and covers the day pays for it
        const contract = await this.repo.dinnerContract(em, schoolId, input.student_id, input.day);
        const payFrom = contract ? 'contract' : user.role === Role.Parent ? 'wechat' : 'school';
        const status = payFrom === 'wechat' ? 'unpaid' : 'booked';
        const bookingId = await this.repo.upsert(em, {
          school_id: schoolId,
          student_id: input.student_id,
          day: input.day,
          goods_id: g.id,
          price_fen: g.price_fen,
          status,
          pay_from: payFrom,
          contract_id: contract ?? null,
          booked_by: user.id,
          request_key: requestKey,
        });
        await appendBookingEvent(em, schoolId, bookingId, cur ? 'rebooked' : 'booked', user.id, {
          goods_id: g.id,
          goods_name: g.name,
          price_fen: g.price_fen,
          pay_from: payFrom,
          status,
        });
        return bookingId;
      });
    } catch (err) {
      // a unique violation of the request key: a concurrent retry of the same booking
      if (!isUniqueViolation(err, 'meal_bookings_school_id_request_key_key')) throw err;
      id = (await this.repo.byRequest(this.db.manager, schoolId, requestKey))!;
    }
    const b = await this.one(schoolId, id);
    this.counts.changed(schoolId, b.day, [b.student_id]);
    return b;
  }

  /** Cancels a booked or unpaid booking on the version read; a WeChat-paid one is refunded in full after the commit. */
  async cancel(user: SchoolCaller, input: CancelDinnerInput): Promise<Sendable<DinnerBooking>> {
    const schoolId = user.schoolId;
    const cur = await this.db.transaction(async (em) => {
      const b = await this.repo.lockForCancel(em, schoolId, input.id, user);
      if (!b) throw new AppError('meals.booking_not_found');
      if (b.version !== input.version) throw new AppError('meals.booking_stale');
      if ((b.status !== 'booked' && b.status !== 'unpaid') || b.served_at) throw new AppError('meals.not_cancellable');
      const settings = await settingsOf(em, schoolId);
      const refusal = mealChangeRefusal(user.role, b.day, clockOf(settings), cutoffOf(settings));
      if (refusal) throw new AppError(refusal);
      await this.repo.cancel(em, b.id, user.id);
      await appendBookingEvent(em, schoolId, b.id, 'cancelled', user.id, { was: b.status });
      return b;
    });
    if (cur.status === 'booked' && cur.pay_from === 'wechat' && cur.out_trade_no) {
      await this.payments.refund({
        schoolId,
        outTradeNo: cur.out_trade_no,
        amountFen: cur.price_fen,
        bookingId: cur.id,
        version: cur.version,
        actorId: user.id,
      });
    }
    const b = await this.one(schoolId, input.id);
    this.counts.changed(schoolId, b.day, [b.student_id]);
    return b;
  }

  async one(schoolId: number, id: number): Promise<BookingRow> {
    const b = await this.repo.one(schoolId, id);
    if (!b) throw new AppError('meals.booking_not_found');
    return b;
  }

  /** The guardian's page: an own child's bookings over at most 62 days, the enabled items, the cutoff, the days a contract covers, the days that cannot be booked. */
  async parentMeals(user: SchoolCaller, q: ParentMealsQuery): Promise<Sendable<ParentMeals>> {
    const schoolId = user.schoolId;
    if (q.to < q.from || Date.parse(q.to) - Date.parse(q.from) > 62 * 86_400_000) throw new AppError('meals.v.range_invalid');
    if (!(await this.repo.bookable(this.db, schoolId, q.student_id, user, false))) throw new AppError('meals.student_not_found');
    const [settings, goods, bookings, covered, days] = await Promise.all([
      settingsOf(this.db, schoolId),
      enabledGoods(this.db, schoolId, 100),
      this.repo.ofStudent(q.student_id, q.from, q.to),
      this.repo.coveredDays(q.student_id, q.from, q.to),
      classDaysOf(this.db, schoolId, q.student_id, q.from, q.to),
    ]);
    const closed: ParentMeals['closed_days'] = [];
    for (let day = q.from; day <= q.to; day = addDays(day, 1)) {
      const why = mealDayRefusal(day, days.weekdays, days.calendar.get(day) ?? null);
      if (why) closed.push({ day, reason: why === 'meals.holiday' ? 'holiday' : 'no_class' });
    }
    return { settings, goods, bookings, covered_days: covered, closed_days: closed };
  }
}
