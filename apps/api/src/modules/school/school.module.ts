import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module';
import { SmsModule } from '../sms/sms.module';
import { OperatorSchoolsService } from './operator-schools.service';
import { OperatorSchoolsController, SchoolController, SchoolMerchantController } from './school.controller';
import { SchoolService } from './school.service';
import { ServiceReminders } from './service-reminders';

@Module({
  imports: [PaymentsModule, SmsModule],
  controllers: [SchoolController, OperatorSchoolsController, SchoolMerchantController],
  providers: [SchoolService, OperatorSchoolsService, ServiceReminders],
  exports: [ServiceReminders],
})
export class SchoolModule {}
