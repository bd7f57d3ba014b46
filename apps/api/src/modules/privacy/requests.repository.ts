import type { Page, PrivacyRequestKind, PrivacyRequestRow } from '@wantuo/shared';
import type { EntityManager } from 'typeorm';
import { offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';

const ROW = `r.id, r.student_id, s.name as student_name, coalesce(u.name, '') as guardian_name, r.kind, r.body, r.status, r.due_at,
  (r.status = 'open' and r.due_at < now()) as overdue, h.name as handled_by_name, r.handled_at, r.result_note, r.version, r.created_at`;
const JOINS = `join students s on s.id = r.student_id left join users u on u.id = r.user_id left join users h on h.id = r.handled_by`;

/** The request as it is locked before it is handled. */
export interface LockedRequest {
  status: string;
  version: number;
  kind: PrivacyRequestKind;
  student_id: number;
}

/** The SQL of privacy_requests (issue 37): a guardian's correction and deletion requests, the admin's handling. */
export class PrivacyRequestsRepository {
  constructor(private readonly em: EntityManager) {}

  /** Whether the user is a guardian of the child, which is not anonymised. */
  async isGuardian(schoolId: number, studentId: number, userId: number): Promise<boolean> {
    const rows: unknown[] = await this.em.query(
      `select 1 from student_guardians g join students s on s.id = g.student_id and s.anonymised_at is null
        where g.student_id = $1 and g.user_id = $2 and g.school_id = $3`,
      [studentId, userId, schoolId],
    );
    return rows.length > 0;
  }

  /** A new open request, due in `dueDays`; null when one of the kind is already open for the child. */
  async insert(
    r: { schoolId: number; studentId: number; userId: number; kind: PrivacyRequestKind; body: string },
    dueDays: number,
  ): Promise<number | null> {
    const [row]: Array<{ id: number }> = await this.em.query(
      `insert into privacy_requests (school_id, student_id, user_id, kind, body, due_at)
       values ($1, $2, $3, $4, $5, now() + make_interval(days => $6))
       on conflict (student_id, kind) where status = 'open' do nothing returning id`,
      [r.schoolId, r.studentId, r.userId, r.kind, r.body, dueDays],
    );
    return row?.id ?? null;
  }

  async lock(schoolId: number, id: number): Promise<LockedRequest | null> {
    const [row]: LockedRequest[] = await this.em.query(
      `select status, version, kind, student_id from privacy_requests where id = $1 and school_id = $2 for update`,
      [id, schoolId],
    );
    return row ?? null;
  }

  async close(schoolId: number, id: number, outcome: 'done' | 'refused', note: string, by: number): Promise<void> {
    await this.em.query(
      `update privacy_requests set status = $3, result_note = $4, handled_by = $5, handled_at = now(), version = version + 1
        where id = $1 and school_id = $2`,
      [id, schoolId, outcome, note, by],
    );
  }

  /** The child's other open requests, done with the erasure (nothing is left to correct). */
  async closeOpenOf(schoolId: number, studentId: number, note: string, by: number): Promise<void> {
    await this.em.query(
      `update privacy_requests set status = 'done', result_note = $3, handled_by = $4, handled_at = now(), version = version + 1
        where school_id = $2 and student_id = $1 and status = 'open'`,
      [studentId, schoolId, note, by],
    );
  }

  async one(schoolId: number, id: number): Promise<PrivacyRequestRow> {
    const [row]: PrivacyRequestRow[] = await this.em.query(`select ${ROW} from privacy_requests r ${JOINS} where r.id = $1 and r.school_id = $2`, [
      id,
      schoolId,
    ]);
    return row;
  }

  /** A server page of the requests matching `where` (its parameters `params`), in `order`. */
  async page(where: string, params: unknown[], order: string, q: { page: number; limit: number }): Promise<Page<PrivacyRequestRow>> {
    const n = params.length;
    const rows: Array<PrivacyRequestRow & { total: number }> = await this.em.query(
      `select c.total, p.* from (select count(*)::int as total from privacy_requests r where ${where}) c
       left join lateral (select ${ROW} from privacy_requests r ${JOINS} where ${where} order by ${order} limit $${n + 1} offset $${n + 2}) p on true`,
      [...params, q.limit, offsetOf(q)],
    );
    return pageOf(
      rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as PrivacyRequestRow),
      totalOf(rows),
      q,
    );
  }
}
