import { resolve } from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['0', '1', 'true', 'false'])
  .transform((v) => v === '1' || v === 'true');

/** Every environment variable the API, the worker and the CLI read. docker-compose.yml must match this list (a test checks it). */
export const ENV_SCHEMA = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  QUEUE_PREFIX: z.string().regex(/^[\w:{}-]+$/).default('bull'),
  DATA_DIR: z.string().min(1).default('./data'),
  UPLOAD_DIR: z.string().min(1).optional(),
  WEB_DIST: z.string().min(1).optional(),
  SEED_DEMO: bool.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SMS_PROVIDER: z.enum(['outbox']).default('outbox'),
  TRUST_PROXY: bool.default(false),
  // multiplies the per-IP limits of sign-in, SMS and account applications (core/rate-limit); 0 turns them off
  RATE_LIMIT_FACTOR: z.coerce.number().min(0).max(10_000).default(1),
});

export const ENV_KEYS = Object.keys(ENV_SCHEMA.shape) as (keyof typeof ENV_SCHEMA.shape)[];

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** null: run on the embedded PGlite database under dataDir */
  databaseUrl: string | null;
  databasePoolMax: number;
  /** null: jobs run in-process and socket.io uses its in-memory adapter */
  redisUrl: string | null;
  queuePrefix: string;
  dataDir: string;
  uploadDir: string;
  webDist: string;
  seedDemo: boolean;
  logLevel: string;
  smsProvider: 'outbox';
  trustProxy: boolean;
  /** scales the per-IP rate limits (RATE_LIMITS); 0: no per-IP limits */
  rateLimitFactor: number;
}

export class ConfigError extends Error {}

/** Reads and validates the environment; a missing or bad variable throws a ConfigError naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const raw = Object.fromEntries(ENV_KEYS.map((k) => [k, env[k] === '' ? undefined : env[k]]));
  const parsed = ENV_SCHEMA.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}=${JSON.stringify(raw[i.path[0] as string])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL ?? null,
    databasePoolMax: e.DATABASE_POOL_MAX,
    redisUrl: e.REDIS_URL ?? null,
    queuePrefix: e.QUEUE_PREFIX,
    dataDir,
    uploadDir: resolve(e.UPLOAD_DIR ?? `${dataDir}/uploads`),
    webDist: resolve(e.WEB_DIST ?? resolve(__dirname, '../../../../web/dist')),
    // the embedded database is the "try it" mode: it gets the demo unless told otherwise
    seedDemo: e.SEED_DEMO ?? !e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    smsProvider: e.SMS_PROVIDER,
    trustProxy: e.TRUST_PROXY,
    rateLimitFactor: e.RATE_LIMIT_FACTOR,
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');
