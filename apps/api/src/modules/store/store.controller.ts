import { Controller } from '@nestjs/common';
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
} from '@wantuo/shared';
import { CurrentUser, SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { StoreAddressesService } from './addresses.service';
import { StoreGoodsService } from './goods.service';
import { StoreOrdersService } from './orders.service';
import { StorePayments } from './store-payments';

/** The online mall (module `store`, issue 15): goods, addresses, orders, their payments, shipping and receipt. */
@Controller('api/index')
export class StoreController {
  constructor(
    private readonly goods: StoreGoodsService,
    private readonly addresses: StoreAddressesService,
    private readonly orders: StoreOrdersService,
    private readonly pay: StorePayments,
  ) {}

  @Action('GET', 'goodsType')
  types(@Input() _: unknown) {
    return this.goods.types();
  }

  @Action('GET', 'goodsList')
  goodsList(@Input() q: GoodsListQuery) {
    return this.goods.list(q);
  }

  @Action('GET', 'goodsInfo')
  goodsInfo(@Input() q: GoodsInfoQuery, @CurrentUser() user: SessionUser) {
    return this.goods.info(user, q.id);
  }

  @Action('GET', 'storeGoodsList')
  operatorGoods(@Input() q: StoreGoodsListQuery) {
    return this.goods.operatorList(q);
  }

  @Action('POST', 'addStoreGoods')
  addGoods(@Input() input: AddStoreGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.add(user, input);
  }

  @Action('POST', 'editStoreGoods')
  editGoods(@Input() input: EditStoreGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.edit(user, input);
  }

  @Action('POST', 'addStoreGoodsStock')
  addStock(@Input() input: AddStoreGoodsStockInput, @CurrentUser() user: SessionUser) {
    return this.goods.addStock(user, input);
  }

  @Action('POST', 'unmountStoreGoods')
  setListed(@Input() input: UnmountStoreGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.setListed(user, input);
  }

  @Action('GET', 'addressList')
  addressList(@Input() _: unknown, @SchoolUser() user: SchoolCaller) {
    return this.addresses.list(user);
  }

  @Action('POST', 'addAddress')
  addAddress(@Input() input: AddAddressInput, @SchoolUser() user: SchoolCaller) {
    return this.addresses.add(user, input);
  }

  @Action('POST', 'editAddress')
  editAddress(@Input() input: EditAddressInput, @SchoolUser() user: SchoolCaller) {
    return this.addresses.edit(user, input);
  }

  @Action('POST', 'delAddress')
  delAddress(@Input() input: DelAddressInput, @SchoolUser() user: SchoolCaller) {
    return this.addresses.remove(user, input);
  }

  @Action('GET', 'submitGoodsOrder')
  preview(@Input() q: GoodsOrderPreviewQuery, @SchoolUser() user: SchoolCaller) {
    return this.orders.preview(user, q);
  }

  @Action('POST', 'submitGoodsOrder')
  submit(@Input() input: SubmitGoodsOrderInput, @SchoolUser() user: SchoolCaller) {
    return this.orders.submit(user, input);
  }

  @Action('GET', 'goodsOrderList')
  orderList(@Input() q: GoodsOrderListQuery, @SchoolUser() user: SchoolCaller) {
    return this.orders.list(user, q);
  }

  @Action('GET', 'storeOrderList')
  operatorOrders(@Input() q: StoreOrderListQuery, @CurrentUser() user: SessionUser) {
    return this.orders.list(user, q);
  }

  @Action('POST', 'balancePayGoodsOrder')
  balancePay(@Input() input: BalancePayGoodsOrderInput, @SchoolUser() user: SchoolCaller) {
    return this.pay.balancePay(user, input);
  }

  @Action('POST', 'wechatPayGoodsOrder')
  wechatPay(@Input() input: GoodsOrderIdInput, @SchoolUser() user: SchoolCaller) {
    return this.pay.wechatPay(user, input);
  }

  @Action('POST', 'shipGoodsOrder')
  ship(@Input() input: ShipGoodsOrderInput, @CurrentUser() user: SessionUser) {
    return this.orders.ship(user, input);
  }

  @Action('POST', 'confirmGoodsOrder')
  confirm(@Input() input: GoodsOrderIdInput, @SchoolUser() user: SchoolCaller) {
    return this.orders.confirm(user, input);
  }

  @Action('POST', 'cancelGoodsOrder')
  cancel(@Input() input: CancelGoodsOrderInput, @CurrentUser() user: SessionUser) {
    return this.orders.cancel(user, input);
  }
}
