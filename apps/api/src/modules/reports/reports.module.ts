import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module';
import { ReportsController } from './reports.controller';
import { ReportsListener } from './reports.listener';
import { ReportsRepository } from './reports.repository';
import { ReportsService } from './reports.service';

/** The child's daily report (issue 27 item 2): the projection daily_reports, the teacher's comment, the report's message at departure. */
@Module({
  imports: [MessagesModule],
  controllers: [ReportsController],
  providers: [ReportsRepository, ReportsService, ReportsListener],
  exports: [ReportsListener],
})
export class ReportsModule {}
