import { Module } from '@nestjs/common';
import { WorkerHost } from './core/jobs/worker-host';
import { AlertsModule } from './modules/alerts/alerts.module';
import { AlertsProcessor } from './modules/alerts/jobs/alerts.processor';
import { ContractsDaily } from './modules/contracts/jobs/contracts-daily';
import { ContractsProcessor } from './modules/contracts/jobs/contracts.processor';
import { SmsProcessor } from './modules/sms/jobs/sms.processor';
import { SmsModule } from './modules/sms/sms.module';
import { PaymentsProcessor } from './modules/payments/jobs/payments.processor';
import { PaymentsModule } from './modules/payments/payments.module';
import { SchoolProcessor } from './modules/school/jobs/school.processor';
import { SchoolModule } from './modules/school/school.module';

/**
 * The job processors. Loaded by the worker process; also by the API when it runs without Redis
 * (jobs then run in-process) and by tests that want the real worker beside the API.
 */
@Module({
  // SchoolModule registers the settlers of its payment kinds (the worker marks payments paid too) and the reminders
  imports: [SmsModule, AlertsModule, PaymentsModule, SchoolModule],
  providers: [SmsProcessor, AlertsProcessor, PaymentsProcessor, SchoolProcessor, ContractsDaily, ContractsProcessor, WorkerHost],
})
export class WorkerModule {}
