import { DEFAULT_MEAL_CUTOFF, Role, type LocalClock, type MealCutoff, type MealSettings } from '@wantuo/shared';
import type { EntityManager } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';

/** SQL shared by the meals services. */

/** A MealGoods (`g` the item). */
export const GOODS_COLUMNS = `g.id, g.name, g.description, g.picture_url, g.price_fen::float8 as price_fen, g.enabled,
  (select count(*)::int from meal_bookings mb where mb.goods_id = g.id) as orders, g.version, g.created_at`;

/** A DinnerBooking (`b` the booking), with BOOKING_JOINS. */
export const BOOKING_COLUMNS = `b.id, b.student_id, st.name as student_name, cc.id as class_id, cc.name as class_name, to_char(b.day, 'YYYY-MM-DD') as day,
  b.goods_id, g.name as goods_name, b.price_fen::float8 as price_fen, b.status, b.cancel_cause, b.pay_from, bu.name as booked_by_name, b.booked_at,
  b.served_at, b.version`;

export const BOOKING_JOINS = `join students st on st.id = b.student_id
  left join care_class_students ccs on ccs.student_id = b.student_id
  left join care_classes cc on cc.id = ccs.class_id and cc.deleted_at is null
  left join meal_goods g on g.id = b.goods_id
  left join users bu on bu.id = b.booked_by`;

/** The ids of the students of the head teacher $n's own classes (an array expression: index lookups of their rows). */
export const HEAD_STUDENTS = (me: string) => `array(select hs.student_id from care_class_students hs
  join care_classes hc on hc.id = hs.class_id and hc.deleted_at is null where hc.head_teacher_id = ${me})`;

/**
 * Whether `user` may book for the student `s` (a `students` row alias): a guardian an own child, a head teacher a
 * student of an own class, the admin any student of the school (the caller adds the school condition).
 */
export function mayBookFor(user: SessionUser, s: string, me: string): string {
  if (user.role === Role.Parent) return `exists (select 1 from student_guardians mg where mg.student_id = ${s}.id and mg.user_id = ${me})`;
  if (user.role === Role.HeadTeacher) return `${s}.id = any(${HEAD_STUDENTS(me)})`;
  return `${me}::int is not null`; // the admin: any student of the school (the parameter is still bound)
}

/** The school's meal settings with its clock now. */
export async function settingsOf(em: Pick<EntityManager, 'query'>, schoolId: number): Promise<MealSettings> {
  const [r]: Array<{
    timezone: string;
    today: string;
    now_minutes: number;
    cutoff_time: string | null;
    days_before: number | null;
    version: number | null;
  }> = await em.query(
    `select s.timezone, to_char((now() at time zone s.timezone)::date, 'YYYY-MM-DD') as today,
            (extract(hour from now() at time zone s.timezone) * 60 + extract(minute from now() at time zone s.timezone))::int as now_minutes,
            m.cutoff_time, m.days_before, m.version
       from schools s left join meal_settings m on m.school_id = s.id where s.id = $1`,
    [schoolId],
  );
  return {
    cutoff_time: r.cutoff_time ?? DEFAULT_MEAL_CUTOFF.time,
    days_before: (r.days_before ?? DEFAULT_MEAL_CUTOFF.days_before) as 0 | 1,
    timezone: r.timezone,
    today: r.today,
    now_minutes: r.now_minutes,
    version: r.version ?? 1,
  };
}

export const clockOf = (s: MealSettings): LocalClock => ({ day: s.today, minutes: s.now_minutes });
export const cutoffOf = (s: MealSettings): MealCutoff => ({ time: s.cutoff_time, days_before: s.days_before });

/** Appends one entry to a booking's history (append-only). */
export async function appendBookingEvent(
  em: EntityManager,
  schoolId: number,
  bookingId: number,
  type: string,
  actorId: number | null,
  data: Record<string, unknown> = {},
): Promise<void> {
  await em.query(`insert into meal_booking_events (school_id, booking_id, type, data, actor_id) values ($1, $2, $3, $4, $5)`, [
    schoolId,
    bookingId,
    type,
    JSON.stringify(data),
    actorId,
  ]);
}

/** One of the school's items (not deleted), or `meals.goods_not_found`. */
export async function goodsRow(
  em: Pick<EntityManager, 'query'>,
  schoolId: number,
  id: number,
): Promise<{ id: number; name: string; price_fen: number; enabled: boolean; version: number }> {
  const [g]: Array<{ id: number; name: string; price_fen: number; enabled: boolean; version: number }> = await em.query(
    `select id, name, price_fen::float8 as price_fen, enabled, version from meal_goods where school_id = $1 and id = $2 and deleted_at is null`,
    [schoolId, id],
  );
  if (!g) throw new AppError('meals.goods_not_found');
  return g;
}

