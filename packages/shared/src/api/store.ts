import { z } from 'zod';
import { GET, IdAnswer, POST, extraOf } from './define';
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

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('store');

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
  GET(
    'storeGoodsList',
    StoreGoodsListQuery,
    StoreGoodsListAnswer,
    extra(['O'], 'platform operator lists the online-mall goods, listed or not, paged, by category, keyword and listed'),
  ),
  POST(
    'addStoreGoods',
    AddStoreGoodsInput,
    StoreGoods,
    extra(['O'], 'platform operator adds an online-mall good: category, name, pictures, description, price (fen), first stock (a stock move)'),
  ),
  POST(
    'editStoreGoods',
    EditStoreGoodsInput,
    StoreGoods,
    extra(['O'], 'platform operator edits a good (optimistic concurrency on version); orders placed keep their own prices'),
  ),
  POST(
    'addStoreGoodsStock',
    AddStoreGoodsStockInput,
    StoreGoods,
    extra(['O'], 'platform operator adds stock to a good (a stock move; idempotent by request_id)'),
  ),
  POST(
    'unmountStoreGoods',
    UnmountStoreGoodsInput,
    StoreGoods,
    extra(['O'], 'platform operator lists or unlists a good (optimistic concurrency on version)'),
  ),
  GET(
    'storeOrderList',
    StoreOrderListQuery,
    StoreOrderListAnswer,
    extra(['O'], "platform operator lists every school's mall orders, newest first, paged, by state and keyword (order no, school)"),
  ),
  POST(
    'shipGoodsOrder',
    ShipGoodsOrderInput,
    StoreOrder,
    extra(['O'], 'platform operator ships a paid order with carrier and tracking number (paid -> shipped)'),
  ),
  POST('confirmGoodsOrder', GoodsOrderIdInput, StoreOrder, extra(['A'], 'the school confirms receipt of a shipped order (shipped -> done)')),
  POST(
    'cancelGoodsOrder',
    CancelGoodsOrderInput,
    StoreOrder,
    extra(
      ['A', 'O'],
      'the school (its own) or the operator cancels an unpaid or paid order with a reason: stock released, a paid order refunded (balance back to the wallet, WeChat Pay through the provider)',
    ),
  ),
] as const;
