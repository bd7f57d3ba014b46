import { Module } from '@nestjs/common';
import { CountsService } from './counts.service';
import { ExchangeService } from './exchange.service';
import { GoodsService } from './goods.service';
import { LedgerService } from './ledger.service';
import { PointsController } from './points.controller';
import { PointsGoodsRepository } from './points-goods.repository';
import { PointsOrdersRepository } from './points-orders.repository';
import { PointsRepository } from './points.repository';

/** Points (issue 12): balances from an append-only ledger, the shop's goods, exchanges and their orders, the counts. */
@Module({
  controllers: [PointsController],
  providers: [LedgerService, GoodsService, ExchangeService, CountsService, PointsRepository, PointsGoodsRepository, PointsOrdersRepository],
})
export class PointsModule {}
