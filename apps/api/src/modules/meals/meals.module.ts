import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module';
import { MealBookingsService } from './bookings.service';
import { MealCounts } from './counts.service';
import { MealBookingsRepository } from './meals-bookings.repository';
import { MealCountsRepository } from './meals-counts.repository';
import { MealEventsRepository } from './meals-events.repository';
import { MealGoodsRepository } from './meals-goods.repository';
import { MealGoodsService } from './goods.service';
import { MealPayments } from './meal-payments';
import { MealsController } from './meals.controller';
import { MealsListener } from './meals-listener';

/**
 * Meals (issue 12): items with their price history, the school's cutoff, dinner bookings (contract, WeChat Pay or the
 * school), the leave cascade and the flow's dinner step through domain events, lists, counts and the live kitchen count.
 */
@Module({
  imports: [PaymentsModule],
  controllers: [MealsController],
  providers: [
    MealGoodsService,
    MealBookingsService,
    MealCounts,
    MealPayments,
    MealsListener,
    MealGoodsRepository,
    MealBookingsRepository,
    MealCountsRepository,
    MealEventsRepository,
  ],
})
export class MealsModule {}
