import { Module } from '@nestjs/common';
import { DevController } from './dev.controller';

/** Development and test tools (the SMS outbox). Never loaded in production. */
@Module({
  controllers: [DevController],
})
export class DevModule {}
