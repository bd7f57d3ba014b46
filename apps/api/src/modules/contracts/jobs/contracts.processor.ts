import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRegistry } from '../../../core/jobs/job-registry';
import { ContractsDaily } from './contracts-daily';

/** `contracts.daily`: the hourly run of the contract renewals, reminders and expiries (worker, or the API without Redis). */
@Injectable()
export class ContractsProcessor implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly daily: ContractsDaily,
  ) {}

  onModuleInit(): void {
    this.registry.register('contracts.daily', async ({ at }) => {
      await this.daily.run(at ? new Date(at) : new Date());
    });
  }
}
