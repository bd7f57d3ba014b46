import { Module } from '@nestjs/common';
import { FlowDepartures } from './flow-departures';
import { FlowCommandRepository } from './flow-command.repository';
import { FlowReadRepository } from './flow-read.repository';
import { FlowReadService } from './flow-read.service';
import { FlowController } from './flow.controller';
import { FlowService } from './flow.service';

@Module({
  controllers: [FlowController],
  providers: [FlowReadRepository, FlowCommandRepository, FlowService, FlowReadService, FlowDepartures],
  exports: [FlowService, FlowReadService, FlowDepartures],
})
export class FlowModule {}
