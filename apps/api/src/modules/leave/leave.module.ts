import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module';
import { FlowModule } from '../flow/flow.module';
import { LeaveController } from './leave.controller';
import { LeaveRepository } from './leave.repository';
import { LeaveService } from './leave.service';

/** Leave requests: parents ask, head teachers (or the admin) decide, approved days show as on leave. */
@Module({
  imports: [FlowModule, MessagesModule],
  controllers: [LeaveController],
  providers: [LeaveService, LeaveRepository],
})
export class LeaveModule {}
