import { z } from 'zod';
import { HHMM_RE, startsBeforeEnd } from '../time-slots';
import { lineText, pageQuery } from './common';

/**
 * After-school-care classes (care module) and time slots (timetable module): input schemas named after their
 * actions (actions.tsv) and the shapes of their answers.
 */
export const CareClassStatus = { Stopped: 0, Running: 1 } as const;
export type CareClassStatus = (typeof CareClassStatus)[keyof typeof CareClassStatus];

export const DUTIES = ['shuttle', 'tutor', 'head'] as const;
export type Duty = (typeof DUTIES)[number];

/** At most this many students are added in one request, and a class holds at most 500. */
export const CARE_LIMITS = { batch: 100, capacity: 500, feeFen: 100_000_000, studentSlots: 20 } as const;

const queryId = z.coerce
  .number({ error: 'care.v.id_invalid' })
  .int({ error: 'care.v.id_invalid' })
  .positive({ error: 'care.v.id_invalid' })
  .max(2_147_483_647, { error: 'care.v.id_invalid' });
const bodyId = z
  .number({ error: 'care.v.id_invalid' })
  .int({ error: 'care.v.id_invalid' })
  .positive({ error: 'care.v.id_invalid' })
  .max(2_147_483_647, { error: 'care.v.id_invalid' });
const version = z
  .number({ error: 'care.v.version_invalid' })
  .int({ error: 'care.v.version_invalid' })
  .min(1, { error: 'care.v.version_invalid' })
  .max(2_147_483_647, { error: 'care.v.version_invalid' });
/** a search text of a list; empty means no search */
const search = lineText(50).optional();
/** an empty query value counts as absent */
const blankAsAbsent = (v: unknown) => (v === '' ? undefined : v);

const studentIds = z
  .array(bodyId, { error: 'care.v.student_ids_invalid' })
  .min(1, { error: 'care.v.student_ids_invalid' })
  .max(CARE_LIMITS.batch, { error: 'care.v.student_ids_invalid' })
  .refine((ids) => new Set(ids).size === ids.length, { error: 'care.v.duplicate_ids' });

// ---------------------------------------------------------------- care classes

const classFields = {
  name: lineText(50).min(1, { error: 'care.v.class_name_invalid' }),
  /** an on-job teacher or head teacher of the school; null: none yet */
  head_teacher_id: bodyId.nullable().optional(),
  /** a time slot of the school; null: none yet */
  class_time_id: bodyId.nullable().optional(),
  capacity: z
    .number({ error: 'care.v.capacity_invalid' })
    .int({ error: 'care.v.capacity_invalid' })
    .min(1, { error: 'care.v.capacity_invalid' })
    .max(CARE_LIMITS.capacity, { error: 'care.v.capacity_invalid' }),
  fee_fen: z
    .number({ error: 'care.v.fee_invalid' })
    .int({ error: 'care.v.fee_invalid' })
    .min(0, { error: 'care.v.fee_invalid' })
    .max(CARE_LIMITS.feeFen, { error: 'care.v.fee_invalid' }),
};

export const ClassListQuery = z.strictObject({
  ...pageQuery,
  /** part of the class name */
  name: search,
  /** 1 running, 0 stopped; absent or empty: all */
  status: z.preprocess(
    blankAsAbsent,
    z.coerce
      .number({ error: 'care.v.class_status_invalid' })
      .pipe(z.literal([0, 1], { error: 'care.v.class_status_invalid' }))
      .optional(),
  ),
});
export type ClassListQuery = z.infer<typeof ClassListQuery>;

export const WantuoInfoQuery = z.strictObject({ id: queryId });
export type WantuoInfoQuery = z.infer<typeof WantuoInfoQuery>;

export const WantuoStudentQuery = z.strictObject({ ...pageQuery, id: queryId, name: search });
export type WantuoStudentQuery = z.infer<typeof WantuoStudentQuery>;

export const SelectWantuoStudentQuery = z.strictObject({ ...pageQuery, name: search });
export type SelectWantuoStudentQuery = z.infer<typeof SelectWantuoStudentQuery>;

export const AddAfterSchoolCareInput = z.strictObject({ ...classFields, fee_fen: classFields.fee_fen.optional() });
export type AddAfterSchoolCareInput = z.infer<typeof AddAfterSchoolCareInput>;

export const EditAfterSchoolCareInput = z.strictObject({ id: bodyId, version, ...classFields });
export type EditAfterSchoolCareInput = z.infer<typeof EditAfterSchoolCareInput>;

export const AddWantuoStudentInput = z.strictObject({ class_id: bodyId, student_ids: studentIds });
export type AddWantuoStudentInput = z.infer<typeof AddWantuoStudentInput>;

/** GET delWantuoStudent: the preview of a removal. */
export const DelWantuoStudentQuery = z.strictObject({ class_id: queryId, student_id: queryId });
export type DelWantuoStudentQuery = z.infer<typeof DelWantuoStudentQuery>;

export const DelWantuoStudentInput = z.strictObject({ class_id: bodyId, student_id: bodyId });
export type DelWantuoStudentInput = z.infer<typeof DelWantuoStudentInput>;

export const DelClassInput = z.strictObject({ id: bodyId });
export type DelClassInput = z.infer<typeof DelClassInput>;

