import { Controller } from '@nestjs/common';
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
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { CareService } from './care.service';

/** After-school-care classes: the admin's actions, then the head teacher's and teacher's. */
@Controller('api/index')
export class CareController {
  constructor(private readonly care: CareService) {}

  @Action('GET', 'classList')
  list(@Input() q: ClassListQuery, @CurrentUser() user: SessionUser) {
    return this.care.list(user, q);
  }

  @Action('GET', 'wantuoInfo')
  info(@Input() q: WantuoInfoQuery, @CurrentUser() user: SessionUser) {
    return this.care.info(user, q.id);
  }

  @Action('GET', 'wantuoStudent')
  students(@Input() q: WantuoStudentQuery, @CurrentUser() user: SessionUser) {
    return this.care.students(user, q.id, q);
  }

  @Action('GET', 'selectWantuoStudent')
  selectable(@Input() q: SelectWantuoStudentQuery, @CurrentUser() user: SessionUser) {
    return this.care.selectable(user, q);
  }

  @Action('POST', 'addAfterSchoolCare')
  create(@Input() input: AddAfterSchoolCareInput, @CurrentUser() user: SessionUser) {
    return this.care.create(user, input);
  }

  @Action('POST', 'editAfterSchoolCare')
  edit(@Input() input: EditAfterSchoolCareInput, @CurrentUser() user: SessionUser) {
    return this.care.edit(user, input);
  }

  @Action('POST', 'addWantuoStudent')
  addStudents(@Input() input: AddWantuoStudentInput, @CurrentUser() user: SessionUser) {
    return this.care.addStudents(user, input, false);
  }

  @Action('GET', 'delWantuoStudent')
  removePreview(@Input() q: DelWantuoStudentQuery, @CurrentUser() user: SessionUser) {
    return this.care.removePreview(user, q);
  }

  @Action('POST', 'delWantuoStudent')
  remove(@Input() input: DelWantuoStudentInput, @CurrentUser() user: SessionUser) {
    return this.care.removeStudent(user, input, false);
  }

  @Action('POST', 'delClass')
  del(@Input() input: DelClassInput, @CurrentUser() user: SessionUser) {
    return this.care.del(user, input);
  }

  @Action('POST', 'startAndEnd')
  startAndEnd(@Input() input: StartAndEndInput, @CurrentUser() user: SessionUser) {
    return this.care.setStatus(user, input);
  }

  @Action('POST', 'allotTeacher')
  allot(@Input() input: AllotTeacherInput, @CurrentUser() user: SessionUser) {
    return this.care.allotTeacher(user, input);
  }

  @Action('GET', 'teacherWantuoInfo')
  teacherInfo(@Input() q: TeacherWantuoInfoQuery, @CurrentUser() user: SessionUser) {
    return this.care.teacherInfo(user, q.id);
  }

  @Action('GET', 'teacherWantuoStudent')
  teacherStudents(@Input() q: TeacherWantuoStudentQuery, @CurrentUser() user: SessionUser) {
    return this.care.teacherStudents(user, q);
  }

  @Action('GET', 'teacherSelectWantuoStudent')
  teacherSelectable(@Input() q: TeacherSelectWantuoStudentQuery, @CurrentUser() user: SessionUser) {
    return this.care.selectable(user, q);
  }

  @Action('POST', 'teacherAddWantuoStudent')
  teacherAdd(@Input() input: TeacherAddWantuoStudentInput, @CurrentUser() user: SessionUser) {
    return this.care.addStudents(user, input, true);
  }

  @Action('POST', 'teacherDelWantuoStudent')
  teacherDel(@Input() input: TeacherDelWantuoStudentInput, @CurrentUser() user: SessionUser) {
    return this.care.removeStudent(user, input, true);
  }
}
