import { z } from 'zod';
import { GET, IdAnswer, POST } from './define';
import { PendingPayment } from '../answers/school';
import {
  GoodsOrderBalancePaid,
  GoodsOrderPreview,
  GoodsType,
  StoreAddress,
  StoreGoods,
  StoreGoodsListAnswer,
  StoreOrder,
  StoreOrderListAnswer,
} from '../answers/store';
import { EmptyInput } from '../schemas/auth';
import {
  AddAddressInput,
  AddStoreGoodsInput,
  AddStoreGoodsStockInput,
  BalancePayGoodsOrderInput,
  CancelGoodsOrderInput,
  DelAddressInput,
  EditAddressInput,
  EditStoreGoodsInput,
  GoodsInfoQuery,
  GoodsListQuery,
  GoodsOrderIdInput,
  GoodsOrderListQuery,
  GoodsOrderPreviewQuery,
  ShipGoodsOrderInput,
  StoreGoodsListQuery,
  StoreOrderListQuery,
  SubmitGoodsOrderInput,
  UnmountStoreGoodsInput,
} from '../schemas/store';

/** The actions of module `store` (docs/modules/store.md). */
export const storeActions = [
  GET('goodsType', EmptyInput, z.array(GoodsType)),
  GET('goodsList', GoodsListQuery, StoreGoodsListAnswer),
  GET('goodsInfo', GoodsInfoQuery, StoreGoods),
  GET('addressList', EmptyInput, z.array(StoreAddress)),
  POST('addAddress', AddAddressInput, StoreAddress),
  POST('editAddress', EditAddressInput, StoreAddress),
  POST('delAddress', DelAddressInput, IdAnswer),
  GET('submitGoodsOrder', GoodsOrderPreviewQuery, GoodsOrderPreview),
  POST('submitGoodsOrder', SubmitGoodsOrderInput, StoreOrder),
  GET('goodsOrderList', GoodsOrderListQuery, StoreOrderListAnswer),
  POST('balancePayGoodsOrder', BalancePayGoodsOrderInput, GoodsOrderBalancePaid),
  POST('wechatPayGoodsOrder', GoodsOrderIdInput, PendingPayment),
  GET('storeGoodsList', StoreGoodsListQuery, StoreGoodsListAnswer),
  POST('addStoreGoods', AddStoreGoodsInput, StoreGoods),
  POST('editStoreGoods', EditStoreGoodsInput, StoreGoods),
  POST('addStoreGoodsStock', AddStoreGoodsStockInput, StoreGoods),
  POST('unmountStoreGoods', UnmountStoreGoodsInput, StoreGoods),
  GET('storeOrderList', StoreOrderListQuery, StoreOrderListAnswer),
  POST('shipGoodsOrder', ShipGoodsOrderInput, StoreOrder),
  POST('confirmGoodsOrder', GoodsOrderIdInput, StoreOrder),
  POST('cancelGoodsOrder', CancelGoodsOrderInput, StoreOrder),
] as const;
