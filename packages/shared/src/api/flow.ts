import { FileAnswer, GET, POST } from './define';
import {
  FlowAlertPage,
  FlowBoard,
  FlowResults,
  ShuttleTask,
  StaffClockRecord,
  StudentDayCounts,
  StudentDayInfo,
  StudentDayPage,
  TeacherClockingInCount,
  TeacherHandOverResult,
  TeacherTodayTask,
  TutorTask,
  TutorTaskInfo,
} from '../answers/flow';
import {
  ClockingInInfoQuery,
  ClockingInListQuery,
  FlowStepInput,
  StudentClockingInCountQuery,
  StudentLiyuanInput,
  VoidFlowEventInput,
} from '../schemas/flow';
import {
  ShuttleTaskInput,
  TeacherClockInput,
  TeacherClockingInCountInput,
  TeacherHandOverStudentInput,
  TeacherTodayTaskInput,
  TutorTaskInfoInput,
  TutorTaskInput,
} from '../schemas/leave';
import { FlowBoardQuery } from '../schemas/board';
import { FlowAlertsQuery } from '../schemas/alerts';

/** The actions of module `flow` (docs/modules/flow.md). */
export const flowActions = [
  POST('studentEnter', FlowStepInput, FlowResults),
  POST('shuttleStudent', FlowStepInput, FlowResults),
  POST('teacherStudentDinner', FlowStepInput, FlowResults),
  POST('teacherStudentStartTutor', FlowStepInput, FlowResults),
  POST('teacherStudentEndTutor', FlowStepInput, FlowResults),
  POST('studentLiyuan', StudentLiyuanInput, FlowResults),
  GET('teacherTodayTask', TeacherTodayTaskInput, TeacherTodayTask),
  GET('shuttleTask', ShuttleTaskInput, ShuttleTask),
  GET('tutorTask', TutorTaskInput, TutorTask),
  GET('tutorTaskInfo', TutorTaskInfoInput, TutorTaskInfo),
  GET('clockingInList', ClockingInListQuery, StudentDayPage),
  GET('clockingInInfo', ClockingInInfoQuery, StudentDayInfo),
  GET('studentClockingInCount', StudentClockingInCountQuery, StudentDayCounts),
  GET('teacherClockingInCount', TeacherClockingInCountInput, TeacherClockingInCount),
  GET('flowBoard', FlowBoardQuery, FlowBoard),
  GET('flowAlerts', FlowAlertsQuery, FlowAlertPage),
  POST('teacherClockIn', TeacherClockInput, StaffClockRecord),
  POST('teacherClockOut', TeacherClockInput, StaffClockRecord),
  GET('studentClockingInExport', StudentClockingInCountQuery, FileAnswer),
  POST('teacherHandOverStudent', TeacherHandOverStudentInput, TeacherHandOverResult),
  POST('voidFlowEvent', VoidFlowEventInput, StudentDayInfo),
] as const;
