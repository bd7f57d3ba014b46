import { Module } from '@nestjs/common';
import { PaymentsModule } from '../../modules/payments/payments.module';
import { WechatPaySandboxController } from './wechatpay-sandbox.controller';
import { WechatPaySandbox } from './wechatpay-sandbox.service';

/**
 * The local WeChat Pay sandbox, loaded whenever no merchant is configured: outside production, and in a production
 * demo that asks for it (WECHATPAY_SANDBOX=1). Never beside a real merchant configuration.
 */
@Module({
  imports: [PaymentsModule],
  controllers: [WechatPaySandboxController],
  providers: [WechatPaySandbox],
})
export class WechatPaySandboxModule {}
