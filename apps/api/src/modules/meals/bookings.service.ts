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
  type MealGoods,
  type ParentMeals,
  type ParentMealsQuery,
} from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { isUniqueViolation } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { MealCounts } from './counts.service';
import { MealPayments } from './meal-payments';
import {
  appendBookingEvent,
  BOOKING_COLUMNS,
  BOOKING_JOINS,
  classDaysOf,
  clockOf,
  cutoffOf,
  GOODS_COLUMNS,
  goodsRow,
  mayBookFor,
  settingsOf,
} from './meals-sql';

interface LockedBooking {
  id: number;
  student_id: number;
  day: string;
  goods_id: number | null;
  status: 'unpaid' | 'booked' | 'cancelled' | 'none';
  pay_from: string | null;
  out_trade_no: string | null;
  served_at: string | null;
  version: number;
}

const LOCKED = `b.id, b.student_id, to_char(b.day, 'YYYY-MM-DD') as day, b.goods_id, b.status, b.pay_from, b.out_trade_no, b.served_at, b.version`;

/**
 * Dinner bookings: one per student and day. Guardians book their own children before the school's cutoff; the school
 * (head teacher for an own class, admin for anyone) any time. Paid from a contract with dinner when one covers the
 * day, else by the guardian through WeChat Pay (unpaid until paid) or recorded by the school.
 */
