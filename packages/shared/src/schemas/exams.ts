import { z } from 'zod';
import { EXAM_MAX_BATCH, EXAM_MAX_CLASSES, EXAM_MAX_FULL_MARK, toHalfPoints } from '../exams';
import { lineText, pageQuery } from './common';
import { isCalendarDay } from '../school-time';

/**
 * Exams and their scores (issue 14, module `exams`). An exam covers care classes; marks are whole or half points
 * (sent and answered as numbers, 87.5), days school-local YYYY-MM-DD. Scores are checked row by row in the service
 * (every bad row named), so a row's `score` is taken as typed (number or text).
 */

const blank = (v: unknown) => (v === '' ? undefined : v);
const validDay = (v: string) => isCalendarDay(v);
const day = z.string({ error: 'exams.v.date_invalid' }).refine(validDay, { error: 'exams.v.date_invalid' });
const idOf = (error: string) => z.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const queryIdOf = (error: string) => z.coerce.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const examId = idOf('exams.v.exam_invalid');
const version = idOf('exams.v.version_invalid');
const classIds = z
  .array(idOf('exams.v.class_invalid'), { error: 'exams.v.classes_required' })
  .min(1, { error: 'exams.v.classes_required' })
  .max(EXAM_MAX_CLASSES, { error: 'exams.v.classes_required' })
  .refine((v) => new Set(v).size === v.length, { error: 'exams.v.classes_duplicate' });
const subject = lineText(20).min(1, { error: 'exams.v.subject_required' });
const fullMark = z
  .number({ error: 'exams.v.full_mark_invalid' })
  .int({ error: 'exams.v.full_mark_invalid' })
  .min(1, { error: 'exams.v.full_mark_invalid' })
  .max(EXAM_MAX_FULL_MARK, { error: 'exams.v.full_mark_invalid' });
const passMark = z
  .number({ error: 'exams.v.pass_mark_invalid' })
  .min(0, { error: 'exams.v.pass_mark_invalid' })
  .max(EXAM_MAX_FULL_MARK, { error: 'exams.v.pass_mark_invalid' })
  .refine((v) => toHalfPoints(v) !== null, { error: 'exams.v.pass_mark_invalid' });

const examFields = {
  name: lineText(50).min(1, { error: 'exams.v.name_required' }),
  subject,
  exam_day: day,
  full_mark: fullMark,
  /** omitted or null: 60% of the full mark */
  pass_mark: passMark.nullable().optional(),
  class_ids: classIds,
};
const passWithinFull = (v: { full_mark: number; pass_mark?: number | null }) =>
  v.pass_mark === null || v.pass_mark === undefined || v.pass_mark <= v.full_mark;

// ---------------------------------------------------------------- exams

/** GET studentExamList / teacherStudentExamList: one class, subject, a day range, a name, published or not. */
export const ExamListQuery = z.strictObject({
  ...pageQuery,
  class_id: z.preprocess(blank, queryIdOf('exams.v.class_invalid').optional()),
  subject: z.preprocess(blank, lineText(20).optional()),
  keyword: z.preprocess(blank, lineText(50).optional()),
  date_from: z.preprocess(blank, day.optional()),
  date_to: z.preprocess(blank, day.optional()),
  published: z.preprocess(blank, z.enum(['1', '0'], { error: 'exams.v.published_invalid' }).optional()),
});
export type ExamListQuery = z.infer<typeof ExamListQuery>;

/** POST studentExamList: the same filters with several classes and subjects. */
export const ExamListFilter = z
  .strictObject({
    page: z.number().int().min(1).max(100_000).default(1),
    limit: z.number().int().min(1).max(100).default(20),
    class_ids: z
      .array(idOf('exams.v.class_invalid'), { error: 'exams.v.class_invalid' })
      .max(EXAM_MAX_CLASSES * 4, { error: 'exams.v.class_invalid' })
      .optional(),
    subjects: z.array(subject, { error: 'exams.v.subject_required' }).max(20, { error: 'exams.v.subject_required' }).optional(),
    keyword: z.preprocess(blank, lineText(50).optional()),
    date_from: z.preprocess(blank, day.optional()),
    date_to: z.preprocess(blank, day.optional()),
    published: z.boolean({ error: 'exams.v.published_invalid' }).optional(),
  })
  .refine((v) => !v.date_from || !v.date_to || v.date_from <= v.date_to, { error: 'exams.v.range_invalid' });
