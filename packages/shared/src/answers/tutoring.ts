// The answer schemas of module `tutoring` (what `data` carries, as JSON), declared in api/tutoring.ts.
import { z } from 'zod';
import { pageOf, wire } from '../api/define';
import { ROLL_CALL_STATUSES, SESSION_STATES } from '../schemas/teaching';
import { Clash, GeneratedSession, SelectableStudent, SessionClassBase, SkippedSession, TeachingClassMember, TeachingSession } from './teaching';

const { id, count } = wire;

// ---------------------------------------------------------------- types and settings

/** One row of tutorialType. */
export const TutorialType = z.object({
  id,
  name: z.string(),
  sort: z.number().int(),
  /** tutoring classes of this type (not deleted) */
  classes: count,
});
export type TutorialType = z.infer<typeof TutorialType>;

export const TutorialTypePage = pageOf(TutorialType);
export type TutorialTypePage = z.infer<typeof TutorialTypePage>;

/** One row of tutorialSettingList, and `data` of tutorialSetting. */
export const TutorialSetting = z.object({
  type_id: id,
  name: z.string(),
  duration_min: count,
  price_fen: z.number().int(),
  teacher_id: id.nullable(),
  teacher_name: z.string().nullable(),
  version: count,
});
export type TutorialSetting = z.infer<typeof TutorialSetting>;

export const TutorialSettingPage = pageOf(TutorialSetting);
export type TutorialSettingPage = z.infer<typeof TutorialSettingPage>;

// ---------------------------------------------------------------- classes

/** A tutoring class: `data` of tutorialInfo and of the class's writes, rows of tutorialList. */
export const TutoringClass = SessionClassBase.extend({
  type_id: id,
  type_name: z.string(),
  duration_min: count,
  /** price per session when the class was created (fen) */
  price_fen: z.number().int(),
  pattern: z.array(z.object({ weekday: z.number().int(), start_time: z.string(), end_time: z.string() })),
  from: z.string(),
  to: z.string(),
  remark: z.string().nullable(),
});
export type TutoringClass = z.infer<typeof TutoringClass>;

export const TutoringClassPage = pageOf(TutoringClass);
export type TutoringClassPage = z.infer<typeof TutoringClassPage>;

/** `data` of addTutorialSchoolCare: the generation (preview or written) and the class created. */
export const AddTutorialSchoolCareAnswer = z.object({
  preview: z.boolean(),
  sessions: z.array(GeneratedSession),
  skipped: z.array(SkippedSession),
  clashes: z.array(Clash),
  limit_reached: z.boolean(),
  written: count,
  /** the class created (null on a preview) */
  class: TutoringClass.nullable(),
});
export type AddTutorialSchoolCareAnswer = z.infer<typeof AddTutorialSchoolCareAnswer>;

/** `data` of delTutorialClass: the class deleted and the planned sessions cancelled with it. */
export const DelTutorialClassAnswer = z.object({ id, cancelled: count });
export type DelTutorialClassAnswer = z.infer<typeof DelTutorialClassAnswer>;

/** A tutoring session: the row shape of a teaching session (lesson_no among the class's sessions not cancelled). */
export const TutoringSession = TeachingSession;
export type TutoringSession = z.infer<typeof TutoringSession>;

export const TutoringSessionPage = pageOf(TutoringSession);
export type TutoringSessionPage = z.infer<typeof TutoringSessionPage>;

// ---------------------------------------------------------------- students

/** One row of tutorialStudent. */
export const TutoringMember = TeachingClassMember.extend({
  plan: z.string().nullable(),
  /** roll calls present or late at the class's sessions */
  attended: count,
});
export type TutoringMember = z.infer<typeof TutoringMember>;

export const TutoringMemberPage = pageOf(TutoringMember);
export type TutoringMemberPage = z.infer<typeof TutoringMemberPage>;

/** One row of selectTutorialStudent. */
export const SelectableTutoringStudent = SelectableStudent.extend({
  /** the student's tutoring type from the care settings */
  tutoring_type: z.string().nullable(),
});
export type SelectableTutoringStudent = z.infer<typeof SelectableTutoringStudent>;

export const SelectableTutoringStudentPage = pageOf(SelectableTutoringStudent);
export type SelectableTutoringStudentPage = z.infer<typeof SelectableTutoringStudentPage>;

/** `data` of tutorialStudentInfo: one student's tutoring in a class. */
export const TutorialStudentInfo = z.object({
  student: z.object({
    id,
    name: z.string(),
    grade: z.string().nullable(),
    class_name: z.string().nullable(),
    tutoring_type: z.string().nullable(),
  }),
  class: TutoringClass.pick({ id: true, name: true, type_name: true, teacher_name: true, duration_min: true, price_fen: true }),
  /** the plan written when the student joined */
  plan: z.string().nullable(),
  joined_at: z.string(),
  counts: z.object({ sessions: count, held: count, planned: count, present: count, late: count, absent: count, leave: count }),
  next_sessions: z.array(z.object({ id, day: z.string(), start_time: z.string(), end_time: z.string(), room_name: z.string().nullable() })),
  /** the class's sessions up to today, newest first, with this student's roll call (paged) */
  records: pageOf(
    z.object({
      session_id: id,
      day: z.string(),
      start_time: z.string(),
      end_time: z.string(),
      state: z.enum(SESSION_STATES),
      status: z.enum(ROLL_CALL_STATUSES).nullable(),
      at: z.string().nullable(),
    }),
  ),
});
export type TutorialStudentInfo = z.infer<typeof TutorialStudentInfo>;
