import type { OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorageService, type ThrottlerStorage } from '@nestjs/throttler';
import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * One atomic step of a sliding-window limit with a block, the same rule as the throttler's in-memory storage:
 * each hit is a member of a sorted set scored by Redis' own clock (so API processes with skewed clocks agree);
 * the hit that goes over the limit sets a block key for blockDuration and starts a fresh window after it.
 * KEYS: hits (zset), block (string). ARGV: ttl ms, limit, block ms, unique member.
 * Answers { totalHits, ms until the window's oldest hit leaves, blocked 0/1, ms until the block ends }.
 */
const INCREMENT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local block = tonumber(ARGV[3])
local blockedFor = redis.call('PTTL', KEYS[2])
if blockedFor > 0 then
  return { limit + 1, blockedFor, 1, blockedFor }
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ttl)
local hits = redis.call('ZCARD', KEYS[1])
if block <= 0 and hits >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  local left = tonumber(oldest[2]) + ttl - now
  return { hits + 1, left, 1, left }
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], ttl)
hits = hits + 1
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local left = tonumber(oldest[2]) + ttl - now
if hits > limit then
  redis.call('SET', KEYS[2], '1', 'PX', block)
  redis.call('DEL', KEYS[1])
  return { hits, left, 1, block }
end
return { hits, left, 0, 0 }
`;

type IncrementReply = [number, number, number, number];

/** How long a failing Redis is forgotten before it is tried again, and the warning repeated. */
const REDIS_RETRY_MS = 30_000;

/**
 * The throttler's storage on Redis, so every API process behind the load balancer counts the same hits. Its own
 * connection gives up on a command after 1 s (the shared one waits for ever, as BullMQ wants): while Redis does not
 * answer, this process counts in memory (the throttler's own storage) for 30 s at a time instead of holding sign-ins
 * up, and says so in the log.
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly redis: Redis;
  private readonly memory = new ThrottlerStorageService();
  private failingSince = 0;

  constructor(
    shared: Redis,
    private readonly prefix: string,
    private readonly log: Logger,
  ) {
    this.redis = shared.duplicate({ lazyConnect: false, maxRetriesPerRequest: 1, commandTimeout: 1000 });
    this.redis.on('error', () => undefined);
    this.redis.defineCommand('wantuoThrottle', { numberOfKeys: 2, lua: INCREMENT });
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    if (this.failingSince && Date.now() - this.failingSince < REDIS_RETRY_MS) {
      return this.memory.increment(key, ttl, limit, blockDuration, throttlerName);
    }
    try {
      const member = `${Date.now()}:${randomBytes(6).toString('base64url')}`;
      const run = (this.redis as unknown as { wantuoThrottle(...args: (string | number)[]): Promise<IncrementReply> }).wantuoThrottle;
      const [totalHits, expireMs, blocked, blockMs] = await run.call(
        this.redis,
        `${this.prefix}${key}`,
        `${this.prefix}${key}:blocked`,
        ttl,
        limit,
        blockDuration,
        member,
      );
      if (this.failingSince) this.log.info('rate limits: Redis answers again, counting there');
      this.failingSince = 0;
      return { totalHits, timeToExpire: Math.ceil(expireMs / 1000), isBlocked: blocked === 1, timeToBlockExpire: Math.ceil(blockMs / 1000) };
    } catch (err) {
      this.log.warn({ err }, 'rate limits: Redis does not answer, counting in this process for now');
      this.failingSince = Date.now();
      return this.memory.increment(key, ttl, limit, blockDuration, throttlerName);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.memory.onApplicationShutdown();
    // quit waits for the answers under way; a connection that is not up (Redis down) just stops reconnecting
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else if (this.redis.status !== 'end') this.redis.disconnect();
  }
}
