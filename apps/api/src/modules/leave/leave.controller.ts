import { Controller } from '@nestjs/common';
import {
  AuditStudentInfoInput,
  CancelLeaveInput,
  ParentLeaveListInput,
  SubmitLeaveInput,
  TeacherStudentLeaveInfoInput,
  TeacherStudentLeaveListInput,
} from '@wantuo/shared';
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { LeaveService } from './leave.service';

@Controller('api/index')
export class LeaveController {
  constructor(private readonly leave: LeaveService) {}

  @Action('GET', 'teacherStudentLeaveList')
  teacherList(@Input() q: TeacherStudentLeaveListInput, @SchoolUser() user: SchoolCaller) {
    return this.leave.teacherList(user, q);
  }

  @Action('GET', 'teacherStudentLeaveInfo')
  teacherInfo(@Input() q: TeacherStudentLeaveInfoInput, @SchoolUser() user: SchoolCaller) {
    return this.leave.teacherInfo(user, q.id);
  }

  @Action('POST', 'auditStudentInfo')
  audit(@Input() input: AuditStudentInfoInput, @SchoolUser() user: SchoolCaller) {
    return this.leave.audit(user, input);
  }

  @Action('POST', 'submitLeave')
  submit(@Input() input: SubmitLeaveInput, @SchoolUser() user: SchoolCaller) {
    return this.leave.submit(user, input);
  }

  @Action('POST', 'cancelLeave')
  cancel(@Input() input: CancelLeaveInput, @SchoolUser() user: SchoolCaller) {
    return this.leave.cancel(user, input);
  }

  @Action('GET', 'adminLeaveList')
  adminList(@Input() q: TeacherStudentLeaveListInput, @SchoolUser() user: SchoolCaller) {
    return this.leave.adminList(user, q);
  }

  @Action('GET', 'adminLeaveInfo')
  adminInfo(@Input() q: TeacherStudentLeaveInfoInput, @SchoolUser() user: SchoolCaller) {
    return this.leave.adminInfo(user, q.id);
  }

  @Action('GET', 'parentLeaveList')
  parentList(@Input() q: ParentLeaveListInput, @SchoolUser() user: SchoolCaller) {
    return this.leave.parentList(user, q);
  }
}
