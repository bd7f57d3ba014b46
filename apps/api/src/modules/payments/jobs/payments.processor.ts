import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRegistry } from '../../../core/jobs/job-registry';
import { PaymentKinds } from '../payment-kinds';
import { PaymentsService } from '../payments.service';
import { ReconciliationService } from '../reconciliation/reconciliation.service';
import { RefundsService } from '../refunds.service';

/**
 * `payments.check`: provider payments still pending are asked at the provider, and closed past their time.
 * `payments.refund`: a refund the provider did not answer is asked for again (same out_refund_no).
 * `payments.surplus` (scheduled): surplus payments left paid without a refund are refunded (PaymentKinds.sweepSurplus).
 * `payments.refundQuery` (scheduled): unfinished provider refunds are asked about (RefundsService.pollDue).
 * `payments.tradebill` (scheduled, hourly): the previous day's trade bills reconciled (ReconciliationService.runDaily).
 */
@Injectable()
export class PaymentsProcessor implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly payments: PaymentsService,
    private readonly refunds: RefundsService,
    private readonly kinds: PaymentKinds,
    private readonly reconciliation: ReconciliationService,
  ) {}

  onModuleInit(): void {
    this.registry.register('payments.check', ({ out_trade_no }) => this.payments.check(out_trade_no));
    this.registry.register('payments.refund', ({ out_refund_no }) => this.refunds.redrive(out_refund_no));
    this.registry.register('payments.surplus', async () => {
      await this.kinds.sweepSurplus();
    });
    this.registry.register('payments.refundQuery', async () => {
      await this.refunds.pollDue();
    });
    this.registry.register('payments.tradebill', async ({ at }) => {
      await this.reconciliation.runDaily(at ? new Date(at) : new Date());
    });
  }
}
