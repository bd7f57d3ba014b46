import { Module } from '@nestjs/common';
import { AliyunFakeController } from './aliyun-fake.controller';
import { AliyunFake } from './aliyun-fake.service';
import { TencentFake, TencentFakeController } from './tencent-fake';

/**
 * The local fake SMS gateways (outside production): /api/dev/sms/aliyun and /api/dev/sms/tencent answer the SDKs as
 * the providers do (signatures, templates, their success and error shapes) and send delivery reports.
 */
@Module({
  controllers: [AliyunFakeController, TencentFakeController],
  providers: [AliyunFake, TencentFake],
  exports: [AliyunFake, TencentFake],
})
export class SmsFakesModule {}
