import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRegistry } from '../../../core/jobs/job-registry';
import { StoreOrdersService } from '../orders.service';

/** `store.release`: an order still unpaid 30 minutes after it was placed is cancelled and its stock released. */
@Injectable()
export class StoreProcessor implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly orders: StoreOrdersService,
  ) {}

  onModuleInit(): void {
    this.registry.register('store.release', async ({ order_id }) => {
      await this.orders.release(order_id);
    });
  }
}
