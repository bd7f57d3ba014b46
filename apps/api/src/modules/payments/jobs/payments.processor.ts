import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRegistry } from '../../../core/jobs/job-registry';
import { PaymentsService } from '../payments.service';
import { RefundsService } from '../refunds.service';

/**
 * `payments.check`: provider payments still pending are asked at the provider, and closed past their time.
 * `payments.refund`: a refund the provider did not answer is asked for again (same out_refund_no).
 */
@Injectable()
export class PaymentsProcessor implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly payments: PaymentsService,
    private readonly refunds: RefundsService,
  ) {}

  onModuleInit(): void {
    this.registry.register('payments.check', ({ out_trade_no }) => this.payments.check(out_trade_no));
    this.registry.register('payments.refund', ({ out_refund_no }) => this.refunds.redrive(out_refund_no));
  }
}
