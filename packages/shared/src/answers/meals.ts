// The answer schemas of module `meals` (what `data` carries, as JSON), declared in api/meals.ts.
import { z } from 'zod';
import { pageOf, wire } from '../api/define';
import { MEAL_BOOKING_STATUSES, MEAL_CANCEL_CAUSES, MEAL_PAY_FROM } from '../meals';

const { id, count, fen, day, at } = wire;

/** money: integer fen */
/** a school day, YYYY-MM-DD */
/** an instant, ISO text */

// ---------------------------------------------------------------- items

export const MealGoods = z.object({
  id,
  name: z.string(),
  description: z.string().nullable(),
  picture_url: z.string().nullable(),
  price_fen: fen,
  enabled: z.boolean(),
  /** bookings ever made of it (an item ever ordered is disabled, never deleted) */
  orders: count,
  version: z.number().int(),
  created_at: at,
});
export type MealGoods = z.infer<typeof MealGoods>;

export const MealGoodsPage = pageOf(MealGoods);
export type MealGoodsPage = z.infer<typeof MealGoodsPage>;

export const MealGoodsPrice = z.object({
  id,
  price_fen: fen,
  reason: z.string().nullable(),
  actor_name: z.string().nullable(),
  at,
});
export type MealGoodsPrice = z.infer<typeof MealGoodsPrice>;

/** mealGoodsPrices: an item's price history, newest first (the last 200). */
export const MealGoodsPrices = z.array(MealGoodsPrice);
export type MealGoodsPrices = z.infer<typeof MealGoodsPrices>;

/** delMealGoods: deleted when never ordered, else disabled. */
export const DelMealGoodsResult = z.object({ deleted: z.boolean(), goods: MealGoods.nullable() });
export type DelMealGoodsResult = z.infer<typeof DelMealGoodsResult>;

// ---------------------------------------------------------------- settings

export const MealSettings = z.object({
  cutoff_time: z.string(),
  days_before: z.union([z.literal(0), z.literal(1)]),
  timezone: z.string(),
  /** the school's day and local time now */
  today: day,
  now_minutes: z.number().int(),
  version: z.number().int(),
});
export type MealSettings = z.infer<typeof MealSettings>;

// ---------------------------------------------------------------- bookings

export const DinnerBooking = z.object({
  id,
  student_id: id,
  student_name: z.string(),
  class_id: id.nullable(),
  class_name: z.string().nullable(),
  day,
  goods_id: id.nullable(),
  goods_name: z.string().nullable(),
  price_fen: fen,
  status: z.enum(MEAL_BOOKING_STATUSES),
  cancel_cause: z.enum(MEAL_CANCEL_CAUSES).nullable(),
  pay_from: z.enum(MEAL_PAY_FROM).nullable(),
  booked_by_name: z.string().nullable(),
  booked_at: at.nullable(),
  served_at: at.nullable(),
  version: z.number().int(),
});
export type DinnerBooking = z.infer<typeof DinnerBooking>;

export const DinnerBookingPage = pageOf(DinnerBooking);
export type DinnerBookingPage = z.infer<typeof DinnerBookingPage>;

/** The parent's meals page: one own child's bookings over a range, the items and the cutoff. */
export const ParentMeals = z.object({
  settings: MealSettings,
  goods: z.array(MealGoods),
  bookings: z.array(DinnerBooking),
  /** days of the range covered by an active contract that includes dinner */
  covered_days: z.array(day),
  /** days of the range a guardian cannot book: a holiday, or a day the child's class does not meet (mealDayRefusal) */
  closed_days: z.array(z.object({ day, reason: z.enum(['holiday', 'no_class']) })),
});
export type ParentMeals = z.infer<typeof ParentMeals>;

// ---------------------------------------------------------------- counts

const mealCounts = { booked: count, cancelled: count, served: count, unbooked_served: count };

/** One period and item: goods_id null is the dinners served without a booking of any item. */
export const MealCountRow = z.object({
  /** the period's first day (YYYY-MM-DD) */
  period: day,
  goods_id: id.nullable(),
  goods_name: z.string().nullable(),
  ...mealCounts,
});
export type MealCountRow = z.infer<typeof MealCountRow>;

/** orderMealCount / classMealCount. */
export const MealCountAnswer = z.object({ rows: z.array(MealCountRow), totals: z.object(mealCounts) });
export type MealCountAnswer = z.infer<typeof MealCountAnswer>;

/** dinnerBookingCount: the head teacher's class(es) for a day. */
export const DinnerBookingCount = z.object({
  day,
  classes: z.array(z.object({ id, name: z.string() })),
  students: count,
  items: z.array(z.object({ goods_id: id, goods_name: z.string(), booked: count, served: count })),
  booked: count,
  served: count,
  unbooked_served: count,
  not_booked: count,
});
export type DinnerBookingCount = z.infer<typeof DinnerBookingCount>;

/** One student of the class on the day: their booking (if any). */
export const DinnerBookingInfoRow = z.object({
  student_id: id,
  student_name: z.string(),
  class_name: z.string().nullable(),
  booking: DinnerBooking.nullable(),
  served_at: at.nullable(),
});
export type DinnerBookingInfoRow = z.infer<typeof DinnerBookingInfoRow>;

export const DinnerBookingInfoPage = pageOf(DinnerBookingInfoRow);
export type DinnerBookingInfoPage = z.infer<typeof DinnerBookingInfoPage>;
