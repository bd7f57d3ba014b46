import { Controller, Res } from '@nestjs/common';
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
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { sendFile } from '../../core/http/send-file';
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

  @Action('GET', 'pointsStudents')
  students(@Input() q: PointsStudentsQuery, @SchoolUser() user: SchoolCaller) {
    return this.ledger.students(user, q);
  }

  @Action('POST', 'awardPoints')
  award(@Input() input: AwardPointsInput, @SchoolUser() user: SchoolCaller) {
    return this.ledger.award(user, input);
  }

  @Action('GET', 'studentPoints')
  history(@Input() q: StudentPointsQuery, @SchoolUser() user: SchoolCaller) {
    return this.ledger.history(user, q);
  }

  @Action('GET', 'scoreGoodsList')
  goodsList(@Input() q: ScoreGoodsListQuery, @SchoolUser() user: SchoolCaller) {
    return this.goods.list(user, q);
  }

  @Action('GET', 'scoreGoodsInfo')
  goodsInfo(@Input() q: ScoreGoodsIdQuery, @SchoolUser() user: SchoolCaller) {
    return this.goods.info(user, q.id);
  }

  @Action('GET', 'pointsShop')
  shop(@Input() q: PointsShopQuery, @SchoolUser() user: SchoolCaller) {
    return this.goods.shop(user, q);
  }

  @Action('POST', 'addScoreGoods')
  addGoods(@Input() input: AddScoreGoodsInput, @SchoolUser() user: SchoolCaller) {
    return this.goods.add(user, input);
  }

  @Action('POST', 'editScoreGoods')
  editGoods(@Input() input: EditScoreGoodsInput, @SchoolUser() user: SchoolCaller) {
    return this.goods.edit(user, input);
  }

  @Action('POST', 'editScoreGoodsPrice')
  editPrice(@Input() input: EditScoreGoodsPriceInput, @SchoolUser() user: SchoolCaller) {
    return this.goods.editPrice(user, input);
  }

  @Action('POST', 'addScoreGoodsStock')
  addStock(@Input() input: AddScoreGoodsStockInput, @SchoolUser() user: SchoolCaller) {
    return this.goods.addStock(user, input);
  }

  @Action('POST', 'unmountScoreGoods')
  setListed(@Input() input: UnmountScoreGoodsInput, @SchoolUser() user: SchoolCaller) {
    return this.goods.setListed(user, input);
  }

  @Action('POST', 'delScoreGoods')
  delGoods(@Input() input: DelScoreGoodsInput, @SchoolUser() user: SchoolCaller) {
    return this.goods.remove(user, input);
  }

  @Action('POST', 'exchangeScoreGoods')
  exchange(@Input() input: ExchangeScoreGoodsInput, @SchoolUser() user: SchoolCaller) {
    return this.exchanges.exchange(user, input);
  }

  @Action('GET', 'scoreOrderList')
  orders(@Input() q: ScoreOrderListQuery, @SchoolUser() user: SchoolCaller) {
    return this.exchanges.list(user, q);
  }

  @Action('POST', 'handOverScoreOrder')
  handOver(@Input() input: HandOverScoreOrderInput, @SchoolUser() user: SchoolCaller) {
    return this.exchanges.handOver(user, input);
  }

  @Action('POST', 'cancelScoreOrder')
  cancel(@Input() input: CancelScoreOrderInput, @SchoolUser() user: SchoolCaller) {
    return this.exchanges.cancel(user, input);
  }

  @Action('GET', 'scoreOrderCount')
  count(@Input() q: ScoreOrderCountQuery, @SchoolUser() user: SchoolCaller) {
    return this.counts.count(user, q);
  }

  @Action('GET', 'classScoreCount')
  classCount(@Input() q: ScoreOrderCountQuery, @SchoolUser() user: SchoolCaller) {
    return this.counts.count(user, q);
  }

  @Action('GET', 'scoreOrderCountExport')
  async export(@Input() q: ScoreOrderCountQuery, @SchoolUser() user: SchoolCaller, @Res() res: Response) {
    sendFile(res, await this.counts.export(user, q));
  }
}
