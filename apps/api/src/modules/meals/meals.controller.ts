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
import { Caller, SchoolUser, type CallerInfo, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { sendFile } from '../../core/http/send-file';
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
  goodsList(@Input() q: MealGoodsListQuery, @SchoolUser() user: SchoolCaller) {
    return this.goods.list(user, q);
  }

  @Action('POST', 'addMealGoods')
  addGoods(@Input() input: AddMealGoodsInput, @SchoolUser() user: SchoolCaller) {
    return this.goods.add(user, input);
  }

  @Action('POST', 'editMealGoods')
  editGoods(@Input() input: EditMealGoodsInput, @SchoolUser() user: SchoolCaller) {
    return this.goods.edit(user, input);
  }

  @Action('POST', 'editMealGoodsPrice')
  editGoodsPrice(@Input() input: EditMealGoodsPriceInput, @SchoolUser() user: SchoolCaller) {
    return this.goods.editPrice(user, input);
  }

  @Action('GET', 'mealGoodsPrices')
  goodsPrices(@Input() q: MealGoodsIdQuery, @SchoolUser() user: SchoolCaller) {
    return this.goods.prices(user, q.id);
  }

  @Action('POST', 'operateMealGoods')
  operateGoods(@Input() input: OperateMealGoodsInput, @SchoolUser() user: SchoolCaller) {
    return this.goods.operate(user, input);
  }

  @Action('POST', 'delMealGoods')
  delGoods(@Input() input: DelMealGoodsInput, @SchoolUser() user: SchoolCaller) {
    return this.goods.del(user, input);
  }

  @Action('GET', 'mealSettings')
  settings(@Input() _: unknown, @SchoolUser() user: SchoolCaller) {
    return this.goods.settings(user);
  }

  @Action('POST', 'setMealSettings')
  setSettings(@Input() input: SetMealSettingsInput, @SchoolUser() user: SchoolCaller) {
    return this.goods.setSettings(user, input);
  }

  @Action('POST', 'bookDinner')
  book(@Input() input: BookDinnerInput, @SchoolUser() user: SchoolCaller) {
    return this.bookings.book(user, input);
  }

  @Action('POST', 'cancelDinner')
  cancel(@Input() input: CancelDinnerInput, @SchoolUser() user: SchoolCaller) {
    return this.bookings.cancel(user, input);
  }

  @Action('POST', 'wechatPayDinner')
  wechatPay(@Input() input: WechatPayDinnerInput, @SchoolUser() user: SchoolCaller, @Caller() caller: CallerInfo) {
    return this.payments.wechatPay(user, input, caller.ip);
  }

  @Action('GET', 'parentMeals')
  parentMeals(@Input() q: ParentMealsQuery, @SchoolUser() user: SchoolCaller) {
    return this.bookings.parentMeals(user, q);
  }

  @Action('GET', 'dinnerOrderList')
  dinnerOrderList(@Input() q: DinnerOrderListQuery, @SchoolUser() user: SchoolCaller) {
    return this.counts.dinnerOrderList(user, q);
  }

  @Action('GET', 'schoolDinnerOrderList')
  schoolDinnerOrderList(@Input() q: SchoolDinnerOrderListQuery, @SchoolUser() user: SchoolCaller) {
    return this.counts.schoolDinnerOrderList(user, q);
  }

  @Action('GET', 'schoolDinnerOrderExport')
  async schoolDinnerOrderExport(@Input() q: SchoolDinnerOrderExportQuery, @SchoolUser() user: SchoolCaller, @Res() res: Response) {
    sendFile(res, await this.counts.schoolDinnerOrderExport(user, q));
  }

  @Action('GET', 'orderMealCount')
  orderMealCount(@Input() q: OrderMealCountQuery, @SchoolUser() user: SchoolCaller) {
    return this.counts.orderMealCount(user, q);
  }

  @Action('GET', 'classMealCount')
  classMealCount(@Input() q: OrderMealCountQuery, @SchoolUser() user: SchoolCaller) {
    return this.counts.classMealCount(user, q);
  }

  @Action('GET', 'orderMealCountExport')
  async orderMealCountExport(@Input() q: OrderMealCountQuery, @SchoolUser() user: SchoolCaller, @Res() res: Response) {
    sendFile(res, await this.counts.orderMealCountExport(user, q));
  }

  @Action('GET', 'dinnerBookingCount')
  dinnerBookingCount(@Input() q: DinnerBookingCountQuery, @SchoolUser() user: SchoolCaller) {
    return this.counts.dinnerBookingCount(user, q);
  }

  @Action('GET', 'dinnerBookingCountInfo')
  dinnerBookingCountInfo(@Input() q: DinnerBookingCountInfoQuery, @SchoolUser() user: SchoolCaller) {
    return this.counts.dinnerBookingCountInfo(user, q);
  }
}
