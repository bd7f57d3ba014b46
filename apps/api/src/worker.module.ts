import { Module } from '@nestjs/common';
import { WorkerHost } from './core/jobs/worker-host';
import { AlertsModule } from './modules/alerts/alerts.module';
import { AlertsProcessor } from './modules/alerts/jobs/alerts.processor';
import { ContractsModule } from './modules/contracts/contracts.module';
import { CoursewareModule } from './modules/courseware/courseware.module';
import { ContractsDaily } from './modules/contracts/jobs/contracts-daily';
import { ContractsProcessor } from './modules/contracts/jobs/contracts.processor';
import { MealsModule } from './modules/meals/meals.module';
import { SmsProcessor } from './modules/sms/jobs/sms.processor';
import { MessagesModule } from './modules/messages/messages.module';
import { MessagesProcessor } from './modules/messages/jobs/messages.processor';
import { SmsModule } from './modules/sms/sms.module';
import { PaymentsProcessor } from './modules/payments/jobs/payments.processor';
import { PaymentsModule } from './modules/payments/payments.module';
import { SchoolProcessor } from './modules/school/jobs/school.processor';
import { SchoolModule } from './modules/school/school.module';
import { StoreProcessor } from './modules/store/jobs/store.processor';
import { StoreModule } from './modules/store/store.module';
import { PrivacyModule } from './modules/privacy/privacy.module';
import { ConversationsModule } from './modules/conversations/conversations.module';
import { ConversationsProcessor } from './modules/conversations/jobs/conversations.processor';
import { PrivacyProcessor } from './modules/privacy/jobs/privacy.processor';
import { ReceiptsModule } from './modules/receipts/receipts.module';
import { ReceiptsProcessor } from './modules/receipts/jobs/receipts.processor';

/**
 * The job processors. Loaded by the worker process; also by the API when it runs without Redis
 * (jobs then run in-process) and by tests that want the real worker beside the API.
 */
@Module({
  // every module that takes money registers the settlers of its payment kinds (the worker marks payments paid too:
  // payments.check); SchoolModule also the reminders. worker.spec.ts checks the worker has every kind the API has.
  imports: [
    PrivacyModule,
    SmsModule,
    MessagesModule,
    AlertsModule,
    PaymentsModule,
    SchoolModule,
    StoreModule,
    ContractsModule,
    MealsModule,
    CoursewareModule,
    ReceiptsModule,
    ConversationsModule,
  ],
  providers: [
    SmsProcessor,
    MessagesProcessor,
    AlertsProcessor,
    PaymentsProcessor,
    SchoolProcessor,
    ContractsDaily,
    ContractsProcessor,
    StoreProcessor,
    PrivacyProcessor,
    ReceiptsProcessor,
    ConversationsProcessor,
    WorkerHost,
  ],
})
export class WorkerModule {}
