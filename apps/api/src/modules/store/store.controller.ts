import { Controller, Get, Post } from '@nestjs/common';
import {
  AddAddressInput,
  AddStoreGoodsInput,
  AddStoreGoodsStockInput,
  BalancePayGoodsOrderInput,
  CancelGoodsOrderInput,
  DelAddressInput,
  EmptyInput,
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
import { CurrentUser } from '../../core/auth/current-user.decorator';
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

  @Get('goodsType')
  types(@Input(EmptyInput) _: unknown) {
    return this.goods.types();
  }

  @Get('goodsList')
  goodsList(@Input(GoodsListQuery) q: GoodsListQuery) {
    return this.goods.list(q);
  }

  @Get('goodsInfo')
  goodsInfo(@Input(GoodsInfoQuery) q: GoodsInfoQuery, @CurrentUser() user: SessionUser) {
    return this.goods.info(user, q.id);
  }

  @Get('storeGoodsList')
  operatorGoods(@Input(StoreGoodsListQuery) q: StoreGoodsListQuery) {
    return this.goods.operatorList(q);
  }

  @Post('addStoreGoods')
  addGoods(@Input(AddStoreGoodsInput) input: AddStoreGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.add(user, input);
  }

  @Post('editStoreGoods')
  editGoods(@Input(EditStoreGoodsInput) input: EditStoreGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.edit(user, input);
  }

  @Post('addStoreGoodsStock')
  addStock(@Input(AddStoreGoodsStockInput) input: AddStoreGoodsStockInput, @CurrentUser() user: SessionUser) {
    return this.goods.addStock(user, input);
  }

  @Post('unmountStoreGoods')
  setListed(@Input(UnmountStoreGoodsInput) input: UnmountStoreGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.setListed(user, input);
  }

  @Get('addressList')
  addressList(@Input(EmptyInput) _: unknown, @CurrentUser() user: SessionUser) {
    return this.addresses.list(user);
  }

  @Post('addAddress')
  addAddress(@Input(AddAddressInput) input: AddAddressInput, @CurrentUser() user: SessionUser) {
    return this.addresses.add(user, input);
  }

  @Post('editAddress')
  editAddress(@Input(EditAddressInput) input: EditAddressInput, @CurrentUser() user: SessionUser) {
    return this.addresses.edit(user, input);
  }

  @Post('delAddress')
  delAddress(@Input(DelAddressInput) input: DelAddressInput, @CurrentUser() user: SessionUser) {
    return this.addresses.remove(user, input);
  }

  @Get('submitGoodsOrder')
  preview(@Input(GoodsOrderPreviewQuery) q: GoodsOrderPreviewQuery, @CurrentUser() user: SessionUser) {
    return this.orders.preview(user, q);
  }

  @Post('submitGoodsOrder')
  submit(@Input(SubmitGoodsOrderInput) input: SubmitGoodsOrderInput, @CurrentUser() user: SessionUser) {
    return this.orders.submit(user, input);
  }

  @Get('goodsOrderList')
  orderList(@Input(GoodsOrderListQuery) q: GoodsOrderListQuery, @CurrentUser() user: SessionUser) {
    return this.orders.list(user, q);
  }

  @Get('storeOrderList')
  operatorOrders(@Input(StoreOrderListQuery) q: StoreOrderListQuery, @CurrentUser() user: SessionUser) {
    return this.orders.list(user, q);
  }

  @Post('balancePayGoodsOrder')
  balancePay(@Input(BalancePayGoodsOrderInput) input: BalancePayGoodsOrderInput, @CurrentUser() user: SessionUser) {
    return this.pay.balancePay(user, input);
  }

  @Post('wechatPayGoodsOrder')
  wechatPay(@Input(GoodsOrderIdInput) input: GoodsOrderIdInput, @CurrentUser() user: SessionUser) {
    return this.pay.wechatPay(user, input);
  }

  @Post('shipGoodsOrder')
  ship(@Input(ShipGoodsOrderInput) input: ShipGoodsOrderInput, @CurrentUser() user: SessionUser) {
    return this.orders.ship(user, input);
  }

  @Post('confirmGoodsOrder')
  confirm(@Input(GoodsOrderIdInput) input: GoodsOrderIdInput, @CurrentUser() user: SessionUser) {
    return this.orders.confirm(user, input);
  }

  @Post('cancelGoodsOrder')
  cancel(@Input(CancelGoodsOrderInput) input: CancelGoodsOrderInput, @CurrentUser() user: SessionUser) {
    return this.orders.cancel(user, input);
  }
}
