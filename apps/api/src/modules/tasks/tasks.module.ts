import { Module } from '@nestjs/common';
import { ClockService } from './clock.service';
import { TasksController } from './tasks.controller';
import { TasksService } from './tasks.service';

/** The teachers' task lists of the day (read from the daily-flow projection) and staff clock-in. */
@Module({
  controllers: [TasksController],
  providers: [TasksService, ClockService],
})
export class TasksModule {}
