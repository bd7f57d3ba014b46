import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { normalizeLang } from '@wantuo/shared';
import type { Redis } from 'ioredis';
import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { DataSource, type EntityManager, type EntitySubscriberInterface, type TransactionCommitEvent } from 'typeorm';
import type { SessionUser } from '../http/request-context';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { LOGGER } from '../logging/logger';
import { REDIS } from '../redis/redis.provider';
import { SessionCache } from './session-cache';
import { SessionRepository } from './session.repository';

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** the flag a transaction carries (queryRunner.data) when it changed sessions: invalidated after its commit */
const CHANGED = 'sessionsChanged';

/**
 * Opaque tokens: random, stored only as their SHA-256, with an expiry; revoked by logout and password changes.
 * Resolved sessions are kept a few seconds in memory (SessionCache, SESSION_CACHE_MS): whatever may end or alter a
 * session calls changed() in its transaction (or after its write), which invalidates every process's cache once the
 * transaction has committed.
 */
@Injectable()
export class SessionService implements OnModuleInit, OnApplicationShutdown {
  readonly cache: SessionCache;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: SessionRepository,
    @Inject(REDIS) redis: Redis | null,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) log: Logger,
  ) {
    this.cache = new SessionCache({ ttlMs: config.sessionCacheMs, max: 10_000, redis, channel: `${config.queuePrefix}:sessions`, log });
  }

  async onModuleInit(): Promise<void> {
    if (!this.cache.enabled) return;
    const cache = this.cache;
    // after the commit of a transaction that changed sessions (and only then: an invalidation before the commit could
    // be followed by a lookup that still reads, and keeps, the old row)
    const subscriber: EntitySubscriberInterface = {
      async afterTransactionCommit(event: TransactionCommitEvent) {
        const data = event.queryRunner.data as Record<string, unknown>;
        if (!data?.[CHANGED] || event.queryRunner.isTransactionActive) return;
        delete data[CHANGED];
        await cache.invalidate();
      },
      afterTransactionRollback(event) {
        const data = event.queryRunner.data as Record<string, unknown>;
        if (data && !event.queryRunner.isTransactionActive) delete data[CHANGED];
      },
    };
    this.db.subscribers.push(subscriber);
    await this.cache.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.cache.stop();
  }

  /**
   * A write that may end or alter sessions (tokens revoked, a user's role, status, job status, deletion, name or
   * language): within a transaction the caches are invalidated after its commit, otherwise
   * (the write already done) at once.
   */
  async changed(em?: EntityManager): Promise<void> {
    const qr = em?.queryRunner;
    if (qr?.isTransactionActive) {
      (qr.data as Record<string, unknown>)[CHANGED] = true;
      // this process at once as well (a lookup under way will not keep what it reads)
      this.cache.clear();
      return;
    }
    await this.cache.invalidate();
  }

  async issue(
    em: EntityManager,
    userId: number,
    ttlHours: number,
    meta: { ip: string; userAgent: string },
  ): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const row = await this.repo.issue(em, { userId, hash: hashToken(token), ttlHours, ip: meta.ip, userAgent: meta.userAgent.slice(0, 300) });
    return { token, expiresAt: row.expires_at };
  }

  /**
   * The user behind a token, from the cache or in one query (a school's renewal, which moves its service date, is seen
   * within SESSION_CACHE_MS; its passing needs no invalidation: the guard compares the date with the clock); null when the token is unknown, expired, revoked or the
   * user disabled. A copy: the caller may spread or change it.
   */
  async resolve(token: string): Promise<SessionUser | null> {
    if (token.length > 200) return null;
    const hash = hashToken(token);
    const key = this.cache.enabled ? hash.toString('base64') : '';
    const hit = key ? this.cache.get(key) : undefined;
    if (hit) return { ...hit };
    const mark = this.cache.mark();
    const r = await this.repo.resolve(hash);
    if (!r) return null;
    const user: SessionUser = {
      id: r.id,
      role: r.role,
      schoolId: r.school_id,
      name: r.name,
      nickname: r.nickname,
      lang: normalizeLang(r.lang),
      tokenId: Number(r.token_id),
      serviceExpiresAt: r.service_expires_at,
      needsConsent: r.needs_consent,
    };
    if (key) this.cache.put(key, { ...user }, r.expires_at, mark);
    return user;
  }

  async revoke(em: EntityManager, tokenId: number): Promise<void> {
    await this.repo.revoke(em, tokenId);
    await this.changed(em);
  }

  /** Revokes every token of a user, except one (the caller's, when they keep their session). */
  async revokeAll(em: EntityManager, userId: number, exceptTokenId: number | null = null): Promise<void> {
    await this.repo.revokeAll(em, userId, exceptTokenId);
    await this.changed(em);
  }
}
