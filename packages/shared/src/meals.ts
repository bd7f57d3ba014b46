/**
 * Meals (issue 12): the booking cutoff and the booking states, pure so the API decides with them and the web greys
 * out what it would refuse.
 */
import { addDays } from './contracts';
import type { BilingualLabel } from './labels';
import { Role } from './roles';
import { mondayOf, weekdayOf, type CalendarDay } from './schedule';

/** A booking's stored status: 'none' is a dinner served without any booking (counted as unbooked). */
export const MEAL_BOOKING_STATUSES = ['unpaid', 'booked', 'cancelled', 'none'] as const;
export type MealBookingStatus = (typeof MEAL_BOOKING_STATUSES)[number];
/** Why a booking was cancelled: by a person, or by an approved leave (restored when the leave is cancelled). */
export const MEAL_CANCEL_CAUSES = ['user', 'leave'] as const;
export type MealCancelCause = (typeof MEAL_CANCEL_CAUSES)[number];
/** Where a booking is paid from: a contract that includes dinner, WeChat Pay per booking, or recorded by the school. */
export const MEAL_PAY_FROM = ['contract', 'wechat', 'school'] as const;
export type MealPayFrom = (typeof MEAL_PAY_FROM)[number];
/** The one wording of a booking's status, cancel cause and payer: the screens and the order export. */
export const MEAL_BOOKING_STATUS_LABELS: Record<MealBookingStatus, BilingualLabel> = {
  unpaid: { zh: '待支付', en: 'Unpaid' },
  booked: { zh: '已预订', en: 'Booked' },
  cancelled: { zh: '已取消', en: 'Cancelled' },
  none: { zh: '未预订', en: 'Not booked' },
};
export const MEAL_CANCEL_CAUSE_LABELS: Record<MealCancelCause, BilingualLabel> = {
  user: { zh: '手动取消', en: 'Cancelled' },
  leave: { zh: '请假取消', en: 'Cancelled by leave' },
};
export const MEAL_PAY_FROM_LABELS: Record<MealPayFrom, BilingualLabel> = {
  contract: { zh: '合同', en: 'Contract' },
  wechat: { zh: '微信支付', en: 'WeChat Pay' },
  school: { zh: '学校登记', en: 'School' },
};

/** A school's cutoff: bookings of a day change until `time` (HH:MM, school-local) of `days_before` days before it. */
export interface MealCutoff {
  time: string;
  days_before: 0 | 1;
}
export const DEFAULT_MEAL_CUTOFF: MealCutoff = { time: '10:00', days_before: 0 };

/** The school-local clock: its day (YYYY-MM-DD) and minutes since midnight. */
export interface LocalClock {
  day: string;
  minutes: number;
}

/** The local clock of `timeZone` at `now` (an IANA zone such as Asia/Shanghai). */
export function localClock(now: Date, timeZone: string): LocalClock {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

/** Minutes since midnight of an HH:MM time. */
export const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The last moment (school-local day and minutes, exclusive) the bookings of `day` may change. */
export function mealDeadline(day: string, cutoff: MealCutoff): LocalClock {
  return { day: addDays(day, -cutoff.days_before), minutes: minutesOf(cutoff.time) };
}

/** Whether the bookings of `day` are still open at the school-local clock `now` (before the cutoff). */
export function mealBookingOpen(day: string, now: LocalClock, cutoff: MealCutoff): boolean {
  const d = mealDeadline(day, cutoff);
  if (now.day !== d.day) return now.day < d.day;
  return now.minutes < d.minutes;
}

/** Whether the cutoff binds this role: guardians only; the school (admin, head teacher) changes a day's bookings any time. */
export const cutoffBinds = (role: Role): boolean => role === Role.Parent;

/**
 * Whether `role` may book or cancel for `day` now: null when it may, else the reason (a message key). The school is
 * never bound by the cutoff; a guardian only before it.
 */
export function mealChangeRefusal(role: Role, day: string, now: LocalClock, cutoff: MealCutoff): 'meals.cutoff_passed' | null {
  if (!cutoffBinds(role)) return null;
  return mealBookingOpen(day, now, cutoff) ? null : 'meals.cutoff_passed';
}

/**
 * Whether a guardian may book dinner on `day` for a child whose care class meets on `weekdays` (1 Monday .. 7 Sunday;
 * null: no class or no time slot, the school decides), with the school calendar's entry for the day: never on a
 * holiday, and only on a day that runs as one of the class's weekdays (a make-up day runs as its `works_as`).
 */
export function mealDayRefusal(
  day: string,
  weekdays: readonly number[] | null,
  calendar: Pick<CalendarDay, 'kind' | 'works_as'> | null,
): 'meals.holiday' | 'meals.no_class_day' | null {
  if (calendar?.kind === 'holiday') return 'meals.holiday';
  if (!weekdays) return null;
  const runsAs = calendar?.kind === 'makeup' && calendar.works_as ? calendar.works_as : weekdayOf(day);
  return weekdays.includes(runsAs) ? null : 'meals.no_class_day';
}

/** The period a day belongs to for the data centre's counts: the day, the Monday of its ISO week, or the month (YYYY-MM). */
export type MealCountGroup = 'day' | 'week' | 'month';
export function mealPeriodOf(day: string, group: MealCountGroup): string {
  if (group === 'day') return day;
  if (group === 'month') return day.slice(0, 7);
  return mondayOf(day);
}
