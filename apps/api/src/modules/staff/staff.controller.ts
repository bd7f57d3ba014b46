import { Controller, Get, Post } from '@nestjs/common';
import {
  AccountListQuery,
  AddTeacherInput,
  DelTeacherInput,
  EditTeacherInput,
  OnJobInput,
  ResetTeacherPwdInput,
  SelectClassTeacherQuery,
  SetLeaveInput,
  ShuttleTeacherQuery,
  TeacherInfoQuery,
  TeacherSaveInfoInput,
  TeacherShuttleTeacherQuery,
  TeachersListQuery,
  TeacherTutorTeacherQuery,
  TutorTeacherQuery,
  type StaffPickerQuery,
} from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { StaffService } from './staff.service';

@Controller('api/index')
export class StaffController {
  constructor(private readonly staff: StaffService) {}

  @Get('accountList')
  accountList(@Input(AccountListQuery) q: AccountListQuery, @CurrentUser() user: SessionUser) {
    return this.staff.accountList(user, q);
  }

  @Get('teachersList')
  teachersList(@Input(TeachersListQuery) q: TeachersListQuery, @CurrentUser() user: SessionUser) {
    return this.staff.teachersList(user, q);
  }

  @Get('teacherInfo')
  teacherInfo(@Input(TeacherInfoQuery) q: TeacherInfoQuery, @CurrentUser() user: SessionUser) {
    return this.staff.teacherInfo(user, q);
  }

  @Post('addTeacher')
  addTeacher(@Input(AddTeacherInput) input: AddTeacherInput, @CurrentUser() user: SessionUser) {
    return this.staff.addTeacher(user, input);
  }

  @Post('editTeacher')
  editTeacher(@Input(EditTeacherInput) input: EditTeacherInput, @CurrentUser() user: SessionUser) {
    return this.staff.editTeacher(user, input);
  }

  @Post('delTeacher')
  delTeacher(@Input(DelTeacherInput) input: DelTeacherInput, @CurrentUser() user: SessionUser) {
    return this.staff.delTeacher(user, input);
  }

  @Post('setLeave')
  setLeave(@Input(SetLeaveInput) input: SetLeaveInput, @CurrentUser() user: SessionUser) {
    return this.staff.setLeave(user, input);
  }

  @Post('onJob')
  onJob(@Input(OnJobInput) input: OnJobInput, @CurrentUser() user: SessionUser) {
    return this.staff.onJob(user, input);
  }

  @Post('resetTeacherPwd')
  resetTeacherPwd(@Input(ResetTeacherPwdInput) input: ResetTeacherPwdInput, @CurrentUser() user: SessionUser) {
    return this.staff.resetTeacherPwd(user, input);
  }

  @Post('teacherSaveInfo')
  teacherSaveInfo(@Input(TeacherSaveInfoInput) input: TeacherSaveInfoInput, @CurrentUser() user: SessionUser) {
    return this.staff.teacherSaveInfo(user, input);
  }

  @Get('selectClassTeacher')
  selectClassTeacher(@Input(SelectClassTeacherQuery) q: StaffPickerQuery, @CurrentUser() user: SessionUser) {
    return this.staff.picker(user, 'head', q);
  }

  @Get('shuttleTeacher')
  shuttleTeacher(@Input(ShuttleTeacherQuery) q: StaffPickerQuery, @CurrentUser() user: SessionUser) {
    return this.staff.picker(user, 'shuttle', q);
  }

  @Get('tutorTeacher')
  tutorTeacher(@Input(TutorTeacherQuery) q: StaffPickerQuery, @CurrentUser() user: SessionUser) {
    return this.staff.picker(user, 'tutor', q);
  }

  @Get('teacherShuttleTeacher')
  teacherShuttleTeacher(@Input(TeacherShuttleTeacherQuery) q: StaffPickerQuery, @CurrentUser() user: SessionUser) {
    return this.staff.picker(user, 'shuttle', q);
  }

  @Get('teacherTutorTeacher')
  teacherTutorTeacher(@Input(TeacherTutorTeacherQuery) q: StaffPickerQuery, @CurrentUser() user: SessionUser) {
    return this.staff.picker(user, 'tutor', q);
  }
}
