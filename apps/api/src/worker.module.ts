import { Module } from '@nestjs/common';
import { WorkerHost } from './core/jobs/worker-host';
import { AlertsModule } from './modules/alerts/alerts.module';
import { AlertsProcessor } from './modules/alerts/jobs/alerts.processor';
import { SmsProcessor } from './modules/sms/jobs/sms.processor';
import { SmsModule } from './modules/sms/sms.module';

/**
 * The job processors. Loaded by the worker process; also by the API when it runs without Redis
 * (jobs then run in-process) and by tests that want the real worker beside the API.
 */
@Module({
  imports: [SmsModule, AlertsModule],
  providers: [SmsProcessor, AlertsProcessor, WorkerHost],
})
export class WorkerModule {}
