import { GET, IdAnswer, POST } from './define';
import {
  ClassScheduleAnswer,
  ClassTime,
  ClassTimeOptions,
  ClassTimePage,
  SchoolTeachingScheduleAnswer,
  StudentClassTimes,
  TeacherAvailability,
  TeacherScheduleAnswer,
} from '../answers/timetable';
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
  GET('classTimeList', ClassTimeListQuery, ClassTimePage),
  GET('selectClassTime', SelectClassTimeQuery, ClassTimeOptions),
  POST('addClassTime', AddClassTimeInput, ClassTime),
  POST('editClassTime', EditClassTimeInput, ClassTime),
  POST('delClassTime', DelClassTimeInput, IdAnswer),
  POST('addStudentClassTime', AddStudentClassTimeInput, StudentClassTimes),
  GET('classSchedule', ClassScheduleQuery, ClassScheduleAnswer),
  GET('schoolTeachingSchedule', WeekQuery, SchoolTeachingScheduleAnswer),
  GET('teacherSchedule', WeekQuery, TeacherScheduleAnswer),
  POST('teacherSchedule', SaveTeacherScheduleInput, TeacherAvailability),
] as const;
