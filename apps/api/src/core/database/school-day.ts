import { sql, type Expression, type RawBuilder } from 'kysely';

/**
 * The school's own calendar day in the typed layer (issue 38), the builder forms of sql-kit's SCHOOL_TODAY and
 * RUNS_AS (which number their placeholder by hand): a day is the school's local one, never UTC's.
 */

/** The school's today (its zone's date), as a date expression. */
export function schoolTodayOf(schoolId: number | Expression<number>): RawBuilder<string> {
  return sql<string>`(select (now() at time zone sc.timezone)::date from schools sc where sc.id = ${schoolId})`;
}

/**
 * The weekday (1 Monday .. 7 Sunday) the school `school`'s day `day` runs as by its calendar (school_calendar_days):
 * a make-up day's works_as, 0 on a holiday (so no class's weekdays match), else its own.
 */
export function runsAs(school: Expression<number>, day: Expression<string>): RawBuilder<number> {
  return sql<number>`coalesce((select case when cd.kind = 'makeup' then cd.works_as::int else 0 end from school_calendar_days cd
                                where cd.school_id = ${school} and cd.day = ${day}), extract(isodow from ${day})::int)`;
}
