import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRegistry } from '../../../core/jobs/job-registry';
import { ServiceReminders } from '../service-reminders';

/** `school.remind`: the hourly run of the service-expiry reminders (worker, or the API without Redis). */
@Injectable()
export class SchoolProcessor implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly reminders: ServiceReminders,
  ) {}

  onModuleInit(): void {
    this.registry.register('school.remind', async ({ at }) => {
      await this.reminders.run(at ? new Date(at) : new Date());
    });
  }
}
