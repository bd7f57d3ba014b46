import { Role } from '@wantuo/shared';
import { RESPONSIBLE } from '../students/students.service';

/**
 * The SQL text of the exchange's named prepared statement (points-orders.repository.ts: a hot statement, kept as
 * its prepared text). Every other statement is built with Kysely in the repositories.
 *
 * The students (`s`) a caller may see and act for: the admin every student of the school, a teacher or head teacher
 * the students they are responsible for (RESPONSIBLE), a guardian their own children. `me` is the caller's id
 * parameter; the role comes from the session, never from the request.
 */
export function studentScope(role: Role, me: string): string {
  // the admin's scope still names the parameter, so every statement binds the same parameters whoever calls
  if (role === Role.Admin) return `(${me}::int is not null)`;
  if (role === Role.Parent) return `exists (select 1 from student_guardians g where g.student_id = s.id and g.user_id = ${me})`;
  return RESPONSIBLE(me);
}

export const ORDER_COLUMNS = `o.id, o.no, o.student_id, s.name as student_name, cc.name as class_name, o.goods_id, o.goods_name, g.picture_url, o.price, o.state,
  pu.name as placed_by_name, hu.name as handed_over_by_name, o.handed_over_at, cu.name as cancelled_by_name, o.cancelled_at, o.cancel_reason, o.created_at`;
export const ORDER_JOINS = `join students s on s.id = o.student_id
  left join care_class_students ccs on ccs.student_id = s.id
  left join care_classes cc on cc.id = ccs.class_id
  join points_goods g on g.id = o.goods_id
  left join users pu on pu.id = o.placed_by
  left join users hu on hu.id = o.handed_over_by
  left join users cu on cu.id = o.cancelled_by`;
