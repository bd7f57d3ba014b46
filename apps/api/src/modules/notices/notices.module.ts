import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module';
import { InboxService } from './inbox.service';
import { NoticeClock } from './notices-sql';
import { NoticesController } from './notices.controller';
import { NoticesRepository } from './notices.repository';
import { PublishService } from './publish.service';
import { RemindService } from './remind.service';

/** Notices (issue 14): publishing with receipts and messages (guardians: GuardianMessages; staff: texts), the lists, receipts, reminders. */
@Module({
  imports: [MessagesModule],
  controllers: [NoticesController],
  providers: [NoticesRepository, PublishService, InboxService, RemindService, NoticeClock],
})
export class NoticesModule {}
