import { Controller, Get, Inject, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { shuttingDown } from '../shutdown/graceful-shutdown';
import { Access } from '../auth/access.decorator';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { REDIS } from '../redis/redis.provider';
import { HEARTBEAT_FRESH_MS, readHeartbeats } from './heartbeat';

type Check = 'up' | 'down' | 'not configured';

/** Each dependency gets this long to answer; a check that takes longer counts as down. */
const CHECK_TIMEOUT_MS = 2_000;

async function withTimeout<T>(p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, no) => (timer = setTimeout(() => no(new Error('timeout')), CHECK_TIMEOUT_MS)))]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ReadyChecks {
  database: { status: 'up' | 'down' };
  redis: { status: Check };
  /** pending: migrations this build knows that the database has not applied */
  migrations: { status: 'up' | 'pending' | 'unknown'; applied?: number; pending?: string[] };
  /**
   * in-process: this process runs the jobs (no Redis); up: a worker's heartbeat within 60 s (workers: how many);
   * stale: the freshest is older; missing: none in the last hour; unknown: Redis did not answer
   */
  worker: { status: 'up' | 'in-process' | 'stale' | 'missing' | 'unknown'; workers?: number; last_seen_s?: number };
}

const OK: Record<keyof ReadyChecks, readonly string[]> = {
  database: ['up'],
  redis: ['up', 'not configured'],
  migrations: ['up'],
  worker: ['up', 'in-process'],
};

/**
 * Health for load balancers, docker and operators (docs/operations.md, "Health checks"):
 * - `/api/health/live`: the process answers; nothing else is checked (the container healthcheck: a Redis or database
 *   outage must not get the API restarted);
 * - `/api/health/ready`: PostgreSQL, Redis (when configured), every migration applied and, when jobs run in a worker
 *   (REDIS_URL), a worker's heartbeat within 60 s; HTTP 503 naming the failing checks;
 * - `/api/health`: the database and Redis only, as before (tests, benches and the e2e stack wait on it).
 */
@Controller('api')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(REDIS) private readonly redis: Redis | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('health')
  @Access('pub')
  async health(@Res({ passthrough: true }) res: Response) {
    const [database, redis] = await Promise.all([this.checkDb(), this.checkRedis()]);
    const ok = database === 'up' && redis !== 'down';
    if (!ok) res.status(503);
    return { status: ok ? 'ok' : 'degraded', database, redis, uptime_s: Math.round(process.uptime()) };
  }

  @Get('health/live')
  @Access('pub')
  live() {
    return { status: 'live', uptime_s: Math.round(process.uptime()) };
  }

  @Get('health/ready')
  @Access('pub')
  async ready(@Res({ passthrough: true }) res: Response) {
    const [database, redis, migrations] = await Promise.all([this.checkDb(), this.checkRedis(), this.checkMigrations()]);
    const checks: ReadyChecks = {
      database: { status: database === 'up' ? 'up' : 'down' },
      redis: { status: redis },
      migrations,
      worker: await this.checkWorker(redis),
    };
    const bad = (Object.keys(checks) as (keyof ReadyChecks)[]).filter((k) => !OK[k].includes(checks[k].status));
    // a check that could not be made (unknown) because its dependency is down: the dependency is the failing part
    const failing: string[] = bad.some((k) => checks[k].status !== 'unknown') ? bad.filter((k) => checks[k].status !== 'unknown') : bad;
    // draining after SIGTERM: the load balancer should stop sending new work here (core/shutdown)
    if (shuttingDown()) failing.push('shutting_down');
    if (failing.length) res.status(503);
    return { status: failing.length ? 'not ready' : 'ready', failing, checks, uptime_s: Math.round(process.uptime()) };
  }

  private async checkDb(): Promise<'up' | 'down'> {
    try {
      await withTimeout(this.db.query('select 1'));
      return 'up';
    } catch {
      return 'down';
    }
  }

  private async checkRedis(): Promise<Check> {
    if (!this.redis) return 'not configured';
    // lost and reconnecting: down at once (a command would only wait in ioredis' queue for the connection)
    if (['reconnecting', 'close', 'end'].includes(this.redis.status)) return 'down';
    try {
      return (await withTimeout(this.redis.ping())) === 'PONG' ? 'up' : 'down';
    } catch {
      return 'down';
    }
  }

  /** The migrations this build knows against TypeORM's table of the applied ones. */
  private async checkMigrations(): Promise<ReadyChecks['migrations']> {
    const known = this.db.migrations.map((m) => m.name ?? m.constructor.name);
    const table = this.db.options.migrationsTableName ?? 'migrations';
    let applied: Set<string>;
    try {
      const rows: { name: string }[] = await withTimeout(this.db.query(`select name from "${table}"`));
      applied = new Set(rows.map((r) => r.name));
    } catch (err) {
      // a database without the table has applied none; any other failure: the database check says why
      if ((err as { code?: string }).code !== '42P01') return { status: 'unknown' };
      applied = new Set();
    }
    // migrations the database has and this build does not (a newer release's, during a rolling upgrade) are fine
    const pending = known.filter((n) => !applied.has(n));
    return { status: pending.length ? 'pending' : 'up', applied: known.length - pending.length, pending };
  }

  private async checkWorker(redis: Check): Promise<ReadyChecks['worker']> {
    // no Redis: the jobs run in this process (its job host is its own worker)
    if (!this.redis) return { status: 'in-process' };
    if (redis === 'down') return { status: 'unknown' };
    // with Redis the jobs run in worker processes (or in a job host here, in tests: it writes the same heartbeat)
    try {
      const seen = await withTimeout(readHeartbeats(this.redis, this.config.queuePrefix));
      if (!seen.length) return { status: 'missing' };
      const fresh = seen.filter((w) => w.ageMs <= HEARTBEAT_FRESH_MS);
      return { status: fresh.length ? 'up' : 'stale', workers: fresh.length, last_seen_s: Math.round(seen[0].ageMs / 1000) };
    } catch {
      return { status: 'unknown' };
    }
  }
}
