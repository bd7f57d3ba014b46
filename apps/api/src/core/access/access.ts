import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DB } from '../database/kysely';

/**
 * Who may touch which children, written once (issue 38): the conditions every module's queries use for "the students
 * this teacher is responsible for" and "this guardian's own children", as typed Kysely expressions over a student id
 * reference of the caller's query, instead of SQL fragments passed around as strings.
 */

/** Any query's expression builder: the access conditions only reference their own tables and the id handed in. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEb = ExpressionBuilder<any, any>;
const on = (eb: AnyEb) => eb as unknown as ExpressionBuilder<DB, never>;

/**
 * The student `student` (an id expression of the caller's query) is one a teacher is responsible for: of a care class
 * the teacher heads, or has a duty in (for the whole class, or for that student).
 */
export function responsibleFor(eb: AnyEb, student: Expression<number>, teacherId: number): Expression<SqlBool> {
  const e = on(eb);
  return e.exists(
    e
      .selectFrom('care_class_students as r')
      .innerJoin('care_classes as rc', (j) => j.onRef('rc.id', '=', 'r.class_id').on('rc.deleted_at', 'is', null))
      .select(sql.lit(1).as('one'))
      .where('r.student_id', '=', student)
      .where((w) =>
        w.or([
          w('rc.head_teacher_id', '=', teacherId),
          w.exists(
            w
              .selectFrom('duty_assignments as d')
              .select(sql.lit(1).as('one'))
              .whereRef('d.class_id', '=', 'rc.id')
              .where('d.teacher_id', '=', teacherId)
              .where((x) => x.or([x('d.student_id', 'is', null), x('d.student_id', '=', student)])),
          ),
        ]),
      ),
  );
}

/** The student `student` is a child of the guardian `userId` (any of the child's guardians). */
export function guardianOf(eb: AnyEb, student: Expression<number>, userId: number): Expression<SqlBool> {
  const e = on(eb);
  return e.exists(
    e.selectFrom('student_guardians as g').select(sql.lit(1).as('one')).where('g.student_id', '=', student).where('g.user_id', '=', userId),
  );
}
