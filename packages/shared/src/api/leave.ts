import { GET, POST, extraOf } from './define';
import { LeaveDecisionResult, LeaveRequestPage, LeaveRequestRow } from '../answers/leave';
import {
  AuditStudentInfoInput,
  CancelLeaveInput,
  ParentLeaveListInput,
  SubmitLeaveInput,
  TeacherStudentLeaveInfoInput,
  TeacherStudentLeaveListInput,
} from '../schemas/leave';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('leave');

/** The actions of module `leave` (docs/modules/leave.md). */
export const leaveActions = [
  GET('teacherStudentLeaveList', TeacherStudentLeaveListInput, LeaveRequestPage),
  GET('teacherStudentLeaveInfo', TeacherStudentLeaveInfoInput, LeaveRequestRow),
  POST('auditStudentInfo', AuditStudentInfoInput, LeaveDecisionResult),
  POST(
    'submitLeave',
    SubmitLeaveInput,
    LeaveRequestRow,
    extra(
      ['P'],
      'a parent asks leave for an own child: start_day..end_day (at most 31 days, not before today), reason; overlapping pending/approved requests refused',
    ),
  ),
  POST(
    'cancelLeave',
    CancelLeaveInput,
    LeaveDecisionResult,
    extra(['P'], 'a parent cancels an own pending or approved leave request (optimistic concurrency on version); approved future days are unmarked'),
  ),
  GET(
    'parentLeaveList',
    ParentLeaveListInput,
    LeaveRequestPage,
    extra(['P'], "a parent's leave requests for own children, newest first, paged, filterable by child"),
  ),
  GET(
    'adminLeaveList',
    TeacherStudentLeaveListInput,
    LeaveRequestPage,
    extra(
      ['A'],
      "the admin's leave review: every leave request of the school (teacherStudentLeaveList's rows), pending first, paged, filterable by status",
    ),
  ),
  GET(
    'adminLeaveInfo',
    TeacherStudentLeaveInfoInput,
    LeaveRequestRow,
    extra(['A'], 'the admin reads one leave request of the school (as teacherStudentLeaveInfo), to decide it with auditStudentInfo'),
  ),
] as const;
