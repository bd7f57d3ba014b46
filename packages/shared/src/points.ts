/**
 * Points (issue 12): every student's balance is the sum of an append-only ledger; teachers award and deduct, the
 * shop's goods are exchanged for points, the school hands the exchanged good over or cancels the order (points and
 * stock given back once). Pure rules shared by the API (which enforces them with conditional SQL) and the web (which
 * greys out what cannot be done and previews the balance after).
 */

/** Kinds of ledger entries: a teacher's award or deduction, an exchange's charge, a cancelled exchange's refund. */
export const LEDGER_KINDS = ['award', 'deduct', 'exchange', 'refund'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** An exchange order: pending until the school hands the good over, or cancelled (points and stock given back). */
export const ORDER_STATES = ['pending', 'handed_over', 'cancelled'] as const;
export type OrderState = (typeof ORDER_STATES)[number];
export type OrderCommand = 'hand_over' | 'cancel';

/** Limits of the inputs (the API's schemas and the web's forms). */
export const POINTS_MAX_PER_ENTRY = 10_000;
export const POINTS_MAX_STUDENTS = 100;
export const GOODS_MAX_PRICE = 1_000_000;
export const GOODS_MAX_STOCK = 100_000;

export type PointsDecision<T> = { ok: true; value: T } | { ok: false; error: string; params?: Record<string, number> };

/**
 * The state machine of an exchange order. A command already done is `repeat` (answered with the order as it is, nothing
 * written again: a repeated cancel gives back once); anything else from a final state is refused.
 */
export function orderTransition(state: OrderState, cmd: OrderCommand): PointsDecision<{ state: OrderState; repeat: boolean }> {
  const target: OrderState = cmd === 'hand_over' ? 'handed_over' : 'cancelled';
  if (state === 'pending') return { ok: true, value: { state: target, repeat: false } };
  if (state === target) return { ok: true, value: { state, repeat: true } };
  return { ok: false, error: state === 'handed_over' ? 'points.order_handed_over' : 'points.order_cancelled' };
}

/** What a state allows (the web's buttons). */
export const canHandOver = (s: OrderState) => s === 'pending';
export const canCancel = (s: OrderState) => s === 'pending';

/**
 * A ledger entry of `delta` points on a balance: never below zero. A deduction larger than the balance is refused with
 * the numbers (balance, asked).
 */
export function applyPoints(balance: number, delta: number): PointsDecision<number> {
  if (!Number.isInteger(delta) || delta === 0) return { ok: false, error: 'points.v.points_invalid' };
  if (balance + delta < 0) return { ok: false, error: 'points.insufficient', params: { balance, asked: -delta } };
  return { ok: true, value: balance + delta };
}

export interface ExchangeGood {
  price: number;
  stock: number;
  listed: boolean;
  deleted?: boolean;
}

/**
 * Whether a student with `balance` points can exchange the good now: listed, in stock, and the balance covers the
 * price. Answers the balance after.
 */
export function exchangeDecision(balance: number, good: ExchangeGood): PointsDecision<number> {
  if (good.deleted || !good.listed) return { ok: false, error: 'points.goods_unlisted' };
  if (good.stock <= 0) return { ok: false, error: 'points.out_of_stock' };
  const after = applyPoints(balance, -good.price);
  return after.ok ? after : { ok: false, error: 'points.insufficient', params: { balance, asked: good.price } };
}

/** The ledger entry's kind for a teacher's change of `delta` points. */
export const kindOfChange = (delta: number): LedgerKind => (delta > 0 ? 'award' : 'deduct');
