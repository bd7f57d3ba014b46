import { GET, POST, Pending } from './define';
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
  POST('issueHomeWork', IssueHomeWorkInput, Pending),
  GET('teachingTaskHomeWorks', TeachingTaskHomeWorksQuery, Pending),
  GET('teachingTaskWorkInfo', HomeWorkInfoQuery, Pending),
  GET('wantuoStudentHomeWork', StudentHomeWorkQuery, Pending),
  GET('wantuoStudentWorkInfo', StudentWorkInfoQuery, Pending),
  POST('markHomeWork', MarkHomeWorkInput, Pending),
  POST('parentDoneHomeWork', ParentDoneHomeWorkInput, Pending),
  GET('classHomeWorks', ClassHomeWorksQuery, Pending),
  GET('homeWorkInfo', HomeWorkInfoQuery, Pending),
] as const;
