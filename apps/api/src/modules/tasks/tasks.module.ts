import { Module } from '@nestjs/common';
import { ClockService } from './clock.service';
import { TasksClockRepository } from './tasks-clock.repository';
import { TasksController } from './tasks.controller';
import { TasksRepository } from './tasks.repository';
import { TasksService } from './tasks.service';

/** The teachers' task lists of the day (read from the daily-flow projection) and staff clock-in. */
@Module({
  controllers: [TasksController],
  providers: [TasksService, ClockService, TasksRepository, TasksClockRepository],
})
export class TasksModule {}
