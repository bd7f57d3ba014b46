import { Module } from '@nestjs/common';
import { SmsConsole } from './console.service';
import { SmsDelivery } from './delivery.service';
import { SmsGateways } from './gateways/gateways';
import { OutboxPhone } from './gateways/outbox-phone';
import { SmsReportController } from './report.controller';
import { SmsController } from './sms.controller';
import { SmsReports } from './reports.service';
import { SmsCodeService } from './sms-code.service';
import { SmsCodesRepository } from './sms-codes.repository';
import { SmsConsoleRepository } from './sms-console.repository';
import { SmsRepository } from './sms.repository';
import { SmsTexts } from './texts.service';

/**
 * Text messages: sign-in codes (issue and check), SmsTexts (the one way any module sends a text), the gateways
 * (Aliyun, Tencent, the outbox), delivery with retries and fallback (the worker's `sms` queue) and receipts.
 */
@Module({
  controllers: [SmsReportController, SmsController],
  providers: [
    SmsRepository,
    SmsCodesRepository,
    SmsConsoleRepository,
    SmsCodeService,
    OutboxPhone,
    SmsGateways,
    SmsTexts,
    SmsDelivery,
    SmsReports,
    SmsConsole,
  ],
  exports: [SmsCodeService, OutboxPhone, SmsGateways, SmsTexts, SmsDelivery, SmsReports],
})
export class SmsModule {}
