import { Controller, Get, Post, Res } from '@nestjs/common';
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
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { sendFile } from '../../core/http/send-file';
import { SchoolCalendarService } from './calendar.service';
import { TeachingClassesService } from './classes.service';
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
  ) {}

  @Post('addTeachingClass')
  add(@Input(AddTeachingClassInput) input: AddTeachingClassInput, @CurrentUser() user: SessionUser) {
    return this.classes.add(user, input);
  }

  @Get('teachingClassInfo')
  info(@Input(TeachingClassIdQuery) q: TeachingClassIdQuery, @CurrentUser() user: SessionUser) {
    return this.classes.info(user, q.id);
  }

  @Get('teachingClassList')
  list(@Input(TeachingClassListQuery) q: TeachingClassListQuery, @CurrentUser() user: SessionUser) {
    return this.classes.list(user, q);
  }

  @Post('editTeachingClass')
  edit(@Input(EditTeachingClassInput) input: EditTeachingClassInput, @CurrentUser() user: SessionUser) {
    return this.classes.edit(user, input);
  }

  @Post('startAndEndTeachingClass')
  setStatus(@Input(TeachingClassStatusInput) input: TeachingClassStatusInput, @CurrentUser() user: SessionUser) {
    return this.classes.setStatus(user, input);
  }

  @Get('teachingClassStudent')
  students(@Input(TeachingClassStudentQuery) q: TeachingClassStudentQuery, @CurrentUser() user: SessionUser) {
    return this.classes.students(user, q);
  }

  @Get('selectTeachingClassStudent')
  selectable(@Input(SelectTeachingClassStudentQuery) q: SelectTeachingClassStudentQuery, @CurrentUser() user: SessionUser) {
    return this.classes.selectable(user, q);
  }

  @Post('addTeachingClassStudent')
  addStudents(@Input(AddTeachingClassStudentInput) input: AddTeachingClassStudentInput, @CurrentUser() user: SessionUser) {
    return this.classes.addStudents(user, input);
  }

  @Post('delTeachingClassStudent')
  delStudent(@Input(DelTeachingClassStudentInput) input: DelTeachingClassStudentInput, @CurrentUser() user: SessionUser) {
    return this.classes.delStudent(user, input);
  }

  @Get('studentTeachingClassList')
  studentClasses(@Input(StudentTeachingClassListQuery) q: StudentTeachingClassListQuery, @CurrentUser() user: SessionUser) {
    return this.classes.studentClasses(user, q);
  }

  @Get('teachManage')
  teachManage(@Input(TeachManageQuery) _: TeachManageQuery, @CurrentUser() user: SessionUser) {
    return this.classes.teachManage(user);
  }

  @Post('teachingClassCourseScheduling')
  generate(@Input(CourseSchedulingInput) input: CourseSchedulingInput, @CurrentUser() user: SessionUser) {
    return this.sessions.generate(user, input);
  }

  @Post('teachingTermScheduling')
  generateTerm(@Input(TermSchedulingInput) input: TermSchedulingInput, @CurrentUser() user: SessionUser) {
    return this.sessions.generateTerm(user, input);
  }

  @Get('teachingClassScheduling')
  scheduling(@Input(TeachingSessionsQuery) q: TeachingSessionsQuery, @CurrentUser() user: SessionUser) {
    return this.sessions.list(user, q);
  }

  @Get('teachingClassSection')
  section(@Input(TeachingSessionsQuery) q: TeachingSessionsQuery, @CurrentUser() user: SessionUser) {
    return this.sessions.list(user, q);
  }

  @Get('teachingClassChangeScheduling')
  changeData(@Input(ChangeSchedulingQuery) q: ChangeSchedulingQuery, @CurrentUser() user: SessionUser) {
    return this.sessions.changeData(user, q);
  }

  @Post('moveTeachingSession')
  move(@Input(MoveTeachingSessionInput) input: MoveTeachingSessionInput, @CurrentUser() user: SessionUser) {
    return this.sessions.move(user, input);
  }

  @Post('cancelTeachingSession')
  cancel(@Input(CancelTeachingSessionInput) input: CancelTeachingSessionInput, @CurrentUser() user: SessionUser) {
    return this.sessions.cancel(user, input);
  }

  @Get('rollCall')
  rollCall(@Input(RollCallQuery) q: RollCallQuery, @CurrentUser() user: SessionUser) {
    return this.rollCalls.get(user, q);
  }

  @Post('rollCall')
  saveRollCall(@Input(SaveRollCallInput) input: SaveRollCallInput, @CurrentUser() user: SessionUser) {
    return this.rollCalls.save(user, input);
  }

  @Get('rollCallCount')
  rollCallCount(@Input(RollCallCountQuery) q: RollCallCountQuery, @CurrentUser() user: SessionUser) {
    return this.rollCalls.counts(user, q);
  }

  @Get('rollCallExport')
  async rollCallExport(@Input(RollCallCountQuery) q: RollCallCountQuery, @CurrentUser() user: SessionUser, @Res() res: Response) {
    sendFile(res, await this.rollCalls.countsExport(user, q));
  }

  @Get('roomList')
  rooms(@Input(RoomListQuery) q: RoomListQuery, @CurrentUser() user: SessionUser) {
    return this.calendar.rooms(user, q);
  }

  @Post('addRoom')
  addRoom(@Input(AddRoomInput) input: AddRoomInput, @CurrentUser() user: SessionUser) {
    return this.calendar.addRoom(user, input);
  }

  @Get('schoolCalendar')
  schoolCalendar(@Input(SchoolCalendarQuery) q: SchoolCalendarQuery, @CurrentUser() user: SessionUser) {
    return this.calendar.calendar(user, q);
  }

  @Post('setSchoolCalendarDay')
  setDay(@Input(SetSchoolCalendarDayInput) input: SetSchoolCalendarDayInput, @CurrentUser() user: SessionUser) {
    return this.calendar.setDay(user, input);
  }

  @Post('delSchoolCalendarDay')
  delDay(@Input(DelSchoolCalendarDayInput) input: DelSchoolCalendarDayInput, @CurrentUser() user: SessionUser) {
    return this.calendar.delDay(user, input);
  }
}