@Injectable()
export class MealBookingsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly counts: MealCounts,
    private readonly payments: MealPayments,
  ) {}

  async book(user: SessionUser, input: BookDinnerInput): Promise<DinnerBooking> {
    const schoolId = user.schoolId!;
    const requestKey = `book:${user.id}:${input.request_id}`;
    let id: number;
    try {
      id = await this.db.transaction(async (em) => {
        const prior = await this.byRequest(em, schoolId, requestKey);
        if (prior) return prior;
        const [st]: Array<{ id: number }> = await em.query(
          `select s.id from students s where s.school_id = $1 and s.id = $2 and s.status = 1 and ${mayBookFor(user, 's', '$3')}`,
          [schoolId, input.student_id, user.id],
        );
        if (!st) throw new AppError('meals.student_not_found');
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
        const [cur]: LockedBooking[] = await em.query(`select ${LOCKED} from meal_bookings b where b.student_id = $1 and b.day = $2 for update`, [
          input.student_id,
          input.day,
        ]);
        if (cur && (cur.status === 'booked' || cur.status === 'unpaid')) {
          if (cur.goods_id === g.id) return cur.id;
          if (cur.status === 'booked' && cur.served_at) throw new AppError('meals.already_served');
          if (cur.status === 'booked' && cur.pay_from === 'wechat') throw new AppError('meals.cancel_first');
        }
        // a contract that includes dinner and covers the day pays for it
        const [contract]: Array<{ id: number }> = await em.query(
          `select c.id from contracts c join contract_packages p on p.id = c.package_id
            where c.school_id = $1 and c.student_id = $2 and c.status = 'active' and 'dinner' = any(p.includes) and $3::date between c.start_day and c.end_day
            order by c.start_day limit 1`,
          [schoolId, input.student_id, input.day],
        );
        const payFrom = contract ? 'contract' : user.role === Role.Parent ? 'wechat' : 'school';
        const status = payFrom === 'wechat' ? 'unpaid' : 'booked';
        const [row]: Array<{ id: number }> = await em.query(
          `insert into meal_bookings (school_id, student_id, day, goods_id, price_fen, status, pay_from, contract_id, booked_by, booked_at, request_key)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, now(), $10)
           on conflict (student_id, day) do update set goods_id = excluded.goods_id, price_fen = excluded.price_fen, status = excluded.status,
             cancel_cause = null, leave_id = null, pay_from = excluded.pay_from, contract_id = excluded.contract_id, out_trade_no = null,
             booked_by = excluded.booked_by, booked_at = now(), cancelled_by = null, cancelled_at = null, request_key = excluded.request_key,
             version = meal_bookings.version + 1, updated_at = now()
           returning id`,
          [schoolId, input.student_id, input.day, g.id, g.price_fen, status, payFrom, contract?.id ?? null, user.id, requestKey],
        );
        await appendBookingEvent(em, schoolId, row.id, cur ? 'rebooked' : 'booked', user.id, {
          goods_id: g.id,
          goods_name: g.name,
          price_fen: g.price_fen,
          pay_from: payFrom,
          status,
        });
        return row.id;
      });
    } catch (err) {
      // a unique violation of the request key: a concurrent retry of the same booking
      if (!isUniqueViolation(err, 'meal_bookings_school_id_request_key_key')) throw err;
      id = (await this.byRequest(this.db.manager, schoolId, requestKey))!;
    }
    const b = await this.one(schoolId, id);
    this.counts.changed(schoolId, b.day, [b.student_id]);
    return b;
  }

  private async byRequest(em: Pick<EntityManager, 'query'>, schoolId: number, requestKey: string): Promise<number | null> {
    const [b]: Array<{ id: number }> = await em.query(`select id from meal_bookings where school_id = $1 and request_key = $2`, [
      schoolId,
      requestKey,
    ]);
    return b?.id ?? null;
  }

  /** Cancels a booked or unpaid booking on the version read; a WeChat-paid one is refunded in full after the commit. */
  async cancel(user: SessionUser, input: CancelDinnerInput): Promise<DinnerBooking> {
    const schoolId = user.schoolId!;
    const cur = await this.db.transaction(async (em) => {
      const [b]: Array<LockedBooking & { price_fen: number }> = await em.query(
        `select ${LOCKED}, b.price_fen::float8 as price_fen from meal_bookings b join students s on s.id = b.student_id
          where b.school_id = $1 and b.id = $2 and ${mayBookFor(user, 's', '$3')} for update of b`,
        [schoolId, input.id, user.id],
      );
      if (!b) throw new AppError('meals.booking_not_found');
      if (b.version !== input.version) throw new AppError('meals.booking_stale');
      if ((b.status !== 'booked' && b.status !== 'unpaid') || b.served_at) throw new AppError('meals.not_cancellable');
      const settings = await settingsOf(em, schoolId);
      const refusal = mealChangeRefusal(user.role, b.day, clockOf(settings), cutoffOf(settings));
      if (refusal) throw new AppError(refusal);
      await em.query(
        `update meal_bookings set status = 'cancelled', cancel_cause = 'user', cancelled_by = $2, cancelled_at = now(), version = version + 1, updated_at = now() where id = $1`,
        [b.id, user.id],
      );
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

  async one(schoolId: number, id: number): Promise<DinnerBooking> {
    const [b]: DinnerBooking[] = await this.db.query(
      `select ${BOOKING_COLUMNS} from meal_bookings b ${BOOKING_JOINS} where b.school_id = $1 and b.id = $2`,
      [schoolId, id],
    );
    if (!b) throw new AppError('meals.booking_not_found');
    return b;
  }

  /** The guardian's page: an own child's bookings over at most 62 days, the enabled items, the cutoff, the days a contract covers, the days that cannot be booked. */
  async parentMeals(user: SessionUser, q: ParentMealsQuery): Promise<ParentMeals> {
    const schoolId = user.schoolId!;
    if (q.to < q.from || Date.parse(q.to) - Date.parse(q.from) > 62 * 86_400_000) throw new AppError('meals.v.range_invalid');
    const [st]: Array<{ id: number }> = await this.db.query(
      `select s.id from students s where s.school_id = $1 and s.id = $2 and ${mayBookFor(user, 's', '$3')}`,
      [schoolId, q.student_id, user.id],
    );
    if (!st) throw new AppError('meals.student_not_found');
    const [settings, goods, bookings, covered, days] = await Promise.all([
      settingsOf(this.db, schoolId),
      this.db.query(
        `select ${GOODS_COLUMNS} from meal_goods g where g.school_id = $1 and g.deleted_at is null and g.enabled order by g.id limit 100`,
        [schoolId],
      ) as Promise<MealGoods[]>,
      this.db.query(
        `select ${BOOKING_COLUMNS} from meal_bookings b ${BOOKING_JOINS} where b.student_id = $1 and b.day between $2 and $3 order by b.day`,
        [q.student_id, q.from, q.to],
      ) as Promise<DinnerBooking[]>,
      this.db.query(
        `select to_char(d, 'YYYY-MM-DD') as day from generate_series($2::date, $3::date, interval '1 day') d
          where exists (select 1 from contracts c join contract_packages p on p.id = c.package_id
                         where c.student_id = $1 and c.status = 'active' and 'dinner' = any(p.includes) and d::date between c.start_day and c.end_day)`,
        [q.student_id, q.from, q.to],
      ) as Promise<Array<{ day: string }>>,
      classDaysOf(this.db, schoolId, q.student_id, q.from, q.to),
    ]);
    const closed: ParentMeals['closed_days'] = [];
    for (let day = q.from; day <= q.to; day = addDays(day, 1)) {
      const why = mealDayRefusal(day, days.weekdays, days.calendar.get(day) ?? null);
      if (why) closed.push({ day, reason: why === 'meals.holiday' ? 'holiday' : 'no_class' });
    }
    return { settings, goods, bookings, covered_days: covered.map((r) => r.day), closed_days: closed };
  }
}
