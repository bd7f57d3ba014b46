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
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
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
  add(@Input() input: AddTeachingClassInput, @CurrentUser() user: SessionUser) {
    return this.classes.add(user, input);
  }

  @Action('GET', 'teachingClassInfo')
  info(@Input() q: TeachingClassIdQuery, @CurrentUser() user: SessionUser) {
    return this.classes.info(user, q.id);
  }

  @Action('GET', 'teachingClassList')
  list(@Input() q: TeachingClassListQuery, @CurrentUser() user: SessionUser) {
    return this.classes.list(user, q);
  }

  @Action('POST', 'editTeachingClass')
  edit(@Input() input: EditTeachingClassInput, @CurrentUser() user: SessionUser) {
    return this.classes.edit(user, input);
  }

  @Action('POST', 'startAndEndTeachingClass')
  setStatus(@Input() input: TeachingClassStatusInput, @CurrentUser() user: SessionUser) {
    return this.classes.setStatus(user, input);
  }

  @Action('GET', 'teachingClassStudent')
  students(@Input() q: TeachingClassStudentQuery, @CurrentUser() user: SessionUser) {
    return this.classes.students(user, q);
  }

  @Action('GET', 'selectTeachingClassStudent')
  selectable(@Input() q: SelectTeachingClassStudentQuery, @CurrentUser() user: SessionUser) {
    return this.classes.selectable(user, q);
  }

  @Action('POST', 'addTeachingClassStudent')
  addStudents(@Input() input: AddTeachingClassStudentInput, @CurrentUser() user: SessionUser) {
    return this.classes.addStudents(user, input);
  }

  @Action('POST', 'delTeachingClassStudent')
  delStudent(@Input() input: DelTeachingClassStudentInput, @CurrentUser() user: SessionUser) {
    return this.classes.delStudent(user, input);
  }

  @Action('GET', 'studentTeachingClassList')
  studentClasses(@Input() q: StudentTeachingClassListQuery, @CurrentUser() user: SessionUser) {
    return this.classes.studentClasses(user, q);
  }

  @Action('GET', 'teachManage')
  teachManage(@Input() _: TeachManageQuery, @CurrentUser() user: SessionUser) {
    return this.classes.teachManage(user);
  }

  @Action('POST', 'teachingClassCourseScheduling')
  generate(@Input() input: CourseSchedulingInput, @CurrentUser() user: SessionUser) {
    return this.sessions.generate(user, input);
  }

  @Action('POST', 'teachingTermScheduling')
  generateTerm(@Input() input: TermSchedulingInput, @CurrentUser() user: SessionUser) {
    return this.sessions.generateTerm(user, input);
  }

  @Action('GET', 'teachingClassScheduling')
  scheduling(@Input() q: TeachingSessionsQuery, @CurrentUser() user: SessionUser) {
    return this.sessions.list(user, q);
  }

  @Action('GET', 'teachingClassSection')
  section(@Input() q: TeachingSessionsQuery, @CurrentUser() user: SessionUser) {
    return this.sessions.list(user, q);
  }

  @Action('GET', 'teachingClassChangeScheduling')
  changeData(@Input() q: ChangeSchedulingQuery, @CurrentUser() user: SessionUser) {
    return this.sessions.changeData(user, q);
  }

  @Action('POST', 'moveTeachingSession')
  move(@Input() input: MoveTeachingSessionInput, @CurrentUser() user: SessionUser) {
    return this.sessions.move(user, input);
  }

  @Action('POST', 'cancelTeachingSession')
  cancel(@Input() input: CancelTeachingSessionInput, @CurrentUser() user: SessionUser) {
    return this.sessions.cancel(user, input);
  }

  @Action('GET', 'rollCall')
  rollCall(@Input() q: RollCallQuery, @CurrentUser() user: SessionUser) {
    return this.rollCalls.get(user, q);
  }

  @Action('POST', 'rollCall')
  saveRollCall(@Input() input: SaveRollCallInput, @CurrentUser() user: SessionUser) {
    return this.rollCalls.save(user, input);
  }

  @Action('GET', 'rollCallCount')
  rollCallCount(@Input() q: RollCallCountQuery, @CurrentUser() user: SessionUser) {
    return this.rollCalls.counts(user, q);
  }

  @Action('GET', 'rollCallExport')
  async rollCallExport(@Input() q: RollCallCountQuery, @CurrentUser() user: SessionUser, @Res() res: Response) {
    sendFile(res, await this.rollCalls.countsExport(user, q));
  }

  @Action('GET', 'roomList')
  rooms(@Input() q: RoomListQuery, @CurrentUser() user: SessionUser) {
    return this.calendar.rooms(user, q);
  }

  @Action('POST', 'addRoom')
  addRoom(@Input() input: AddRoomInput, @CurrentUser() user: SessionUser) {
    return this.calendar.addRoom(user, input);
  }

  @Action('GET', 'schoolCalendar')
  schoolCalendar(@Input() q: SchoolCalendarQuery, @CurrentUser() user: SessionUser) {
    return this.calendar.calendar(user, q);
  }

  @Action('POST', 'setSchoolCalendarDay')
  setDay(@Input() input: SetSchoolCalendarDayInput, @CurrentUser() user: SessionUser) {
    return this.calendar.setDay(user, input);
  }

  @Action('POST', 'delSchoolCalendarDay')
  delDay(@Input() input: DelSchoolCalendarDayInput, @CurrentUser() user: SessionUser) {
    return this.calendar.delDay(user, input);
  }

  @Action('GET', 'holidayYears')
  holidayYears(@Input() _: unknown) {
    return this.holidays.years();
  }

  @Action('GET', 'holidayImportPreview')
  holidayImportPreview(@Input() q: HolidayImportPreviewQuery, @CurrentUser() user: SessionUser) {
    return this.holidays.preview(user, q);
  }

  @Action('POST', 'importHolidays')
  importHolidays(@Input() input: ImportHolidaysInput, @CurrentUser() user: SessionUser) {
    return this.holidays.import(user, input);
  }
}
