import { Module } from '@nestjs/common';
import { DealPasswordService } from './deal-password.service';

/** The money core (design.md §5a): the ledger, the payment password and payments, used by every module that takes money. */
@Module({
  providers: [DealPasswordService],
  exports: [DealPasswordService],
})
export class PaymentsModule {}
