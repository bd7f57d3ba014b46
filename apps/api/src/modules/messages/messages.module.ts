import { Module } from '@nestjs/common';
import { SmsModule } from '../sms/sms.module';
import { WechatModule } from '../wechat/wechat.module';
import { FlowMessagesListener } from './flow-messages.listener';
import { GuardianMessages, MessagesClock } from './guardian-messages.service';
import { MessagesRepository } from './messages.repository';
import { WechatSender } from './wechat-sender.service';

/**
 * Telling guardians things (issue 24): GuardianMessages (the one way: WeChat first, SMS as the fallback, the quiet
 * hours for both), the WeChat sender of the `wechat.send` jobs, and the arrival/departure messages of the daily flow.
 * Staff are still texted through SmsTexts.
 */
@Module({
  imports: [SmsModule, WechatModule],
  providers: [MessagesRepository, GuardianMessages, MessagesClock, WechatSender, FlowMessagesListener],
  exports: [GuardianMessages, MessagesClock, WechatSender, FlowMessagesListener],
})
export class MessagesModule {}
