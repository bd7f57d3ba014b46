import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  fillPolicy,
  type Lang,
  type Page,
  type PolicyDoc,
  type PolicyKind,
  type PolicyVersion,
  type PrivacyPolicies,
  type PrivacyPolicyHistoryQuery,
  type PublishPrivacyPolicyInput,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { SessionService } from '../../core/auth/session.service';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import type { Sendable } from '../../core/http/sendable';
import { PrivacyRepository } from './privacy.repository';

/**
 * The privacy policy and the children's rules: versioned rows of privacy_policies (a publish adds a version; none is
 * rewritten). A reader gets the newest of each in their language with the platform's and the school's names filled in.
 */
@Injectable()
export class PoliciesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: SessionService,
    private readonly repo: PrivacyRepository,
  ) {}

  /** The current versions (privacy, children), in one query. */
  async currentVersions(): Promise<{ privacy: number; children: number }> {
    return this.repo.currentVersions();
  }

  /** Both documents as a reader gets them; the school is the signed-in caller's own, or `schoolId` on a public page. */
  async current(user: SessionUser | undefined, schoolId: number | undefined, lang: Lang): Promise<PrivacyPolicies> {
    const rows = await this.repo.current(user?.schoolId ?? schoolId ?? null);
    const names = { platform: rows[0]?.platform_name || '晚托管理平台', school: rows[0]?.school_name ?? null };
    const doc = (kind: PolicyKind): PolicyDoc => {
      const r = rows.find((x) => x.kind === kind);
      if (!r) throw new Error(`privacy_policies has no ${kind} document`);
      const body = lang === 'en' && r.body_en ? r.body_en : r.body_zh;
      return {
        kind,
        version: r.version,
        title: r.title,
        body: fillPolicy(body, names),
        summary: r.summary,
        published_at: r.published_at.toISOString(),
      };
    };
    return { platform_name: names.platform, school_name: names.school, privacy: doc('privacy'), children: doc('children') };
  }

  async history(q: PrivacyPolicyHistoryQuery): Promise<Sendable<Page<PolicyVersion>>> {
    return this.repo.history(q.kind, q);
  }

  /**
   * A new version on top of the one the operator edited (`expected_version`); the same text again is refused. Every
   * guardian is asked again: the sessions' cached consent state is dropped after the commit.
   */
  async publish(user: SessionUser, input: PublishPrivacyPolicyInput): Promise<Sendable<PolicyVersion>> {
    return this.db.transaction(async (em) => {
      await this.repo.lockPolicy(em, input.kind);
      const cur = await this.repo.latest(em, input.kind);
      const version = cur?.version ?? 0;
      if (version !== input.expected_version) throw new AppError('privacy.policy_conflict');
      if (cur && cur.title === input.title && cur.body_zh === input.body_zh && cur.body_en === input.body_en) {
        throw new AppError('privacy.policy_unchanged');
      }
      const row = await this.repo.insertPolicy(
        em,
        {
          kind: input.kind,
          version: version + 1,
          title: input.title,
          body_zh: input.body_zh,
          body_en: input.body_en,
          summary: input.summary,
          published_by: user.id,
        },
        user.name,
      );
      await this.sessions.changed(em);
      return row;
    });
  }
}
