import { Controller } from '@nestjs/common';
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
import { Action } from '../../core/http/action.decorator';
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

  @Action('GET', 'classTimeList')
  list(@Input() q: ClassTimeListQuery, @CurrentUser() user: SessionUser) {
    return this.timetable.list(user, q);
  }

  @Action('GET', 'selectClassTime')
  select(@Input() q: SelectClassTimeQuery, @CurrentUser() user: SessionUser) {
    return this.timetable.select(user, q);
  }

  @Action('POST', 'addClassTime')
  add(@Input() input: AddClassTimeInput, @CurrentUser() user: SessionUser) {
    return this.timetable.add(user, input);
  }

  @Action('POST', 'editClassTime')
  edit(@Input() input: EditClassTimeInput, @CurrentUser() user: SessionUser) {
    return this.timetable.edit(user, input);
  }

  @Action('POST', 'delClassTime')
  del(@Input() input: DelClassTimeInput, @CurrentUser() user: SessionUser) {
    return this.timetable.del(user, input);
  }

  @Action('POST', 'addStudentClassTime')
  setStudentSlots(@Input() input: AddStudentClassTimeInput, @CurrentUser() user: SessionUser) {
    return this.timetable.setStudentSlots(user, input);
  }

  @Action('GET', 'classSchedule')
  classSchedule(@Input() q: ClassScheduleQuery, @CurrentUser() user: SessionUser) {
    return this.schedules.classSchedule(user, q);
  }

  @Action('GET', 'schoolTeachingSchedule')
  schoolTeachingSchedule(@Input() q: WeekQuery, @CurrentUser() user: SessionUser) {
    return this.schedules.schoolTeachingSchedule(user, q);
  }

  @Action('GET', 'teacherSchedule')
  teacherSchedule(@Input() q: WeekQuery, @CurrentUser() user: SessionUser) {
    return this.schedules.teacherSchedule(user, q);
  }

  @Action('POST', 'teacherSchedule')
  saveTeacherSchedule(@Input() input: SaveTeacherScheduleInput, @CurrentUser() user: SessionUser) {
    return this.schedules.saveTeacherSchedule(user, input);
  }
}
