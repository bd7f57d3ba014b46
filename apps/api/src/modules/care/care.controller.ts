import { Controller, Get, Post } from '@nestjs/common';
import {
  AddAfterSchoolCareInput,
  AddWantuoStudentInput,
  AllotTeacherInput,
  ClassListQuery,
  DelClassInput,
  DelWantuoStudentInput,
  DelWantuoStudentQuery,
  EditAfterSchoolCareInput,
  SelectWantuoStudentQuery,
  StartAndEndInput,
  TeacherAddWantuoStudentInput,
  TeacherDelWantuoStudentInput,
  TeacherSelectWantuoStudentQuery,
  TeacherWantuoInfoQuery,
  TeacherWantuoStudentQuery,
  WantuoInfoQuery,
  WantuoStudentQuery,
} from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { CareService } from './care.service';

/** After-school-care classes: the admin's actions, then the head teacher's and teacher's. */
@Controller('api/index')
export class CareController {
  constructor(private readonly care: CareService) {}

  @Get('classList')
  list(@Input(ClassListQuery) q: ClassListQuery, @CurrentUser() user: SessionUser) {
    return this.care.list(user, q);
  }

  @Get('wantuoInfo')
  info(@Input(WantuoInfoQuery) q: WantuoInfoQuery, @CurrentUser() user: SessionUser) {
    return this.care.info(user, q.id);
  }

  @Get('wantuoStudent')
  students(@Input(WantuoStudentQuery) q: WantuoStudentQuery, @CurrentUser() user: SessionUser) {
    return this.care.students(user, q.id, q);
  }

  @Get('selectWantuoStudent')
  selectable(@Input(SelectWantuoStudentQuery) q: SelectWantuoStudentQuery, @CurrentUser() user: SessionUser) {
    return this.care.selectable(user, q);
  }

  @Post('addAfterSchoolCare')
  create(@Input(AddAfterSchoolCareInput) input: AddAfterSchoolCareInput, @CurrentUser() user: SessionUser) {
    return this.care.create(user, input);
  }

  @Post('editAfterSchoolCare')
  edit(@Input(EditAfterSchoolCareInput) input: EditAfterSchoolCareInput, @CurrentUser() user: SessionUser) {
    return this.care.edit(user, input);
  }

  @Post('addWantuoStudent')
  addStudents(@Input(AddWantuoStudentInput) input: AddWantuoStudentInput, @CurrentUser() user: SessionUser) {
    return this.care.addStudents(user, input, false);
  }

  @Get('delWantuoStudent')
  removePreview(@Input(DelWantuoStudentQuery) q: DelWantuoStudentQuery, @CurrentUser() user: SessionUser) {
    return this.care.removePreview(user, q);
  }

  @Post('delWantuoStudent')
  remove(@Input(DelWantuoStudentInput) input: DelWantuoStudentInput, @CurrentUser() user: SessionUser) {
    return this.care.removeStudent(user, input, false);
  }

  @Post('delClass')
  del(@Input(DelClassInput) input: DelClassInput, @CurrentUser() user: SessionUser) {
    return this.care.del(user, input);
  }

  @Post('startAndEnd')
  startAndEnd(@Input(StartAndEndInput) input: StartAndEndInput, @CurrentUser() user: SessionUser) {
    return this.care.setStatus(user, input);
  }

  @Post('allotTeacher')
  allot(@Input(AllotTeacherInput) input: AllotTeacherInput, @CurrentUser() user: SessionUser) {
    return this.care.allotTeacher(user, input);
  }

  @Get('teacherWantuoInfo')
  teacherInfo(@Input(TeacherWantuoInfoQuery) q: TeacherWantuoInfoQuery, @CurrentUser() user: SessionUser) {
    return this.care.teacherInfo(user, q.id);
  }

  @Get('teacherWantuoStudent')
  teacherStudents(@Input(TeacherWantuoStudentQuery) q: TeacherWantuoStudentQuery, @CurrentUser() user: SessionUser) {
    return this.care.teacherStudents(user, q);
  }

  @Get('teacherSelectWantuoStudent')
  teacherSelectable(@Input(TeacherSelectWantuoStudentQuery) q: TeacherSelectWantuoStudentQuery, @CurrentUser() user: SessionUser) {
    return this.care.selectable(user, q);
  }

  @Post('teacherAddWantuoStudent')
  teacherAdd(@Input(TeacherAddWantuoStudentInput) input: TeacherAddWantuoStudentInput, @CurrentUser() user: SessionUser) {
    return this.care.addStudents(user, input, true);
  }

  @Post('teacherDelWantuoStudent')
  teacherDel(@Input(TeacherDelWantuoStudentInput) input: TeacherDelWantuoStudentInput, @CurrentUser() user: SessionUser) {
    return this.care.removeStudent(user, input, true);
  }
}
