import { forwardRef, Module } from '@nestjs/common';
import { FlowModule } from '../flow/flow.module';
import { MessagesModule } from '../messages/messages.module';
import { SmsModule } from '../sms/sms.module';
import { PickupController } from './pickup.controller';
import { PickupService } from './pickup.service';

/** Verified pick-up codes (issue 27). FlowModule and this one import each other: studentLiyuan with a code comes here. */
@Module({
  imports: [forwardRef(() => FlowModule), SmsModule, MessagesModule],
  controllers: [PickupController],
  providers: [PickupService],
  exports: [PickupService],
})
export class PickupModule {}
