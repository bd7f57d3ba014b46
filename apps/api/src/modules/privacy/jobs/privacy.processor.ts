import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRegistry } from '../../../core/jobs/job-registry';
import { ErasureService } from '../erasure.service';

/** `privacy.retention`: the hourly run of the retention (worker, or the API without Redis). */
@Injectable()
export class PrivacyProcessor implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly erasure: ErasureService,
  ) {}

  onModuleInit(): void {
    this.registry.register('privacy.retention', async ({ at }) => {
      await this.erasure.retention(at ? new Date(at) : new Date());
    });
  }
}
