import type { StudentInfoContract } from '@wantuo/shared';
import { sql, type Expression, type ExpressionBuilder } from 'kysely';
import type { DB } from '../../core/database/kysely';
import { stateSql } from '../contracts/contract-sql';

/**
 * A student's contracts as a JSON array of StudentInfoContract (packages/shared schemas/students.ts), open ones first
 * (unpaid, active, expiring), then by start day, newest first: studentInfo shows them, the care class removal preview
 * (GET delWantuoStudent) lists the open ones. `student` and `school` are SQL expressions (parameters); `d.today`, the
 * school's day (the SQL kit's SCHOOL_TODAY), must be in scope.
 */
export function studentContractsJson(student: string, school: string, opts: { openOnly: boolean; limit: number }): string {
  const state = stateSql('c', 'd.today');
  return `coalesce((select json_agg(to_jsonb(x) - 'ord' order by x.ord) from (
      select c.id, c.no, p.name as package_name, c.kind, ${state} as state,
             to_char(c.start_day, 'YYYY-MM-DD') as start_day, to_char(c.end_day, 'YYYY-MM-DD') as end_day, c.units_total,
             case when c.units_total is null then null else greatest(0, c.units_total - c.units_used) end as units_left,
             case when c.units_total is null and ${state} in ('active', 'expiring')
                  then greatest(0, c.end_day - greatest(d.today, c.start_day) + 1) end as days_left,
             row_number() over (order by ${state} in ('unpaid', 'active', 'expiring') desc, c.start_day desc, c.id desc) as ord
        from contracts c join contract_packages p on p.id = c.package_id
       where c.student_id = ${student} and c.school_id = ${school}
         ${opts.openOnly ? `and ${state} in ('unpaid', 'active', 'expiring')` : ''}
       order by ord limit ${Math.trunc(opts.limit)}) x), '[]'::json)`;
}

/** Any query's expression builder: the contracts subquery only references its own tables and `d.today`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEb = ExpressionBuilder<any, any>;

/**
 * studentContractsJson as a typed expression (issue 38): the student's contracts (open first, then by start day, newest
 * first; `openOnly`: only the open ones), at most `limit`, as a JSON array. `d.today`, the school's day, must be in scope.
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
