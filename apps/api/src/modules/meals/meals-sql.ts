import type { LocalClock, MealCutoff, MealSettings } from '@wantuo/shared';

/**
 * What the meals services share, and other modules import from here (teaching's importHolidays, the demo): the
 * statements themselves are the repositories' (meals-bookings.repository.ts, meals-goods.repository.ts).
 */
export { appendBookingEvent, classDaysOf, goodsRow, type ClassDays } from './meals-bookings.repository';
export { cancelClosedDayBookings, closedDayBookings, type ClosedDayBooking, type ClosedDayCancelled } from './meals-closed-days.repository';
export { settingsOf } from './meals-goods.repository';

export const clockOf = (s: MealSettings): LocalClock => ({ day: s.today, minutes: s.now_minutes });
export const cutoffOf = (s: MealSettings): MealCutoff => ({ time: s.cutoff_time, days_before: s.days_before });
