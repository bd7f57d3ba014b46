import { sql, type ExpressionBuilder } from 'kysely';
import type { DB } from '../../core/database/kysely';

/** The conditions shared by the courseware repositories (module `courseware`, issue 15), as typed expressions. */

/** The payment kind of a courseware purchase; ref_id is the courseware's id. */
export const COURSEWARE_KIND = 'courseware';

/** Courseware files live under UPLOAD_DIR/.courseware/: a dot folder, which the public /uploads path never serves. */
export const PRIVATE_PREFIX = '.courseware/';

/** Any query's expression builder: the conditions below reference the courseware `c` (and section `s`) of the caller's query. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEb = ExpressionBuilder<any, any>;
const onC = (eb: AnyEb) => eb as unknown as ExpressionBuilder<DB & { c: DB['coursewares'] }, 'c'>;
const onCS = (eb: AnyEb) => eb as unknown as ExpressionBuilder<DB & { c: DB['coursewares']; s: DB['courseware_sections'] }, 'c' | 's'>;

/** Whether the school `school` owns courseware `c` through a purchase (the partial unique index answers it). */
export function ownedBy(eb: AnyEb, school: number) {
  const e = onC(eb);
  return e.exists(
    e
      .selectFrom('courseware_purchases as p')
      .select(sql.lit(1).as('one'))
      .where('p.school_id', '=', school)
      .whereRef('p.courseware_id', '=', 'c.id')
      .where('p.state', '=', sql.lit('owned')),
  );
}

/** Whether courseware `c` is the school's own: `coalesce(c.school_id = school, false)`. */
export const ownOf = (eb: AnyEb, school: number) => sql<boolean>`coalesce(${onC(eb)('c.school_id', '=', school)}, false)`;

/**
 * What school `school` may see of a courseware `c`: the platform's on sale, the platform's it owns (even withdrawn
 * since), and its own.
 */
export function visibleTo(eb: AnyEb, school: number) {
  const e = onC(eb);
  return e.or([e.and([e('c.school_id', 'is', null), e.or([e('c.status', '=', sql.lit(1)), ownedBy(eb, school)])]), e('c.school_id', '=', school)]);
}

/**
 * Whether school `school` may open the files of section `s` of courseware `c`: its own sections; the publisher's
 * sections of a courseware it owns or its own courseware.
 */
export function filesOpen(eb: AnyEb, school: number) {
  const e = onCS(eb);
  return e.or([e('s.school_id', '=', school), e.and([e('s.school_id', 'is', null), e.or([e('c.school_id', '=', school), ownedBy(eb, school)])])]);
}

/** Whether school $1 owns courseware `c` (SQL text; lesson plans' until they are typed). */
const OWNED = `exists (select 1 from courseware_purchases p where p.school_id = $1 and p.courseware_id = c.id and p.state = 'owned')`;
/** filesOpen for school $1 as SQL text (lesson plans' until they are typed). */
export const FILES_OPEN = `(s.school_id = $1 or (s.school_id is null and (c.school_id = $1 or ${OWNED})))`;
