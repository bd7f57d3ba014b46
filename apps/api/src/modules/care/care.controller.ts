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
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { CareService } from './care.service';

/** After-school-care classes: the admin's actions, then the head teacher's and teacher's. */
@Controller('api/index')
export class CareController {
  constructor(private readonly care: CareService) {}

  @Action('GET', 'classList')
  list(@Input() q: ClassListQuery, @SchoolUser() user: SchoolCaller) {
    return this.care.list(user, q);
  }

  @Action('GET', 'wantuoInfo')
  info(@Input() q: WantuoInfoQuery, @SchoolUser() user: SchoolCaller) {
    return this.care.info(user, q.id);
  }

  @Action('GET', 'wantuoStudent')
  students(@Input() q: WantuoStudentQuery, @SchoolUser() user: SchoolCaller) {
    return this.care.students(user, q.id, q);
  }

  @Action('GET', 'selectWantuoStudent')
  selectable(@Input() q: SelectWantuoStudentQuery, @SchoolUser() user: SchoolCaller) {
    return this.care.selectable(user, q);
  }

  @Action('POST', 'addAfterSchoolCare')
  create(@Input() input: AddAfterSchoolCareInput, @SchoolUser() user: SchoolCaller) {
    return this.care.create(user, input);
  }

  @Action('POST', 'editAfterSchoolCare')
  edit(@Input() input: EditAfterSchoolCareInput, @SchoolUser() user: SchoolCaller) {
    return this.care.edit(user, input);
  }

  @Action('POST', 'addWantuoStudent')
  addStudents(@Input() input: AddWantuoStudentInput, @SchoolUser() user: SchoolCaller) {
    return this.care.addStudents(user, input, false);
  }

  @Action('GET', 'delWantuoStudent')
  removePreview(@Input() q: DelWantuoStudentQuery, @SchoolUser() user: SchoolCaller) {
    return this.care.removePreview(user, q);
  }

  @Action('POST', 'delWantuoStudent')
  remove(@Input() input: DelWantuoStudentInput, @SchoolUser() user: SchoolCaller) {
    return this.care.removeStudent(user, input, false);
  }

  @Action('POST', 'delClass')
  del(@Input() input: DelClassInput, @SchoolUser() user: SchoolCaller) {
    return this.care.del(user, input);
  }

  @Action('POST', 'startAndEnd')
  startAndEnd(@Input() input: StartAndEndInput, @SchoolUser() user: SchoolCaller) {
    return this.care.setStatus(user, input);
  }

  @Action('POST', 'allotTeacher')
  allot(@Input() input: AllotTeacherInput, @SchoolUser() user: SchoolCaller) {
    return this.care.allotTeacher(user, input);
  }

  @Action('GET', 'teacherWantuoInfo')
  teacherInfo(@Input() q: TeacherWantuoInfoQuery, @SchoolUser() user: SchoolCaller) {
    return this.care.teacherInfo(user, q.id);
  }

  @Action('GET', 'teacherWantuoStudent')
  teacherStudents(@Input() q: TeacherWantuoStudentQuery, @SchoolUser() user: SchoolCaller) {
    return this.care.teacherStudents(user, q);
  }

  @Action('GET', 'teacherSelectWantuoStudent')
  teacherSelectable(@Input() q: TeacherSelectWantuoStudentQuery, @SchoolUser() user: SchoolCaller) {
    return this.care.selectable(user, q);
  }

  @Action('POST', 'teacherAddWantuoStudent')
  teacherAdd(@Input() input: TeacherAddWantuoStudentInput, @SchoolUser() user: SchoolCaller) {
    return this.care.addStudents(user, input, true);
  }

  @Action('POST', 'teacherDelWantuoStudent')
  teacherDel(@Input() input: TeacherDelWantuoStudentInput, @SchoolUser() user: SchoolCaller) {
    return this.care.removeStudent(user, input, true);
  }
}
