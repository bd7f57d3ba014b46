import { Module } from '@nestjs/common';
import { ContractUsageService } from './usage.service';

/**
 * The consumption of day/session contracts by attendance (issue 11, item 3): the contract_usage projection kept by
 * the flow's 'flow.committed' domain event (API process only: the flow's commands run there), rebuilt by
 * `contracts:rebuild`.
 */
@Module({ providers: [ContractUsageService], exports: [ContractUsageService] })
export class ContractUsageModule {}
