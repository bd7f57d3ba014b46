import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRegistry } from '../../../core/jobs/job-registry';
import { GuardianMessages } from '../guardian-messages.service';
import { WechatSender } from '../wechat-sender.service';

/**
 * Guardians' messages on the sms queue: `wechat.send` hands WeChat template messages to the official account,
 * `wechat.poll` sends those whose job was lost, `messages.send` writes the texts the quiet hours held.
 */
@Injectable()
export class MessagesProcessor implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly sender: WechatSender,
    private readonly messages: GuardianMessages,
  ) {}

  onModuleInit(): void {
    this.registry.register('wechat.send', ({ ids }) => this.sender.send(ids));
    this.registry.register('wechat.poll', async () => {
      await this.sender.poll();
    });
    this.registry.register('messages.send', async ({ items }) => {
      await this.messages.send(items);
    });
  }
}
