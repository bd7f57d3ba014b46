import { GET, POST, Pending } from './define';
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
  GET('teacherStudentLeaveList', TeacherStudentLeaveListInput, Pending),
  GET('teacherStudentLeaveInfo', TeacherStudentLeaveInfoInput, Pending),
  POST('auditStudentInfo', AuditStudentInfoInput, Pending),
  POST('submitLeave', SubmitLeaveInput, Pending),
  POST('cancelLeave', CancelLeaveInput, Pending),
  GET('parentLeaveList', ParentLeaveListInput, Pending),
] as const;
