import { FileAnswer, GET, POST } from './define';
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
  POST('publishExamScores', PublishExamScoresInput, PublishExamScoresResult),
  GET('parentExamScores', ParentExamScoresQuery, ParentExamScoresAnswer),
  POST('examScoreImport', ExamScoreImportInput, ExamScoreImportResult),
  GET('examScoreExport', ExamScoreExportQuery, FileAnswer),
] as const;
