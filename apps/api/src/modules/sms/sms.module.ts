import { Module } from '@nestjs/common';
import { SmsCodeService } from './sms-code.service';
import { OutboxSmsProvider, SmsProvider } from './sms-provider';

/** SMS codes (API side: issue and check) and the provider the worker delivers through. */
@Module({
  providers: [SmsCodeService, { provide: SmsProvider, useClass: OutboxSmsProvider }],
  exports: [SmsCodeService, SmsProvider],
})
export class SmsModule {}
