import { Controller, Get, Post } from '@nestjs/common';
import {
  AddClassTimeInput,
  AddStudentClassTimeInput,
  ClassScheduleQuery,
  ClassTimeListQuery,
  DelClassTimeInput,
  EditClassTimeInput,
  SaveTeacherScheduleInput,
  SelectClassTimeQuery,
  WeekQuery,
} from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { ScheduleService } from './schedule.service';
import { TimetableService } from './timetable.service';

/** Time slots of the school (class_times) and students' individual slots; the timetables of classes, the school and teachers. */
@Controller('api/index')
export class TimetableController {
  constructor(
    private readonly timetable: TimetableService,
    private readonly schedules: ScheduleService,
  ) {}

  @Get('classTimeList')
  list(@Input(ClassTimeListQuery) q: ClassTimeListQuery, @CurrentUser() user: SessionUser) {
    return this.timetable.list(user, q);
  }

  @Get('selectClassTime')
  select(@Input(SelectClassTimeQuery) q: SelectClassTimeQuery, @CurrentUser() user: SessionUser) {
    return this.timetable.select(user, q);
  }

  @Post('addClassTime')
  add(@Input(AddClassTimeInput) input: AddClassTimeInput, @CurrentUser() user: SessionUser) {
    return this.timetable.add(user, input);
  }

  @Post('editClassTime')
  edit(@Input(EditClassTimeInput) input: EditClassTimeInput, @CurrentUser() user: SessionUser) {
    return this.timetable.edit(user, input);
  }

  @Post('delClassTime')
  del(@Input(DelClassTimeInput) input: DelClassTimeInput, @CurrentUser() user: SessionUser) {
    return this.timetable.del(user, input);
  }

  @Post('addStudentClassTime')
  setStudentSlots(@Input(AddStudentClassTimeInput) input: AddStudentClassTimeInput, @CurrentUser() user: SessionUser) {
    return this.timetable.setStudentSlots(user, input);
  }

  @Get('classSchedule')
  classSchedule(@Input(ClassScheduleQuery) q: ClassScheduleQuery, @CurrentUser() user: SessionUser) {
    return this.schedules.classSchedule(user, q);
  }

  @Get('schoolTeachingSchedule')
  schoolTeachingSchedule(@Input(WeekQuery) q: WeekQuery, @CurrentUser() user: SessionUser) {
    return this.schedules.schoolTeachingSchedule(user, q);
  }

  @Get('teacherSchedule')
  teacherSchedule(@Input(WeekQuery) q: WeekQuery, @CurrentUser() user: SessionUser) {
    return this.schedules.teacherSchedule(user, q);
  }

  @Post('teacherSchedule')
  saveTeacherSchedule(@Input(SaveTeacherScheduleInput) input: SaveTeacherScheduleInput, @CurrentUser() user: SessionUser) {
    return this.schedules.saveTeacherSchedule(user, input);
  }
}
