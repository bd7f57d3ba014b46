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
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { StaffService } from './staff.service';

@Controller('api/index')
export class StaffController {
  constructor(private readonly staff: StaffService) {}

  @Action('GET', 'accountList')
  accountList(@Input() q: AccountListQuery, @CurrentUser() user: SessionUser) {
    return this.staff.accountList(user, q);
  }

  @Action('GET', 'teachersList')
  teachersList(@Input() q: TeachersListQuery, @CurrentUser() user: SessionUser) {
    return this.staff.teachersList(user, q);
  }

  @Action('GET', 'teacherInfo')
  teacherInfo(@Input() q: TeacherInfoQuery, @CurrentUser() user: SessionUser) {
    return this.staff.teacherInfo(user, q);
  }

  @Action('POST', 'addTeacher')
  addTeacher(@Input() input: AddTeacherInput, @CurrentUser() user: SessionUser) {
    return this.staff.addTeacher(user, input);
  }

  @Action('POST', 'editTeacher')
  editTeacher(@Input() input: EditTeacherInput, @CurrentUser() user: SessionUser) {
    return this.staff.editTeacher(user, input);
  }

  @Action('POST', 'delTeacher')
  delTeacher(@Input() input: DelTeacherInput, @CurrentUser() user: SessionUser) {
    return this.staff.delTeacher(user, input);
  }

  @Action('POST', 'setLeave')
  setLeave(@Input() input: SetLeaveInput, @CurrentUser() user: SessionUser) {
    return this.staff.setLeave(user, input);
  }

  @Action('POST', 'onJob')
  onJob(@Input() input: OnJobInput, @CurrentUser() user: SessionUser) {
    return this.staff.onJob(user, input);
  }

  @Action('POST', 'resetTeacherPwd')
  resetTeacherPwd(@Input() input: ResetTeacherPwdInput, @CurrentUser() user: SessionUser) {
    return this.staff.resetTeacherPwd(user, input);
  }

  @Action('POST', 'teacherSaveInfo')
  teacherSaveInfo(@Input() input: TeacherSaveInfoInput, @CurrentUser() user: SessionUser) {
    return this.staff.teacherSaveInfo(user, input);
  }

  @Action('GET', 'selectClassTeacher')
  selectClassTeacher(@Input() q: StaffPickerQuery, @CurrentUser() user: SessionUser) {
    return this.staff.picker(user, 'head', q);
  }

  @Action('GET', 'shuttleTeacher')
  shuttleTeacher(@Input() q: StaffPickerQuery, @CurrentUser() user: SessionUser) {
    return this.staff.picker(user, 'shuttle', q);
  }

  @Action('GET', 'tutorTeacher')
  tutorTeacher(@Input() q: StaffPickerQuery, @CurrentUser() user: SessionUser) {
    return this.staff.picker(user, 'tutor', q);
  }

  @Action('GET', 'teacherShuttleTeacher')
  teacherShuttleTeacher(@Input() q: StaffPickerQuery, @CurrentUser() user: SessionUser) {
    return this.staff.picker(user, 'shuttle', q);
  }

  @Action('GET', 'teacherTutorTeacher')
  teacherTutorTeacher(@Input() q: StaffPickerQuery, @CurrentUser() user: SessionUser) {
    return this.staff.picker(user, 'tutor', q);
  }
}
