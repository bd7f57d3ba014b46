// The answer schemas of module `homework` (what `data` carries, as JSON), declared in api/homework.ts.
import { z } from 'zod';
import { pageOf } from '../api/define';
import { HOMEWORK_KINDS, HOMEWORK_STATES } from '../homework';

const state = z.enum(HOMEWORK_STATES);

/** A homework without its counts (as one student's homework carries it). */
const HomeworkFields = z.object({
  id: z.number().int(),
  kind: z.enum(HOMEWORK_KINDS),
  class_id: z.number().int(),
  class_name: z.string(),
  session_id: z.number().int().nullable(),
  /** the session's day, for homework of one session */
  session_day: z.string().nullable(),
  title: z.string(),
  content: z.string(),
  /** the files as set (HomeworkAttachment) */
  attachments: z.array(z.object({ url: z.string(), name: z.string() })),
  set_day: z.string(),
  due_day: z.string(),
  teacher_id: z.number().int(),
  teacher_name: z.string(),
  created_at: z.string(),
});

/** issueHomeWork; a row of the homework lists: the homework with its students' counts. */
export const Homework = HomeworkFields.extend({
  /** the students it was set for, and how many are at each state */
  students: z.number().int(),
  todo: z.number().int(),
  done: z.number().int(),
  checked: z.number().int(),
});
export type Homework = z.infer<typeof Homework>;

/** classHomeWorks, teachingTaskHomeWorks */
export const HomeworkPage = pageOf(Homework);
export type HomeworkPage = z.infer<typeof HomeworkPage>;

/** The state of one student's homework. */
const SubmissionFields = z.object({
  state,
  /** the teacher's note */
  note: z.string().nullable(),
  /** the guardian's photo and note when done at home */
  photo_url: z.string().nullable(),
  home_note: z.string().nullable(),
  updated_by_name: z.string().nullable(),
  updated_at: z.string().nullable(),
  version: z.number().int(),
});

export const HomeworkSubmission = SubmissionFields.extend({
  student_id: z.number().int(),
  student_name: z.string(),
});
export type HomeworkSubmission = z.infer<typeof HomeworkSubmission>;

/** homeWorkInfo, teachingTaskWorkInfo: the homework and a page of its students' states. */
export const HomeworkInfo = pageOf(HomeworkSubmission).extend({ homework: Homework });
export type HomeworkInfo = z.infer<typeof HomeworkInfo>;

/** One student's homework: the homework (without counts) and the student's state of it. */
export const StudentHomework = HomeworkFields.extend(SubmissionFields.shape);
export type StudentHomework = z.infer<typeof StudentHomework>;

/** wantuoStudentHomeWork: a student's homework open on a day. */
export const StudentHomeworkDay = z.object({
  student_id: z.number().int(),
  student_name: z.string(),
  day: z.string(),
  list: z.array(StudentHomework),
});
export type StudentHomeworkDay = z.infer<typeof StudentHomeworkDay>;

export const HomeworkHistoryEntry = z.object({
  id: z.number().int(),
  from_state: state,
  to_state: state,
  note: z.string().nullable(),
  photo_url: z.string().nullable(),
  actor_name: z.string().nullable(),
  /** teacher or guardian */
  actor: z.enum(['teacher', 'guardian']),
  at: z.string(),
});
export type HomeworkHistoryEntry = z.infer<typeof HomeworkHistoryEntry>;

/** wantuoStudentWorkInfo */
export const StudentWorkInfo = z.object({
  student_id: z.number().int(),
  student_name: z.string(),
  homework: StudentHomework,
  /** the student's tutoring today, school-local (null: no record today) */
  tutoring: z
    .object({ day: z.string(), started_at: z.string().nullable(), ended_at: z.string().nullable(), started_by_name: z.string().nullable() })
    .nullable(),
  /** every state change, oldest first (notes written during tutoring, the guardian's photo) */
  history: z.array(HomeworkHistoryEntry),
});
export type StudentWorkInfo = z.infer<typeof StudentWorkInfo>;

/** markHomeWork, parentDoneHomeWork */
export const MarkHomeWorkResult = z.object({
  homework_id: z.number().int(),
  state,
  /** students whose state or note changed (a repeat changes nothing) */
  changed: z.number().int(),
  results: z.array(z.object({ student_id: z.number().int(), state, version: z.number().int() })),
});
export type MarkHomeWorkResult = z.infer<typeof MarkHomeWorkResult>;
