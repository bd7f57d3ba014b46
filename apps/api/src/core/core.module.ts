import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { AccessRepository } from './access/access';
import { SessionRepository } from './auth/session.repository';
import { SessionService } from './auth/session.service';
import { DomainEvents } from './events/domain-events';
import { APP_CONFIG, type AppConfig } from './config/config';
import { dataSourceOptions } from './database/data-source';
import { JobRegistry } from './jobs/job-registry';
import { JobsService } from './jobs/jobs.service';
import { LOGGER } from './logging/logger';
import { REDIS, redisProvider } from './redis/redis.provider';

class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis | null) {}
  async onApplicationShutdown() {
    await this.redis?.quit().catch(() => undefined);
  }
}

/** What every module may inject: configuration, logger, database, Redis, jobs, sessions, the access repository. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig & { databaseUrl: string }, logger: Logger): DynamicModule {
    return {
      module: CoreModule,
      imports: [DiscoveryModule, TypeOrmModule.forRoot(dataSourceOptions(config.databaseUrl, config.databasePoolMax))],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        redisProvider,
        RedisCloser,
        JobRegistry,
        JobsService,
        SessionService,
        SessionRepository,
        DomainEvents,
        AccessRepository,
      ],
      exports: [APP_CONFIG, LOGGER, REDIS, JobRegistry, JobsService, SessionService, DomainEvents, AccessRepository, DiscoveryModule],
    };
  }
}
