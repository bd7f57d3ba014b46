import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module';
import { StoreAddressesService } from './addresses.service';
import { StoreGoodsService } from './goods.service';
import { StoreOrdersService } from './orders.service';
import { StoreController } from './store.controller';
import { StorePayments } from './store-payments';
import { StoreClock } from './store-sql';
import { StoreAddressesRepository } from './store-addresses.repository';
import { StoreGoodsRepository } from './store-goods.repository';
import { StoreOrdersRepository } from './store-orders.repository';

/**
 * The online mall (issue 15): the operator's goods with stock moves, schools' addresses, orders with stock reserved
 * atomically and released after 30 minutes unpaid (`store.release`), paid from the balance or by WeChat Pay (payment kind
 * `goods_order`), shipped by the operator, received by the school; a paid order cancelled is refunded.
 */
@Module({
  imports: [PaymentsModule],
  controllers: [StoreController],
  providers: [
    StoreClock,
    StoreGoodsService,
    StoreAddressesService,
    StoreOrdersService,
    StorePayments,
    StoreGoodsRepository,
    StoreAddressesRepository,
    StoreOrdersRepository,
  ],
  exports: [StoreOrdersService, StorePayments],
})
export class StoreModule {}
