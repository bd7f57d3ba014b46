import { Module } from '@nestjs/common';
import { WorkerHost } from './core/jobs/worker-host';
import { SmsProcessor } from './modules/sms/jobs/sms.processor';
import { SmsModule } from './modules/sms/sms.module';

/**
 * The job processors. Loaded by the worker process; also by the API when it runs without Redis
 * (jobs then run in-process) and by tests that want the real worker beside the API.
 */
@Module({
  imports: [SmsModule],
  providers: [SmsProcessor, WorkerHost],
})
export class WorkerModule {}
