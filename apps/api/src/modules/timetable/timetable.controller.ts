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
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
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
  list(@Input() q: ClassTimeListQuery, @SchoolUser() user: SchoolCaller) {
    return this.timetable.list(user, q);
  }

  @Action('GET', 'selectClassTime')
  select(@Input() q: SelectClassTimeQuery, @SchoolUser() user: SchoolCaller) {
    return this.timetable.select(user, q);
  }

  @Action('POST', 'addClassTime')
  add(@Input() input: AddClassTimeInput, @SchoolUser() user: SchoolCaller) {
    return this.timetable.add(user, input);
  }

  @Action('POST', 'editClassTime')
  edit(@Input() input: EditClassTimeInput, @SchoolUser() user: SchoolCaller) {
    return this.timetable.edit(user, input);
  }

  @Action('POST', 'delClassTime')
  del(@Input() input: DelClassTimeInput, @SchoolUser() user: SchoolCaller) {
    return this.timetable.del(user, input);
  }

  @Action('POST', 'addStudentClassTime')
  setStudentSlots(@Input() input: AddStudentClassTimeInput, @SchoolUser() user: SchoolCaller) {
    return this.timetable.setStudentSlots(user, input);
  }

  @Action('GET', 'classSchedule')
  classSchedule(@Input() q: ClassScheduleQuery, @SchoolUser() user: SchoolCaller) {
    return this.schedules.classSchedule(user, q);
  }

  @Action('GET', 'schoolTeachingSchedule')
  schoolTeachingSchedule(@Input() q: WeekQuery, @SchoolUser() user: SchoolCaller) {
    return this.schedules.schoolTeachingSchedule(user, q);
  }

  @Action('GET', 'teacherSchedule')
  teacherSchedule(@Input() q: WeekQuery, @SchoolUser() user: SchoolCaller) {
    return this.schedules.teacherSchedule(user, q);
  }

  @Action('POST', 'teacherSchedule')
  saveTeacherSchedule(@Input() input: SaveTeacherScheduleInput, @SchoolUser() user: SchoolCaller) {
    return this.schedules.saveTeacherSchedule(user, input);
  }
}
