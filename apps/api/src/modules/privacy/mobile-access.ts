import { maskMobile, Role } from '@wantuo/shared';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';
import type { SessionUser } from '../../core/http/request-context';

/**
 * Least access to guardians' and pick-up people's mobiles (issue 37, docs/modules/privacy.md "Least access"): the one
 * rule of whose contacts a caller sees whole.
 * - the admin: every child of their school;
 * - a head teacher: the children of the care classes they head;
 * - a teacher, and a head teacher for other children: the children they are on duty for today, i.e. a duty of theirs
 *   covering the child (duty_assignments: the child's class with student_id null, or the child), or the child's task
 *   handed to them today (task_handovers), AND the child is on the roster of the school's today as the attendance
 *   lists count it (flow-read's DAYS_CTE): a student_days row of today, or the child's running class meets today (its
 *   time slot's weekdays by the school calendar: none on a holiday, a make-up day as the weekday it works as; a class
 *   without a time slot meets every working day).
 * Everyone else gets the mobile masked as maskMobile does (138****0001). Staff who need the whole number to call ask
 * callGuardian, which logs the call.
 */

/**
 * How an answer shows mobiles: as the caller may see them (`{ user }`: fullMobile), every one masked (an export by
 * default) or every one whole (the admin's unmasked export).
 */
export type MobileView = { user: Pick<SessionUser, 'id' | 'role'> } | 'masked' | 'full';

/** Any query's expression builder: the conditions below only reference their own tables and the expressions handed in. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEb = ExpressionBuilder<any, any>;

/**
 * Whether `user` sees the contacts of the student `student` (an id expression of the caller's query) whole, the
 * caller's id a parameter; the role is the caller's, known here. The student's school is the caller's (callers scope
 * their rows to it); the day is that school's today.
 */
export function fullMobile(eb: AnyEb, student: Expression<number>, user: Pick<SessionUser, 'id' | 'role'>): Expression<SqlBool> {
  if (user.role === Role.Admin) return sql<SqlBool>`true`;
  const e = eb as unknown as ExpressionBuilder<DB, never>;
  const me = user.id;
  const today = sql<string>`(select (now() at time zone z.timezone)::date from schools z where z.id = mc.school_id)`;
  const runsAs = sql<number>`coalesce((select case when cd.kind = 'makeup' then cd.works_as::int else 0 end from school_calendar_days cd
     where cd.school_id = mc.school_id and cd.day = ${today}), extract(isodow from ${today})::int)`;
  return e.exists(
    e
      .selectFrom('care_class_students as m')
      .innerJoin('care_classes as mc', (j) => j.onRef('mc.id', '=', 'm.class_id').on('mc.deleted_at', 'is', null))
      .select(sql.lit(1).as('one'))
      .where('m.student_id', '=', student)
      .where((w) =>
        w.or([
          ...(user.role === Role.HeadTeacher ? [w('mc.head_teacher_id', '=', me)] : []),
          w.and([
            w.or([
              w.exists(
                w
                  .selectFrom('duty_assignments as da')
                  .select(sql.lit(1).as('one'))
                  .whereRef('da.class_id', '=', 'mc.id')
                  .where('da.teacher_id', '=', me)
                  .where((x) => x.or([x('da.student_id', 'is', null), x('da.student_id', '=', x.ref('m.student_id'))])),
              ),
              w.exists(
                w
                  .selectFrom('task_handovers as th')
                  .select(sql.lit(1).as('one'))
                  .whereRef('th.student_id', '=', 'm.student_id')
                  .where('th.day', '=', today)
                  .where('th.to_teacher_id', '=', me),
              ),
            ]),
            w.or([
              w.exists(
                w
                  .selectFrom('student_days as sd')
                  .select(sql.lit(1).as('one'))
                  .whereRef('sd.student_id', '=', 'm.student_id')
                  .where('sd.day', '=', today),
              ),
              w.and([
                w('mc.status', '=', 1),
                w(runsAs, '<>', 0),
                w.or([
                  w('mc.class_time_id', 'is', null),
                  w.exists(
                    w
                      .selectFrom('class_times as ct')
                      .select(sql.lit(1).as('one'))
                      .whereRef('ct.id', '=', 'mc.class_time_id')
                      .where((y) => sql<SqlBool>`${runsAs}::smallint = any(${y.ref('ct.weekdays')})`),
                  ),
                ]),
              ]),
            ]),
          ]),
        ]),
      ),
  );
}

/** SQL twin of maskMobile: `mobile` as 138****0001, '****' when shorter than 7 characters; null stays null. */
export const maskedMobile = (mobile: Expression<string | null>) =>
  sql<string>`(case when length(${mobile}) >= 7 then left(${mobile}, 3) || '****' || right(${mobile}, 4) when ${mobile} is not null then '****' end)`;

/** The mobile `mobile` of a contact of the student `student` as `view` shows it. */
export function mobileOf(eb: AnyEb, view: MobileView, mobile: Expression<string | null>, student: Expression<number>) {
  if (view === 'full') return sql<string>`${mobile}`;
  if (view === 'masked') return maskedMobile(mobile);
  return sql<string>`(case when ${fullMobile(eb, student, view.user)} then ${mobile} else ${maskedMobile(mobile)} end)`;
}

/** The ids among `studentIds` whose contacts `user` sees whole (one statement). */
export async function fullMobileStudents(db: Queryable, user: Pick<SessionUser, 'id' | 'role'>, studentIds: readonly number[]): Promise<Set<number>> {
  if (!studentIds.length) return new Set();
  const rows = await kdb(db)
    .selectFrom(sql<{ id: number }>`unnest(${[...new Set(studentIds)]}::int[])`.as('x'))
    .select(sql<number>`x`.as('id'))
    .where((eb) => fullMobile(eb, sql<number>`x`, user))
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** A mobile as a caller who may (`full`) or may not see it whole gets it. */
export const shownMobile = (mobile: string, full: boolean): string => (full ? mobile : maskMobile(mobile));

/** How a caller's own answers show mobiles: the admin whole (no per-row rule to run), staff by the rule. */
export const callerView = (user: Pick<SessionUser, 'id' | 'role'>): MobileView => (user.role === Role.Admin ? 'full' : { user });
