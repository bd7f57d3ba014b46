import { Module } from '@nestjs/common';
import { SiteModule } from '../site/site.module';
import { ReceiptsController } from './receipts.controller';
import { ReceiptsService } from './receipts.service';

/**
 * Receipts (收据, issue 40, docs/modules/receipts.md): issued after the commits of contracts' and dinners' payments and
 * refunds (in the API and in the worker: either may mark a payment paid), and by the `receipts.sweep` job.
 */
@Module({
  imports: [SiteModule],
  controllers: [ReceiptsController],
  providers: [ReceiptsService],
  exports: [ReceiptsService],
})
export class ReceiptsModule {}
