import { z } from 'zod';
import { MOBILE_RE } from '../patterns';
import { isCalendarDay, localDay } from '../school-time';
import { lineText, mobile, pageQuery, plainText, text } from './common';
import { GROWTH_GROUPS } from '../growth';

/**
 * Students of a school: profile, guardians (parent accounts, users.role 6), authorised pick-up people, care
 * settings, growth comments; bulk import/export. Input schemas are named after the actions (actions.tsv and
 * its declaration in api/students.ts).
 */

/** students.status: archived 0, active 1. */
export const StudentStatus = { Archived: 0, Active: 1 } as const;
export type StudentStatus = (typeof StudentStatus)[keyof typeof StudentStatus];

/** Bulk import limits. */
export const STUDENT_IMPORT_LIMITS = { maxBytes: 5 * 1024 * 1024, maxRows: 5000, maxProblems: 1000 } as const;
/** Columns of the import template, in order (Chinese headers, as the template and the import read them). */
export const STUDENT_IMPORT_COLUMNS = [
  '姓名',
  '性别',
  '出生日期',
  '就读学校',
  '年级',
  '班级',
  '过敏信息',
  '备注',
  '监护人姓名',
  '监护人手机',
  '与学生关系',
  '需要接送',
  '需要晚餐',
] as const;
export const STUDENT_MAX_GUARDIANS = 4;
export const STUDENT_MAX_PICKUP_PEOPLE = 10;