export const StartAndEndInput = z.strictObject({
  id: bodyId,
  version,
  /** 1 start, 0 stop */
  status: z.literal([0, 1], { error: 'care.v.class_status_invalid' }),
});
export type StartAndEndInput = z.infer<typeof StartAndEndInput>;

/**
 * Assigns a teacher to a duty of a class (student_id absent or null) or of one student of the class; replaces the
 * teacher of that (class, student, duty). With `remove: true` (and no teacher_id) the assignment is removed.
 * 'head' is a duty of the class only and also sets the class's head teacher.
 */
export const AllotTeacherInput = z
  .strictObject({
    class_id: bodyId,
    student_id: bodyId.nullable().optional(),
    duty: z.enum(DUTIES, { error: 'care.v.duty_invalid' }),
    teacher_id: bodyId.optional(),
    remove: z.boolean({ error: 'care.v.remove_invalid' }).optional(),
  })
  .refine((v) => (v.remove === true) !== (v.teacher_id !== undefined), { error: 'care.v.allot_teacher_or_remove', path: ['teacher_id'] })
  .refine((v) => v.duty !== 'head' || v.student_id === undefined || v.student_id === null, {
    error: 'care.v.head_duty_class_only',
    path: ['student_id'],
  });
export type AllotTeacherInput = z.infer<typeof AllotTeacherInput>;

/** The caller's class: absent picks the class they head, else the first they have a duty in. */
export const TeacherWantuoInfoQuery = z.strictObject({ id: z.preprocess(blankAsAbsent, queryId.optional()) });
export type TeacherWantuoInfoQuery = z.infer<typeof TeacherWantuoInfoQuery>;

export const TeacherWantuoStudentQuery = z.strictObject({ ...pageQuery, id: z.preprocess(blankAsAbsent, queryId.optional()), name: search });
export type TeacherWantuoStudentQuery = z.infer<typeof TeacherWantuoStudentQuery>;

export const TeacherSelectWantuoStudentQuery = SelectWantuoStudentQuery;
export type TeacherSelectWantuoStudentQuery = z.infer<typeof TeacherSelectWantuoStudentQuery>;

export const TeacherAddWantuoStudentInput = AddWantuoStudentInput;
export type TeacherAddWantuoStudentInput = z.infer<typeof TeacherAddWantuoStudentInput>;

export const TeacherDelWantuoStudentInput = DelWantuoStudentInput;
export type TeacherDelWantuoStudentInput = z.infer<typeof TeacherDelWantuoStudentInput>;

// ---------------------------------------------------------------- time slots

const hhmm = z
  .string({ error: 'care.v.time_invalid' })
  .trim()
  .max(5, { error: 'care.v.time_invalid' })
  .regex(HHMM_RE, { error: 'care.v.time_invalid' });

const slotFields = {
  name: lineText(30).min(1, { error: 'care.v.slot_name_invalid' }),
  start_time: hhmm,
  end_time: hhmm,
  /** 1 Monday .. 7 Sunday, at least one */
  weekdays: z
    .array(
      z
        .number({ error: 'care.v.weekdays_invalid' })
        .int({ error: 'care.v.weekdays_invalid' })
        .min(1, { error: 'care.v.weekdays_invalid' })
        .max(7, { error: 'care.v.weekdays_invalid' }),
      { error: 'care.v.weekdays_invalid' },
    )
    .min(1, { error: 'care.v.weekdays_invalid' })
    .max(7, { error: 'care.v.weekdays_invalid' })
    .refine((d) => new Set(d).size === d.length, { error: 'care.v.weekdays_invalid' })
    .transform((d) => [...d].sort((a, b) => a - b)),
};
const startBeforeEnd = (v: { start_time: string; end_time: string }) => startsBeforeEnd(v);

export const ClassTimeListQuery = z.strictObject({ ...pageQuery, name: search });
export type ClassTimeListQuery = z.infer<typeof ClassTimeListQuery>;

export const SelectClassTimeQuery = z.strictObject({ name: search });
export type SelectClassTimeQuery = z.infer<typeof SelectClassTimeQuery>;

export const AddClassTimeInput = z.strictObject(slotFields).refine(startBeforeEnd, { error: 'care.v.start_before_end', path: ['end_time'] });
export type AddClassTimeInput = z.infer<typeof AddClassTimeInput>;

export const EditClassTimeInput = z
  .strictObject({ id: bodyId, version, ...slotFields })
  .refine(startBeforeEnd, { error: 'care.v.start_before_end', path: ['end_time'] });
export type EditClassTimeInput = z.infer<typeof EditClassTimeInput>;

export const DelClassTimeInput = z.strictObject({ id: bodyId });
export type DelClassTimeInput = z.infer<typeof DelClassTimeInput>;

/** Sets a student's individual slots, replacing the previous set; an empty list clears them. */
export const AddStudentClassTimeInput = z.strictObject({
  student_id: bodyId,
  class_time_ids: z
    .array(bodyId, { error: 'care.v.class_time_ids_invalid' })
    .max(CARE_LIMITS.studentSlots, { error: 'care.v.class_time_ids_invalid' })
    .refine((ids) => new Set(ids).size === ids.length, { error: 'care.v.duplicate_ids' }),
});
export type AddStudentClassTimeInput = z.infer<typeof AddStudentClassTimeInput>;

// ---------------------------------------------------------------- answers

// the care classes' answers: answers/care.ts; the time slots': answers/timetable.ts
