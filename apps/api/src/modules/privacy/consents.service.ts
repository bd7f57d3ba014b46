import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AcceptPoliciesInput, MyConsents, SetConsentInput } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { SessionService } from '../../core/auth/session.service';
import type { CallerInfo, SchoolCaller } from '../../core/auth/current-user.decorator';
import type { Queryable } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { Sendable } from '../../core/http/sendable';
import { PoliciesService } from './policies.service';
import { PrivacyRepository } from './privacy.repository';

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
    private readonly repo: PrivacyRepository,
  ) {}

  async mine(user: SchoolCaller, em: Queryable = this.db): Promise<Sendable<MyConsents>> {
    const rows = await this.repo.consents(em, user.schoolId, user.id);
    const children = rows.flatMap(({ privacy_version: _, children_version: __, ...c }) =>
      c.student_id === null ? [] : [{ ...c, student_id: c.student_id, name: c.name! }],
    );
    return {
      privacy_version: rows[0]?.privacy_version ?? 0,
      children_version: rows[0]?.children_version ?? 0,
      needs_consent: children.some((c) => !c.policies_accepted),
      children,
    };
  }

  /** Accepts the versions the guardian read for each of their children (refused when a newer one came out meanwhile). */
  async accept(user: SchoolCaller, input: AcceptPoliciesInput, caller: CallerInfo): Promise<Sendable<MyConsents>> {
    return this.db.transaction(async (em) => {
      const cur = await this.policies.currentVersions();
      if (cur.privacy !== input.privacy_version || cur.children !== input.children_version) throw new AppError('privacy.policy_changed');
      const studentIds = await this.repo.accept(em, user.schoolId, user.id, cur.privacy, cur.children);
      if (!studentIds.length) throw new AppError('privacy.no_children');
      await this.repo.insertAcceptances(em, {
        schoolId: user.schoolId,
        userId: user.id,
        studentIds,
        privacy: cur.privacy,
        children: cur.children,
        ip: caller.ip.slice(0, 64),
        userAgent: caller.userAgent.slice(0, 300),
      });
      await this.sessions.changed(em);
      return this.mine(user, em);
    });
  }

  /**
   * Grants or withdraws photos or health notes for one child, or withdraws the documents; at once. A withdrawn health
   * consent erases the child's stored health note in the same transaction.
   */
  async set(user: SchoolCaller, input: SetConsentInput, caller: CallerInfo): Promise<Sendable<MyConsents>> {
    if (input.kind === 'policies' && input.granted) throw new AppError('privacy.accept_first');
    return this.db.transaction(async (em) => {
      const link = await this.repo.linkForUpdate(em, user.schoolId, input.student_id, user.id);
      if (!link) throw new AppError('privacy.not_found');
      if (input.kind !== 'policies' && input.granted && !link.accepted) throw new AppError('privacy.accept_first');
      if (input.kind === 'policies') {
        await this.repo.withdrawPolicies(em, input.student_id, user.id);
        await this.sessions.changed(em);
      } else {
        // photos withdrawn: the child's own photo goes at once (photos in past reports and homework stay until a deletion)
        await this.repo.setConsent(em, input.student_id, input.kind, input.granted);
      }
      await this.repo.insertConsent(em, {
        schoolId: user.schoolId,
        userId: user.id,
        studentId: input.student_id,
        kind: input.kind,
        granted: input.granted,
        ip: caller.ip.slice(0, 64),
        userAgent: caller.userAgent.slice(0, 300),
      });
      return this.mine(user, em);
    });
  }
}
