import { Module } from '@nestjs/common';
import { SmsModule } from '../modules/sms/sms.module';
import { DevController } from './dev.controller';
import { SmsFakesModule } from './sms-fake/sms-fakes.module';

/** Development and test tools (the SMS outbox, reading the codes from the outbox's phone and the fake gateways). Never loaded in production. */
@Module({
  imports: [SmsModule, SmsFakesModule],
  controllers: [DevController],
})
export class DevModule {}
