import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  HandlePrivacyRequestInput,
  MyPrivacyRequestsQuery,
  Page,
  PrivacyRequestInput,
  PrivacyRequestRow,
  PrivacyRequestsQuery,
} from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { ErasureService } from './erasure.service';
import type { ErasedSet } from './erasure.repository';

const ROW = `r.id, r.student_id, s.name as student_name, coalesce(u.name, '') as guardian_name, r.kind, r.body, r.status, r.due_at,
  (r.status = 'open' and r.due_at < now()) as overdue, h.name as handled_by_name, r.handled_at, r.result_note, r.version, r.created_at`;
const JOINS = `join students s on s.id = r.student_id left join users u on u.id = r.user_id left join users h on h.id = r.handled_by`;

/** A guardian's correction and deletion requests (privacy_requests), handled by the school's admin before due_at. */
@Injectable()
export class PrivacyRequestsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly erasure: ErasureService,
  ) {}

  async create(user: SessionUser, input: PrivacyRequestInput): Promise<PrivacyRequestRow> {
    return this.db.transaction(async (em) => {
      const [own]: unknown[] = await em.query(
        `select 1 from student_guardians g join students s on s.id = g.student_id and s.anonymised_at is null
          where g.student_id = $1 and g.user_id = $2 and g.school_id = $3`,
        [input.student_id, user.id, user.schoolId],
      );
      if (!own) throw new AppError('privacy.not_found');
      const [row]: Array<{ id: number }> = await em.query(
        `insert into privacy_requests (school_id, student_id, user_id, kind, body, due_at)
         values ($1, $2, $3, $4, $5, now() + make_interval(days => $6))
         on conflict (student_id, kind) where status = 'open' do nothing returning id`,
        [user.schoolId, input.student_id, user.id, input.kind, input.body, this.config.privacy.requestDueDays],
      );
      if (!row) throw new AppError('privacy.request_open');
      return this.one(em, user.schoolId!, row.id);
    });
  }

  async mine(user: SessionUser, q: MyPrivacyRequestsQuery): Promise<Page<PrivacyRequestRow>> {
    return this.page(`r.school_id = $1 and r.user_id = $2`, [user.schoolId, user.id], 'r.id desc', q);
  }

  async school(user: SessionUser, q: PrivacyRequestsQuery): Promise<Page<PrivacyRequestRow>> {
    return this.page(
      `r.school_id = $1 and ($2::varchar is null or r.status = $2) and ($3::varchar is null or r.kind = $3)`,
      [user.schoolId, q.status ?? null, q.kind ?? null],
      `(r.status = 'open') desc, case when r.status = 'open' then r.due_at end, r.id desc`,
      q,
    );
  }

  /**
   * The admin completes or refuses a request, on the version they read, once. Completing a deletion erases the child's
   * personal data in the same transaction (ErasureService): the request is done exactly when the data is gone; the
   * photos' files are removed after the commit.
   */
  async handle(user: SessionUser, input: HandlePrivacyRequestInput): Promise<PrivacyRequestRow> {
    let erased: ErasedSet | null = null;
    const row = await this.db.transaction(async (em) => {
      const [cur]: Array<{ status: string; version: number; kind: string; student_id: number }> = await em.query(
        `select status, version, kind, student_id from privacy_requests where id = $1 and school_id = $2 for update`,
        [input.id, user.schoolId],
      );
      if (!cur) throw new AppError('privacy.request_not_found');
      if (cur.status !== 'open') throw new AppError('privacy.request_handled');
      if (cur.version !== input.version) throw new AppError('privacy.request_conflict');
      if (cur.kind === 'deletion' && input.outcome === 'done') erased = await this.erasure.eraseIn(em, user.schoolId!, [cur.student_id]);
      await em.query(
        `update privacy_requests set status = $3, result_note = $4, handled_by = $5, handled_at = now(), version = version + 1
          where id = $1 and school_id = $2`,
        [input.id, user.schoolId, input.outcome, input.note, user.id],
      );
      // the other open request of an erased child (a correction) has nothing left to correct: done with it
      if (erased)
        await em.query(
          `update privacy_requests set status = 'done', result_note = $3, handled_by = $4, handled_at = now(), version = version + 1
            where school_id = $2 and student_id = $1 and status = 'open'`,
          [cur.student_id, user.schoolId, input.note, user.id],
        );
      return this.one(em, user.schoolId!, input.id);
    });
    if (erased) await this.erasure.removeFiles(erased);
    return row;
  }

  private async one(em: EntityManager, schoolId: number, id: number): Promise<PrivacyRequestRow> {
    const [row]: PrivacyRequestRow[] = await em.query(`select ${ROW} from privacy_requests r ${JOINS} where r.id = $1 and r.school_id = $2`, [
      id,
      schoolId,
    ]);
    return row;
  }

  private async page(where: string, params: unknown[], order: string, q: { page: number; limit: number }): Promise<Page<PrivacyRequestRow>> {
    const n = params.length;
    const rows: Array<PrivacyRequestRow & { total: number }> = await this.db.query(
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
