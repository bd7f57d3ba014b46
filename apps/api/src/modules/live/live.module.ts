import { Module } from '@nestjs/common';
import { FlowGateway } from './flow.gateway';
import { LiveAuth } from './live-auth';

/** The live daily flow over socket.io (design.md §2, §4): turns 'flow.committed' domain events into `flow.event` messages. */
@Module({
  providers: [LiveAuth, FlowGateway],
})
export class LiveModule {}
