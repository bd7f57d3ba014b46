// The answer schemas of module `store` (what `data` carries, as JSON), declared in api/store.ts.
import { z } from 'zod';
import { pageOf } from '../api/define';
import { STORE_ORDER_STATES } from '../store';

/** A category of goods with how many goods are on sale in it. */
export const GoodsType = z.object({
  id: z.number().int(),
  name: z.string(),
  goods: z.number().int(),
});
export type GoodsType = z.infer<typeof GoodsType>;

/** A good (schools see it while on sale; the operator always). */
export const StoreGoods = z.object({
  id: z.number().int(),
  type_id: z.number().int(),
  type_name: z.string(),
  name: z.string(),
  pictures: z.array(z.string()),
  description: z.string(),
  price_fen: z.number().int(),
  stock: z.number().int(),
  sold: z.number().int(),
  listed: z.boolean(),
  version: z.number().int(),
  created_at: z.string(),
});
export type StoreGoods = z.infer<typeof StoreGoods>;

export const StoreGoodsListAnswer = pageOf(StoreGoods);
export type StoreGoodsListAnswer = z.infer<typeof StoreGoodsListAnswer>;

/** A school's delivery address. */
export const StoreAddress = z.object({
  id: z.number().int(),
  name: z.string(),
  mobile: z.string(),
  region: z.string(),
  detail: z.string(),
  is_default: z.boolean(),
  version: z.number().int(),
});
export type StoreAddress = z.infer<typeof StoreAddress>;

/** One line of an order: the good at the price of the moment. */
export const StoreOrderLine = z.object({
  goods_id: z.number().int(),
  name: z.string(),
  picture: z.string().nullable(),
  price_fen: z.number().int(),
  quantity: z.number().int(),
  amount_fen: z.number().int(),
});
export type StoreOrderLine = z.infer<typeof StoreOrderLine>;

/** GET submitGoodsOrder: what the order would be now. */
export const GoodsOrderPreview = z.object({
  lines: z.array(StoreOrderLine.extend({ stock: z.number().int(), enough: z.boolean() })),
  goods_fen: z.number().int(),
  freight_fen: z.number().int(),
  total_fen: z.number().int(),
  /** the named address, else the default; the school's addresses are addressList's */
  address: StoreAddress.nullable(),
  /** every line can be ordered now */
  orderable: z.boolean(),
});
export type GoodsOrderPreview = z.infer<typeof GoodsOrderPreview>;

/** An order with its lines and its address as copied when it was placed. */
export const StoreOrder = z.object({
  id: z.number().int(),
  no: z.string(),
  school_id: z.number().int(),
  school_name: z.string(),
  state: z.enum(STORE_ORDER_STATES),
  lines: z.array(StoreOrderLine),
  goods_fen: z.number().int(),
  freight_fen: z.number().int(),
  total_fen: z.number().int(),
  address: z.object({ name: z.string(), mobile: z.string(), region: z.string(), detail: z.string() }),
  remark: z.string().nullable(),
  placed_by_name: z.string().nullable(),
  expires_at: z.string(),
  pay_method: z.enum(['wechat', 'balance']).nullable(),
  out_trade_no: z.string().nullable(),
  paid_at: z.string().nullable(),
  carrier: z.string().nullable(),
  tracking_no: z.string().nullable(),
  shipped_at: z.string().nullable(),
  done_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  cancel_reason: z.string().nullable(),
  refunded_fen: z.number().int(),
  version: z.number().int(),
  created_at: z.string(),
});
export type StoreOrder = z.infer<typeof StoreOrder>;

/** goodsOrderList and storeOrderList: the page plus the number of orders in each state (without the state filter). */
export const StoreOrderListAnswer = pageOf(StoreOrder).extend({ counts: z.record(z.enum(STORE_ORDER_STATES), z.number().int()) });
export type StoreOrderListAnswer = z.infer<typeof StoreOrderListAnswer>;

/** balancePayGoodsOrder: the order paid (or paid already) and the school's balance after. */
export const GoodsOrderBalancePaid = z.object({ order_id: z.number().int(), balance_fen: z.number().int() });
export type GoodsOrderBalancePaid = z.infer<typeof GoodsOrderBalancePaid>;
