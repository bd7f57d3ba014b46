import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AcceptPoliciesInput, ChildConsent, MyConsents, SetConsentInput } from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { SessionService } from '../../core/auth/session.service';
import type { CallerInfo } from '../../core/auth/current-user.decorator';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { PoliciesService } from './policies.service';

/**
 * A guardian's consents, per child (privacy_consents, appended): the two documents (their versions), photos of the
 * child, health notes. `student_guardians` keeps the versions each guardian last accepted for each child (the session's
 * consent gate reads them), `students.photo_consent` / `health_consent` the latest decision of any of the child's
 * guardians (the rules of the photo and health writes read them).
 */
@Injectable()
export class ConsentsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: SessionService,
    private readonly policies: PoliciesService,
  ) {}

  async mine(user: SessionUser, em: EntityManager = this.db.manager): Promise<MyConsents> {
    const rows: Array<ChildConsent & { privacy_version: number; children_version: number }> = await em.query(
      `with cur as (select coalesce(max(version) filter (where kind = 'privacy'), 0)::int as p,
                           coalesce(max(version) filter (where kind = 'children'), 0)::int as c from privacy_policies)
       select cur.p as privacy_version, cur.c as children_version, s.id as student_id, s.name,
              (g.privacy_version = cur.p and g.children_version = cur.c) is true as policies_accepted,
              case when g.privacy_version = cur.p and g.children_version = cur.c then g.consented_at end as accepted_at,
              s.photo_consent as photos, s.health_consent as health
         from cur left join student_guardians g on g.user_id = $1 and g.school_id = $2
         left join students s on s.id = g.student_id and s.status = 1
        order by s.birthday nulls last, s.id`,
      [user.id, user.schoolId],
    );
    const children = rows.filter((r) => r.student_id !== null).map(({ privacy_version: _, children_version: __, ...c }) => c);
    return {
      privacy_version: rows[0]?.privacy_version ?? 0,
      children_version: rows[0]?.children_version ?? 0,
      needs_consent: children.some((c) => !c.policies_accepted),
      children,
    };
  }

  /** Accepts the versions the guardian read for each of their children (refused when a newer one came out meanwhile). */
  async accept(user: SessionUser, input: AcceptPoliciesInput, caller: CallerInfo): Promise<MyConsents> {
    return this.db.transaction(async (em) => {
      const cur = await this.policies.currentVersions();
      if (cur.privacy !== input.privacy_version || cur.children !== input.children_version) throw new AppError('privacy.policy_changed');
      const [rows]: [Array<{ student_id: number }>, number] = await em.query(
        `update student_guardians g set privacy_version = $3, children_version = $4, consented_at = now()
           from students s
          where g.user_id = $1 and g.school_id = $2 and s.id = g.student_id and s.status = 1
          returning g.student_id`,
        [user.id, user.schoolId, cur.privacy, cur.children],
      );
      if (!rows.length) throw new AppError('privacy.no_children');
      await em.query(
        `insert into privacy_consents (school_id, user_id, student_id, kind, granted, privacy_version, children_version, ip, user_agent)
         select $1, $2, x, 'policies', true, $4, $5, $6, $7 from unnest($3::int[]) as x`,
        [user.schoolId, user.id, rows.map((r) => r.student_id), cur.privacy, cur.children, caller.ip.slice(0, 64), caller.userAgent.slice(0, 300)],
      );
      await this.sessions.changed(em);
      return this.mine(user, em);
    });
  }

  /**
   * Grants or withdraws photos or health notes for one child, or withdraws the documents; at once. A withdrawn health
   * consent erases the child's stored health note in the same transaction.
   */
  async set(user: SessionUser, input: SetConsentInput, caller: CallerInfo): Promise<MyConsents> {
    if (input.kind === 'policies' && input.granted) throw new AppError('privacy.accept_first');
    return this.db.transaction(async (em) => {
      const [link]: Array<{ accepted: boolean }> = await em.query(
        `select (g.privacy_version is not null) as accepted
           from student_guardians g join students s on s.id = g.student_id and s.status = 1
          where g.student_id = $1 and g.user_id = $2 and g.school_id = $3 for update of g`,
        [input.student_id, user.id, user.schoolId],
      );
      if (!link) throw new AppError('privacy.not_found');
      if (input.kind !== 'policies' && input.granted && !link.accepted) throw new AppError('privacy.accept_first');
      if (input.kind === 'policies') {
        await em.query(
          `update student_guardians set privacy_version = null, children_version = null, consented_at = null where student_id = $1 and user_id = $2`,
          [input.student_id, user.id],
        );
        await this.sessions.changed(em);
      } else if (input.kind === 'photos') {
        // withdrawn: the child's own photo goes at once (photos in past reports and homework stay until a deletion)
        await em.query(
          `update students set photo_consent = $2, photo_url = case when $2 then photo_url end, updated_at = now(), version = version + 1
            where id = $1`,
          [input.student_id, input.granted],
        );
      } else {
        await em.query(
          `update students set health_consent = $2, allergies = case when $2 then allergies end, updated_at = now(), version = version + 1
            where id = $1`,
          [input.student_id, input.granted],
        );
      }
      await em.query(
        `insert into privacy_consents (school_id, user_id, student_id, kind, granted, ip, user_agent) values ($1, $2, $3, $4, $5, $6, $7)`,
        [user.schoolId, user.id, input.student_id, input.kind, input.granted, caller.ip.slice(0, 64), caller.userAgent.slice(0, 300)],
      );
      return this.mine(user, em);
    });
  }
}
