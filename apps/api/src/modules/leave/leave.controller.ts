import { Controller } from '@nestjs/common';
import {
  AuditStudentInfoInput,
  CancelLeaveInput,
  ParentLeaveListInput,
  SubmitLeaveInput,
  TeacherStudentLeaveInfoInput,
  TeacherStudentLeaveListInput,
} from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { LeaveService } from './leave.service';

@Controller('api/index')
export class LeaveController {
  constructor(private readonly leave: LeaveService) {}

  @Action('GET', 'teacherStudentLeaveList')
  teacherList(@Input() q: TeacherStudentLeaveListInput, @CurrentUser() user: SessionUser) {
    return this.leave.teacherList(user, q);
  }

  @Action('GET', 'teacherStudentLeaveInfo')
  teacherInfo(@Input() q: TeacherStudentLeaveInfoInput, @CurrentUser() user: SessionUser) {
    return this.leave.teacherInfo(user, q.id);
  }

  @Action('POST', 'auditStudentInfo')
  audit(@Input() input: AuditStudentInfoInput, @CurrentUser() user: SessionUser) {
    return this.leave.audit(user, input);
  }

  @Action('POST', 'submitLeave')
  submit(@Input() input: SubmitLeaveInput, @CurrentUser() user: SessionUser) {
    return this.leave.submit(user, input);
  }

  @Action('POST', 'cancelLeave')
  cancel(@Input() input: CancelLeaveInput, @CurrentUser() user: SessionUser) {
    return this.leave.cancel(user, input);
  }

  @Action('GET', 'adminLeaveList')
  adminList(@Input() q: TeacherStudentLeaveListInput, @CurrentUser() user: SessionUser) {
    return this.leave.adminList(user, q);
  }

  @Action('GET', 'adminLeaveInfo')
  adminInfo(@Input() q: TeacherStudentLeaveInfoInput, @CurrentUser() user: SessionUser) {
    return this.leave.adminInfo(user, q.id);
  }

  @Action('GET', 'parentLeaveList')
  parentList(@Input() q: ParentLeaveListInput, @CurrentUser() user: SessionUser) {
    return this.leave.parentList(user, q);
  }
}