/** A person's name: letters of any script, spaces and the punctuation names use. */
export const STUDENT_NAME_RE = /^[\p{L}\p{M} ·・.\-'’]+$/u;
/** A photo: a URL the upload action gave (/uploads/...) or an http(s) URL. */
const PHOTO_RE = /^(\/uploads\/|https?:\/\/)[^\s<>"'`\\]+$/;

/** true for a real calendar date YYYY-MM-DD between 1990 and today (the school's day: schools default to Asia/Shanghai) */
export function isBirthday(v: string): boolean {
  return isCalendarDay(v, '1990-01-01', localDay());
}

const id = z
  .number({ error: 'stu.id_invalid' })
  .int({ error: 'stu.id_invalid' })
  .min(1, { error: 'stu.id_invalid' })
  .max(2_147_483_647, { error: 'stu.id_invalid' });
const queryId = z.coerce
  .number({ error: 'stu.id_invalid' })
  .int({ error: 'stu.id_invalid' })
  .min(1, { error: 'stu.id_invalid' })
  .max(2_147_483_647, { error: 'stu.id_invalid' });
const version = z
  .number({ error: 'stu.version_invalid' })
  .int({ error: 'stu.version_invalid' })
  .min(1, { error: 'stu.version_invalid' })
  .max(2_147_483_647, { error: 'stu.version_invalid' });
/** an empty query value counts as not given */
const blank = (v: unknown) => (v === '' ? undefined : v);

const personName = text(32).min(1, { error: 'stu.name_invalid' }).regex(STUDENT_NAME_RE, { error: 'stu.name_invalid' });
const relation = lineText(20).min(1, { error: 'stu.relation_invalid' });
/** optional plain text; '' clears it */
const plain = plainText;
const gender = z.literal([1, 2], { error: 'stu.gender_invalid' }).nullable();
const birthday = z
  .string({ error: 'stu.birthday_invalid' })
  .trim()
  .max(10, { error: 'stu.birthday_invalid' })
  .refine((v) => v === '' || isBirthday(v), { error: 'stu.birthday_invalid' });
const photoUrl = text(500).refine((v) => v === '' || PHOTO_RE.test(v), { error: 'stu.photo_invalid' });
const bool = z.boolean({ error: 'stu.flag_invalid' });

export const GuardianInput = z.strictObject({
  name: personName,
  mobile,
  relation,
  is_primary: bool.optional(),
});
export type GuardianInput = z.infer<typeof GuardianInput>;

/**
 * A pick-up person's mobile: a mobile, or for a kept one (with `id`) the masked number the caller was shown
 * (138****0001, issue 37 least access), which keeps the stored number.
 */
const MASKED_MOBILE_RE = /^1\d{2}\*{4}\d{4}$/;
const pickupMobile = z
  .string({ error: 'v.mobile_required' })
  .trim()
  .min(1, { error: 'v.mobile_required' })
  .refine((v) => MOBILE_RE.test(v) || MASKED_MOBILE_RE.test(v), { error: 'v.mobile_invalid' });

export const PickupPersonInput = z
  .strictObject({
    /** an existing pick-up person of the student (kept, edited); without id a new one */
    id: id.optional(),
    name: personName,
    relation,
    mobile: pickupMobile,
    photo_url: photoUrl.optional(),
  })
  .refine((p) => p.id !== undefined || MOBILE_RE.test(p.mobile), { error: 'v.mobile_invalid', path: ['mobile'] });
export type PickupPersonInput = z.infer<typeof PickupPersonInput>;

const guardians = z
  .array(GuardianInput, { error: 'stu.guardians_required' })
  .min(1, { error: 'stu.guardians_required' })
  .max(STUDENT_MAX_GUARDIANS, { error: 'stu.guardians_too_many' })
  .refine((list) => new Set(list.map((g) => g.mobile)).size === list.length, { error: 'stu.guardian_mobile_twice' })
  .refine((list) => list.filter((g) => g.is_primary).length <= 1, { error: 'stu.primary_twice' });
const pickupPeople = z
  .array(PickupPersonInput, { error: 'stu.pickup_invalid' })
  .max(STUDENT_MAX_PICKUP_PEOPLE, { error: 'stu.pickup_too_many' })
  .refine((list) => new Set(list.filter((p) => p.id).map((p) => p.id)).size === list.filter((p) => p.id).length, { error: 'stu.pickup_invalid' });

/** Profile fields: '' (or null gender) clears an optional one. */
const profile = {
  gender: gender.optional(),
  birthday: birthday.optional(),
  day_school: plain(100).optional(),
  grade: plain(20).optional(),
  class_name: plain(20).optional(),
  photo_url: photoUrl.optional(),
  allergies: plain(500).optional(),
  notes: plain(1000).optional(),
};
const settings = {
  needs_shuttle: bool.optional(),
  needs_dinner: bool.optional(),
  tutoring_type: plain(30).optional(),
};

const statusFilter = z.coerce
  .number({ error: 'stu.status_invalid' })
  .pipe(z.literal([StudentStatus.Archived, StudentStatus.Active], { error: 'stu.status_invalid' }));

/** Filters of studentList and studentExport. */
const listFilters = {
  /** part of the student's name, or the start of a guardian's mobile */
  keyword: z.preprocess(blank, plain(32).optional()),
  grade: z.preprocess(blank, plain(20).optional()),
  class_name: z.preprocess(blank, plain(20).optional()),
  day_school: z.preprocess(blank, plain(100).optional()),
  /** 1 active (default), 0 archived */
  status: z.preprocess(blank, statusFilter.optional()),
  /** care class */
  class_id: z.preprocess(blank, queryId.optional()),
};

export const StudentListInput = z.strictObject({ ...pageQuery, ...listFilters });
export type StudentListInput = z.infer<typeof StudentListInput>;

/**
 * The export masks guardians' mobiles (138****0001) unless `unmasked` is '1' (the admin's whole numbers); every export
 * is recorded in the access log with the children it carries.
 */
export const StudentExportInput = z.strictObject({
  ...listFilters,
  format: z.enum(['xlsx', 'csv'], { error: 'stu.format_invalid' }),
  unmasked: z.preprocess(blank, z.enum(['1', '0'], { error: 'privacy.v.unmasked_invalid' }).optional()),
});
export type StudentExportInput = z.infer<typeof StudentExportInput>;

export const StudentImportTemplateInput = z.strictObject({
  format: z.enum(['xlsx', 'csv'], { error: 'stu.format_invalid' }),
});
export type StudentImportTemplateInput = z.infer<typeof StudentImportTemplateInput>;

/** multipart text fields of studentImport (the file comes in the field `file`) */
export const StudentImportInput = z.strictObject({
  /** '1' checks only and writes nothing; '0' imports (all rows or none) */
  dry_run: z.enum(['1', '0'], { error: 'stu.dry_run_invalid' }).default('1'),
});
export type StudentImportInput = z.infer<typeof StudentImportInput>;

export const StudentInfoInput = z.strictObject({ id: queryId });
export type StudentInfoInput = z.infer<typeof StudentInfoInput>;

export const CheckStudentInput = z.strictObject({
  name: personName,
  mobile,
});
export type CheckStudentInput = z.infer<typeof CheckStudentInput>;

export const AddStudentInput = z.strictObject({
  name: personName,
  ...profile,
  ...settings,
  guardians,
  pickup_people: pickupPeople.refine((list) => list.every((p) => !p.id), { error: 'stu.pickup_invalid' }).optional(),
});
export type AddStudentInput = z.infer<typeof AddStudentInput>;

export const DelStudentInput = z.strictObject({
  id,
  /** the version the admin read; optional */
  version: version.optional(),
});
export type DelStudentInput = z.infer<typeof DelStudentInput>;

export const SchoolGradeInput = z.strictObject({});
export type SchoolGradeInput = z.infer<typeof SchoolGradeInput>;

export const StudentSettingInfoInput = z.strictObject({ id: queryId });
export type StudentSettingInfoInput = z.infer<typeof StudentSettingInfoInput>;

/**
 * Saves care settings (needs_shuttle, needs_dinner, tutoring_type, allergies, pick-up people: the given list
 * replaces the current one, items with `id` are kept); the admin may also edit the profile here.
 */
export const StudentSettingInput = z.strictObject({
  id,
  version,
  ...settings,
  allergies: plain(500).optional(),
  pickup_people: pickupPeople.optional(),
  // profile (admin only)
  name: personName.optional(),
  gender: gender.optional(),
  birthday: birthday.optional(),
  day_school: plain(100).optional(),
  grade: plain(20).optional(),
  class_name: plain(20).optional(),
  photo_url: photoUrl.optional(),
  notes: plain(1000).optional(),
});
export type StudentSettingInput = z.infer<typeof StudentSettingInput>;

export const TeacherStudentListInput = z.strictObject({
  ...pageQuery,
  keyword: z.preprocess(blank, plain(32).optional()),
  class_id: z.preprocess(blank, queryId.optional()),
});
export type TeacherStudentListInput = z.infer<typeof TeacherStudentListInput>;

export const TeacherStudentInfoInput = z.strictObject({ id: queryId });
export type TeacherStudentInfoInput = z.infer<typeof TeacherStudentInfoInput>;

/**
 * teacherStudentGrowth: the comments (paged) with the student's published scores and attendance over time, the
 * attendance per `group` period (GROWTH_GROUPS, by month unless asked; GROWTH_PERIODS of them up to today).
 */
export const TeacherStudentGrowthInput = z.strictObject({
  ...pageQuery,
  student_id: queryId,
  group: z.preprocess(blank, z.enum(GROWTH_GROUPS, { error: 'stu.growth_group_invalid' }).optional()),
});
export type TeacherStudentGrowthInput = z.infer<typeof TeacherStudentGrowthInput>;

/** the admin's view of the same record (extra action studentComments): the comments only */
export const StudentCommentsInput = z.strictObject({ ...pageQuery, student_id: queryId });
export type StudentCommentsInput = z.infer<typeof StudentCommentsInput>;

export const OverallCommentInput = z.strictObject({
  student_id: id,
  period: lineText(30).min(1, { error: 'stu.period_required' }),
  content: plainText(2000).min(1, { error: 'stu.content_required' }),
});
export type OverallCommentInput = z.infer<typeof OverallCommentInput>;

/**
 * Replaces the guardians of an existing student (extra action saveStudentGuardians) on the guardians_version read:
 * a guardian is known by mobile (a mobile of a parent account of the school is linked, a new one gets a parent account
 * as addStudent does; the name is used only for a new account); at least one guardian, exactly one primary. Adding,
 * removing, changing a relation and making another guardian primary are each recorded (studentGuardianLog).
 */
export const SaveStudentGuardiansInput = z.strictObject({
  student_id: id,
  /** the student's guardians_version the caller read */
  version,
  guardians: guardians.refine((list) => list.some((g) => g.is_primary), { error: 'stu.primary_required' }),
});
export type SaveStudentGuardiansInput = z.infer<typeof SaveStudentGuardiansInput>;

export const StudentGuardianLogInput = z.strictObject({ ...pageQuery, student_id: queryId });
export type StudentGuardianLogInput = z.infer<typeof StudentGuardianLogInput>;

// ---- answers: answers/students.ts ----

/** mobile check used by the import (the same rule as the inputs) */
export const isMobile = (v: string) => MOBILE_RE.test(v);

export const STUDENT_INFO_MAX_CONTRACTS = 20;
export const STUDENT_INFO_MAX_CLASSES = 50;
