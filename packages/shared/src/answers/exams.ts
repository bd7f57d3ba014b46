// The answer schemas of module `exams` (what `data` carries, as JSON), declared in api/exams.ts.
import { z } from 'zod';
import { pageOf, wire } from '../api/define';

const { id, count, day, at } = wire;

/** marks: whole or half points (87.5) */
const mark = z.number();
/** a school day, YYYY-MM-DD */
/** an instant, ISO text */

// ---------------------------------------------------------------- exams

export const ExamClass = z.object({ id, name: z.string() });
export type ExamClass = z.infer<typeof ExamClass>;

export const Exam = z.object({
  id,
  name: z.string(),
  subject: z.string(),
  exam_day: day,
  full_mark: z.number().int(),
  /** the pass mark in force (given, else 60% of the full mark) */
  pass_mark: mark,
  pass_mark_given: z.boolean(),
  classes: z.array(ExamClass),
  /** students with a score, absent ones, the average of the scores (null: none yet) */
  scored: count,
  absent: count,
  average: z.number().nullable(),
  published_at: at.nullable(),
  created_by_name: z.string().nullable(),
  created_at: at,
  version: z.number().int(),
  scores_version: z.number().int(),
});
export type Exam = z.infer<typeof Exam>;

/** studentExamList (GET and POST) / teacherStudentExamList. */
export const ExamListAnswer = pageOf(Exam);
export type ExamListAnswer = z.infer<typeof ExamListAnswer>;

/** delExam: the exam deleted and how many scores went with it. */
export const DelExamResult = z.object({ id, scores: count });
export type DelExamResult = z.infer<typeof DelExamResult>;

export const PublishExamScoresResult = z.object({
  published_at: at,
  version: z.number().int(),
  /** guardians told by this publish (WeChat, else SMS; those not told of this exam before) */
  texted: count,
});
export type PublishExamScoresResult = z.infer<typeof PublishExamScoresResult>;

// ---------------------------------------------------------------- scores

/** Statistics of a set of scores (scoreStats). */
export const ScoreStats = z.object({
  /** students with a score (absent ones excluded) */
  count,
  absent: count,
  /** marks (not half-points); null when nobody has a score */
  average: z.number().nullable(),
  highest: mark.nullable(),
  lowest: mark.nullable(),
  passed: count,
  /** 0..100 with one decimal; null when nobody has a score */
  pass_rate: z.number().nullable(),
});
export type ScoreStats = z.infer<typeof ScoreStats>;

/** One band of the distribution (scoreBands). */
export const ScoreBand = z.object({
  /** lower bound in percent of the full mark (inclusive) */
  from: z.number(),
  /** upper bound in percent (exclusive, but 100 includes the full mark) */
  to: z.number(),
  /** the marks this band covers, e.g. "60–69.5" for a full mark of 100 */
  label: z.string(),
  count,
});
export type ScoreBand = z.infer<typeof ScoreBand>;

/** One student of examScore (kept small: 2,000 rows in an answer). The class's name is in `exam.classes`. */
export const ExamScoreRow = z.object({
  student_id: id,
  student_name: z.string(),
  class_id: id.nullable(),
  /** null: no entry yet, or absent */
  score: mark.nullable(),
  /** an entry saying absent (no entry: score null and absent false) */
  absent: z.boolean(),
  class_rank: count.nullable(),
  school_rank: count.nullable(),
});
export type ExamScoreRow = z.infer<typeof ExamScoreRow>;

export const ExamClassStats = ScoreStats.extend({ class_id: id, class_name: z.string(), students: count });
export type ExamClassStats = z.infer<typeof ExamClassStats>;

/** examScore / teacherExamScore. */
export const ExamScoreAnswer = z.object({
  exam: Exam,
  /** every student of the exam's classes (a teacher: of own classes), by class then name */
  list: z.array(ExamScoreRow),
  stats: ScoreStats.extend({ students: count }),
  classes: z.array(ExamClassStats),
  bands: z.array(ScoreBand),
  /** false for a teacher who is not in charge of every class of the exam (may not edit or publish it) */
  can_manage: z.boolean(),
});
export type ExamScoreAnswer = z.infer<typeof ExamScoreAnswer>;

/** addExamScore / delExamScore (and the teacher's): rows saved (0 for a deletion) and the exam's new scores_version. */
export const AddExamScoreResult = z.object({ saved: count, scores_version: z.number().int() });
export type AddExamScoreResult = z.infer<typeof AddExamScoreResult>;

export const ExamScoreImportProblem = z.object({ row: z.number().int(), column: z.string(), message: z.string() });
export type ExamScoreImportProblem = z.infer<typeof ExamScoreImportProblem>;

export const ExamScoreImportResult = z.object({
  dry_run: z.boolean(),
  rows: count,
  saved: count,
  problems: z.array(ExamScoreImportProblem),
});
export type ExamScoreImportResult = z.infer<typeof ExamScoreImportResult>;

// ---------------------------------------------------------------- guardians

export const ParentExamScore = z.object({
  exam_id: id,
  name: z.string(),
  subject: z.string(),
  exam_day: day,
  full_mark: z.number().int(),
  pass_mark: mark,
  class_name: z.string().nullable(),
  score: mark.nullable(),
  absent: z.boolean(),
  class_rank: count.nullable(),
  class_count: count,
  class_average: z.number().nullable(),
});
export type ParentExamScore = z.infer<typeof ParentExamScore>;

export const ParentExamScoresAnswer = pageOf(ParentExamScore).extend({ student_id: id, student_name: z.string() });
export type ParentExamScoresAnswer = z.infer<typeof ParentExamScoresAnswer>;
