import { Module } from '@nestjs/common';
import { ScheduleService } from './schedule.service';
import { TimetableController } from './timetable.controller';
import { TimetableService } from './timetable.service';

@Module({
  controllers: [TimetableController],
  providers: [TimetableService, ScheduleService],
})
export class TimetableModule {}
