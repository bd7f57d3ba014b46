import { EmptyAnswer, GET, POST } from './define';
import { ResetTeacherPwdResult, StaffListAnswer, StaffPickAnswer, StaffRow } from '../answers/staff';
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
  TeacherTutorTeacherQuery,
  TeachersListQuery,
  TutorTeacherQuery,
} from '../schemas/staff';

/** The actions of module `staff` (docs/modules/staff.md). */
export const staffActions = [
  GET('accountList', AccountListQuery, StaffListAnswer),
  GET('teachersList', TeachersListQuery, StaffListAnswer),
  GET('teacherInfo', TeacherInfoQuery, StaffRow),
  POST('addTeacher', AddTeacherInput, StaffRow),
  POST('editTeacher', EditTeacherInput, StaffRow),
  POST('delTeacher', DelTeacherInput, EmptyAnswer),
  POST('setLeave', SetLeaveInput, StaffRow),
  POST('onJob', OnJobInput, StaffRow),
  POST('resetTeacherPwd', ResetTeacherPwdInput, ResetTeacherPwdResult),
  POST('teacherSaveInfo', TeacherSaveInfoInput, StaffRow),
  GET('selectClassTeacher', SelectClassTeacherQuery, StaffPickAnswer),
  GET('shuttleTeacher', ShuttleTeacherQuery, StaffPickAnswer),
  GET('tutorTeacher', TutorTeacherQuery, StaffPickAnswer),
  GET('teacherShuttleTeacher', TeacherShuttleTeacherQuery, StaffPickAnswer),
  GET('teacherTutorTeacher', TeacherTutorTeacherQuery, StaffPickAnswer),
] as const;
