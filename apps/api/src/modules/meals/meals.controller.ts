import { Controller, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  AddMealGoodsInput,
  BookDinnerInput,
  CancelDinnerInput,
  DelMealGoodsInput,
  DinnerBookingCountInfoQuery,
  DinnerBookingCountQuery,
  DinnerOrderListQuery,
  EditMealGoodsInput,
  EditMealGoodsPriceInput,
  MealGoodsIdQuery,
  MealGoodsListQuery,
  OperateMealGoodsInput,
  OrderMealCountQuery,
  ParentMealsQuery,
  SchoolDinnerOrderExportQuery,
  SchoolDinnerOrderListQuery,
  SetMealSettingsInput,
  WechatPayDinnerInput,
} from '@wantuo/shared';
import { Caller, CurrentUser, type CallerInfo } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { sendFile } from '../../core/http/send-file';
import type { SessionUser } from '../../core/http/request-context';
import { MealBookingsService } from './bookings.service';
import { MealCounts } from './counts.service';
import { MealGoodsService } from './goods.service';
import { MealPayments } from './meal-payments';

/** Meals (module `meals`, issue 12): items, the cutoff, dinner bookings, lists and counts. */
@Controller('api/index')
export class MealsController {
  constructor(
    private readonly goods: MealGoodsService,
    private readonly bookings: MealBookingsService,
    private readonly counts: MealCounts,
    private readonly payments: MealPayments,
  ) {}

  @Action('GET', 'mealGoodsList')
  goodsList(@Input() q: MealGoodsListQuery, @CurrentUser() user: SessionUser) {
    return this.goods.list(user, q);
  }

  @Action('POST', 'addMealGoods')
  addGoods(@Input() input: AddMealGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.add(user, input);
  }

  @Action('POST', 'editMealGoods')
  editGoods(@Input() input: EditMealGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.edit(user, input);
  }

  @Action('POST', 'editMealGoodsPrice')
  editGoodsPrice(@Input() input: EditMealGoodsPriceInput, @CurrentUser() user: SessionUser) {
    return this.goods.editPrice(user, input);
  }

  @Action('GET', 'mealGoodsPrices')
  goodsPrices(@Input() q: MealGoodsIdQuery, @CurrentUser() user: SessionUser) {
    return this.goods.prices(user, q.id);
  }

  @Action('POST', 'operateMealGoods')
  operateGoods(@Input() input: OperateMealGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.operate(user, input);
  }

  @Action('POST', 'delMealGoods')
  delGoods(@Input() input: DelMealGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.del(user, input);
  }

  @Action('GET', 'mealSettings')
  settings(@Input() _: unknown, @CurrentUser() user: SessionUser) {
    return this.goods.settings(user);
  }

  @Action('POST', 'setMealSettings')
  setSettings(@Input() input: SetMealSettingsInput, @CurrentUser() user: SessionUser) {
    return this.goods.setSettings(user, input);
  }

  @Action('POST', 'bookDinner')
  book(@Input() input: BookDinnerInput, @CurrentUser() user: SessionUser) {
    return this.bookings.book(user, input);
  }

  @Action('POST', 'cancelDinner')
  cancel(@Input() input: CancelDinnerInput, @CurrentUser() user: SessionUser) {
    return this.bookings.cancel(user, input);
  }

  @Action('POST', 'wechatPayDinner')
  wechatPay(@Input() input: WechatPayDinnerInput, @CurrentUser() user: SessionUser, @Caller() caller: CallerInfo) {
    return this.payments.wechatPay(user, input, caller.ip);
  }

  @Action('GET', 'parentMeals')
  parentMeals(@Input() q: ParentMealsQuery, @CurrentUser() user: SessionUser) {
    return this.bookings.parentMeals(user, q);
  }

  @Action('GET', 'dinnerOrderList')
  dinnerOrderList(@Input() q: DinnerOrderListQuery, @CurrentUser() user: SessionUser) {
    return this.counts.dinnerOrderList(user, q);
  }

  @Action('GET', 'schoolDinnerOrderList')
  schoolDinnerOrderList(@Input() q: SchoolDinnerOrderListQuery, @CurrentUser() user: SessionUser) {
    return this.counts.schoolDinnerOrderList(user, q);
  }

  @Action('GET', 'schoolDinnerOrderExport')
  async schoolDinnerOrderExport(@Input() q: SchoolDinnerOrderExportQuery, @CurrentUser() user: SessionUser, @Res() res: Response) {
    sendFile(res, await this.counts.schoolDinnerOrderExport(user, q));
  }

  @Action('GET', 'orderMealCount')
  orderMealCount(@Input() q: OrderMealCountQuery, @CurrentUser() user: SessionUser) {
    return this.counts.orderMealCount(user, q);
  }

  @Action('GET', 'classMealCount')
  classMealCount(@Input() q: OrderMealCountQuery, @CurrentUser() user: SessionUser) {
    return this.counts.classMealCount(user, q);
  }

  @Action('GET', 'orderMealCountExport')
  async orderMealCountExport(@Input() q: OrderMealCountQuery, @CurrentUser() user: SessionUser, @Res() res: Response) {
    sendFile(res, await this.counts.orderMealCountExport(user, q));
  }

  @Action('GET', 'dinnerBookingCount')
  dinnerBookingCount(@Input() q: DinnerBookingCountQuery, @CurrentUser() user: SessionUser) {
    return this.counts.dinnerBookingCount(user, q);
  }

  @Action('GET', 'dinnerBookingCountInfo')
  dinnerBookingCountInfo(@Input() q: DinnerBookingCountInfoQuery, @CurrentUser() user: SessionUser) {
    return this.counts.dinnerBookingCountInfo(user, q);
  }
}
