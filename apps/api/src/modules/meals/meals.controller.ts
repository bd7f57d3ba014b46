import { Controller, Get, Post, Res } from '@nestjs/common';
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
  EmptyInput,
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
import { CurrentUser } from '../../core/auth/current-user.decorator';
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

  @Get('mealGoodsList')
  goodsList(@Input(MealGoodsListQuery) q: MealGoodsListQuery, @CurrentUser() user: SessionUser) {
    return this.goods.list(user, q);
  }

  @Post('addMealGoods')
  addGoods(@Input(AddMealGoodsInput) input: AddMealGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.add(user, input);
  }

  @Post('editMealGoods')
  editGoods(@Input(EditMealGoodsInput) input: EditMealGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.edit(user, input);
  }

  @Post('editMealGoodsPrice')
  editGoodsPrice(@Input(EditMealGoodsPriceInput) input: EditMealGoodsPriceInput, @CurrentUser() user: SessionUser) {
    return this.goods.editPrice(user, input);
  }

  @Get('mealGoodsPrices')
  goodsPrices(@Input(MealGoodsIdQuery) q: MealGoodsIdQuery, @CurrentUser() user: SessionUser) {
    return this.goods.prices(user, q.id);
  }

  @Post('operateMealGoods')
  operateGoods(@Input(OperateMealGoodsInput) input: OperateMealGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.operate(user, input);
  }

  @Post('delMealGoods')
  delGoods(@Input(DelMealGoodsInput) input: DelMealGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.del(user, input);
  }

  @Get('mealSettings')
  settings(@Input(EmptyInput) _: unknown, @CurrentUser() user: SessionUser) {
    return this.goods.settings(user);
  }

  @Post('setMealSettings')
  setSettings(@Input(SetMealSettingsInput) input: SetMealSettingsInput, @CurrentUser() user: SessionUser) {
    return this.goods.setSettings(user, input);
  }

  @Post('bookDinner')
  book(@Input(BookDinnerInput) input: BookDinnerInput, @CurrentUser() user: SessionUser) {
    return this.bookings.book(user, input);
  }

  @Post('cancelDinner')
  cancel(@Input(CancelDinnerInput) input: CancelDinnerInput, @CurrentUser() user: SessionUser) {
    return this.bookings.cancel(user, input);
  }

  @Post('wechatPayDinner')
  wechatPay(@Input(WechatPayDinnerInput) input: WechatPayDinnerInput, @CurrentUser() user: SessionUser) {
    return this.payments.wechatPay(user, input);
  }

  @Get('parentMeals')
  parentMeals(@Input(ParentMealsQuery) q: ParentMealsQuery, @CurrentUser() user: SessionUser) {
    return this.bookings.parentMeals(user, q);
  }

  @Get('dinnerOrderList')
  dinnerOrderList(@Input(DinnerOrderListQuery) q: DinnerOrderListQuery, @CurrentUser() user: SessionUser) {
    return this.counts.dinnerOrderList(user, q);
  }

  @Get('schoolDinnerOrderList')
  schoolDinnerOrderList(@Input(SchoolDinnerOrderListQuery) q: SchoolDinnerOrderListQuery, @CurrentUser() user: SessionUser) {
    return this.counts.schoolDinnerOrderList(user, q);
  }

  @Get('schoolDinnerOrderExport')
  async schoolDinnerOrderExport(
    @Input(SchoolDinnerOrderExportQuery) q: SchoolDinnerOrderExportQuery,
    @CurrentUser() user: SessionUser,
    @Res() res: Response,
  ) {
    sendFile(res, await this.counts.schoolDinnerOrderExport(user, q));
  }

  @Get('orderMealCount')
  orderMealCount(@Input(OrderMealCountQuery) q: OrderMealCountQuery, @CurrentUser() user: SessionUser) {
    return this.counts.orderMealCount(user, q);
  }

  @Get('classMealCount')
  classMealCount(@Input(OrderMealCountQuery) q: OrderMealCountQuery, @CurrentUser() user: SessionUser) {
    return this.counts.classMealCount(user, q);
  }

  @Get('orderMealCountExport')
  async orderMealCountExport(@Input(OrderMealCountQuery) q: OrderMealCountQuery, @CurrentUser() user: SessionUser, @Res() res: Response) {
    sendFile(res, await this.counts.orderMealCountExport(user, q));
  }

  @Get('dinnerBookingCount')
  dinnerBookingCount(@Input(DinnerBookingCountQuery) q: DinnerBookingCountQuery, @CurrentUser() user: SessionUser) {
    return this.counts.dinnerBookingCount(user, q);
  }

  @Get('dinnerBookingCountInfo')
  dinnerBookingCountInfo(@Input(DinnerBookingCountInfoQuery) q: DinnerBookingCountInfoQuery, @CurrentUser() user: SessionUser) {
    return this.counts.dinnerBookingCountInfo(user, q);
  }
}
