import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module';
import { ConversationsClock } from './conversations-clock';
import { ConversationsController } from './conversations.controller';
import { ConversationsRepository } from './conversations.repository';
import { ConversationsService } from './conversations.service';
import { ConversationNotices } from './notices.service';

/**
 * Family conversations (issue 40, docs/modules/conversations.md): one per child between its guardians and the school,
 * the staff's office hours, and the notices to guardians who did not read a school message (`conversations.notify`).
 */
@Module({
  imports: [MessagesModule],
  controllers: [ConversationsController],
  providers: [ConversationsService, ConversationsClock, ConversationNotices, ConversationsRepository],
  exports: [ConversationsClock, ConversationNotices],
})
export class ConversationsModule {}
