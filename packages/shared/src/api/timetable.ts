import { GET, POST, Pending } from './define';
import {
  AddClassTimeInput,
  AddStudentClassTimeInput,
  ClassTimeListQuery,
  DelClassTimeInput,
  EditClassTimeInput,
  SelectClassTimeQuery,
} from '../schemas/care';
import { ClassScheduleQuery, SaveTeacherScheduleInput, WeekQuery } from '../schemas/timetable';

/** The actions of module `timetable` (docs/modules/timetable.md). */
export const timetableActions = [
  GET('classTimeList', ClassTimeListQuery, Pending),
  GET('selectClassTime', SelectClassTimeQuery, Pending),
  POST('addClassTime', AddClassTimeInput, Pending),
  POST('editClassTime', EditClassTimeInput, Pending),
  POST('delClassTime', DelClassTimeInput, Pending),
  POST('addStudentClassTime', AddStudentClassTimeInput, Pending),
  GET('classSchedule', ClassScheduleQuery, Pending),
  GET('schoolTeachingSchedule', WeekQuery, Pending),
  GET('teacherSchedule', WeekQuery, Pending),
  POST('teacherSchedule', SaveTeacherScheduleInput, Pending),
] as const;
