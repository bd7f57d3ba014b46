import { z } from 'zod';
import { HHMM_RE, toMinutes } from '../time-slots';
import { flag, lineText, pageQuery, plainText } from './common';
import { isCalendarDay } from '../school-time';
import { dayDiff } from '../contracts';

/**
 * Home tutoring (issue 13, module `tutoring`): the school's tutoring types with their settings (duration, price per
 * session, default teacher), tutoring classes whose sessions are generated from a weekly pattern into the one
 * class_sessions table (kind 'tutoring') under the clash rules of teaching, their students with a plan, moves.
 * Days are school-local YYYY-MM-DD, times HH:MM local, money integer fen.
 */

const blank = (v: unknown) => (v === '' ? undefined : v);
const validDay = (v: string) => isCalendarDay(v);
const day = z.string({ error: 'tutoring.v.date_invalid' }).refine(validDay, { error: 'tutoring.v.date_invalid' });
const idOf = (error: string) => z.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const queryIdOf = (error: string) => z.coerce.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const intIn = (error: string, min: number, max: number) => z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
const version = idOf('tutoring.v.version_invalid');
const time = z.string({ error: 'tutoring.v.time_invalid' }).regex(HHMM_RE, { error: 'tutoring.v.time_invalid' });
const weekday = intIn('tutoring.v.weekday_invalid', 1, 7);
const classId = idOf('tutoring.v.class_invalid');
const classQueryId = queryIdOf('tutoring.v.class_invalid');
const studentId = idOf('tutoring.v.student_invalid');
const typeId = idOf('tutoring.v.type_invalid');
const teacherId = idOf('tutoring.v.teacher_invalid');
const roomId = idOf('tutoring.v.room_invalid');
const studentIds = z
  .array(studentId, { error: 'tutoring.v.students_required' })
  .min(1, { error: 'tutoring.v.students_required' })
  .max(100, { error: 'tutoring.v.students_too_many|100' })
  .refine((v) => new Set(v).size === v.length, { error: 'tutoring.v.students_duplicate' });
const beforeEnd = (v: { start_time: string; end_time?: string }) => v.end_time === undefined || toMinutes(v.start_time) < toMinutes(v.end_time);
const MAX_RANGE_DAYS = 400;

/** The tutoring types a school starts with (seeded the first time its types are read). */
export const DEFAULT_TUTORING_TYPES: ReadonlyArray<{ name: string; duration_min: number; price_fen: number }> = [
  { name: '作业辅导', duration_min: 90, price_fen: 5000 },
  { name: '一对一', duration_min: 60, price_fen: 20000 },
  { name: '小组辅导', duration_min: 60, price_fen: 8000 },
];

// ---------------------------------------------------------------- types and settings

export const TutorialTypeQuery = z.strictObject({ ...pageQuery });
export type TutorialTypeQuery = z.infer<typeof TutorialTypeQuery>;
export const TutorialSettingListQuery = z.strictObject({ ...pageQuery });
export type TutorialSettingListQuery = z.infer<typeof TutorialSettingListQuery>;

/**
 * Save one type's setting on the version read (type_id + version), or add a new type (name, no type_id).
 * teacher_id null clears the default teacher.
 */
export const TutorialSettingInput = z
  .strictObject({
    type_id: typeId.optional(),
    version: version.optional(),
    name: lineText(30).min(1, { error: 'tutoring.v.type_name_required' }).optional(),
    duration_min: intIn('tutoring.v.duration_invalid', 10, 480),
    price_fen: intIn('tutoring.v.price_invalid', 0, 10_000_000),
    teacher_id: teacherId.nullable().optional(),
  })
  .refine((v) => v.type_id === undefined || v.version !== undefined, { error: 'tutoring.v.version_invalid', path: ['version'] })
  .refine((v) => v.type_id !== undefined || v.name !== undefined, { error: 'tutoring.v.type_name_required', path: ['name'] });
export type TutorialSettingInput = z.infer<typeof TutorialSettingInput>;

// ---------------------------------------------------------------- classes

/** A weekly slot; end_time omitted: start + the type's duration. */
export const TutoringSlotInput = z
  .strictObject({ weekday, start_time: time, end_time: time.optional() })
  .refine(beforeEnd, { error: 'tutoring.v.time_order', path: ['end_time'] });
export type TutoringSlotInput = z.infer<typeof TutoringSlotInput>;

