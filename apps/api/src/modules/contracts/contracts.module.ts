import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module';
import { ContractLifecycleService } from './contract-lifecycle.service';
import { ContractPayments } from './contract-payments';
import { ContractsController } from './contracts.controller';
import { ContractsListRepository } from './contracts-list.repository';
import { ContractsPackagesRepository } from './contracts-packages.repository';
import { ContractsRepository } from './contracts.repository';
import { ContractsService } from './contracts.service';
import { PackagesService } from './packages.service';

/** After-school-care contracts (issue 11): packages, signing, payment, edits, renewal and cancellation with refund. */
@Module({
  imports: [PaymentsModule],
  controllers: [ContractsController],
  providers: [
    ContractsRepository,
    ContractsListRepository,
    ContractsPackagesRepository,
    PackagesService,
    ContractsService,
    ContractLifecycleService,
    ContractPayments,
  ],
  exports: [ContractsService],
})
export class ContractsModule {}
