import { forwardRef, Module } from '@nestjs/common';
import { PickupModule } from '../pickup/pickup.module';
import { FlowReadRepository } from './flow-read.repository';
import { FlowReadService } from './flow-read.service';
import { FlowController } from './flow.controller';
import { FlowService } from './flow.service';

@Module({
  imports: [forwardRef(() => PickupModule)],
  controllers: [FlowController],
  providers: [FlowReadRepository, FlowService, FlowReadService],
  exports: [FlowService, FlowReadService],
})
export class FlowModule {}
