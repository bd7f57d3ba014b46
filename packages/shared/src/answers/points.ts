// The answer schemas of module `points` (what `data` carries, as JSON), declared in api/points.ts.
import { z } from 'zod';
import { pageOf, wire } from '../api/define';
import { DATA_GROUPS } from '../data-centre';
import { LEDGER_KINDS, ORDER_STATES } from '../points';

const { id, int, day, at } = wire;

/** points, balances, prices in points, stock, counts: whole numbers */
/** a school day, YYYY-MM-DD */
/** an instant, ISO text */

// ---------------------------------------------------------------- balances and the ledger

export const PointsStudent = z.object({
  id,
  name: z.string(),
  photo_url: z.string().nullable(),
  class_id: id.nullable(),
  class_name: z.string().nullable(),
  balance: int,
});
export type PointsStudent = z.infer<typeof PointsStudent>;

export const PointsStudentPage = pageOf(PointsStudent);
export type PointsStudentPage = z.infer<typeof PointsStudentPage>;

export const PointsLedgerEntry = z.object({
  id,
  kind: z.enum(LEDGER_KINDS),
  delta: int,
  balance_after: int,
  reason: z.string().nullable(),
  order_id: id.nullable(),
  actor_name: z.string().nullable(),
  created_at: at,
});
export type PointsLedgerEntry = z.infer<typeof PointsLedgerEntry>;

/** studentPoints: a student's balance and a page of the ledger, newest first. */
export const StudentPoints = pageOf(PointsLedgerEntry).extend({ student_id: id, student_name: z.string(), balance: int });
export type StudentPoints = z.infer<typeof StudentPoints>;

export const AwardPointsResult = z.object({
  points: int,
  results: z.array(z.object({ student_id: id, balance: int, entry_id: id })),
});
export type AwardPointsResult = z.infer<typeof AwardPointsResult>;

// ---------------------------------------------------------------- goods

export const ScoreGoods = z.object({
  id,
  name: z.string(),
  picture_url: z.string().nullable(),
  description: z.string().nullable(),
  price: int,
  stock: int,
  listed: z.boolean(),
  /** exchange orders made (cancelled ones included): a good ever exchanged is unlisted, never deleted */
  exchanged: int,
  version: int,
  created_at: at,
});
export type ScoreGoods = z.infer<typeof ScoreGoods>;

export const ScoreGoodsPage = pageOf(ScoreGoods);
export type ScoreGoodsPage = z.infer<typeof ScoreGoodsPage>;

/** scoreGoodsInfo: a good with its price history and stock moves (newest first, the last 100 of each). */
export const ScoreGoodsDetail = ScoreGoods.extend({
  prices: z.array(z.object({ id, old_price: int.nullable(), new_price: int, reason: z.string().nullable(), actor_name: z.string().nullable(), at })),
  stock_moves: z.array(
    z.object({
      id,
      kind: z.enum(['initial', 'add', 'exchange', 'cancel']),
      delta: int,
      stock_after: int,
      reason: z.string().nullable(),
      order_id: id.nullable(),
      actor_name: z.string().nullable(),
      at,
    }),
  ),
});
export type ScoreGoodsDetail = z.infer<typeof ScoreGoodsDetail>;

/** delScoreGoods: deleted when never exchanged, else unlisted. */
export const DelScoreGoodsResult = z.object({ id, deleted: z.boolean(), goods: ScoreGoods.nullable() });
export type DelScoreGoodsResult = z.infer<typeof DelScoreGoodsResult>;

// ---------------------------------------------------------------- exchange orders

export const ScoreOrder = z.object({
  id,
  no: z.string(),
  student_id: id,
  student_name: z.string(),
  class_name: z.string().nullable(),
  goods_id: id,
  goods_name: z.string(),
  picture_url: z.string().nullable(),
  price: int,
  state: z.enum(ORDER_STATES),
  placed_by_name: z.string().nullable(),
  handed_over_by_name: z.string().nullable(),
  handed_over_at: at.nullable(),
  cancelled_by_name: z.string().nullable(),
  cancelled_at: at.nullable(),
  cancel_reason: z.string().nullable(),
  created_at: at,
});
export type ScoreOrder = z.infer<typeof ScoreOrder>;

/** scoreOrderList: a page of orders and the counts by state for the same filters without the state. */
export const ScoreOrderListAnswer = pageOf(ScoreOrder).extend({ counts: z.record(z.enum(ORDER_STATES), int) });
export type ScoreOrderListAnswer = z.infer<typeof ScoreOrderListAnswer>;

// ---------------------------------------------------------------- counts

const countNumbers = { awarded: int, deducted: int, spent: int, refunded: int, orders: int, handed_over: int, cancelled: int };

export const ScoreCountRow = z.object({
  /** the period's first day (YYYY-MM-DD) */
  period: day,
  ...countNumbers,
});
export type ScoreCountRow = z.infer<typeof ScoreCountRow>;

/** scoreOrderCount / classScoreCount. */
export const ScoreCountAnswer = z.object({
  date_from: day,
  date_to: day,
  group: z.enum(DATA_GROUPS),
  rows: z.array(ScoreCountRow),
  totals: z.object(countNumbers),
});
export type ScoreCountAnswer = z.infer<typeof ScoreCountAnswer>;
