import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRegistry } from '../../../core/jobs/job-registry';
import { ConversationNotices } from '../notices.service';

/** `conversations.notify`: the notices' sweep every 30 s (worker, or the API without Redis). */
@Injectable()
export class ConversationsProcessor implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly notices: ConversationNotices,
  ) {}

  onModuleInit(): void {
    this.registry.register('conversations.notify', async ({ at }) => {
      await this.notices.sweep(at ? new Date(at) : undefined);
    });
  }
}
