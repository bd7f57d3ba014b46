import { LiveRepository } from './live.repository';
import { Module } from '@nestjs/common';
import { FlowGateway } from './flow.gateway';
import { FlowHorizon } from './flow-horizon';
import { LiveAuth } from './live-auth';

/** The live daily flow over socket.io (design.md §2, §4): turns 'flow.committed' domain events into `flow.event` messages. */
@Module({
  providers: [LiveRepository, LiveAuth, FlowHorizon, FlowGateway],
})
export class LiveModule {}
