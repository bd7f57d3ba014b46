import { z } from 'zod';
import { lineText, mobile, newPassword, pageQuery, plainText, text } from './common';

/**
 * Staff accounts of a school: teachers (role 2) and head teachers (role 5) with their duties and job status;
 * the admin manages them, teachers edit their own profile. Input schemas are named after the actions (actions.tsv).
 */

/** Duties a teacher can take (users.duties, duty_assignments.duty). */
export const STAFF_DUTIES = ['shuttle', 'tutor', 'head'] as const;
export type StaffDuty = (typeof STAFF_DUTIES)[number];

/** users.status: an account disabled (0) cannot sign in; active 1. */
export const UserStatus = { Disabled: 0, Active: 1 } as const;
export type UserStatus = (typeof UserStatus)[keyof typeof UserStatus];

/** users.job_status: on-job 1, left-job 2 (a left-job account cannot sign in). */
export const JobStatus = { OnJob: 1, Left: 2 } as const;
export type JobStatus = (typeof JobStatus)[keyof typeof JobStatus];

/** Roles a staff account created here can have: teacher 2, head teacher 5. */
export const TEACHER_ROLES = [2, 5] as const;
/** Roles listed as staff: admin 1, teacher 2, head teacher 5. */
export const STAFF_ROLES = [1, 2, 5] as const;

/** A person's name: letters of any script, spaces and the punctuation names use. */
const PERSON_NAME_RE = /^[\p{L}\p{M} ·・.\-'’]+$/u;
const EMAIL_RE = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
const USERNAME_RE = /^[A-Za-z0-9_]{3,32}$/;

const id = z
  .number({ error: 'staff.id_invalid' })
  .int({ error: 'staff.id_invalid' })
  .min(1, { error: 'staff.id_invalid' })
  .max(2_147_483_647, { error: 'staff.id_invalid' });
const queryId = z.coerce
  .number({ error: 'staff.id_invalid' })
  .int({ error: 'staff.id_invalid' })
  .min(1, { error: 'staff.id_invalid' })
  .max(2_147_483_647, { error: 'staff.id_invalid' });
const version = z
  .number({ error: 'staff.version_invalid' })
  .int({ error: 'staff.version_invalid' })
  .min(1, { error: 'staff.version_invalid' })
  .max(2_147_483_647, { error: 'staff.version_invalid' });
/** an empty query value counts as not given */
const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);

const personName = text(32).min(1, { error: 'staff.person_name_invalid' }).regex(PERSON_NAME_RE, { error: 'staff.person_name_invalid' });
const nickname = lineText(32).min(1, { error: 'v.nickname_invalid' });
const teacherRole = z.literal(TEACHER_ROLES, { error: 'staff.teacher_role_invalid' });
const gender = z.literal([1, 2], { error: 'staff.gender_invalid' }).nullable();
/** '' clears the e-mail */
const email = text(254).refine((v) => v === '' || EMAIL_RE.test(v), { error: 'staff.email_invalid' });
/** '' clears the remark */
const remark = plainText(500);
/** the duties a teacher can take, each at most once (duplicates are dropped) */
const duties = z
  .array(z.enum(STAFF_DUTIES, { error: 'staff.duty_invalid' }), { error: 'staff.duty_invalid' })
  .max(STAFF_DUTIES.length, { error: 'staff.duty_invalid' })
  .transform((list) => STAFF_DUTIES.filter((d) => list.includes(d)));
const keyword = z.preprocess(blankToUndefined, lineText(64).optional());
const jobStatusFilter = z.preprocess(
  blankToUndefined,
  z.coerce
    .number({ error: 'staff.job_status_invalid' })
    .pipe(z.literal([JobStatus.OnJob, JobStatus.Left], { error: 'staff.job_status_invalid' }))
    .optional(),
);

