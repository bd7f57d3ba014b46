import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, StudentStatus } from '@wantuo/shared';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, type DB } from '../database/kysely';
import type { Queryable } from '../database/sql-kit';
import type { AppError } from '../http/app-error';

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
export function responsibleFor(eb: AnyEb, student: Expression<number>, teacherId: number | Expression<number>): Expression<SqlBool> {
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
export function guardianOf(eb: AnyEb, student: Expression<number>, userId: number | Expression<number>): Expression<SqlBool> {
  const e = on(eb);
  return e.exists(
    e.selectFrom('student_guardians as g').select(sql.lit(1).as('one')).where('g.student_id', '=', student).where('g.user_id', '=', userId),
  );
}

/** Who a student-access condition is for: the caller's id, role and school. */
export interface AccessCaller {
  id: number;
  role: Role;
  schoolId: number;
}

/**
 * The one rule of "may this caller touch the student `student`" as an expression: the admin any of the school's
 * students, a teacher or head teacher those they are responsible for, a guardian their own children; nobody else.
 * The school itself is the query's own condition (every query scopes by `school_id`).
 */
export function studentAccess(
  eb: AnyEb,
  student: Expression<number>,
  caller: Pick<AccessCaller, 'role'> & { id: number | Expression<number> },
): Expression<SqlBool> {
  switch (caller.role) {
    case Role.Admin:
      return sql<SqlBool>`true`;
    case Role.Teacher:
    case Role.HeadTeacher:
      return responsibleFor(eb, student, caller.id);
    case Role.Parent:
      return guardianOf(eb, student, caller.id);
    default:
      return sql<SqlBool>`false`;
  }
}

/**
 * "May this caller touch these ids" answered in one statement per kind (issue 38), for every module instead of SQL
 * fragments passed around: the ids of `ids` that are the caller's school's and that the caller's role may touch.
 * `require…` throws the module's own not-found error (so another school's id looks like a missing one) unless all are.
 * Runs on `on` (a transaction's EntityManager to read inside it; the pool otherwise).
 */
@Injectable()
export class AccessRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The students of `ids` the caller may touch (studentAccess), optionally only active ones. */
  async students(caller: AccessCaller, ids: readonly number[], opts: { activeOnly?: boolean; on?: Queryable } = {}): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await kdb(opts.on ?? this.db)
      .selectFrom('students as s')
      .select('s.id')
      .where('s.id', '=', anyOf(ids))
      .where('s.school_id', '=', caller.schoolId)
      .$if(opts.activeOnly === true, (q) => q.where('s.status', '=', StudentStatus.Active))
      .where((eb) => studentAccess(eb, eb.ref('s.id'), caller))
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /**
   * The care classes of `ids` the caller may touch: the admin the school's, a head teacher the classes they head, a
   * teacher those they head or have a duty in; a guardian none. Deleted classes are not touched.
   */
  async careClasses(caller: AccessCaller, ids: readonly number[], on?: Queryable): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await kdb(on ?? this.db)
      .selectFrom('care_classes as c')
      .select('c.id')
      .where('c.id', '=', anyOf(ids))
      .where('c.school_id', '=', caller.schoolId)
      .where('c.deleted_at', 'is', null)
      .where((eb) => {
        if (caller.role === Role.Admin) return sql<SqlBool>`true`;
        if (caller.role !== Role.Teacher && caller.role !== Role.HeadTeacher) return sql<SqlBool>`false`;
        return eb.or([
          eb('c.head_teacher_id', '=', caller.id),
          eb.exists(
            eb
              .selectFrom('duty_assignments as d')
              .select(sql.lit(1).as('one'))
              .whereRef('d.class_id', '=', 'c.id')
              .where('d.teacher_id', '=', caller.id),
          ),
        ]);
      })
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** The contracts of `ids` the caller may touch: the admin the school's, a guardian their children's; staff none. */
  async contracts(caller: AccessCaller, ids: readonly number[], on?: Queryable): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await kdb(on ?? this.db)
      .selectFrom('contracts as c')
      .select('c.id')
      .where('c.id', '=', anyOf(ids))
      .where('c.school_id', '=', caller.schoolId)
      .where((eb) =>
        caller.role === Role.Admin
          ? sql<SqlBool>`true`
          : caller.role === Role.Parent
            ? guardianOf(eb, eb.ref('c.student_id'), caller.id)
            : sql<SqlBool>`false`,
      )
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** Throws `error` unless the caller may touch every student of `ids`. */
  async requireStudents(caller: AccessCaller, ids: readonly number[], error: AppError, opts: { activeOnly?: boolean; on?: Queryable } = {}) {
    const ok = await this.students(caller, ids, opts);
    if (new Set(ids).size !== ok.size) throw error;
  }

  /** Throws `error` unless the caller may touch every care class of `ids`. */
  async requireCareClasses(caller: AccessCaller, ids: readonly number[], error: AppError, on?: Queryable) {
    const ok = await this.careClasses(caller, ids, on);
    if (new Set(ids).size !== ok.size) throw error;
  }

  /** Throws `error` unless the caller may touch every contract of `ids`. */
  async requireContracts(caller: AccessCaller, ids: readonly number[], error: AppError, on?: Queryable) {
    const ok = await this.contracts(caller, ids, on);
    if (new Set(ids).size !== ok.size) throw error;
  }
}

/** `= any($n::int[])` for a list of ids: one parameter, whatever the list's length. */
export function anyOf(ids: readonly number[]) {
  return sql<number>`any(${[...new Set(ids)]}::int[])`;
}
