import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRegistry } from '../../../core/jobs/job-registry';
import { PaymentsService } from '../payments.service';

/** `payments.check`: provider payments still pending are asked at the provider, and closed past their time. */
@Injectable()
export class PaymentsProcessor implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly payments: PaymentsService,
  ) {}

  onModuleInit(): void {
    this.registry.register('payments.check', ({ out_trade_no }) => this.payments.check(out_trade_no));
  }
}