export const AccountListQuery = z.strictObject({
  ...pageQuery,
  /** part of the name, nickname, user name or mobile */
  keyword,
  /** 1 admin, 2 teacher, 5 head teacher; absent lists all staff */
  role: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: 'staff.staff_role_invalid' })
      .pipe(z.literal(STAFF_ROLES, { error: 'staff.staff_role_invalid' }))
      .optional(),
  ),
  job_status: jobStatusFilter,
});
export type AccountListQuery = z.infer<typeof AccountListQuery>;

export const TeachersListQuery = z.strictObject({
  ...pageQuery,
  keyword,
  /** 2 teacher, 5 head teacher; absent lists both */
  role: z.preprocess(blankToUndefined, z.coerce.number({ error: 'staff.teacher_role_invalid' }).pipe(teacherRole).optional()),
  job_status: jobStatusFilter,
});
export type TeachersListQuery = z.infer<typeof TeachersListQuery>;

export const TeacherInfoQuery = z.strictObject({
  /** absent: the caller's own profile (a teacher may only read their own) */
  id: z.preprocess(blankToUndefined, queryId.optional()),
});
export type TeacherInfoQuery = z.infer<typeof TeacherInfoQuery>;

export const AddTeacherInput = z.strictObject({
  name: personName,
  mobile,
  role: teacherRole,
  duties: duties.optional(),
  gender: gender.optional(),
  remark: remark.optional(),
  /** the initial password (password policy) */
  password: newPassword,
  /** 3-32 letters, digits or _; absent: generated from the mobile */
  username: text(32).regex(USERNAME_RE, { error: 'staff.username_invalid' }).optional(),
  /** absent: the name */
  nickname: nickname.optional(),
  email: email.optional(),
});
export type AddTeacherInput = z.infer<typeof AddTeacherInput>;

/** Only the fields given change. */
export const EditTeacherInput = z.strictObject({
  id,
  /** the version the admin read: a concurrent change answers error.conflict */
  version,
  name: personName.optional(),
  mobile: mobile.optional(),
  role: teacherRole.optional(),
  duties: duties.optional(),
  gender: gender.optional(),
  remark: remark.optional(),
  nickname: nickname.optional(),
  email: email.optional(),
});
export type EditTeacherInput = z.infer<typeof EditTeacherInput>;

/** delTeacher, setLeave, onJob: the teacher, and optionally the version read (checked when given). */
export const TeacherIdInput = z.strictObject({ id, version: version.optional() });
export type TeacherIdInput = z.infer<typeof TeacherIdInput>;
export const DelTeacherInput = TeacherIdInput;
export type DelTeacherInput = TeacherIdInput;
export const SetLeaveInput = TeacherIdInput;
export type SetLeaveInput = TeacherIdInput;
export const OnJobInput = TeacherIdInput;
export type OnJobInput = TeacherIdInput;

export const ResetTeacherPwdInput = z.strictObject({
  id,
  version: version.optional(),
  /** the new password (password policy); absent: the API generates one and answers it once */
  password: newPassword.optional(),
});
export type ResetTeacherPwdInput = z.infer<typeof ResetTeacherPwdInput>;

/** A teacher edits their own profile (never role, duties or mobile); only the fields given change. */
export const TeacherSaveInfoInput = z.strictObject({
  /** the version read (checked when given) */
  version: version.optional(),
  nickname: nickname.optional(),
  name: personName.optional(),
  gender: gender.optional(),
  email: email.optional(),
  remark: remark.optional(),
});
export type TeacherSaveInfoInput = z.infer<typeof TeacherSaveInfoInput>;

/** Duty pickers (selectClassTeacher, shuttleTeacher, tutorTeacher, teacherShuttleTeacher, teacherTutorTeacher). */
export const StaffPickerQuery = z.strictObject({ ...pageQuery, keyword });
export type StaffPickerQuery = z.infer<typeof StaffPickerQuery>;
export const SelectClassTeacherQuery = StaffPickerQuery;
export const ShuttleTeacherQuery = StaffPickerQuery;
export const TutorTeacherQuery = StaffPickerQuery;
export const TeacherShuttleTeacherQuery = StaffPickerQuery;
export const TeacherTutorTeacherQuery = StaffPickerQuery;
