import { FileAnswer, GET, POST, extraOf } from './define';
import {
  AddExamScoreResult,
  DelExamResult,
  Exam,
  ExamListAnswer,
  ExamScoreAnswer,
  ExamScoreImportResult,
  ParentExamScoresAnswer,
  PublishExamScoresResult,
} from '../answers/exams';
import {
  AddExamInput,
  AddExamScoreInput,
  DelExamInput,
  DelExamScoreInput,
  EditExamInput,
  ExamListFilter,
  ExamListQuery,
  ExamScoreExportQuery,
  ExamScoreImportInput,
  ExamScoreQuery,
  ParentExamScoresQuery,
  PublishExamScoresInput,
} from '../schemas/exams';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('exams');

/** The actions of module `exams` (docs/modules/exams.md). */
export const examsActions = [
  GET('studentExamList', ExamListQuery, ExamListAnswer),
  POST('studentExamList', ExamListFilter, ExamListAnswer),
  POST('addExam', AddExamInput, Exam),
  POST('editExam', EditExamInput, Exam),
  POST('delExam', DelExamInput, DelExamResult),
  GET('examScore', ExamScoreQuery, ExamScoreAnswer),
  POST('addExamScore', AddExamScoreInput, AddExamScoreResult),
  POST('delExamScore', DelExamScoreInput, AddExamScoreResult),
  GET('teacherStudentExamList', ExamListQuery, ExamListAnswer),
  GET('teacherExamScore', ExamScoreQuery, ExamScoreAnswer),
  POST('teacherAddExam', AddExamInput, Exam),
  POST('teacherEditExam', EditExamInput, Exam),
  POST('teacherAddExamScore', AddExamScoreInput, AddExamScoreResult),
  POST('teacherDelExamScore', DelExamScoreInput, AddExamScoreResult),
  POST(
    'publishExamScores',
    PublishExamScoresInput,
    PublishExamScoresResult,
    extra(
      ['A', 'T', 'H'],
      "publish an exam's scores to the guardians on the version read (a teacher: an exam all of whose classes are theirs): guardians see them from then on (parentExamScores), and each guardian of a student with a score gets one message per exam (WeChat, else SMS), written in bulk (a second publish tells only guardians not told yet)",
    ),
  ),
  GET(
    'parentExamScores',
    ParentExamScoresQuery,
    ParentExamScoresAnswer,
    extra(
      ['P'],
      "a guardian's child's published exam scores, newest exam first, paged: score (or absent), rank in the class, the class's number of scores and average",
    ),
  ),
  POST(
    'examScoreImport',
    ExamScoreImportInput,
    ExamScoreImportResult,
    extra(
      ['A', 'T', 'H'],
      "import an exam's scores from .xlsx (multipart file; the sheet of examScoreExport: student number, name, score or 缺考): dry_run 1 lists every bad row, 0 saves all rows or none with the checks of addExamScore (a teacher: own classes' students)",
    ),
  ),
  GET(
    'examScoreExport',
    ExamScoreExportQuery,
    FileAnswer,
    extra(
      ['A', 'T', 'H'],
      "download an exam's scores as .xlsx (student number, name, class, score or 缺考, class and school rank), the sheet examScoreImport reads back (a teacher: own classes)",
    ),
  ),
] as const;
