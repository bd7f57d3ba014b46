import { GET, POST, extraOf } from './define';
import { Homework, HomeworkInfo, HomeworkPage, MarkHomeWorkResult, StudentHomeworkDay, StudentWorkInfo } from '../answers/homework';
import {
  ClassHomeWorksQuery,
  HomeWorkInfoQuery,
  IssueHomeWorkInput,
  MarkHomeWorkInput,
  ParentDoneHomeWorkInput,
  StudentHomeWorkQuery,
  StudentWorkInfoQuery,
  TeachingTaskHomeWorksQuery,
} from '../schemas/homework';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('homework');

/** The actions of module `homework` (docs/modules/homework.md). */
export const homeworkActions = [
  POST('issueHomeWork', IssueHomeWorkInput, Homework),
  GET('teachingTaskHomeWorks', TeachingTaskHomeWorksQuery, HomeworkPage),
  GET('teachingTaskWorkInfo', HomeWorkInfoQuery, HomeworkInfo),
  GET('wantuoStudentHomeWork', StudentHomeWorkQuery, StudentHomeworkDay),
  GET('wantuoStudentWorkInfo', StudentWorkInfoQuery, StudentWorkInfo),
  POST(
    'markHomeWork',
    MarkHomeWorkInput,
    MarkHomeWorkResult,
    extra(
      ['T', 'H'],
      'a teacher marks one homework of an own class done, checked or back to not done for several students at once (during tutoring, from the phone) with an optional note: all or none, the state machine of homework.ts, every change appended to the history; idempotent by request_id (a repeat changes nothing)',
    ),
  ),
  POST(
    'parentDoneHomeWork',
    ParentDoneHomeWorkInput,
    MarkHomeWorkResult,
    extra(
      ['P'],
      "a guardian marks an own child's homework done at home with a photo (upload) and an optional note; homework the teacher checked stays checked; idempotent by request_id",
    ),
  ),
  GET(
    'classHomeWorks',
    ClassHomeWorksQuery,
    HomeworkPage,
    extra(
      ['A', 'T', 'H'],
      'homework list with counts (not done, done, checked): the admin the whole school, a teacher or head teacher the own classes; by kind, class, the day it is open on and title, newest first, paged',
    ),
  ),
  GET(
    'homeWorkInfo',
    HomeWorkInfoQuery,
    HomeworkInfo,
    extra(
      ['A', 'T', 'H'],
      "one homework with each student's state, the teacher's note and the guardian's photo, paged, filterable by state (the admin any of the school, a teacher or head teacher one of an own class)",
    ),
  ),
] as const;
