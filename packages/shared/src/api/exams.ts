import { GET, POST, Pending } from './define';
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
  GET('studentExamList', ExamListQuery, Pending),
  POST('studentExamList', ExamListFilter, Pending),
  POST('addExam', AddExamInput, Pending),
  POST('editExam', EditExamInput, Pending),
  POST('delExam', DelExamInput, Pending),
  GET('examScore', ExamScoreQuery, Pending),
  POST('addExamScore', AddExamScoreInput, Pending),
  POST('delExamScore', DelExamScoreInput, Pending),
  GET('teacherStudentExamList', ExamListQuery, Pending),
  GET('teacherExamScore', ExamScoreQuery, Pending),
  POST('teacherAddExam', AddExamInput, Pending),
  POST('teacherEditExam', EditExamInput, Pending),
  POST('teacherAddExamScore', AddExamScoreInput, Pending),
  POST('teacherDelExamScore', DelExamScoreInput, Pending),
  POST('publishExamScores', PublishExamScoresInput, Pending),
  GET('parentExamScores', ParentExamScoresQuery, Pending),
  POST('examScoreImport', ExamScoreImportInput, Pending),
  GET('examScoreExport', ExamScoreExportQuery, Pending),
] as const;
