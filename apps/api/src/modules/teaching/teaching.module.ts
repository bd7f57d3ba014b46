import { Module } from '@nestjs/common';
import { SchoolCalendarService } from './calendar.service';
import { TeachingClassesService } from './classes.service';
import { HolidaysService } from './holidays.service';
import { RollCallService } from './roll-call.service';
import { TeachingSessionsService } from './sessions.service';
import { TeachingController } from './teaching.controller';

/**
 * Teaching (extension) classes (issue 13): classes and members, sessions generated from a weekly pattern with the
 * school calendar and refused on clashes, moves, cancellations, roll call; the rooms and the school calendar.
 */
@Module({
  controllers: [TeachingController],
  providers: [TeachingClassesService, TeachingSessionsService, SchoolCalendarService, RollCallService, HolidaysService],
  exports: [TeachingSessionsService],
})
export class TeachingModule {}
