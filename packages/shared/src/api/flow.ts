import { FileAnswer, GET, POST, extraOf } from './define';
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

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('flow');

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
  GET(
    'flowBoard',
    FlowBoardQuery,
    FlowBoard,
    extra(['A', 'T', 'H'], "a day's board: the caller's students (all for the admin) with state, step times, settings and authorised pick-up people"),
  ),
  GET(
    'flowAlerts',
    FlowAlertsQuery,
    FlowAlertPage,
    extra(['A', 'H'], "a day's flow alerts (not picked up, not entered, absent without leave, still in the centre after closing), open first"),
  ),
  POST('teacherClockIn', TeacherClockInput, StaffClockRecord, extra(['T', 'H'], 'a teacher clocks in for the day (once a day)')),
  POST('teacherClockOut', TeacherClockInput, StaffClockRecord, extra(['T', 'H'], 'a teacher clocks out for the day (once a day, after clocking in)')),
  GET(
    'studentClockingInExport',
    StudentClockingInCountQuery,
    FileAnswer,
    extra(['A', 'H'], 'download the attendance counts of studentClockingInCount (by day, week or month, per class) as .xlsx (data centre)'),
  ),
  POST(
    'teacherHandOverStudent',
    TeacherHandOverStudentInput,
    TeacherHandOverResult,
    extra(
      ['T', 'H'],
      "a teacher hands today's shuttle or tutoring task of one own student to another on-job teacher with that duty (from teacherShuttleTeacher / teacherTutorTeacher): the student leaves the caller's list of that duty and joins theirs for the day, whose flow steps they then record; before the pick-up or the end of tutoring only",
    ),
  ),
  POST(
    'voidFlowEvent',
    VoidFlowEventInput,
    StudentDayInfo,
    extra(['H'], "a head teacher voids a student's latest step of the day with a reason (a compensating event.voided; history is never edited)"),
  ),
] as const;
