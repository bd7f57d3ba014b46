import { Module } from '@nestjs/common';
import { FlowReadService } from './flow-read.service';
import { FlowController } from './flow.controller';
import { FlowService } from './flow.service';

@Module({
  controllers: [FlowController],
  providers: [FlowService, FlowReadService],
  exports: [FlowService, FlowReadService],
})
export class FlowModule {}
