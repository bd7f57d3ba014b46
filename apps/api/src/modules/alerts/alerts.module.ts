import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module';
import { SmsModule } from '../sms/sms.module';
import { AlertsController } from './alerts.controller';
import { AlertsService } from './alerts.service';

@Module({
  imports: [SmsModule, MessagesModule],
  controllers: [AlertsController],
  providers: [AlertsService],
  exports: [AlertsService],
})
export class AlertsModule {}
