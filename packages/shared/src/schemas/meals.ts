import { z } from 'zod';
import { flag, lineText, pageQuery, plainText } from './common';
import { isCalendarDay } from '../school-time';
import { dayDiff } from '../contracts';
import { payChannel } from './school';

/** Meals (issue 12, module `meals`): items, dinner bookings, counts. Amounts are integer fen, days school-local YYYY-MM-DD. */

const blank = (v: unknown) => (v === '' ? undefined : v);
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const day = z
  .string({ error: 'meals.v.date_invalid' })
  .regex(DATE_RE, { error: 'meals.v.date_invalid' })
  .refine((v) => isCalendarDay(v), { error: 'meals.v.date_invalid' });
const idOf = (error: string) => z.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const queryIdOf = (error: string) => z.coerce.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const version = idOf('meals.v.version_invalid');
/** a meal's price: 0.01 to 1,000 yuan */
const priceFen = z
  .number({ error: 'meals.v.price_invalid' })
  .int({ error: 'meals.v.price_invalid' })
  .min(1, { error: 'meals.v.price_invalid' })
  .max(100_000, { error: 'meals.v.price_invalid' });
const requestId = z.string({ error: 'meals.v.request_id_invalid' }).regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'meals.v.request_id_invalid' });
/** A picture: a URL the upload action gave (/uploads/...) or an http(s) URL. */
const pictureUrl = z
  .string({ error: 'meals.v.picture_invalid' })
  .max(500, { error: 'meals.v.picture_invalid' })
  .regex(/^(\/uploads\/|https?:\/\/)[^\s<>"'`\\]+$/, { error: 'meals.v.picture_invalid' });

// ---------------------------------------------------------------- items

const goodsFields = {
  name: lineText(50).min(1, { error: 'meals.v.name_required' }),
  description: plainText(500).optional(),
  picture_url: pictureUrl.nullable().optional(),
};

export const MealGoodsListQuery = z.strictObject({
  ...pageQuery,
  enabled: z.preprocess(blank, flag.optional()),
  keyword: z.preprocess(blank, lineText(50).optional()),
});
export type MealGoodsListQuery = z.infer<typeof MealGoodsListQuery>;

export const AddMealGoodsInput = z.strictObject({ ...goodsFields, price_fen: priceFen });
export type AddMealGoodsInput = z.infer<typeof AddMealGoodsInput>;

/** Edits an item's name, description and picture (the price through editMealGoodsPrice), on the version read. */
export const EditMealGoodsInput = z.strictObject({ id: idOf('meals.v.goods_invalid'), version, ...goodsFields });
export type EditMealGoodsInput = z.infer<typeof EditMealGoodsInput>;

/** A new price from now on, with a reason; the price history is appended, bookings keep the price they were made at. */
export const EditMealGoodsPriceInput = z.strictObject({
  id: idOf('meals.v.goods_invalid'),
  version,
  price_fen: priceFen,
  reason: lineText(200).min(2, { error: 'meals.v.reason_required' }),
});
export type EditMealGoodsPriceInput = z.infer<typeof EditMealGoodsPriceInput>;

export const OperateMealGoodsInput = z.strictObject({
  id: idOf('meals.v.goods_invalid'),
  version,
  enabled: z.boolean({ error: 'meals.v.enabled_invalid' }),
});
export type OperateMealGoodsInput = z.infer<typeof OperateMealGoodsInput>;

export const DelMealGoodsInput = z.strictObject({ id: idOf('meals.v.goods_invalid'), version });
export type DelMealGoodsInput = z.infer<typeof DelMealGoodsInput>;

export const MealGoodsIdQuery = z.strictObject({ id: queryIdOf('meals.v.goods_invalid') });
export type MealGoodsIdQuery = z.infer<typeof MealGoodsIdQuery>;

// ---------------------------------------------------------------- settings

export const SetMealSettingsInput = z.strictObject({
  cutoff_time: z.string({ error: 'meals.v.cutoff_invalid' }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'meals.v.cutoff_invalid' }),
  days_before: z.union([z.literal(0), z.literal(1)], { error: 'meals.v.cutoff_invalid' }),
  version,
});
export type SetMealSettingsInput = z.infer<typeof SetMealSettingsInput>;

// ---------------------------------------------------------------- bookings

export const BookDinnerInput = z.strictObject({
  student_id: idOf('meals.v.student_invalid'),
  day,
  goods_id: idOf('meals.v.goods_invalid'),
  request_id: requestId,
});
export type BookDinnerInput = z.infer<typeof BookDinnerInput>;

export const CancelDinnerInput = z.strictObject({ id: idOf('meals.v.booking_invalid'), version });
export type CancelDinnerInput = z.infer<typeof CancelDinnerInput>;

/** A guardian pays an own child's unpaid booking by WeChat Pay: Native QR, JSAPI (inside WeChat) or H5 (a phone browser). */
export const WechatPayDinnerInput = z.strictObject({ id: idOf('meals.v.booking_invalid'), channel: payChannel });
export type WechatPayDinnerInput = z.infer<typeof WechatPayDinnerInput>;

/** dinnerOrderList: one student or one class (the head teacher: their own classes), by date range. */
export const DinnerOrderListQuery = z.strictObject({
  ...pageQuery,
  from: day,
  to: z.preprocess(blank, day.optional()),
  student_id: z.preprocess(blank, queryIdOf('meals.v.student_invalid').optional()),
  class_id: z.preprocess(blank, queryIdOf('meals.v.class_invalid').optional()),
});
export type DinnerOrderListQuery = z.infer<typeof DinnerOrderListQuery>;

const schoolOrderFilters = {
  from: day,
  to: z.preprocess(blank, day.optional()),
  goods_id: z.preprocess(blank, queryIdOf('meals.v.goods_invalid').optional()),
  status: z.preprocess(blank, z.enum(['unpaid', 'booked', 'cancelled', 'none'], { error: 'meals.v.status_invalid' }).optional()),
  keyword: z.preprocess(blank, lineText(50).optional()),
};
export const SchoolDinnerOrderListQuery = z.strictObject({ ...pageQuery, ...schoolOrderFilters });
export type SchoolDinnerOrderListQuery = z.infer<typeof SchoolDinnerOrderListQuery>;
export const SchoolDinnerOrderExportQuery = z.strictObject(schoolOrderFilters);
export type SchoolDinnerOrderExportQuery = z.infer<typeof SchoolDinnerOrderExportQuery>;

/** The parent's meals page: one own child's bookings over a range, the items and the cutoff. */
export const ParentMealsQuery = z.strictObject({ student_id: queryIdOf('meals.v.student_invalid'), from: day, to: day });
export type ParentMealsQuery = z.infer<typeof ParentMealsQuery>;

// ---------------------------------------------------------------- counts

export const OrderMealCountQuery = z
  .strictObject({
    from: day,
    to: day,
    group: z.preprocess(blank, z.enum(['day', 'week', 'month'], { error: 'meals.v.group_invalid' }).default('day')),
  })
  .refine((v) => v.from <= v.to && dayDiff(v.from, v.to) <= 400, { error: 'meals.v.range_invalid', path: ['to'] });
export type OrderMealCountQuery = z.infer<typeof OrderMealCountQuery>;

export const DinnerBookingCountQuery = z.strictObject({ day, class_id: z.preprocess(blank, queryIdOf('meals.v.class_invalid').optional()) });
export type DinnerBookingCountQuery = z.infer<typeof DinnerBookingCountQuery>;

export const DinnerBookingCountInfoQuery = z.strictObject({
  ...pageQuery,
  day,
  class_id: z.preprocess(blank, queryIdOf('meals.v.class_invalid').optional()),
  goods_id: z.preprocess(blank, queryIdOf('meals.v.goods_invalid').optional()),
});
export type DinnerBookingCountInfoQuery = z.infer<typeof DinnerBookingCountInfoQuery>;

/** The live `meals.count` socket message: a day's per-item counts of the school after a booking or a leave changed them. */
export interface MealCountMessage {
  day: string;
  class_ids: number[];
  items: Array<{ goods_id: number | null; goods_name: string | null; booked: number; served: number; unbooked_served: number }>;
}
