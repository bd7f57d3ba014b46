/**
 * The online mall (issue 15, module `store`): goods the platform operator sells to schools, delivery addresses, orders
 * (stock reserved when placed, released when an unpaid order expires or is cancelled), paid from the school's balance
 * or through WeChat Pay, shipped by the operator, received by the school. Pure rules shared by the API (which enforces
 * them with conditional SQL) and the web (which greys out what cannot be done and previews the total).
 */

/** An order's states: unpaid (stock reserved) -> paid -> shipped -> done; unpaid or paid -> cancelled. */
export const STORE_ORDER_STATES = ['unpaid', 'paid', 'shipped', 'done', 'cancelled'] as const;
export type StoreOrderState = (typeof STORE_ORDER_STATES)[number];
/** pay, ship (operator), confirm (school: received), cancel (school or operator), expire (the 30-minute release) */
export type StoreOrderCommand = 'pay' | 'ship' | 'confirm' | 'cancel' | 'expire';

/** Limits and money rules (fen). */
export const STORE_LIMITS = {
  /** minutes an unpaid order keeps its stock */
  payMinutes: 30,
  maxLines: 20,
  maxQuantity: 999,
  maxPriceFen: 10_000_000,
  maxStock: 1_000_000,
  maxPictures: 6,
  maxAddresses: 20,
} as const;
/** Delivery costs STORE_FREIGHT_FEN below STORE_FREE_SHIPPING_FEN of goods, nothing from it. */
export const STORE_FREE_SHIPPING_FEN = 9_900;
export const STORE_FREIGHT_FEN = 800;

export type StoreDecision<T> = { ok: true; value: T } | { ok: false; error: string; params?: Record<string, number | string> };

const TARGET: Record<StoreOrderCommand, StoreOrderState> = {
  pay: 'paid',
  ship: 'shipped',
  confirm: 'done',
  cancel: 'cancelled',
  expire: 'cancelled',
};
const FROM: Record<StoreOrderCommand, readonly StoreOrderState[]> = {
  pay: ['unpaid'],
  ship: ['paid'],
  confirm: ['shipped'],
  cancel: ['unpaid', 'paid'],
  expire: ['unpaid'],
};
const REFUSAL: Record<StoreOrderState, string> = {
  unpaid: 'store.order_unpaid',
  paid: 'store.order_paid',
  shipped: 'store.order_shipped',
  done: 'store.order_done',
  cancelled: 'store.order_cancelled',
};

/**
 * The order's state machine. A command already done is `repeat` (answered with the order as it is, nothing written
 * again: paying twice charges once, a repeated cancel releases and refunds once); anything else is refused with the
 * state it is in. `expire` is the 30-minute release: only an unpaid order, so an order paid meanwhile is never touched.
 */
export function storeOrderTransition(state: StoreOrderState, cmd: StoreOrderCommand): StoreDecision<{ state: StoreOrderState; repeat: boolean }> {
  if (FROM[cmd].includes(state)) return { ok: true, value: { state: TARGET[cmd], repeat: false } };
  if (state === TARGET[cmd] && cmd !== 'expire') return { ok: true, value: { state, repeat: true } };
  return { ok: false, error: REFUSAL[state] };
}

/** What a state allows (the web's buttons). */
export const storeCan = {
  pay: (s: StoreOrderState) => s === 'unpaid',
  cancel: (s: StoreOrderState) => s === 'unpaid' || s === 'paid',
  ship: (s: StoreOrderState) => s === 'paid',
  confirm: (s: StoreOrderState) => s === 'shipped',
};

/** A cancelled order was paid before: its money goes back (a refund of the payment). */
export const refundsOnCancel = (from: StoreOrderState) => from === 'paid';

export interface StoreLineWanted {
  goods_id: number;
  quantity: number;
}
export interface StoreGoodNow {
  id: number;
  name: string;
  price_fen: number;
  stock: number;
  listed: boolean;
  picture?: string | null;
}
export interface StorePricedLine {
  goods_id: number;
  name: string;
  picture: string | null;
  price_fen: number;
  quantity: number;
  amount_fen: number;
  stock: number;
}
export interface StorePrice {
  lines: StorePricedLine[];
  goods_fen: number;
  freight_fen: number;
  total_fen: number;
}

/** Delivery for `goodsFen` of goods. */
export const freightFor = (goodsFen: number): number => (goodsFen >= STORE_FREE_SHIPPING_FEN ? 0 : STORE_FREIGHT_FEN);

/**
 * Prices an order from the goods as they are now: every line a known, listed good with the stock for its quantity; the
 * same good twice is one line of the sum; amounts in integer fen (price × quantity), freight by freightFor.
 * `checkStock` false prices a preview of goods that may have run out (the preview says so per line).
 */
export function priceOrder(wanted: readonly StoreLineWanted[], goods: readonly StoreGoodNow[], checkStock = true): StoreDecision<StorePrice> {
  if (!wanted.length) return { ok: false, error: 'store.v.items_invalid' };
  const merged = new Map<number, number>();
  for (const w of wanted) {
    if (!Number.isInteger(w.quantity) || w.quantity < 1) return { ok: false, error: 'store.v.quantity_invalid' };
    merged.set(w.goods_id, (merged.get(w.goods_id) ?? 0) + w.quantity);
  }
  const byId = new Map(goods.map((g) => [g.id, g]));
  const lines: StorePricedLine[] = [];
  let goodsFen = 0;
  for (const [id, quantity] of merged) {
    const g = byId.get(id);
    if (!g) return { ok: false, error: 'store.goods_not_found' };
    if (!g.listed) return { ok: false, error: 'store.goods_unlisted', params: { name: g.name } };
    if (quantity > STORE_LIMITS.maxQuantity) return { ok: false, error: 'store.v.quantity_invalid' };
    if (checkStock && g.stock < quantity) return { ok: false, error: 'store.out_of_stock', params: { name: g.name, stock: g.stock } };
    const amount = g.price_fen * quantity;
    goodsFen += amount;
    lines.push({ goods_id: id, name: g.name, picture: g.picture ?? null, price_fen: g.price_fen, quantity, amount_fen: amount, stock: g.stock });
  }
  const freight = freightFor(goodsFen);
  return { ok: true, value: { lines, goods_fen: goodsFen, freight_fen: freight, total_fen: goodsFen + freight } };
}

/** "12:2,15:1" (goods id : quantity), the compact items of a query string, to lines; null when malformed. */
export function parseStoreItems(v: string): StoreLineWanted[] | null {
  const parts = v.split(',').filter(Boolean);
  if (!parts.length || parts.length > STORE_LIMITS.maxLines) return null;
  const out: StoreLineWanted[] = [];
  for (const p of parts) {
    const m = /^(\d{1,9}):(\d{1,4})$/.exec(p.trim());
    if (!m) return null;
    out.push({ goods_id: Number(m[1]), quantity: Number(m[2]) });
  }
  return out;
}
export const formatStoreItems = (items: readonly StoreLineWanted[]): string => items.map((i) => `${i.goods_id}:${i.quantity}`).join(',');
