import { GET, POST } from './define';
import { LeaveDecisionResult, LeaveRequestPage, LeaveRequestRow } from '../answers/leave';
import {
  AuditStudentInfoInput,
  CancelLeaveInput,
  ParentLeaveListInput,
  SubmitLeaveInput,
  TeacherStudentLeaveInfoInput,
  TeacherStudentLeaveListInput,
} from '../schemas/leave';

/** The actions of module `leave` (docs/modules/leave.md). */
export const leaveActions = [
  GET('teacherStudentLeaveList', TeacherStudentLeaveListInput, LeaveRequestPage),
  GET('teacherStudentLeaveInfo', TeacherStudentLeaveInfoInput, LeaveRequestRow),
  POST('auditStudentInfo', AuditStudentInfoInput, LeaveDecisionResult),
  POST('submitLeave', SubmitLeaveInput, LeaveRequestRow),
  POST('cancelLeave', CancelLeaveInput, LeaveDecisionResult),
  GET('parentLeaveList', ParentLeaveListInput, LeaveRequestPage),
  GET('adminLeaveList', TeacherStudentLeaveListInput, LeaveRequestPage),
  GET('adminLeaveInfo', TeacherStudentLeaveInfoInput, LeaveRequestRow),
] as const;
