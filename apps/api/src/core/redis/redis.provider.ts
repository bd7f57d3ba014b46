import type { Provider } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/config';

export const REDIS = Symbol('REDIS');

/** The shared Redis connection, or null when REDIS_URL is not set. */
export const redisProvider: Provider = {
  provide: REDIS,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => (config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: null, lazyConnect: false }) : null),
};
