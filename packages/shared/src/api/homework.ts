import { GET, POST } from './define';
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

/** The actions of module `homework` (docs/modules/homework.md). */
export const homeworkActions = [
  POST('issueHomeWork', IssueHomeWorkInput, Homework),
  GET('teachingTaskHomeWorks', TeachingTaskHomeWorksQuery, HomeworkPage),
  GET('teachingTaskWorkInfo', HomeWorkInfoQuery, HomeworkInfo),
  GET('wantuoStudentHomeWork', StudentHomeWorkQuery, StudentHomeworkDay),
  GET('wantuoStudentWorkInfo', StudentWorkInfoQuery, StudentWorkInfo),
  POST('markHomeWork', MarkHomeWorkInput, MarkHomeWorkResult),
  POST('parentDoneHomeWork', ParentDoneHomeWorkInput, MarkHomeWorkResult),
  GET('classHomeWorks', ClassHomeWorksQuery, HomeworkPage),
  GET('homeWorkInfo', HomeWorkInfoQuery, HomeworkInfo),
] as const;
