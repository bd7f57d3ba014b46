import { Controller } from '@nestjs/common';
import {
  AccountListQuery,
  AddTeacherInput,
  DelTeacherInput,
  EditTeacherInput,
  OnJobInput,
  ResetTeacherPwdInput,
  SetLeaveInput,
  TeacherInfoQuery,
  TeacherSaveInfoInput,
  TeachersListQuery,
  type StaffPickerQuery,
} from '@wantuo/shared';
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { StaffService } from './staff.service';

@Controller('api/index')
export class StaffController {
  constructor(private readonly staff: StaffService) {}

  @Action('GET', 'accountList')
  accountList(@Input() q: AccountListQuery, @SchoolUser() user: SchoolCaller) {
    return this.staff.accountList(user, q);
  }

  @Action('GET', 'teachersList')
  teachersList(@Input() q: TeachersListQuery, @SchoolUser() user: SchoolCaller) {
    return this.staff.teachersList(user, q);
  }

  @Action('GET', 'teacherInfo')
  teacherInfo(@Input() q: TeacherInfoQuery, @SchoolUser() user: SchoolCaller) {
    return this.staff.teacherInfo(user, q);
  }

  @Action('POST', 'addTeacher')
  addTeacher(@Input() input: AddTeacherInput, @SchoolUser() user: SchoolCaller) {
    return this.staff.addTeacher(user, input);
  }

  @Action('POST', 'editTeacher')
  editTeacher(@Input() input: EditTeacherInput, @SchoolUser() user: SchoolCaller) {
    return this.staff.editTeacher(user, input);
  }

  @Action('POST', 'delTeacher')
  delTeacher(@Input() input: DelTeacherInput, @SchoolUser() user: SchoolCaller) {
    return this.staff.delTeacher(user, input);
  }

  @Action('POST', 'setLeave')
  setLeave(@Input() input: SetLeaveInput, @SchoolUser() user: SchoolCaller) {
    return this.staff.setLeave(user, input);
  }

  @Action('POST', 'onJob')
  onJob(@Input() input: OnJobInput, @SchoolUser() user: SchoolCaller) {
    return this.staff.onJob(user, input);
  }

  @Action('POST', 'resetTeacherPwd')
  resetTeacherPwd(@Input() input: ResetTeacherPwdInput, @SchoolUser() user: SchoolCaller) {
    return this.staff.resetTeacherPwd(user, input);
  }

  @Action('POST', 'teacherSaveInfo')
  teacherSaveInfo(@Input() input: TeacherSaveInfoInput, @SchoolUser() user: SchoolCaller) {
    return this.staff.teacherSaveInfo(user, input);
  }

  @Action('GET', 'selectClassTeacher')
  selectClassTeacher(@Input() q: StaffPickerQuery, @SchoolUser() user: SchoolCaller) {
    return this.staff.picker(user, 'head', q);
  }

  @Action('GET', 'shuttleTeacher')
  shuttleTeacher(@Input() q: StaffPickerQuery, @SchoolUser() user: SchoolCaller) {
    return this.staff.picker(user, 'shuttle', q);
  }

  @Action('GET', 'tutorTeacher')
  tutorTeacher(@Input() q: StaffPickerQuery, @SchoolUser() user: SchoolCaller) {
    return this.staff.picker(user, 'tutor', q);
  }

  @Action('GET', 'teacherShuttleTeacher')
  teacherShuttleTeacher(@Input() q: StaffPickerQuery, @SchoolUser() user: SchoolCaller) {
    return this.staff.picker(user, 'shuttle', q);
  }

  @Action('GET', 'teacherTutorTeacher')
  teacherTutorTeacher(@Input() q: StaffPickerQuery, @SchoolUser() user: SchoolCaller) {
    return this.staff.picker(user, 'tutor', q);
  }
}
