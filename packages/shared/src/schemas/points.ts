import { z } from 'zod';
import { GOODS_MAX_PRICE, GOODS_MAX_STOCK, ORDER_STATES, POINTS_MAX_PER_ENTRY, POINTS_MAX_STUDENTS } from '../points';
import { DATA_GROUPS, dataRangeOk } from '../data-centre';
import { flag, lineText, pageQuery, plainText } from './common';
import { isCalendarDay } from '../school-time';

/** Points, points goods and exchange orders (issue 12, module `points`). Points are whole numbers; days school-local. */

const blank = (v: unknown) => (v === '' ? undefined : v);
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const day = z
  .string({ error: 'points.v.date_invalid' })
  .regex(DATE_RE, { error: 'points.v.date_invalid' })
  .refine((v) => isCalendarDay(v), { error: 'points.v.date_invalid' });
const intOf = (error: string, min: number, max: number) => z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
const idOf = (error: string) => intOf(error, 1, 2_147_483_647);
const queryIdOf = (error: string) => z.coerce.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const version = idOf('points.v.version_invalid');
const requestId = z.string({ error: 'points.v.request_id_invalid' }).regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'points.v.request_id_invalid' });
const price = intOf('points.v.price_invalid', 1, GOODS_MAX_PRICE);
/** a picture: a URL the upload action gave (/uploads/...) or an http(s) URL; '' for none */
const PICTURE_RE = /^(\/uploads\/|https?:\/\/)[^\s<>"'`\\]+$/;
const pictureUrl = z
  .string({ error: 'points.v.picture_invalid' })
  .trim()
  .max(500, { error: 'points.v.picture_invalid' })
  .refine((v) => v === '' || PICTURE_RE.test(v), { error: 'points.v.picture_invalid' });

// ---------------------------------------------------------------- balances and the ledger

/** The students whose points the caller may change (a teacher's own students, the admin's school), with balances. */
export const PointsStudentsQuery = z.strictObject({
  ...pageQuery,
  keyword: z.preprocess(blank, lineText(32).optional()),
  class_id: z.preprocess(blank, queryIdOf('points.v.class_invalid').optional()),
});
export type PointsStudentsQuery = z.infer<typeof PointsStudentsQuery>;

/** Awards (points > 0) or deducts (points < 0) the same points to several students at once, with a reason. */
export const AwardPointsInput = z.strictObject({
  student_ids: z
    .array(idOf('points.v.student_invalid'), { error: 'points.v.students_invalid' })
    .min(1, { error: 'points.v.students_invalid' })
    .max(POINTS_MAX_STUDENTS, { error: 'points.v.students_invalid' })
    .refine((v) => new Set(v).size === v.length, { error: 'points.v.students_invalid' }),
  points: intOf('points.v.points_invalid', -POINTS_MAX_PER_ENTRY, POINTS_MAX_PER_ENTRY).refine((v) => v !== 0, { error: 'points.v.points_invalid' }),
  reason: lineText(100).min(1, { error: 'points.v.reason_required' }),
  request_id: requestId,
});
export type AwardPointsInput = z.infer<typeof AwardPointsInput>;

/** One student's balance and ledger, newest first (a guardian: an own child; a teacher: an own student). */
export const StudentPointsQuery = z.strictObject({ ...pageQuery, student_id: queryIdOf('points.v.student_invalid') });
export type StudentPointsQuery = z.infer<typeof StudentPointsQuery>;

// ---------------------------------------------------------------- goods

const goodsFields = {
  name: lineText(50).min(1, { error: 'points.v.name_required' }),
  picture_url: pictureUrl.optional(),
  description: plainText(500).optional(),
};

export const ScoreGoodsListQuery = z.strictObject({
  ...pageQuery,
  listed: z.preprocess(blank, flag.optional()),
  keyword: z.preprocess(blank, lineText(32).optional()),
});
export type ScoreGoodsListQuery = z.infer<typeof ScoreGoodsListQuery>;

export const AddScoreGoodsInput = z.strictObject({
  ...goodsFields,
  price,
  /** the first stock (recorded as a stock move) */
  stock: intOf('points.v.stock_invalid', 0, GOODS_MAX_STOCK),
  listed: z.boolean({ error: 'points.v.listed_invalid' }).optional(),
  request_id: requestId,
});
export type AddScoreGoodsInput = z.infer<typeof AddScoreGoodsInput>;

/** Name, picture and description on the version read (the price has its own action and history, stock its moves). */
export const EditScoreGoodsInput = z.strictObject({ id: idOf('points.v.goods_invalid'), version, ...goodsFields });
export type EditScoreGoodsInput = z.infer<typeof EditScoreGoodsInput>;

export const EditScoreGoodsPriceInput = z.strictObject({ id: idOf('points.v.goods_invalid'), version, price, reason: lineText(100).optional() });
export type EditScoreGoodsPriceInput = z.infer<typeof EditScoreGoodsPriceInput>;

export const AddScoreGoodsStockInput = z.strictObject({
  id: idOf('points.v.goods_invalid'),
  quantity: intOf('points.v.quantity_invalid', 1, 10_000),
  reason: lineText(100).optional(),
  request_id: requestId,
});
export type AddScoreGoodsStockInput = z.infer<typeof AddScoreGoodsStockInput>;

/** Lists (listed: true) or unlists a good. */
export const UnmountScoreGoodsInput = z.strictObject({
  id: idOf('points.v.goods_invalid'),
  version,
  listed: z.boolean({ error: 'points.v.listed_invalid' }),
});
export type UnmountScoreGoodsInput = z.infer<typeof UnmountScoreGoodsInput>;

export const DelScoreGoodsInput = z.strictObject({ id: idOf('points.v.goods_invalid'), version });
export type DelScoreGoodsInput = z.infer<typeof DelScoreGoodsInput>;

export const ScoreGoodsIdQuery = z.strictObject({ id: queryIdOf('points.v.goods_invalid') });
export type ScoreGoodsIdQuery = z.infer<typeof ScoreGoodsIdQuery>;

/** The goods on sale (listed, not deleted), for guardians and teachers; out-of-stock ones last. */
export const PointsShopQuery = z.strictObject({ ...pageQuery });
export type PointsShopQuery = z.infer<typeof PointsShopQuery>;

// ---------------------------------------------------------------- exchange orders

export const ExchangeScoreGoodsInput = z.strictObject({
  student_id: idOf('points.v.student_invalid'),
  goods_id: idOf('points.v.goods_invalid'),
  /** the price the caller saw: refused when it changed meanwhile */
  price,
  request_id: requestId,
});
export type ExchangeScoreGoodsInput = z.infer<typeof ExchangeScoreGoodsInput>;

export const ScoreOrderListQuery = z.strictObject({
  ...pageQuery,
  state: z.preprocess(blank, z.enum(ORDER_STATES, { error: 'points.v.state_invalid' }).optional()),
  student_id: z.preprocess(blank, queryIdOf('points.v.student_invalid').optional()),
});
export type ScoreOrderListQuery = z.infer<typeof ScoreOrderListQuery>;

export const HandOverScoreOrderInput = z.strictObject({ id: idOf('points.v.order_invalid') });
export type HandOverScoreOrderInput = z.infer<typeof HandOverScoreOrderInput>;

export const CancelScoreOrderInput = z.strictObject({
  id: idOf('points.v.order_invalid'),
  reason: lineText(100).min(1, { error: 'points.v.reason_required' }),
});
export type CancelScoreOrderInput = z.infer<typeof CancelScoreOrderInput>;

// ---------------------------------------------------------------- counts (data centre)

const countFields = {
  date_from: day,
  date_to: day,
  group: z.preprocess(blank, z.enum(DATA_GROUPS, { error: 'points.v.group_invalid' }).default('day')),
  /** one care class (the admin); a head teacher's counts are always their own students' */
  class_id: z.preprocess(blank, queryIdOf('points.v.class_invalid').optional()),
};
/** the range and its length by the data centre's rule (dataRangeOk: 62 days, 27 weeks or 13 months at most) */
export const ScoreOrderCountQuery = z
  .strictObject(countFields)
  .refine((v) => v.date_from <= v.date_to, { error: 'points.v.date_range_invalid', path: ['date_to'] })
  .refine((v) => dataRangeOk(v.date_from, v.date_to, v.group), { error: 'points.v.range_too_long', path: ['date_to'] });
export type ScoreOrderCountQuery = z.infer<typeof ScoreOrderCountQuery>;
