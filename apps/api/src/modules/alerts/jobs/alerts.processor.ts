import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRegistry } from '../../../core/jobs/job-registry';
import { AlertsService } from '../alerts.service';

/** Runs the every-minute alert scan (worker, or the API without Redis). */
@Injectable()
export class AlertsProcessor implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly alerts: AlertsService,
  ) {}

  onModuleInit(): void {
    this.registry.register('alerts.scan', async ({ at }) => {
      await this.alerts.scan(at ? new Date(at) : new Date());
    });
  }
}
