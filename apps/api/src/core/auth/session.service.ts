import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { normalizeLang } from '@wantuo/shared';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { SessionUser } from '../http/request-context';
import { preparedQuery } from '../database/prepared-query';

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Opaque tokens: random, stored only as their SHA-256, with an expiry; revoked by logout and password changes. */
@Injectable()
export class SessionService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async issue(
    em: EntityManager,
    userId: number,
    ttlHours: number,
    meta: { ip: string; userAgent: string },
  ): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const rows: { expires_at: Date }[] = await em.query(
      `insert into user_tokens (user_id, token_hash, expires_at, ip, user_agent)
       values ($1, $2, now() + make_interval(hours => $3), $4, $5) returning expires_at`,
      [userId, hashToken(token), ttlHours, meta.ip, meta.userAgent.slice(0, 300)],
    );
    return { token, expiresAt: rows[0].expires_at };
  }

  /** The user behind a token, in one query; null when the token is unknown, expired, revoked or the user disabled. */
  async resolve(token: string): Promise<SessionUser | null> {
    if (token.length > 200) return null;
    const rows: Array<{
      token_id: string;
      id: number;
      role: number;
      school_id: number | null;
      name: string;
      nickname: string;
      lang: string;
      service_expires_at: Date | null;
    }> = await preparedQuery(
      this.db,
      'session.resolve',
      `select t.id as token_id, u.id, u.role, u.school_id, u.name, u.nickname, u.lang, s.service_expires_at
         from user_tokens t join users u on u.id = t.user_id left join schools s on s.id = u.school_id
        where t.token_hash = $1 and t.revoked_at is null and t.expires_at > now() and u.status = 1 and u.job_status = 1 and u.deleted_at is null`,
      [hashToken(token)],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      id: r.id,
      role: r.role,
      schoolId: r.school_id,
      name: r.name,
      nickname: r.nickname,
      lang: normalizeLang(r.lang),
      tokenId: Number(r.token_id),
      serviceExpiresAt: r.service_expires_at,
    };
  }

  async revoke(em: EntityManager, tokenId: number): Promise<void> {
    await em.query(`update user_tokens set revoked_at = now() where id = $1 and revoked_at is null`, [tokenId]);
  }

  /** Revokes every token of a user, except one (the caller's, when they keep their session). */
  async revokeAll(em: EntityManager, userId: number, exceptTokenId: number | null = null): Promise<void> {
    await em.query(`update user_tokens set revoked_at = now() where user_id = $1 and revoked_at is null and ($2::bigint is null or id <> $2)`, [
      userId,
      exceptTokenId,
    ]);
  }
}
