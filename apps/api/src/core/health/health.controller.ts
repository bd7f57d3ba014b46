import { Controller, Get, Inject, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { Access } from '../auth/access.decorator';
import { REDIS } from '../redis/redis.provider';

type Check = 'up' | 'down' | 'not configured';

/** Liveness and readiness for load balancers and docker: HTTP 503 when a configured dependency is down. */
@Controller('api')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(REDIS) private readonly redis: Redis | null,
  ) {}

  @Get('health')
  @Access('pub')
  async health(@Res({ passthrough: true }) res: Response) {
    const [database, redis] = await Promise.all([this.checkDb(), this.checkRedis()]);
    const ok = database === 'up' && redis !== 'down';
    if (!ok) res.status(503);
    return { status: ok ? 'ok' : 'degraded', database, redis, uptime_s: Math.round(process.uptime()) };
  }

  private async checkDb(): Promise<Check> {
    try {
      await this.db.query('select 1');
      return 'up';
    } catch {
      return 'down';
    }
  }

  private async checkRedis(): Promise<Check> {
    if (!this.redis) return 'not configured';
    try {
      return (await Promise.race([this.redis.ping(), new Promise((_, no) => setTimeout(no, 2000).unref())])) === 'PONG' ? 'up' : 'down';
    } catch {
      return 'down';
    }
  }
}
