import { GET, POST, Pending } from './define';
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
  POST('studentEnter', FlowStepInput, Pending),
  POST('shuttleStudent', FlowStepInput, Pending),
  POST('teacherStudentDinner', FlowStepInput, Pending),
  POST('teacherStudentStartTutor', FlowStepInput, Pending),
  POST('teacherStudentEndTutor', FlowStepInput, Pending),
  POST('studentLiyuan', StudentLiyuanInput, Pending),
  GET('teacherTodayTask', TeacherTodayTaskInput, Pending),
  GET('shuttleTask', ShuttleTaskInput, Pending),
  GET('tutorTask', TutorTaskInput, Pending),
  GET('tutorTaskInfo', TutorTaskInfoInput, Pending),
  GET('clockingInList', ClockingInListQuery, Pending),
  GET('clockingInInfo', ClockingInInfoQuery, Pending),
  GET('studentClockingInCount', StudentClockingInCountQuery, Pending),
  GET('teacherClockingInCount', TeacherClockingInCountInput, Pending),
  GET('flowBoard', FlowBoardQuery, Pending),
  GET('flowAlerts', FlowAlertsQuery, Pending),
  POST('teacherClockIn', TeacherClockInput, Pending),
  POST('teacherClockOut', TeacherClockInput, Pending),
  GET('studentClockingInExport', StudentClockingInCountQuery, Pending),
  POST('teacherHandOverStudent', TeacherHandOverStudentInput, Pending),
  POST('voidFlowEvent', VoidFlowEventInput, Pending),
] as const;
