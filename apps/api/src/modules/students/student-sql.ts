import type { StudentInfoContract } from '@wantuo/shared';
import { sql, type Expression, type ExpressionBuilder } from 'kysely';
import type { Database, DB } from '../../core/database/kysely';
import { stateSql } from '../contracts/contract-sql';

/** Any query's expression builder: the contracts subquery only references its own tables and `d.today`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEb = ExpressionBuilder<any, any>;

/**
 * A student's contracts as a JSON array of StudentInfoContract (open ones first: unpaid, active, expiring; then by start
 * day, newest first; `openOnly`: only the open ones), at most `limit`: studentInfo shows them, the care class removal
 * preview (GET delWantuoStudent) lists the open ones. `d.today`, the school's day (schoolTodayRow), must be in scope.
 */
export function studentContracts(eb: AnyEb, student: Expression<number> | number, school: number, opts: { openOnly: boolean; limit: number }) {
  const e = eb as unknown as ExpressionBuilder<DB, never>;
  const state = sql<StudentInfoContract['state']>`${sql.raw(stateSql('c', 'd.today'))}`;
  const open = sql<boolean>`${state} in ('unpaid', 'active', 'expiring')`;
  const rows = e
    .selectFrom('contracts as c')
    .innerJoin('contract_packages as p', 'p.id', 'c.package_id')
    .select((x) => [
      'c.id',
      'c.no',
      'p.name as package_name',
      'c.kind',
      state.as('state'),
      sql<string>`to_char(${x.ref('c.start_day')}, 'YYYY-MM-DD')`.as('start_day'),
      sql<string>`to_char(${x.ref('c.end_day')}, 'YYYY-MM-DD')`.as('end_day'),
      'c.units_total',
      sql<number | null>`case when c.units_total is null then null else greatest(0, c.units_total - c.units_used) end`.as('units_left'),
      sql<number | null>`case when c.units_total is null and ${state} in ('active', 'expiring')
                  then greatest(0, c.end_day - greatest(d.today, c.start_day) + 1) end`.as('days_left'),
      sql<number>`row_number() over (order by ${open} desc, c.start_day desc, c.id desc)`.as('ord'),
    ])
    .where('c.student_id', '=', student)
    .where('c.school_id', '=', school)
    .$if(opts.openOnly, (q) => q.where(open))
    .orderBy('ord')
    .limit(Math.trunc(opts.limit));
  return e
    .selectFrom(rows.as('x'))
    .select(sql<StudentInfoContract[]>`coalesce(json_agg(to_jsonb(x) - 'ord' order by x.ord), '[]'::json)`.as('contracts'));
}

/**
 * The school's own day ("today" in its time zone) as a one-row relation `d` (`d.today` a date), the typed SCHOOL_TODAY:
 * `offset 0` keeps the planner from folding it into the outer query.
 */
export const schoolTodayRow = (k: Database, schoolId: number) =>
  k
    .selectFrom('schools')
    .select((z) => sql<string>`(now() at time zone ${z.ref('timezone')})::date`.as('today'))
    .where('id', '=', schoolId)
    .offset(sql.lit(0))
    .as('d');
