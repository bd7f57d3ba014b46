import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module';
import { SmsModule } from '../sms/sms.module';
import { SchoolController } from './school.controller';
import { SchoolService } from './school.service';

@Module({
  imports: [PaymentsModule, SmsModule],
  controllers: [SchoolController],
  providers: [SchoolService],
})
export class SchoolModule {}
