import { Role } from '@wantuo/shared';
import type { SessionUser } from '../../core/http/request-context';
import { RESPONSIBLE } from '../students/students.service';

/** The caller's school (the role guard only lets school members reach these actions). */
export const schoolOf = (user: SessionUser): number => user.schoolId ?? -1;

/**
 * A teacher's own class of a homework `h` (`me` the caller's id parameter): the teacher of a teaching class, the head
 * teacher or a duty teacher of a care class. The admin's rule still names the parameter (every statement binds the same
 * parameters whoever calls).
 */
export function ownHomework(role: Role, me: string, alias = 'h'): string {
  if (role === Role.Admin) return `(${me}::int is not null)`;
  return `((${alias}.kind = 'teaching' and exists (select 1 from teaching_classes oc where oc.id = ${alias}.class_id and oc.teacher_id = ${me} and oc.deleted_at is null))
    or (${alias}.kind = 'care' and exists (select 1 from care_classes oc where oc.id = ${alias}.class_id and oc.deleted_at is null
          and (oc.head_teacher_id = ${me} or exists (select 1 from duty_assignments od where od.class_id = oc.id and od.teacher_id = ${me})))))`;
}

/**
 * The students (`s`) whose homework the caller may read: the admin any of the school, a guardian an own child, a
 * teacher or head teacher a student they are responsible for (care class) or teach (teaching class).
 */
export function studentScope(role: Role, me: string): string {
  if (role === Role.Admin) return `(${me}::int is not null)`;
  if (role === Role.Parent) return `exists (select 1 from student_guardians g where g.student_id = s.id and g.user_id = ${me})`;
  return `(${RESPONSIBLE(me)} or exists (select 1 from teaching_class_students tm join teaching_classes tc on tc.id = tm.class_id
            where tm.student_id = s.id and tc.teacher_id = ${me} and tc.deleted_at is null))`;
}

/** The class name of a homework `h`, whichever kind. */
const CLASS_NAME = `coalesce(case when h.kind = 'care' then (select cc.name from care_classes cc where cc.id = h.class_id)
                                  else (select tc.name from teaching_classes tc where tc.id = h.class_id) end, '')`;

/** The columns of a homework `h` (without its counts). */
export const HOMEWORK_COLUMNS = `h.id, h.kind, h.class_id, ${CLASS_NAME} as class_name, h.session_id,
  (select to_char(cs.day, 'YYYY-MM-DD') from class_sessions cs where cs.id = h.session_id) as session_day,
  h.title, h.content, h.attachments, to_char(h.set_day, 'YYYY-MM-DD') as set_day, to_char(h.due_day, 'YYYY-MM-DD') as due_day,
  h.teacher_id, hu.name as teacher_name, h.created_at`;
export const HOMEWORK_JOINS = `join users hu on hu.id = h.teacher_id`;

/** The counts of a homework `h`'s students by state. */
export const HOMEWORK_COUNTS = `(select count(*)::int from homework_submissions x where x.homework_id = h.id) as students,
  (select count(*)::int from homework_submissions x where x.homework_id = h.id and x.state = 'todo') as todo,
  (select count(*)::int from homework_submissions x where x.homework_id = h.id and x.state = 'done') as done,
  (select count(*)::int from homework_submissions x where x.homework_id = h.id and x.state = 'checked') as checked`;

/** The columns of a submission `hs` of a student `s`. */
export const SUBMISSION_COLUMNS = `hs.state, hs.note, hs.photo_url, hs.home_note, su.name as updated_by_name, hs.updated_at, hs.version`;
export const SUBMISSION_JOINS = `left join users su on su.id = hs.updated_by`;
