import { Controller, Get, Post } from '@nestjs/common';
import {
  AuditStudentInfoInput,
  CancelLeaveInput,
  ParentLeaveListInput,
  SubmitLeaveInput,
  TeacherStudentLeaveInfoInput,
  TeacherStudentLeaveListInput,
} from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { LeaveService } from './leave.service';

@Controller('api/index')
export class LeaveController {
  constructor(private readonly leave: LeaveService) {}

  @Get('teacherStudentLeaveList')
  teacherList(@Input(TeacherStudentLeaveListInput) q: TeacherStudentLeaveListInput, @CurrentUser() user: SessionUser) {
    return this.leave.teacherList(user, q);
  }

  @Get('teacherStudentLeaveInfo')
  teacherInfo(@Input(TeacherStudentLeaveInfoInput) q: TeacherStudentLeaveInfoInput, @CurrentUser() user: SessionUser) {
    return this.leave.teacherInfo(user, q.id);
  }

  @Post('auditStudentInfo')
  audit(@Input(AuditStudentInfoInput) input: AuditStudentInfoInput, @CurrentUser() user: SessionUser) {
    return this.leave.audit(user, input);
  }

  @Post('submitLeave')
  submit(@Input(SubmitLeaveInput) input: SubmitLeaveInput, @CurrentUser() user: SessionUser) {
    return this.leave.submit(user, input);
  }

  @Post('cancelLeave')
  cancel(@Input(CancelLeaveInput) input: CancelLeaveInput, @CurrentUser() user: SessionUser) {
    return this.leave.cancel(user, input);
  }

  @Get('parentLeaveList')
  parentList(@Input(ParentLeaveListInput) q: ParentLeaveListInput, @CurrentUser() user: SessionUser) {
    return this.leave.parentList(user, q);
  }
}