export const AddTutorialSchoolCareInput = z
  .strictObject({
    name: lineText(50).min(1, { error: 'tutoring.v.name_required' }),
    type_id: typeId,
    /** omitted: the type's default teacher */
    teacher_id: teacherId.optional(),
    room_id: roomId.nullable().optional(),
    capacity: intIn('tutoring.v.capacity_invalid', 1, 100),
    from: day,
    to: day,
    pattern: z
      .array(TutoringSlotInput, { error: 'tutoring.v.pattern_required' })
      .min(1, { error: 'tutoring.v.pattern_required' })
      .max(14, { error: 'tutoring.v.pattern_too_long' }),
    remark: plainText(200).optional(),
    /** true: answer the sessions and the clashes without writing anything */
    preview: flag.optional(),
  })
  .refine((v) => v.from <= v.to, { error: 'tutoring.v.range_invalid', path: ['to'] })
  .refine((v) => dayDiff(v.from, v.to) <= MAX_RANGE_DAYS, { error: 'tutoring.v.range_too_long', path: ['to'] });
export type AddTutorialSchoolCareInput = z.infer<typeof AddTutorialSchoolCareInput>;

export const TutorialInfoQuery = z.strictObject({ id: classQueryId });
export type TutorialInfoQuery = z.infer<typeof TutorialInfoQuery>;

/** Starts (1) or stops (0) a tutoring class on the version read: a stopped class takes no new students. */
export const TutorialClassStatusInput = z.strictObject({
  id: classId,
  version,
  status: z.union([z.literal(0), z.literal(1)], { error: 'tutoring.v.status_invalid' }),
});
export type TutorialClassStatusInput = z.infer<typeof TutorialClassStatusInput>;

/** Deletes a tutoring class with no held session on the version read (soft delete; its planned sessions are cancelled). */
export const DelTutorialClassInput = z.strictObject({ id: classId, version });
export type DelTutorialClassInput = z.infer<typeof DelTutorialClassInput>;

export const TutorialListQuery = z.strictObject({
  ...pageQuery,
  name: z.preprocess(blank, lineText(50).optional()),
  type_id: z.preprocess(blank, queryIdOf('tutoring.v.type_invalid').optional()),
});
export type TutorialListQuery = z.infer<typeof TutorialListQuery>;

export const TutorialSchedulingQuery = z
  .strictObject({
    ...pageQuery,
    class_id: classQueryId,
    from: z.preprocess(blank, day.optional()),
    to: z.preprocess(blank, day.optional()),
    state: z.preprocess(blank, z.enum(['planned', 'held', 'cancelled'], { error: 'tutoring.v.state_invalid' }).optional()),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { error: 'tutoring.v.range_invalid', path: ['to'] });
export type TutorialSchedulingQuery = z.infer<typeof TutorialSchedulingQuery>;

// ---------------------------------------------------------------- students

export const TutorialStudentQuery = z.strictObject({ ...pageQuery, class_id: classQueryId });
export type TutorialStudentQuery = z.infer<typeof TutorialStudentQuery>;
export const SelectTutorialStudentQuery = z.strictObject({
  ...pageQuery,
  class_id: classQueryId,
  name: z.preprocess(blank, lineText(32).optional()),
});
export type SelectTutorialStudentQuery = z.infer<typeof SelectTutorialStudentQuery>;
export const AddTutorialStudentInput = z.strictObject({ class_id: classId, student_ids: studentIds, plan: plainText(500).optional() });
export type AddTutorialStudentInput = z.infer<typeof AddTutorialStudentInput>;
export const DelTutorialStudentInput = z.strictObject({ class_id: classId, student_id: studentId });
export type DelTutorialStudentInput = z.infer<typeof DelTutorialStudentInput>;
export const TutorialStudentInfoQuery = z.strictObject({ ...pageQuery, class_id: classQueryId, student_id: queryIdOf('tutoring.v.student_invalid') });
export type TutorialStudentInfoQuery = z.infer<typeof TutorialStudentInfoQuery>;

// ---------------------------------------------------------------- moves

export const TutorialChangeSchedulingInput = z
  .strictObject({ id: idOf('tutoring.v.session_invalid'), version, day, start_time: time, end_time: time, room_id: roomId.nullable().optional() })
  .refine((v) => toMinutes(v.start_time) < toMinutes(v.end_time), { error: 'tutoring.v.time_order', path: ['end_time'] });
export type TutorialChangeSchedulingInput = z.infer<typeof TutorialChangeSchedulingInput>;

/** Cancels one planned tutoring session with a reason on the version read (it frees its teacher and room). */
export const CancelTutorialSessionInput = z.strictObject({
  id: idOf('tutoring.v.session_invalid'),
  version,
  reason: lineText(200).min(2, { error: 'tutoring.v.reason_required' }),
});
export type CancelTutorialSessionInput = z.infer<typeof CancelTutorialSessionInput>;
