// The answer schemas of module `staff` (what `data` carries, as JSON), declared in api/staff.ts.
import { z } from 'zod';
import { pageOf } from '../api/define';
import { JobStatus, STAFF_DUTIES, STAFF_ROLES } from '../schemas/staff';

const duties = z.array(z.enum(STAFF_DUTIES));

/** One staff account: rows of accountList and teachersList, `data` of teacherInfo and of the staff writes. */
export const StaffRow = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  nickname: z.string(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  /** 1 admin, 2 teacher, 5 head teacher */
  role: z.literal(STAFF_ROLES),
  duties,
  gender: z.literal([1, 2]).nullable(),
  remark: z.string().nullable(),
  job_status: z.literal([JobStatus.OnJob, JobStatus.Left]),
  /** when the account was set left-job (null: on-job) */
  left_at: z.string().nullable(),
  last_login_at: z.string().nullable(),
  version: z.number().int(),
  created_at: z.string(),
});
export type StaffRow = z.infer<typeof StaffRow>;

/** `data` of accountList and teachersList. */
export const StaffListAnswer = pageOf(StaffRow);
export type StaffListAnswer = z.infer<typeof StaffListAnswer>;

/** One row of the duty pickers: an on-job teacher with that duty or role. */
export const StaffPick = z.object({
  id: z.number().int(),
  name: z.string(),
  nickname: z.string(),
  mobile: z.string().nullable(),
  /** 2 teacher, 5 head teacher */
  role: z.literal(STAFF_ROLES),
  duties,
});
export type StaffPick = z.infer<typeof StaffPick>;

/** `data` of the duty pickers (selectClassTeacher, shuttleTeacher, tutorTeacher, teacherShuttleTeacher, teacherTutorTeacher). */
export const StaffPickAnswer = pageOf(StaffPick);
export type StaffPickAnswer = z.infer<typeof StaffPickAnswer>;

/** `data` of resetTeacherPwd: the generated password (shown once), or null when the admin chose it. */
export const ResetTeacherPwdResult = z.object({
  id: z.number().int(),
  password: z.string().nullable(),
});
export type ResetTeacherPwdResult = z.infer<typeof ResetTeacherPwdResult>;
