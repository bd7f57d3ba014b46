import { Inject, Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerModule,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Response } from 'express';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RouteCatalogue } from '../auth/route-catalogue';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { AppError } from '../http/app-error';
import { LOGGER } from '../logging/logger';
import { REDIS } from '../redis/redis.provider';
import { RedisThrottlerStorage } from './redis-throttler-storage';

const MINUTE = 60_000;

interface RateLimit {
  /** the routes that count against this limit (both methods of a path share it) */
  paths: readonly string[];
  /** hits allowed per client address in any window of `ttl` ms; the next one blocks the address for `ttl` */
  limit: number;
  ttl: number;
}

/**
 * Per-IP limits of the public and credential actions (issue 9), counted on every attempt before any database work.
 * They come on top of the limits that stay: the per-account lockout (5 wrong passwords → 15 min), SmsCodeService's
 * (per mobile 1 code per 60 s and 10 a day, per address 30 an hour) and ApplicationsService's (per address an hour,
 * per mobile a day). Generous enough for a school's shared Wi-Fi at pick-up time; RATE_LIMIT_FACTOR scales them all.
 */
export const RATE_LIMITS = {
  login: { paths: ['/api/index/login'], limit: 20, ttl: MINUTE },
  mobilelogin: { paths: ['/api/index/mobilelogin'], limit: 20, ttl: MINUTE },
  // each code costs money and reaches someone's phone; SmsCodeService also allows an address 30 codes an hour
  sms: { paths: ['/api/sms/send'], limit: 5, ttl: MINUTE },
  // the GET looks an account up by mobile, the POST sets the password with an SMS code
  resetpwd: { paths: ['/api/index/resetpwd'], limit: 10, ttl: MINUTE },
  // ApplicationsService also keeps applications per address an hour and per mobile a day
  applyAccount: { paths: ['/api/index/applyAccount'], limit: 5, ttl: MINUTE },
  // QR sign-in: a desktop asks for a new code at most every 2 minutes (or on 刷新); polling every 1.5 s is 40 a minute,
  // so a school's shared address has room for several desktops signing in at once
  qrLoginTicket: { paths: ['/api/index/qrLoginTicket'], limit: 10, ttl: MINUTE },
  qrLoginPoll: { paths: ['/api/index/qrLoginPoll'], limit: 200, ttl: MINUTE },
  // WeChat sign-in: an authorisation is one page visit; the callback's code is spent once
  wechatAuthorize: { paths: ['/api/index/wechatAuthorize'], limit: 20, ttl: MINUTE },
  wechatOauth: { paths: ['/api/index/wechatOauth'], limit: 20, ttl: MINUTE },
  // a pick-up person's page asks for a new code every 30 s: 2 a minute per phone, room for a school gate's shared address
  pickupCodeByLink: { paths: ['/api/index/pickupCodeByLink'], limit: 60, ttl: MINUTE },
} as const satisfies Record<string, RateLimit>;

export type RateLimitName = keyof typeof RATE_LIMITS;

/** A limit scaled by RATE_LIMIT_FACTOR (never below 1 while limits are on). */
export const scaledLimit = (limit: number, factor: number) => Math.max(1, Math.floor(limit * factor));

/**
 * The throttler's options: the limits above, counted in Redis under this deployment's key prefix when REDIS_URL is
 * set (shared by every API process), else in this process' memory (the throttler's own storage). Keys are the
 * limit's name and the client address (req.ip: the socket's peer, or with TRUST_PROXY the address nginx saw).
 */
export function rateLimitModule() {
  return ThrottlerModule.forRootAsync({
    inject: [APP_CONFIG, REDIS, LOGGER],
    useFactory: (config: AppConfig, redis: Redis | null, log: Logger): ThrottlerModuleOptions => ({
      throttlers: Object.entries(RATE_LIMITS).map(([name, r]) => ({
        name,
        limit: scaledLimit(r.limit, config.rateLimitFactor),
        ttl: r.ttl,
        blockDuration: r.ttl,
      })),
      storage: redis ? new RedisThrottlerStorage(redis, `${config.queuePrefix}:ratelimit:`, log) : undefined,
      // one plain Retry-After on refusals (below), no X-RateLimit-<name>-* headers on every answer
      setHeaders: false,
      generateKey: (_ctx, tracker, name) => `${name}:${tracker}`,
    }),
  });
}

/**
 * The throttler's guard, run before the auth guard: each limit applies to the routes of its `paths` (found through
 * the route catalogue, so a path that no route serves stops the app at start); a refusal is the envelope with code
 * 100 and a message saying how long to wait, HTTP 200 like every expected failure (design.md §2), plus Retry-After.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly routes: RouteCatalogue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {
    super(options, storage, reflector);
  }

  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    const served = new Set(this.routes.all().map((r) => r.path));
    for (const [name, r] of Object.entries(RATE_LIMITS)) {
      for (const path of r.paths) if (!served.has(path)) throw new Error(`rate limit ${name}: no route serves ${path}`);
    }
    this.throttlers = this.throttlers.map((throttler) => {
      const paths: readonly string[] = RATE_LIMITS[throttler.name as RateLimitName].paths;
      return { ...throttler, skipIf: (ctx: ExecutionContext) => !paths.includes(this.routes.forHandler(ctx.getHandler())?.path ?? '') };
    });
  }

  protected override async shouldSkip(ctx: ExecutionContext): Promise<boolean> {
    // RATE_LIMIT_FACTOR=0 turns the limits off (e.g. a gateway in front already limits)
    return ctx.getType() !== 'http' || this.config.rateLimitFactor === 0;
  }

  protected override async throwThrottlingException(ctx: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const seconds = Math.max(1, detail.timeToBlockExpire);
    ctx.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(seconds));
    this.log.warn({ ip: detail.tracker, limit: detail.key.split(':')[0], seconds }, 'rate limited');
    throw new AppError('error.rate_limited', { seconds });
  }
}
