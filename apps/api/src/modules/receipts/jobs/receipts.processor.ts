import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRegistry } from '../../../core/jobs/job-registry';
import { ReceiptsService } from '../receipts.service';

/** `receipts.sweep`: every few minutes, the receipts the after-commit listeners missed (worker, or the API without Redis). */
@Injectable()
export class ReceiptsProcessor implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly receipts: ReceiptsService,
  ) {}

  onModuleInit(): void {
    this.registry.register('receipts.sweep', async () => {
      await this.receipts.sweep();
    });
  }
}
