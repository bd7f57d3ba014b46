import { z } from 'zod';
import { GET, IdAnswer, POST, extraOf } from './define';
import { PendingPayment } from '../answers/school';
import {
  CoursewareBought,
  CoursewareCenterAnswer,
  CoursewareDetail,
  CoursewareDictAnswer,
  CoursewareDictEntry,
  CoursewareEdited,
  CoursewareFileRow,
  CoursewareFilesAnswer,
  CoursewareSectionRow,
  CoursewareUploaded,
  LessonClassOption,
  LessonPlanDetail,
  LessonPlanListAnswer,
  LessonPlanSaved,
  OperatorCoursewareListAnswer,
  OwnedCoursewareListAnswer,
} from '../answers/courseware';
import {
  BalancePayCoursewareInput,
  CoursewareCenterQuery,
  CoursewareDictQuery,
  CoursewareFileQuery,
  CoursewareIdQuery,
  CoursewarePdfQuery,
  CoursewareSectionQuery,
  DelPrepareLessonsInput,
  EditCoursewareInput,
  OperatorCoursewareQuery,
  PrepareLessonsClassesQuery,
  PrepareLessonsInfoQuery,
  PrepareLessonsInput,
  PrepareLessonsListQuery,
  PublishCoursewareInput,
  SaveCoursewareDictInput,
  SaveCoursewareSectionInput,
  SchoolCoursewareListQuery,
  WechatPayCoursewareInput,
} from '../schemas/courseware';
import { EmptyInput } from '../schemas/auth';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('courseware');

/** The actions of module `courseware` (docs/modules/courseware.md). */
export const coursewareActions = [
  GET('subjectList', CoursewareDictQuery, CoursewareDictAnswer),
  GET('disciplineList', CoursewareDictQuery, CoursewareDictAnswer),
  GET('grade', CoursewareDictQuery, CoursewareDictAnswer),
  GET('term', CoursewareDictQuery, CoursewareDictAnswer),
  GET('tixi', CoursewareDictQuery, CoursewareDictAnswer),
  GET('edition', CoursewareDictQuery, CoursewareDictAnswer),
  GET('coursewareCenter', CoursewareCenterQuery, CoursewareCenterAnswer),
  GET('coursewareData', CoursewareIdQuery, CoursewareDetail),
  GET('coursewareSection', CoursewareSectionQuery, z.array(CoursewareSectionRow)),
  POST('coursewareSection', SaveCoursewareSectionInput, CoursewareSectionRow),
  GET('coursewareFile', CoursewareFileQuery, CoursewareFilesAnswer),
  GET('coursewarePdf', CoursewarePdfQuery, CoursewareFileRow),
  GET('schoolCoursewareList', SchoolCoursewareListQuery, OwnedCoursewareListAnswer),
  POST('balancePayCourseware', BalancePayCoursewareInput, CoursewareBought),
  POST('wechatPayCourseware', WechatPayCoursewareInput, PendingPayment),
  POST('prepareLessons', PrepareLessonsInput, LessonPlanSaved),
  GET('prepareLessonsInfo', PrepareLessonsInfoQuery, LessonPlanDetail),
  POST(
    'saveCoursewareDict',
    SaveCoursewareDictInput,
    CoursewareDictEntry,
    extra(
      ['O'],
      'platform operator adds or edits an entry of a courseware dictionary (subject, discipline, grade, term, tixi, edition; optimistic concurrency on version)',
    ),
  ),
  POST(
    'coursewareUpload',
    EmptyInput,
    CoursewareUploaded,
    extra(
      ['O', 'A'],
      'upload a courseware file (PDF, image, office; multipart `file`): stored privately, never under /uploads; PDFs get their page count',
    ),
  ),
  POST(
    'publishCourseware',
    PublishCoursewareInput,
    IdAnswer,
    extra(['O'], 'platform operator publishes a courseware: dictionaries, description, price (fen), sections with their files'),
  ),
  POST(
    'editCourseware',
    EditCoursewareInput,
    CoursewareEdited,
    extra(
      ['O'],
      'platform operator edits a courseware (title, dictionaries, description, price, on sale or withdrawn; optimistic concurrency on version)',
    ),
  ),
  GET(
    'operatorCoursewareList',
    OperatorCoursewareQuery,
    OperatorCoursewareListAnswer,
    extra(['O'], "platform operator's courseware list, paged, by keyword and status, with how many schools own each"),
  ),
  GET(
    'prepareLessonsList',
    PrepareLessonsListQuery,
    LessonPlanListAnswer,
    extra(
      ['T', 'H', 'A'],
      "lesson plans, paged, by class, date range and keyword: the admin sees the school's, a teacher their own and those of the classes they teach",
    ),
  ),
  GET(
    'prepareLessonsClasses',
    PrepareLessonsClassesQuery,
    z.array(LessonClassOption),
    extra(
      ['T', 'H', 'A'],
      'the classes a lesson plan may be for (care, teaching and tutoring classes; a teacher: the ones they teach), by keyword, at most 50',
    ),
  ),
  POST(
    'delPrepareLessons',
    DelPrepareLessonsInput,
    IdAnswer,
    extra(['T', 'H', 'A'], 'remove a lesson plan (its author or the admin; optimistic concurrency on version; the plan and its history are kept)'),
  ),
] as const;
