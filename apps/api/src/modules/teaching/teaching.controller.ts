import { Controller, Res } from '@nestjs/common';
import {
  AddRoomInput,
  AddTeachingClassInput,
  AddTeachingClassStudentInput,
  EditTeachingClassInput,
  CancelTeachingSessionInput,
  ChangeSchedulingQuery,
  CourseSchedulingInput,
  DelSchoolCalendarDayInput,
  DelTeachingClassStudentInput,
  HolidayImportPreviewQuery,
  ImportHolidaysInput,
  MoveTeachingSessionInput,
  RollCallCountQuery,
  RollCallQuery,
  RoomListQuery,
  SaveRollCallInput,
  SchoolCalendarQuery,
  SelectTeachingClassStudentQuery,
  SetSchoolCalendarDayInput,
  StudentTeachingClassListQuery,
  TeachManageQuery,
  TeachingClassIdQuery,
  TeachingClassListQuery,
  TeachingClassStatusInput,
  TeachingClassStudentQuery,
  TeachingSessionsQuery,
  TermSchedulingInput,
} from '@wantuo/shared';
import type { Response } from 'express';
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { sendFile } from '../../core/http/send-file';
import { SchoolCalendarService } from './calendar.service';
import { TeachingClassesService } from './classes.service';
import { HolidaysService } from './holidays.service';
import { RollCallService } from './roll-call.service';
import { TeachingSessionsService } from './sessions.service';

/** Teaching classes, their sessions and roll call, rooms and the school calendar (module `teaching`, issue 13). */
@Controller('api/index')
export class TeachingController {
  constructor(
    private readonly classes: TeachingClassesService,
    private readonly sessions: TeachingSessionsService,
    private readonly calendar: SchoolCalendarService,
    private readonly rollCalls: RollCallService,
    private readonly holidays: HolidaysService,
  ) {}

  @Action('POST', 'addTeachingClass')
  add(@Input() input: AddTeachingClassInput, @SchoolUser() user: SchoolCaller) {
    return this.classes.add(user, input);
  }

  @Action('GET', 'teachingClassInfo')
  info(@Input() q: TeachingClassIdQuery, @SchoolUser() user: SchoolCaller) {
    return this.classes.info(user, q.id);
  }

  @Action('GET', 'teachingClassList')
  list(@Input() q: TeachingClassListQuery, @SchoolUser() user: SchoolCaller) {
    return this.classes.list(user, q);
  }

  @Action('POST', 'editTeachingClass')
  edit(@Input() input: EditTeachingClassInput, @SchoolUser() user: SchoolCaller) {
    return this.classes.edit(user, input);
  }

  @Action('POST', 'startAndEndTeachingClass')
  setStatus(@Input() input: TeachingClassStatusInput, @SchoolUser() user: SchoolCaller) {
    return this.classes.setStatus(user, input);
  }

  @Action('GET', 'teachingClassStudent')
  students(@Input() q: TeachingClassStudentQuery, @SchoolUser() user: SchoolCaller) {
    return this.classes.students(user, q);
  }

  @Action('GET', 'selectTeachingClassStudent')
  selectable(@Input() q: SelectTeachingClassStudentQuery, @SchoolUser() user: SchoolCaller) {
    return this.classes.selectable(user, q);
  }

  @Action('POST', 'addTeachingClassStudent')
  addStudents(@Input() input: AddTeachingClassStudentInput, @SchoolUser() user: SchoolCaller) {
    return this.classes.addStudents(user, input);
  }

  @Action('POST', 'delTeachingClassStudent')
  delStudent(@Input() input: DelTeachingClassStudentInput, @SchoolUser() user: SchoolCaller) {
    return this.classes.delStudent(user, input);
  }

  @Action('GET', 'studentTeachingClassList')
  studentClasses(@Input() q: StudentTeachingClassListQuery, @SchoolUser() user: SchoolCaller) {
    return this.classes.studentClasses(user, q);
  }