/** The school calendar's entries of a range, by day, and the weekdays the student's care class meets (null: no class or no time slot). */
export interface ClassDays {
  weekdays: number[] | null;
  calendar: Map<string, { kind: 'holiday' | 'makeup'; works_as: number | null }>;
}

/** What mealDayRefusal needs for a student over from..to: one query. */
export async function classDaysOf(
  em: Pick<EntityManager, 'query'>,
  schoolId: number,
  studentId: number,
  from: string,
  to: string,
): Promise<ClassDays> {
  const [r]: Array<{ weekdays: number[] | null; calendar: Array<{ day: string; kind: 'holiday' | 'makeup'; works_as: number | null }> }> =
    await em.query(
      `select (select ct.weekdays::int[] from care_class_students cs
               join care_classes cc on cc.id = cs.class_id and cc.deleted_at is null
               join class_times ct on ct.id = cc.class_time_id
              where cs.student_id = $2) as weekdays,
            coalesce((select json_agg(json_build_object('day', to_char(d.day, 'YYYY-MM-DD'), 'kind', d.kind, 'works_as', d.works_as))
                        from school_calendar_days d where d.school_id = $1 and d.day between $3::date and $4::date), '[]') as calendar`,
      [schoolId, studentId, from, to],
    );
  return { weekdays: r.weekdays, calendar: new Map(r.calendar.map((c) => [c.day, { kind: c.kind, works_as: c.works_as }])) };
}

/** A dinner booking a closed day cancels (holidayImportPreview lists these; importHolidays cancels exactly these). */
export interface ClosedDayBooking {
  id: number;
  day: string;
  student_id: number;
  student_name: string;
  status: 'booked' | 'unpaid';
  pay_from: string | null;
}

/** What a cancellation on a closed day answers: the booking before, for the refund after the commit and the counts. */
export interface ClosedDayCancelled {
  id: number;
  day: string;
  student_id: number;
  was: 'booked' | 'unpaid';
  pay_from: string | null;
  out_trade_no: string | null;
  price_fen: number;
  /** the version the booking had when cancelled (a refund's idempotency key, as cancel() uses) */
  version: number;
}

/** The school's bookings a closed day cancels: booked or unpaid, not served, on the days $2 (the caller passes days from today on). */
const CLOSED_DAY_BOOKINGS = `select b.id, to_char(b.day, 'YYYY-MM-DD') as day, b.student_id, st.name as student_name, b.status, b.pay_from
    from meal_bookings b join students st on st.id = b.student_id
   where b.school_id = $1 and b.day = any($2::date[]) and b.status in ('booked', 'unpaid') and b.served_at is null
   order by b.day, st.name, b.id`;

/** The dinner bookings closing these days would cancel (the school's, booked or unpaid, not served). */
export async function closedDayBookings(em: Pick<EntityManager, 'query'>, schoolId: number, days: string[]): Promise<ClosedDayBooking[]> {
  return days.length ? em.query(CLOSED_DAY_BOOKINGS, [schoolId, days]) : [];
}

/**
 * Cancels, in the caller's transaction, the bookings closedDayBookings lists for these days, as a person's cancellation
 * by `actorId` (cancel_cause 'user', history 'cancelled' with `why`): the caller emits 'meals.closed_day_cancelled'
 * after its commit so the meals module refunds the WeChat-paid ones and recounts the days.
 */
export async function cancelClosedDayBookings(
  em: Pick<EntityManager, 'query'>,
  schoolId: number,
  days: string[],
  actorId: number,
  why: Record<string, unknown>,
): Promise<ClosedDayCancelled[]> {
  if (!days.length) return [];
  return em.query(
    `with o as (
       select b.id, b.status, b.version from meal_bookings b
        where b.school_id = $1 and b.day = any($2::date[]) and b.status in ('booked', 'unpaid') and b.served_at is null
        for update),
     c as (
       update meal_bookings b set status = 'cancelled', cancel_cause = 'user', cancelled_by = $3, cancelled_at = now(), version = b.version + 1, updated_at = now()
         from o where b.id = o.id
       returning b.id, b.school_id, b.day, b.student_id, o.status as was, b.pay_from, b.out_trade_no, b.price_fen::float8 as price_fen, o.version),
     h as (insert into meal_booking_events (school_id, booking_id, type, data, actor_id)
           select school_id, id, 'cancelled', jsonb_build_object('was', was) || $4::jsonb, $3 from c)
     select id, to_char(day, 'YYYY-MM-DD') as day, student_id, was, pay_from, out_trade_no, price_fen, version from c order by id`,
    [schoolId, days, actorId, JSON.stringify(why)],
  );
}
