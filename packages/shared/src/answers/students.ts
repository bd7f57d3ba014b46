// The answer schemas of module `students` (what `data` carries, as JSON), declared in api/students.ts.
import { z } from 'zod';
import { pageOf, wire } from '../api/define';
import { CONTRACT_STATES, PACKAGE_KINDS } from '../contracts';
import { GROWTH_GROUPS } from '../growth';
import { StudentStatus } from '../schemas/students';
import { ParentExamScore } from './exams';
import { TeachingClass } from './teaching';

const { id } = wire;

const gender = z.literal([1, 2]).nullable();

/** A guardian; `mobile` masked (138****0001) where the caller may not see it whole (issue 37 least access). */
export const StudentGuardian = z.object({
  user_id: id,
  name: z.string(),
  mobile: z.string(),
  relation: z.string(),
  is_primary: z.boolean(),
});
export type StudentGuardian = z.infer<typeof StudentGuardian>;

/** A pick-up person; `mobile` masked as the guardians' are. */
export const StudentPickupPerson = z.object({
  id,
  name: z.string(),
  relation: z.string(),
  mobile: z.string(),
  photo_url: z.string().nullable(),
});
export type StudentPickupPerson = z.infer<typeof StudentPickupPerson>;

/** The care class of studentInfo, teacherStudentInfo and the student writes, with its head teacher. */
export const StudentCareClass = z.object({
  id,
  name: z.string(),
  head_teacher_id: id.nullable(),
  head_teacher_name: z.string().nullable(),
});
export type StudentCareClass = z.infer<typeof StudentCareClass>;

/** One row of studentList and teacherStudentList (`data.list`). */
export const StudentRow = z.object({
  id,
  name: z.string(),
  gender,
  /** 'YYYY-MM-DD' */
  birthday: z.string().nullable(),
  day_school: z.string().nullable(),
  grade: z.string().nullable(),
  class_name: z.string().nullable(),
  photo_url: z.string().nullable(),
  allergies: z.string().nullable(),
  needs_shuttle: z.boolean(),
  needs_dinner: z.boolean(),
  tutoring_type: z.string().nullable(),
  status: z.literal([StudentStatus.Archived, StudentStatus.Active]),
  archived_at: z.string().nullable(),
  version: z.number().int(),
  created_at: z.string(),
  care_class: z.object({ id, name: z.string() }).nullable(),
  guardians: z.array(StudentGuardian),
});
export type StudentRow = z.infer<typeof StudentRow>;

/** `data` of studentList. */
export const StudentListAnswer = pageOf(StudentRow);
export type StudentListAnswer = z.infer<typeof StudentListAnswer>;

/**
 * One row of teacherStudentList: what the teacher's and the head teacher's lists show (issue 37, least access). No
 * birthday, photo or contacts: the drawer reads those from teacherStudentInfo, one child at a time, logged.
 */
export const TeacherStudentRow = StudentRow.pick({
  id: true,
  name: true,
  gender: true,
  day_school: true,
  grade: true,
  class_name: true,
  allergies: true,
  needs_shuttle: true,
  needs_dinner: true,
  tutoring_type: true,
  status: true,
  version: true,
  care_class: true,
});
export type TeacherStudentRow = z.infer<typeof TeacherStudentRow>;
export const TeacherStudentListAnswer = pageOf(TeacherStudentRow);

/**
 * The guardians' latest decisions for the child's photos and health notes (null: nobody has decided yet): a photo or a
 * health note is stored only when its consent is true, so a screen can say why one cannot be saved.
 */
const consents = { photo_consent: z.boolean().nullable(), health_consent: z.boolean().nullable() };

/** `data` of teacherStudentInfo, addStudent, studentSetting and saveStudentGuardians. */
export const StudentDetail = StudentRow.extend({
  notes: z.string().nullable(),
  care_class: StudentCareClass.nullable(),
  pickup_people: z.array(StudentPickupPerson),
  updated_at: z.string(),
  /** the version of the guardian list (saveStudentGuardians), apart from the profile's `version` */
  guardians_version: z.number().int(),
  ...consents,
});
export type StudentDetail = z.infer<typeof StudentDetail>;

/** A contract of the student as studentInfo carries it (and the open ones of the care class removal preview). */
export const StudentInfoContract = z.object({
  id,
  no: z.string(),
  package_name: z.string(),
  kind: z.enum(PACKAGE_KINDS),
  /** with expiring / expired derived for the school's today (contractState) */
  state: z.enum(CONTRACT_STATES),
  start_day: z.string(),
  end_day: z.string(),
  /** sessions or days contracts: units bought and left; null for term and month contracts */
  units_total: z.number().int().nullable(),
  units_left: z.number().int().nullable(),
  /** term and month contracts running (active or expiring): days left from the school's today (or the start), else null */
  days_left: z.number().int().nullable(),
});
export type StudentInfoContract = z.infer<typeof StudentInfoContract>;

/**
 * `data` of studentInfo: the student with guardians and pick-up people, its care class, its teaching classes (as
 * studentTeachingClassList gives them, running first, at most STUDENT_INFO_MAX_CLASSES), its contracts (open first,
 * then newest, at most STUDENT_INFO_MAX_CONTRACTS; `contracts_total` counts them all) and its points balance.
 */
