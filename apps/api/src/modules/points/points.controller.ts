import { Controller, Get, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  AddScoreGoodsInput,
  AddScoreGoodsStockInput,
  AwardPointsInput,
  CancelScoreOrderInput,
  DelScoreGoodsInput,
  EditScoreGoodsInput,
  EditScoreGoodsPriceInput,
  ExchangeScoreGoodsInput,
  HandOverScoreOrderInput,
  PointsShopQuery,
  PointsStudentsQuery,
  ScoreGoodsIdQuery,
  ScoreGoodsListQuery,
  ScoreOrderCountQuery,
  ScoreOrderListQuery,
  StudentPointsQuery,
  UnmountScoreGoodsInput,
} from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Input } from '../../core/http/input.decorator';
import { sendFile } from '../../core/http/send-file';
import type { SessionUser } from '../../core/http/request-context';
import { CountsService } from './counts.service';
import { ExchangeService } from './exchange.service';
import { GoodsService } from './goods.service';
import { LedgerService } from './ledger.service';

/** Points: the ledger, the shop's goods, exchanges and their orders, the data centre's numbers (module `points`, issue 12). */
@Controller('api/index')
export class PointsController {
  constructor(
    private readonly ledger: LedgerService,
    private readonly goods: GoodsService,
    private readonly exchanges: ExchangeService,
    private readonly counts: CountsService,
  ) {}

  @Get('pointsStudents')
  students(@Input(PointsStudentsQuery) q: PointsStudentsQuery, @CurrentUser() user: SessionUser) {
    return this.ledger.students(user, q);
  }

  @Post('awardPoints')
  award(@Input(AwardPointsInput) input: AwardPointsInput, @CurrentUser() user: SessionUser) {
    return this.ledger.award(user, input);
  }

  @Get('studentPoints')
  history(@Input(StudentPointsQuery) q: StudentPointsQuery, @CurrentUser() user: SessionUser) {
    return this.ledger.history(user, q);
  }

  @Get('scoreGoodsList')
  goodsList(@Input(ScoreGoodsListQuery) q: ScoreGoodsListQuery, @CurrentUser() user: SessionUser) {
    return this.goods.list(user, q);
  }

  @Get('scoreGoodsInfo')
  goodsInfo(@Input(ScoreGoodsIdQuery) q: ScoreGoodsIdQuery, @CurrentUser() user: SessionUser) {
    return this.goods.info(user, q.id);
  }

  @Get('pointsShop')
  shop(@Input(PointsShopQuery) q: PointsShopQuery, @CurrentUser() user: SessionUser) {
    return this.goods.shop(user, q);
  }

  @Post('addScoreGoods')
  addGoods(@Input(AddScoreGoodsInput) input: AddScoreGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.add(user, input);
  }

  @Post('editScoreGoods')
  editGoods(@Input(EditScoreGoodsInput) input: EditScoreGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.edit(user, input);
  }

  @Post('editScoreGoodsPrice')
  editPrice(@Input(EditScoreGoodsPriceInput) input: EditScoreGoodsPriceInput, @CurrentUser() user: SessionUser) {
    return this.goods.editPrice(user, input);
  }

  @Post('addScoreGoodsStock')
  addStock(@Input(AddScoreGoodsStockInput) input: AddScoreGoodsStockInput, @CurrentUser() user: SessionUser) {
    return this.goods.addStock(user, input);
  }

  @Post('unmountScoreGoods')
  setListed(@Input(UnmountScoreGoodsInput) input: UnmountScoreGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.setListed(user, input);
  }

  @Post('delScoreGoods')
  delGoods(@Input(DelScoreGoodsInput) input: DelScoreGoodsInput, @CurrentUser() user: SessionUser) {
    return this.goods.remove(user, input);
  }

  @Post('exchangeScoreGoods')
  exchange(@Input(ExchangeScoreGoodsInput) input: ExchangeScoreGoodsInput, @CurrentUser() user: SessionUser) {
    return this.exchanges.exchange(user, input);
  }

  @Get('scoreOrderList')
  orders(@Input(ScoreOrderListQuery) q: ScoreOrderListQuery, @CurrentUser() user: SessionUser) {
    return this.exchanges.list(user, q);
  }

  @Post('handOverScoreOrder')
  handOver(@Input(HandOverScoreOrderInput) input: HandOverScoreOrderInput, @CurrentUser() user: SessionUser) {
    return this.exchanges.handOver(user, input);
  }

  @Post('cancelScoreOrder')
  cancel(@Input(CancelScoreOrderInput) input: CancelScoreOrderInput, @CurrentUser() user: SessionUser) {
    return this.exchanges.cancel(user, input);
  }

  @Get('scoreOrderCount')
  count(@Input(ScoreOrderCountQuery) q: ScoreOrderCountQuery, @CurrentUser() user: SessionUser) {
    return this.counts.count(user, q);
  }

  @Get('classScoreCount')
  classCount(@Input(ScoreOrderCountQuery) q: ScoreOrderCountQuery, @CurrentUser() user: SessionUser) {
    return this.counts.count(user, q);
  }

  @Get('scoreOrderCountExport')
  async export(@Input(ScoreOrderCountQuery) q: ScoreOrderCountQuery, @CurrentUser() user: SessionUser, @Res() res: Response) {
    sendFile(res, await this.counts.export(user, q));
  }
}
