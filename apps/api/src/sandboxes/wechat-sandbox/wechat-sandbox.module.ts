import { Module } from '@nestjs/common';
import { WechatModule } from '../../modules/wechat/wechat.module';
import { WechatSandboxController } from './wechat-sandbox.controller';
import { WechatSandbox } from './wechat-sandbox.service';

/**
 * The local WeChat official account, loaded whenever no account is configured: outside production, and in a
 * production demo that asks for it (WECHAT_OA_SANDBOX=1, or WECHATPAY_SANDBOX=1). Never beside a real account.
 */
@Module({
  imports: [WechatModule],
  controllers: [WechatSandboxController],
  providers: [WechatSandbox],
  exports: [WechatSandbox],
})
export class WechatSandboxModule {}
