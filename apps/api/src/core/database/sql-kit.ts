import type { Page } from '@wantuo/shared';
import type { EntityManager } from 'typeorm';

/**
 * The small SQL kit (issue 22): the pieces every module's SQL needs, written once. Use these instead of writing a
 * LIKE escape, a page envelope, a unique-violation check or "the school's today" again.
 */

/** Anything that runs a query: the DataSource, an EntityManager inside a transaction, a QueryRunner. */
export type Queryable = Pick<EntityManager, 'query'>;

// ------------------------------------------------------------------ keywords

/** `text` with LIKE's wildcards (`%`, `_`) and the escape character escaped: matches itself only (default escape `\`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE / ILIKE pattern matching `text` anywhere: `%<escaped>%`. A blank keyword gives null (no filter). */
export function containsPattern(text: string | null | undefined): string | null {
  const t = text?.trim();
  return t ? `%${escapeLike(t)}%` : null;
}

/**
 * A LIKE pattern matching what starts with `text`: `<escaped>%`. A blank keyword gives null (no filter). Unlike a
 * contains pattern, a btree index can serve it (as a range, with a `*_pattern_ops` index under a non-C collation).
 */
export function prefixPattern(text: string | null | undefined): string | null {
  const t = text?.trim();
  return t ? `${escapeLike(t)}%` : null;
}

// ------------------------------------------------------------------ pages

/** The paging of a list request: page from 1, limit rows a page. */
export interface PageQuery {
  page: number;
  limit: number;
}

/** The OFFSET of a page. */
export const offsetOf = (q: PageQuery): number => (q.page - 1) * q.limit;

/** The page envelope `{ list, total, page, limit }` of a list request. */
export function pageOf<T>(list: T[], total: number, q: PageQuery): Page<T> {
  return { list, total, page: q.page, limit: q.limit };
}

/** The total of a page whose rows carry `count(*) over () as total` (0 for no rows). */
export const totalOf = (rows: ReadonlyArray<{ total?: number | string | null }>): number => Number(rows[0]?.total ?? 0);

// ------------------------------------------------------------------ errors

interface PgError {
  code?: string;
  constraint?: string;
  driverError?: { code?: string; constraint?: string };
}

/** The constraint's name when `err` is a unique violation (SQLSTATE 23505; '' when the driver names none), else null. */
export function uniqueViolationOf(err: unknown): string | null {
  const e = (err ?? {}) as PgError;
  const code = e.driverError?.code ?? e.code;
  return code === '23505' ? (e.driverError?.constraint ?? e.constraint ?? '') : null;
}

/** Whether `err` is a unique violation (of the constraint named, when given). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const name = uniqueViolationOf(err);
  return name !== null && (!constraint || name === constraint);
}

// ------------------------------------------------------------------ the school's day

/**
 * The school's own day ("today" in its time zone) for the school `$1`, as a one-row relation to cross join as `d`
 * (`d.today` is a date). `offset 0` keeps the planner from folding it into the outer query.
 */
export const SCHOOL_TODAY = `(select (now() at time zone timezone)::date as today from schools where id = $1 offset 0)`;

/**
 * The weekday (1 Monday .. 7 Sunday) the school `school`'s day `day` (SQL expressions) runs as by its calendar
 * (school_calendar_days): a make-up day's works_as, 0 on a holiday (so no class's weekdays match), else its own.
 */
export const RUNS_AS = (school: string, day: string) =>
  `coalesce((select case when cd.kind = 'makeup' then cd.works_as::int else 0 end from school_calendar_days cd where cd.school_id = ${school} and cd.day = ${day}), extract(isodow from ${day})::int)`;

/** The school's today as YYYY-MM-DD. */
export async function schoolToday(db: Queryable, schoolId: number): Promise<string> {
  const [r]: Array<{ today: string }> = await db.query(`select to_char(d.today, 'YYYY-MM-DD') as today from ${SCHOOL_TODAY} d`, [schoolId]);
  return r?.today;
}
