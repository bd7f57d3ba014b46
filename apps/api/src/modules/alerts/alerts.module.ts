import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module';
import { SmsModule } from '../sms/sms.module';
import { AlertsController } from './alerts.controller';
import { AlertsListener } from './alerts.listener';
import { AlertsRepository } from './alerts.repository';
import { AlertsService } from './alerts.service';

@Module({
  imports: [SmsModule, MessagesModule],
  controllers: [AlertsController],
  providers: [AlertsRepository, AlertsService, AlertsListener],
  exports: [AlertsService],
})
export class AlertsModule {}
