import { z } from 'zod';
import { parseStoreItems, STORE_LIMITS, STORE_ORDER_STATES } from '../store';
import { flag, lineText, mobile, pageQuery, plainText } from './common';

/** The online mall (issue 15, module `store`): goods, addresses, orders. Money in integer fen. */

const blank = (v: unknown) => (v === '' ? undefined : v);
const intOf = (error: string, min: number, max: number) => z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
const idOf = (error: string) => intOf(error, 1, 2_147_483_647);
const queryIdOf = (error: string) => z.coerce.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const version = idOf('store.v.version_invalid');
const requestId = z.string({ error: 'store.v.request_id_invalid' }).regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'store.v.request_id_invalid' });
const priceFen = intOf('store.v.price_invalid', 1, STORE_LIMITS.maxPriceFen);
const PICTURE_RE = /^(\/uploads\/|https?:\/\/)[^\s<>"'`\\]+$/;
const picture = z
  .string({ error: 'store.v.picture_invalid' })
  .trim()
  .max(500, { error: 'store.v.picture_invalid' })
  .regex(PICTURE_RE, { error: 'store.v.picture_invalid' });
const pictures = z.array(picture, { error: 'store.v.picture_invalid' }).max(STORE_LIMITS.maxPictures, { error: 'store.v.pictures_too_many' });
const goodsId = idOf('store.v.goods_invalid');
const orderId = idOf('store.v.order_invalid');
const quantity = intOf('store.v.quantity_invalid', 1, STORE_LIMITS.maxQuantity);
const line = z.strictObject({ goods_id: goodsId, quantity });
const lines = z
  .array(line, { error: 'store.v.items_invalid' })
  .min(1, { error: 'store.v.items_invalid' })
  .max(STORE_LIMITS.maxLines, { error: 'store.v.items_invalid' });
/** items as "id:qty,id:qty" in a query string (or the array a JSON body sends) */
const queryLines = z.preprocess((v) => (typeof v === 'string' ? (parseStoreItems(v) ?? 'bad') : v), lines);

// ---------------------------------------------------------------- goods

export const GoodsListQuery = z.strictObject({
  ...pageQuery,
  type_id: z.preprocess(blank, queryIdOf('store.v.type_invalid').optional()),
  keyword: z.preprocess(blank, lineText(32).optional()),
});
export type GoodsListQuery = z.infer<typeof GoodsListQuery>;

export const GoodsInfoQuery = z.strictObject({ id: queryIdOf('store.v.goods_invalid') });
export type GoodsInfoQuery = z.infer<typeof GoodsInfoQuery>;

/** The operator's list: every good, listed or not. */
export const StoreGoodsListQuery = z.strictObject({
  ...pageQuery,
  type_id: z.preprocess(blank, queryIdOf('store.v.type_invalid').optional()),
  keyword: z.preprocess(blank, lineText(32).optional()),
  listed: z.preprocess(blank, flag.optional()),
});
export type StoreGoodsListQuery = z.infer<typeof StoreGoodsListQuery>;

const goodsFields = {
  type_id: idOf('store.v.type_invalid'),
  name: lineText(60).min(1, { error: 'store.v.name_required' }),
  pictures: pictures.optional(),
  description: plainText(2000).optional(),
  price_fen: priceFen,
};

export const AddStoreGoodsInput = z.strictObject({
  ...goodsFields,
  /** the first stock (a stock move) */
  stock: intOf('store.v.stock_invalid', 0, STORE_LIMITS.maxStock),
  listed: z.boolean({ error: 'store.v.listed_invalid' }).optional(),
  request_id: requestId,
});
export type AddStoreGoodsInput = z.infer<typeof AddStoreGoodsInput>;

/** Everything but the stock (its own moves) on the version read; orders placed keep their own prices. */
export const EditStoreGoodsInput = z.strictObject({ id: goodsId, version, ...goodsFields });
export type EditStoreGoodsInput = z.infer<typeof EditStoreGoodsInput>;

export const AddStoreGoodsStockInput = z.strictObject({
  id: goodsId,
  quantity: intOf('store.v.quantity_invalid', 1, 100_000),
  request_id: requestId,
});
export type AddStoreGoodsStockInput = z.infer<typeof AddStoreGoodsStockInput>;

export const UnmountStoreGoodsInput = z.strictObject({ id: goodsId, version, listed: z.boolean({ error: 'store.v.listed_invalid' }) });
export type UnmountStoreGoodsInput = z.infer<typeof UnmountStoreGoodsInput>;

// ---------------------------------------------------------------- addresses

const addressFields = {
  name: lineText(20).min(1, { error: 'store.v.consignee_required' }),
  mobile,
  region: lineText(60).min(1, { error: 'store.v.region_required' }),
  detail: lineText(120).min(1, { error: 'store.v.detail_required' }),
  is_default: z.boolean({ error: 'store.v.default_invalid' }).optional(),
};
export const AddAddressInput = z.strictObject(addressFields);
export type AddAddressInput = z.infer<typeof AddAddressInput>;
export const EditAddressInput = z.strictObject({ id: idOf('store.v.address_invalid'), version, ...addressFields });
export type EditAddressInput = z.infer<typeof EditAddressInput>;
export const DelAddressInput = z.strictObject({ id: idOf('store.v.address_invalid') });
export type DelAddressInput = z.infer<typeof DelAddressInput>;

// ---------------------------------------------------------------- orders

/** The confirm-order preview: items as "id:qty,…"; the default address unless one is named. */
export const GoodsOrderPreviewQuery = z.strictObject({
  items: queryLines,
  address_id: z.preprocess(blank, queryIdOf('store.v.address_invalid').optional()),
});
export type GoodsOrderPreviewQuery = z.infer<typeof GoodsOrderPreviewQuery>;

export const SubmitGoodsOrderInput = z.strictObject({
  items: lines,
  address_id: idOf('store.v.address_invalid'),
  /** the total the caller saw: refused when prices changed meanwhile */
  total_fen: intOf('store.v.total_invalid', 1, 2_000_000_000),
  remark: plainText(200).optional(),
  request_id: requestId,
});
export type SubmitGoodsOrderInput = z.infer<typeof SubmitGoodsOrderInput>;

export const GoodsOrderListQuery = z.strictObject({
  ...pageQuery,
  state: z.preprocess(blank, z.enum(STORE_ORDER_STATES, { error: 'store.v.state_invalid' }).optional()),
});
export type GoodsOrderListQuery = z.infer<typeof GoodsOrderListQuery>;

/** The operator's list: every school's orders. */
export const StoreOrderListQuery = z.strictObject({
  ...pageQuery,
  state: z.preprocess(blank, z.enum(STORE_ORDER_STATES, { error: 'store.v.state_invalid' }).optional()),
  keyword: z.preprocess(blank, lineText(32).optional()),
});
export type StoreOrderListQuery = z.infer<typeof StoreOrderListQuery>;

export const BalancePayGoodsOrderInput = z.strictObject({
  id: orderId,
  deal_pwd: z.string({ error: 'school.v.deal_pwd_invalid' }).regex(/^\d{6}$/, { error: 'school.v.deal_pwd_invalid' }),
  request_id: requestId.optional(),
});
export type BalancePayGoodsOrderInput = z.infer<typeof BalancePayGoodsOrderInput>;

export const GoodsOrderIdInput = z.strictObject({ id: orderId });
export type GoodsOrderIdInput = z.infer<typeof GoodsOrderIdInput>;

export const ShipGoodsOrderInput = z.strictObject({
  id: orderId,
  carrier: lineText(30).min(1, { error: 'store.v.carrier_required' }),
  tracking_no: z
    .string({ error: 'store.v.tracking_invalid' })
    .trim()
    .regex(/^[A-Za-z0-9-]{6,40}$/, { error: 'store.v.tracking_invalid' }),
});
export type ShipGoodsOrderInput = z.infer<typeof ShipGoodsOrderInput>;

export const CancelGoodsOrderInput = z.strictObject({ id: orderId, reason: lineText(100).min(1, { error: 'store.v.reason_required' }) });
export type CancelGoodsOrderInput = z.infer<typeof CancelGoodsOrderInput>;