export const StudentInfo = StudentDetail.extend({
  contracts: z.array(StudentInfoContract),
  contracts_total: z.number().int(),
  points_balance: z.number().int(),
  teaching_classes: z.array(TeachingClass),
});
export type StudentInfo = z.infer<typeof StudentInfo>;

/** `data` of checkStudent. */
export const CheckStudentResult = z.object({
  exists: z.boolean(),
  student_id: id.nullable(),
});
export type CheckStudentResult = z.infer<typeof CheckStudentResult>;

/** `data` of delStudent: the student archived. */
export const DelStudentResult = z.object({
  id,
  status: z.literal(StudentStatus.Archived),
  version: z.number().int(),
});
export type DelStudentResult = z.infer<typeof DelStudentResult>;

/** `data` of schoolGrade: the grades of the active students, each with its classes. */
export const SchoolGradeResult = z.array(z.object({ grade: z.string(), classes: z.array(z.string()) }));
export type SchoolGradeResult = z.infer<typeof SchoolGradeResult>;

/** `data` of studentSettingInfo. */
export const StudentSettingInfo = z.object({
  id,
  name: z.string(),
  needs_shuttle: z.boolean(),
  needs_dinner: z.boolean(),
  tutoring_type: z.string().nullable(),
  allergies: z.string().nullable(),
  pickup_people: z.array(StudentPickupPerson),
  ...consents,
  version: z.number().int(),
});
export type StudentSettingInfo = z.infer<typeof StudentSettingInfo>;

/** One comment of teacherStudentGrowth and studentComments (`data.list`), and `data` of overallComment. */
export const StudentComment = z.object({
  id,
  student_id: id,
  kind: z.enum(['growth', 'overall']),
  period: z.string().nullable(),
  content: z.string(),
  author_id: id,
  author_name: z.string(),
  created_at: z.string(),
});
export type StudentComment = z.infer<typeof StudentComment>;

/** `data` of studentComments. */
export const StudentCommentsAnswer = pageOf(StudentComment);
export type StudentCommentsAnswer = z.infer<typeof StudentCommentsAnswer>;

/** Attendance of one period of teacherStudentGrowth: expected days present, absent (past days only) and on leave. */
export const GrowthAttendance = z.object({
  /** the period's first day (data-centre periodOf) */
  period: z.string(),
  present: z.number().int(),
  absent: z.number().int(),
  on_leave: z.number().int(),
});
export type GrowthAttendance = z.infer<typeof GrowthAttendance>;

/** `data` of teacherStudentGrowth: the comments (paged) and, whatever the page, the scores and attendance over time. */
export const TeacherStudentGrowthAnswer = pageOf(StudentComment).extend({
  group: z.enum(GROWTH_GROUPS),
  /** published exams the student has a row in, oldest first (at most GROWTH_MAX_SCORES, the latest ones) */
  scores: z.array(ParentExamScore),
  /** every period of the window, oldest first, empty ones included */
  attendance: z.array(GrowthAttendance),
});
export type TeacherStudentGrowthAnswer = z.infer<typeof TeacherStudentGrowthAnswer>;

/** `data` of studentImport. */
export const StudentImportResult = z.object({
  dry_run: z.boolean(),
  total: z.number().int(),
  valid: z.number().int(),
  problems: z.array(z.object({ row: z.number().int(), column: z.string(), message: z.string() })),
  imported: z.number().int(),
});
export type StudentImportResult = z.infer<typeof StudentImportResult>;

/** `data.list` of parentChildren: a parent's own children. */
export const ParentChild = z.object({
  id,
  name: z.string(),
  gender,
  day_school: z.string().nullable(),
  grade: z.string().nullable(),
  class_name: z.string().nullable(),
  photo_url: z.string().nullable(),
  relation: z.string(),
  care_class: z.object({ id, name: z.string(), head_teacher_name: z.string().nullable() }).nullable(),
});
export type ParentChild = z.infer<typeof ParentChild>;

/** `data` of parentChildren. */
export const ParentChildrenAnswer = z.object({ list: z.array(ParentChild) });
export type ParentChildrenAnswer = z.infer<typeof ParentChildrenAnswer>;

/** One change of a student's guardians (studentGuardianLog `data.list`), newest first. */
export const StudentGuardianChange = z.object({
  id,
  kind: z.enum(['added', 'removed', 'relation', 'primary']),
  guardian_id: id,
  guardian_name: z.string(),
  guardian_mobile: z.string().nullable(),
  relation: z.string(),
  /** kind relation: the relation before */
  old_relation: z.string().nullable(),
  guardians_version: z.number().int(),
  actor_id: id,
  actor_name: z.string(),
  created_at: z.string(),
});
export type StudentGuardianChange = z.infer<typeof StudentGuardianChange>;

/** `data` of studentGuardianLog. */
export const StudentGuardianLogAnswer = pageOf(StudentGuardianChange);
export type StudentGuardianLogAnswer = z.infer<typeof StudentGuardianLogAnswer>;
