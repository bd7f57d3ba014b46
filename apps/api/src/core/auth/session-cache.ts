import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { SessionUser } from '../http/request-context';

/** A resolved session kept for a few seconds, never past the token's own expiry. */
interface Entry {
  user: SessionUser;
  until: number;
}

export interface SessionCacheOptions {
  /** how long a resolved session is kept, ms; 0 turns the cache off */
  ttlMs: number;
  /** at most this many sessions (least recently used dropped first) */
  max: number;
  /** the shared Redis connection (a subscriber is duplicated from it), or null for one process without Redis */
  redis: Redis | null;
  /** the pub/sub channel every process of the deployment listens on */
  channel: string;
  log?: Logger;
}

/**
 * The sessions this process resolved in the last few seconds, so a request does not pay a database round trip for its
 * token. Any change that may end or alter a session (logout, password change or reset, the person leaving, deleted or
 * their role or profile changed, the school's service dates) calls invalidate() AFTER its commit: this process drops
 * every entry at once and, through Redis pub/sub, so does every other process. With Redis configured the cache serves
 * nothing while its subscription is not live (not yet subscribed, connection lost, reconnecting): every lookup goes to
 * the database until it is subscribed again, so a missed message can never leave a revoked session served. A lookup
 * that was under way when an invalidation arrived does not store its (possibly older) answer (the generation check).
 * Only sessions that resolved are kept; an unknown, revoked or expired token is always asked of the database.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private live: boolean;
  private sub: Redis | null = null;

  constructor(private readonly opts: SessionCacheOptions) {
    // without Redis there is one process: its own invalidations are all there are
    this.live = !opts.redis;
  }

  get enabled(): boolean {
    return this.opts.ttlMs > 0;
  }

  /** Subscribes to the channel (with Redis); the cache serves nothing until the subscription is confirmed. */
  async start(): Promise<void> {
    if (!this.enabled || !this.opts.redis) return;
    const sub = this.opts.redis.duplicate();
    this.sub = sub;
    const down = () => {
      this.live = false;
      this.clear();
    };
    sub.on('message', (channel: string) => {
      if (channel === this.opts.channel) this.clear();
    });
    sub.on('close', down);
    sub.on('end', down);
    sub.on('reconnecting', down);
    sub.on('error', (err: unknown) => {
      down();
      this.opts.log?.warn({ err }, 'session cache: subscriber error, sessions are read from the database');
    });
    // ioredis subscribes again after a reconnect; the cache goes live once that subscription is answered
    sub.on('ready', () => {
      sub.subscribe(this.opts.channel).then(
        () => {
          this.clear();
          this.live = true;
        },
        () => down(),
      );
    });
    if (sub.status === 'ready') sub.emit('ready');
  }

  async stop(): Promise<void> {
    this.live = false;
    this.clear();
    const sub = this.sub;
    this.sub = null;
    if (sub) {
      sub.removeAllListeners();
      sub.on('error', () => undefined);
      await sub.quit().catch(() => sub.disconnect());
    }
  }

  /** Whether lookups are served from memory right now (for tests and metrics). */
  get serving(): boolean {
    return this.enabled && this.live;
  }

  /** The cached session of a token hash, or undefined. */
  get(key: string): SessionUser | undefined {
    if (!this.serving) return undefined;
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.until <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // least recently used first in the map's order
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.user;
  }

  /** To be taken before the database lookup and handed to put(). */
  mark(): number {
    return this.generation;
  }

  /** Keeps a session resolved from the database, unless an invalidation arrived since mark(). */
  put(key: string, user: SessionUser, tokenExpiresAt: Date, mark: number): void {
    if (!this.serving || mark !== this.generation) return;
    const until = Math.min(Date.now() + this.opts.ttlMs, tokenExpiresAt.getTime());
    if (until <= Date.now()) return;
    if (this.entries.size >= this.opts.max && !this.entries.has(key)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { user, until });
  }

  /** Drops every entry of this process (and refuses answers of lookups under way). */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** After a commit that may end or alter sessions: drops them here and tells every other process. */
  async invalidate(): Promise<void> {
    this.clear();
    if (!this.enabled || !this.opts.redis) return;
    try {
      await this.opts.redis.publish(this.opts.channel, '*');
    } catch (err) {
      // the other processes keep a session at most ttlMs; their subscriber, if Redis is down, already serves nothing
      this.opts.log?.error({ err }, 'session cache: invalidation not published');
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
