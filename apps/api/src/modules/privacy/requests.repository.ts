import type { Page, PrivacyRequestKind, PrivacyRequestRow } from '@wantuo/shared';
import { sql, type ExpressionBuilder } from 'kysely';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';
import type { Sendable } from '../../core/http/sendable';

/** Which requests a page shows: the school's, a guardian's own, of a status or kind. */
export interface RequestFilter {
  schoolId: number;
  userId?: number;
  status?: PrivacyRequestRow['status'] | null;
  kind?: PrivacyRequestKind | null;
}

/** The guardian's order (newest first) or the admin's (open ones first, the soonest due first, then newest). */
export type RequestOrder = 'newest' | 'open_first';

type RequestsEb = ExpressionBuilder<DB & { r: DB['privacy_requests'] }, 'r'>;

/** A request (`r`) with its child, guardian and handler: PrivacyRequestRow. */
const rows = (on: Queryable) =>
  kdb(on)
    .selectFrom('privacy_requests as r')
    .innerJoin('students as s', 's.id', 'r.student_id')
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .leftJoin('users as h', 'h.id', 'r.handled_by')
    .select((eb) => [
      'r.id',
      'r.student_id',
      's.name as student_name',
      sql<string>`coalesce(${eb.ref('u.name')}, '')`.as('guardian_name'),
      eb.ref('r.kind').$castTo<PrivacyRequestRow['kind']>().as('kind'),
      'r.body',
      eb.ref('r.status').$castTo<PrivacyRequestRow['status']>().as('status'),
      'r.due_at',
      sql<boolean>`(${eb.ref('r.status')} = 'open' and ${eb.ref('r.due_at')} < now())`.as('overdue'),
      'h.name as handled_by_name',
      'r.handled_at',
      'r.result_note',
      'r.version',
      'r.created_at',
    ]);

const matching = (f: RequestFilter) => (eb: RequestsEb) =>
  eb.and([
    eb('r.school_id', '=', f.schoolId),
    ...(f.userId === undefined ? [] : [eb('r.user_id', '=', f.userId)]),
    ...(f.status ? [eb('r.status', '=', f.status)] : []),
    ...(f.kind ? [eb('r.kind', '=', f.kind)] : []),
  ]);

/** The SQL of privacy_requests (issue 37): a guardian's correction and deletion requests, the admin's handling. */
export class PrivacyRequestsRepository {
  constructor(private readonly em: Queryable) {}

  /** Whether the user is a guardian of the child, which is not anonymised. */
  async isGuardian(schoolId: number, studentId: number, userId: number): Promise<boolean> {
    const r = await kdb(this.em)
      .selectFrom('student_guardians as g')
      .innerJoin('students as s', (j) => j.onRef('s.id', '=', 'g.student_id').on('s.anonymised_at', 'is', null))
      .select(sql.lit(1).as('one'))
      .where('g.student_id', '=', studentId)
      .where('g.user_id', '=', userId)
      .where('g.school_id', '=', schoolId)
      .executeTakeFirst();
    return r !== undefined;
  }

  /** A new open request, due in `dueDays`; null when one of the kind is already open for the child. */
  async insert(
    r: { schoolId: number; studentId: number; userId: number; kind: PrivacyRequestKind; body: string },
    dueDays: number,
  ): Promise<number | null> {
    const row = await kdb(this.em)
      .insertInto('privacy_requests')
      .values({
        school_id: r.schoolId,
        student_id: r.studentId,
        user_id: r.userId,
        kind: r.kind,
        body: r.body,
        due_at: sql`now() + make_interval(days => ${dueDays}::int)`,
      })
      .onConflict((oc) => oc.columns(['student_id', 'kind']).where('status', '=', sql.lit('open')).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id ?? null;
  }

  /** The request as it is locked before it is handled. */
  async lock(schoolId: number, id: number) {
    const row = await kdb(this.em)
      .selectFrom('privacy_requests')
      .select((eb) => ['status', 'version', eb.ref('kind').$castTo<PrivacyRequestKind>().as('kind'), 'student_id'])
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .forUpdate()
      .executeTakeFirst();
    return row ?? null;
  }

  async close(schoolId: number, id: number, outcome: 'done' | 'refused', note: string, by: number): Promise<void> {
    await kdb(this.em)
      .updateTable('privacy_requests')
      .set((eb) => ({ status: outcome, result_note: note, handled_by: by, handled_at: sql`now()`, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .execute();
  }

  /** The child's other open requests, done with the erasure (nothing is left to correct). */
  async closeOpenOf(schoolId: number, studentId: number, note: string, by: number): Promise<void> {
    await kdb(this.em)
      .updateTable('privacy_requests')
      .set((eb) => ({ status: 'done', result_note: note, handled_by: by, handled_at: sql`now()`, version: eb('version', '+', 1) }))
      .where('school_id', '=', schoolId)
      .where('student_id', '=', studentId)
      .where('status', '=', 'open')
      .execute();
  }

  async one(schoolId: number, id: number) {
    return (await rows(this.em).where('r.id', '=', id).where('r.school_id', '=', schoolId).executeTakeFirst())!;
  }

  /** A server page of the requests `f` selects, in `order`, with the total (one statement). */
  page(f: RequestFilter, order: RequestOrder, q: { page: number; limit: number }): Promise<Sendable<Page<PrivacyRequestRow>>> {
    const total = kdb(this.em)
      .selectFrom('privacy_requests as r')
      .select((eb) => sql<number>`${eb.fn.countAll()}::int`.as('total'))
      .where(matching(f));
    let list = rows(this.em).where(matching(f));
    if (order === 'open_first') list = list.orderBy(sql`(r.status = 'open')`, 'desc').orderBy(sql`case when r.status = 'open' then r.due_at end`);
    return pageRows(this.em, total, list.orderBy('r.id', 'desc'), q);
  }
}
