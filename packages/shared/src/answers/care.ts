// The answer schemas of module `care` (what `data` carries, as JSON), declared in api/care.ts.
import { z } from 'zod';
import { pageOf, wire } from '../api/define';
import { MEAL_PAY_FROM } from '../meals';
import { CareClassStatus, DUTIES } from '../schemas/care';
import { StudentInfoContract } from './students';
import { ClassTimeOption } from './timetable';

const { id } = wire;

/** One row of classList, and the class part of wantuoInfo. */
export const CareClass = z.object({
  id,
  name: z.string(),
  status: z.literal([CareClassStatus.Stopped, CareClassStatus.Running]),
  capacity: z.number().int(),
  fee_fen: z.number().int(),
  headcount: z.number().int(),
  head_teacher_id: id.nullable(),
  head_teacher_name: z.string().nullable(),
  class_time_id: id.nullable(),
  class_time_name: z.string().nullable(),
  /** 'HH:mm' of the class's time slot */
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  /** 1 Monday .. 7 Sunday */
  weekdays: z.array(z.number().int()).nullable(),
  version: z.number().int(),
  created_at: z.string(),
});
export type CareClass = z.infer<typeof CareClass>;

/** `data` of classList. */
export const CareClassListAnswer = pageOf(CareClass);
export type CareClassListAnswer = z.infer<typeof CareClassListAnswer>;

/** A duty assignment: of the class (student_id null) or of one student. */
export const DutyAssignment = z.object({
  id,
  duty: z.enum(DUTIES),
  teacher_id: id,
  teacher_name: z.string(),
  student_id: id.nullable(),
});
export type DutyAssignment = z.infer<typeof DutyAssignment>;

/** `data` of wantuoInfo, addAfterSchoolCare, editAfterSchoolCare, startAndEnd, and teacherWantuoInfo's `class`. */
export const CareClassInfo = CareClass.extend({
  /** the duties of the class (student_id null) */
  duties: z.array(DutyAssignment),
});
export type CareClassInfo = z.infer<typeof CareClassInfo>;

/** `data` of teacherWantuoInfo: the classes the caller heads or has a duty in, and the chosen one (null: none). */
export const TeacherWantuoInfo = z.object({
  classes: z.array(z.object({ id, name: z.string(), is_head: z.boolean() })),
  class: CareClassInfo.nullable(),
});
export type TeacherWantuoInfo = z.infer<typeof TeacherWantuoInfo>;

/** A student as the care screens list them (selectWantuoStudent rows). */
export const CareStudent = z.object({
  id,
  name: z.string(),
  gender: z.literal([1, 2]).nullable(),
  grade: z.string().nullable(),
  class_name: z.string().nullable(),
  day_school: z.string().nullable(),
});
export type CareStudent = z.infer<typeof CareStudent>;

/** `data` of selectWantuoStudent and teacherSelectWantuoStudent. */
export const CareStudentPage = pageOf(CareStudent);
export type CareStudentPage = z.infer<typeof CareStudentPage>;

/** One row of wantuoStudent / teacherWantuoStudent: the student and their per-student duties in the class. */
export const CareClassStudent = CareStudent.extend({
  joined_at: z.string(),
  duties: z.array(DutyAssignment),
  /** the student's own time slots (addStudentClassTime), by start time; empty: the class's slot applies */
  class_times: z.array(ClassTimeOption),
});
export type CareClassStudent = z.infer<typeof CareClassStudent>;

/** `data` of wantuoStudent and teacherWantuoStudent. */
export const CareClassStudentPage = pageOf(CareClassStudent);
export type CareClassStudentPage = z.infer<typeof CareClassStudentPage>;

/** `data` of addWantuoStudent / teacherAddWantuoStudent. */
export const AddWantuoStudentResult = z.object({
  class_id: id,
  added: z.number().int(),
  headcount: z.number().int(),
  capacity: z.number().int(),
});
export type AddWantuoStudentResult = z.infer<typeof AddWantuoStudentResult>;

/** `data` of GET delWantuoStudent: what removing the student from the class affects. */
export const DelWantuoStudentPreview = z.object({
  class_id: id,
  class_name: z.string(),
  student_id: id,
  student_name: z.string(),
  /** the student's own duty assignments in the class, removed with the student */
  duties: z.array(DutyAssignment),
  /** the student's open contracts (unpaid, active, expiring): they stay, the removal does not end or refund them */
  contracts: z.array(StudentInfoContract),
  /** the student's dinner bookings from the school's today on, not served yet (booked or unpaid): they stay too */
  meal_bookings: z.array(
    z.object({
      id,
      day: z.string(),
      goods_name: z.string().nullable(),
      status: z.enum(['booked', 'unpaid']),
      price_fen: z.number().int(),
      pay_from: z.enum(MEAL_PAY_FROM).nullable(),
    }),
  ),
});
export type DelWantuoStudentPreview = z.infer<typeof DelWantuoStudentPreview>;

/** `data` of POST delWantuoStudent / teacherDelWantuoStudent. */
export const DelWantuoStudentResult = z.object({
  class_id: id,
  student_id: id,
  removed_duties: z.number().int(),
  headcount: z.number().int(),
});
export type DelWantuoStudentResult = z.infer<typeof DelWantuoStudentResult>;

/** `data` of allotTeacher: the duty of the class (student_id null) or of one student, and its assignment (null: removed). */
export const AllotTeacherResult = z.object({
  class_id: id,
  student_id: id.nullable(),
  duty: z.enum(DUTIES),
  assignment: DutyAssignment.nullable(),
});
export type AllotTeacherResult = z.infer<typeof AllotTeacherResult>;