  @Action('GET', 'teachManage')
  teachManage(@Input() _: TeachManageQuery, @SchoolUser() user: SchoolCaller) {
    return this.classes.teachManage(user);
  }

  @Action('POST', 'teachingClassCourseScheduling')
  generate(@Input() input: CourseSchedulingInput, @SchoolUser() user: SchoolCaller) {
    return this.sessions.generate(user, input);
  }

  @Action('POST', 'teachingTermScheduling')
  generateTerm(@Input() input: TermSchedulingInput, @SchoolUser() user: SchoolCaller) {
    return this.sessions.generateTerm(user, input);
  }

  @Action('GET', 'teachingClassScheduling')
  scheduling(@Input() q: TeachingSessionsQuery, @SchoolUser() user: SchoolCaller) {
    return this.sessions.list(user, q);
  }

  @Action('GET', 'teachingClassSection')
  section(@Input() q: TeachingSessionsQuery, @SchoolUser() user: SchoolCaller) {
    return this.sessions.list(user, q);
  }

  @Action('GET', 'teachingClassChangeScheduling')
  changeData(@Input() q: ChangeSchedulingQuery, @SchoolUser() user: SchoolCaller) {
    return this.sessions.changeData(user, q);
  }

  @Action('POST', 'moveTeachingSession')
  move(@Input() input: MoveTeachingSessionInput, @SchoolUser() user: SchoolCaller) {
    return this.sessions.move(user, input);
  }

  @Action('POST', 'cancelTeachingSession')
  cancel(@Input() input: CancelTeachingSessionInput, @SchoolUser() user: SchoolCaller) {
    return this.sessions.cancel(user, input);
  }

  @Action('GET', 'rollCall')
  rollCall(@Input() q: RollCallQuery, @SchoolUser() user: SchoolCaller) {
    return this.rollCalls.get(user, q);
  }

  @Action('POST', 'rollCall')
  saveRollCall(@Input() input: SaveRollCallInput, @SchoolUser() user: SchoolCaller) {
    return this.rollCalls.save(user, input);
  }

  @Action('GET', 'rollCallCount')
  rollCallCount(@Input() q: RollCallCountQuery, @SchoolUser() user: SchoolCaller) {
    return this.rollCalls.counts(user, q);
  }

  @Action('GET', 'rollCallExport')
  async rollCallExport(@Input() q: RollCallCountQuery, @SchoolUser() user: SchoolCaller, @Res() res: Response) {
    sendFile(res, await this.rollCalls.countsExport(user, q));
  }

  @Action('GET', 'roomList')
  rooms(@Input() q: RoomListQuery, @SchoolUser() user: SchoolCaller) {
    return this.calendar.rooms(user, q);
  }

  @Action('POST', 'addRoom')
  addRoom(@Input() input: AddRoomInput, @SchoolUser() user: SchoolCaller) {
    return this.calendar.addRoom(user, input);
  }

  @Action('GET', 'schoolCalendar')
  schoolCalendar(@Input() q: SchoolCalendarQuery, @SchoolUser() user: SchoolCaller) {
    return this.calendar.calendar(user, q);
  }

  @Action('POST', 'setSchoolCalendarDay')
  setDay(@Input() input: SetSchoolCalendarDayInput, @SchoolUser() user: SchoolCaller) {
    return this.calendar.setDay(user, input);
  }

  @Action('POST', 'delSchoolCalendarDay')
  delDay(@Input() input: DelSchoolCalendarDayInput, @SchoolUser() user: SchoolCaller) {
    return this.calendar.delDay(user, input);
  }

  @Action('GET', 'holidayYears')
  holidayYears(@Input() _: unknown) {
    return this.holidays.years();
  }

  @Action('GET', 'holidayImportPreview')
  holidayImportPreview(@Input() q: HolidayImportPreviewQuery, @SchoolUser() user: SchoolCaller) {
    return this.holidays.preview(user, q);
  }

  @Action('POST', 'importHolidays')
  importHolidays(@Input() input: ImportHolidaysInput, @SchoolUser() user: SchoolCaller) {
    return this.holidays.import(user, input);
  }
}
