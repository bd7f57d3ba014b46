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
import { offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';

type Stored = { kind: PolicyKind; version: number; title: string; body_zh: string; body_en: string; summary: string; published_at: Date };

/**
 * The privacy policy and the children's rules: versioned rows of privacy_policies (a publish adds a version; none is
 * rewritten). A reader gets the newest of each in their language with the platform's and the school's names filled in.
 */
@Injectable()
export class PoliciesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: SessionService,
  ) {}

  /** The current versions (privacy, children), in one query. */
  async currentVersions(): Promise<{ privacy: number; children: number }> {
    const [r]: Array<{ privacy: number; children: number }> = await this.db.query(
      `select coalesce(max(version) filter (where kind = 'privacy'), 0)::int as privacy,
              coalesce(max(version) filter (where kind = 'children'), 0)::int as children
         from privacy_policies`,
    );
    return r;
  }

  /** Both documents as a reader gets them; the school is the signed-in caller's own, or `schoolId` on a public page. */
  async current(user: SessionUser | undefined, schoolId: number | undefined, lang: Lang): Promise<PrivacyPolicies> {
    const rows: Array<Stored & { platform_name: string; school_name: string | null }> = await this.db.query(
      `select distinct on (p.kind) p.kind, p.version, p.title, p.body_zh, p.body_en, p.summary, p.published_at,
              coalesce((select s.value->>'site_name' from site_settings s where s.key = 'page_config'), '') as platform_name,
              (select sc.name from schools sc where sc.id = $1) as school_name
         from privacy_policies p
        order by p.kind, p.version desc`,
      [user?.schoolId ?? schoolId ?? null],
    );
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

  async history(q: PrivacyPolicyHistoryQuery): Promise<Page<PolicyVersion>> {
    const rows: Array<PolicyVersion & { total: number }> = await this.db.query(
      `select c.total, p.* from (select count(*)::int as total from privacy_policies where kind = $1) c
       left join lateral (
         select p.id, p.kind, p.version, p.title, p.body_zh, p.body_en, p.summary, p.published_at, u.name as published_by_name
           from privacy_policies p left join users u on u.id = p.published_by
          where p.kind = $1 order by p.version desc limit $2 offset $3
       ) p on true`,
      [q.kind, q.limit, offsetOf(q)],
    );
    return pageOf(
      rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as PolicyVersion),
      totalOf(rows),
      q,
    );
  }

  /**
   * A new version on top of the one the operator edited (`expected_version`); the same text again is refused. Every
   * guardian is asked again: the sessions' cached consent state is dropped after the commit.
   */
  async publish(user: SessionUser, input: PublishPrivacyPolicyInput): Promise<PolicyVersion> {
    return this.db.transaction(async (em) => {
      await em.query(`select pg_advisory_xact_lock(hashtextextended('privacy_policies:' || $1, 0))`, [input.kind]);
      const [cur]: Stored[] = await em.query(
        `select kind, version, title, body_zh, body_en, summary from privacy_policies where kind = $1 order by version desc limit 1`,
        [input.kind],
      );
      const version = cur?.version ?? 0;
      if (version !== input.expected_version) throw new AppError('privacy.policy_conflict');
      if (cur && cur.title === input.title && cur.body_zh === input.body_zh && cur.body_en === input.body_en) {
        throw new AppError('privacy.policy_unchanged');
      }
      const [row]: PolicyVersion[] = await em.query(
        `insert into privacy_policies (kind, version, title, body_zh, body_en, summary, published_by)
         values ($1, $2, $3, $4, $5, $6, $7)
         returning id, kind, version, title, body_zh, body_en, summary, published_at, $8::text as published_by_name`,
        [input.kind, version + 1, input.title, input.body_zh, input.body_en, input.summary, user.id, user.name],
      );
      await this.sessions.changed(em);
      return row;
    });
  }
}
