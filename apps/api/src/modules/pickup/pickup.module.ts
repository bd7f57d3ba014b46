import { Module } from '@nestjs/common';
import { FlowModule } from '../flow/flow.module';
import { SmsModule } from '../sms/sms.module';
import { PickupController } from './pickup.controller';
import { PickupKeysRepository } from './pickup-keys.repository';
import { PickupRepository } from './pickup.repository';
import { PickupService } from './pickup.service';

/**
 * Verified pick-up codes (issue 27). It depends on the flow, never the other way: studentLiyuan with a code reaches it
 * through the flow's FlowDepartures (registered at start), and an unauthorised attempt reaches the alerts module as
 * the 'pickup.unauthorised' domain event.
 */
@Module({
  imports: [FlowModule, SmsModule],
  controllers: [PickupController],
  providers: [PickupService, PickupRepository, PickupKeysRepository],
  exports: [PickupService],
})
export class PickupModule {}
