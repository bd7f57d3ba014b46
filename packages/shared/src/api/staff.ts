import { GET, POST, Pending } from './define';
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
  GET('accountList', AccountListQuery, Pending),
  GET('teachersList', TeachersListQuery, Pending),
  GET('teacherInfo', TeacherInfoQuery, Pending),
  POST('addTeacher', AddTeacherInput, Pending),
  POST('editTeacher', EditTeacherInput, Pending),
  POST('delTeacher', DelTeacherInput, Pending),
  POST('setLeave', SetLeaveInput, Pending),
  POST('onJob', OnJobInput, Pending),
  POST('resetTeacherPwd', ResetTeacherPwdInput, Pending),
  POST('teacherSaveInfo', TeacherSaveInfoInput, Pending),
  GET('selectClassTeacher', SelectClassTeacherQuery, Pending),
  GET('shuttleTeacher', ShuttleTeacherQuery, Pending),
  GET('tutorTeacher', TutorTeacherQuery, Pending),
  GET('teacherShuttleTeacher', TeacherShuttleTeacherQuery, Pending),
  GET('teacherTutorTeacher', TeacherTutorTeacherQuery, Pending),
] as const;