export type ExamListFilter = z.infer<typeof ExamListFilter>;

export const AddExamInput = z.strictObject(examFields).refine(passWithinFull, { error: 'exams.v.pass_mark_invalid' });
export type AddExamInput = z.infer<typeof AddExamInput>;

export const EditExamInput = z.strictObject({ id: examId, version, ...examFields }).refine(passWithinFull, { error: 'exams.v.pass_mark_invalid' });
export type EditExamInput = z.infer<typeof EditExamInput>;

/** Deletes an exam with its scores: the screen confirms first and says so (`confirm: true`). */
export const DelExamInput = z.strictObject({ id: examId, version, confirm: z.literal(true, { error: 'exams.v.confirm_required' }) });
export type DelExamInput = z.infer<typeof DelExamInput>;

/** Publishes the scores to the guardians (texts once per guardian and exam; a second publish texts only new ones). */
export const PublishExamScoresInput = z.strictObject({ exam_id: examId, version });
export type PublishExamScoresInput = z.infer<typeof PublishExamScoresInput>;

// ---------------------------------------------------------------- scores

export const ExamScoreQuery = z.strictObject({
  exam_id: queryIdOf('exams.v.exam_invalid'),
  class_id: z.preprocess(blank, queryIdOf('exams.v.class_invalid').optional()),
});
export type ExamScoreQuery = z.infer<typeof ExamScoreQuery>;

/** One row of a batch: a mark (number or text as typed: "87.5", "缺考"), or `absent`. */
export const ExamScoreRowInput = z.strictObject({
  student_id: idOf('exams.v.student_invalid'),
  score: z.union([z.number(), z.string().max(20, { error: 'exams.score_not_number' }), z.null()], { error: 'exams.score_not_number' }).optional(),
  absent: z.boolean({ error: 'exams.v.absent_invalid' }).optional(),
});
export type ExamScoreRowInput = z.infer<typeof ExamScoreRowInput>;

/** A batch of scores, all or none. `scores_version`: the one examScore answered (a concurrent batch is refused). */
export const AddExamScoreInput = z.strictObject({
  exam_id: examId,
  scores_version: z.number().int().min(0).max(2_147_483_647).optional(),
  rows: z
    .array(ExamScoreRowInput, { error: 'exams.v.rows_required' })
    .min(1, { error: 'exams.v.rows_required' })
    .max(EXAM_MAX_BATCH, { error: 'exams.v.rows_too_many' }),
});
export type AddExamScoreInput = z.infer<typeof AddExamScoreInput>;

export const DelExamScoreInput = z.strictObject({ exam_id: examId, student_id: idOf('exams.v.student_invalid') });
export type DelExamScoreInput = z.infer<typeof DelExamScoreInput>;

/** examScoreImport (multipart `file`): dry_run 1 checks every row, 0 saves all rows or none. */
export const ExamScoreImportInput = z.strictObject({
  exam_id: queryIdOf('exams.v.exam_invalid'),
  dry_run: z.enum(['1', '0'], { error: 'exams.v.dry_run_invalid' }).default('1'),
});
export type ExamScoreImportInput = z.infer<typeof ExamScoreImportInput>;

export const ExamScoreExportQuery = z.strictObject({ exam_id: queryIdOf('exams.v.exam_invalid') });
export type ExamScoreExportQuery = z.infer<typeof ExamScoreExportQuery>;

/** parentExamScores: an own child's published scores, newest exam first. */
export const ParentExamScoresQuery = z.strictObject({ ...pageQuery, student_id: queryIdOf('exams.v.student_invalid') });
export type ParentExamScoresQuery = z.infer<typeof ParentExamScoresQuery>;
