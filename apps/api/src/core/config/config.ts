import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { MerchantCredentials } from '../../modules/payments/wechatpay/credentials';
import { z } from 'zod';
import { PRIVACY_DEFAULTS } from '@wantuo/shared';
import { SMS_ENV, smsConfig, type SmsConfig } from './sms-config';
import { WECHAT_OA_ENV, wechatOaConfig, type WechatOaConfig } from './wechat-config';
import { nationalHolidaysConfig, type NationalHolidaysConfig } from './holidays-config';
import { pickupKeyringConfig, type PickupKeyring } from '../../modules/pickup/pickup-keyring';

const bool = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

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
  QUEUE_PREFIX: z
    .string()
    .regex(/^[\w:{}-]+$/)
    .default('bull'),
  DATA_DIR: z.string().min(1).default('./data'),
  UPLOAD_DIR: z.string().min(1).optional(),
  // `npm run backup`: where its archives go (default DATA_DIR/backups) and how many of the newest it keeps
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(14),
  WEB_DIST: z.string().min(1).optional(),
  // where a process without HTTP server (the worker) reaches the API: its WeChat Pay and WeChat sandboxes and SMS fakes
  // (core/config/api-address.ts); default http://127.0.0.1:<PORT> (HOST when it names one address)
  API_INTERNAL_URL: z
    .string()
    .regex(/^https?:\/\/[^/]+$/, 'an http(s) URL of the API, without a path')
    .optional(),
  // the web app's public address (links in WeChat messages open it), default http://localhost:<PORT>
  WEB_PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/]+(\/.*)?$/, 'an http(s) URL')
    .optional(),
  SEED_DEMO: bool.optional(),
  // with a demo seeded by the API's start: also its showcase of every module's data (seed/demo-showcase.ts)
  SEED_SHOWCASE: bool.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ...SMS_ENV,
  TRUST_PROXY: bool.default(false),
  // multiplies the per-IP limits of sign-in, SMS and account applications (core/rate-limit); 0 turns them off
  RATE_LIMIT_FACTOR: z.coerce.number().min(0).max(10_000).default(1),
  // 0: the live flow's fan-out sends every event through socket.io instead of writing its frame to each websocket
  LIVE_DIRECT_WRITE: bool.default(true),
  // how long a resolved session is kept in memory, ms (core/auth/session-cache.ts); 0 asks the database on every
  // request. Default 3000, and 0 under NODE_ENV=test (specs change users with SQL behind the API's back)
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  // children's personal information (docs/modules/privacy.md): how long the access log is kept, how long after leaving
  // an archived student's data is anonymised, how many days the school has to complete a guardian's request
  PRIVACY_ACCESS_LOG_DAYS: z.coerce.number().int().min(30).max(36_500).default(PRIVACY_DEFAULTS.accessLogDays),
  PRIVACY_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(PRIVACY_DEFAULTS.retentionDays),
  PRIVACY_REQUEST_DUE_DAYS: z.coerce.number().int().min(1).max(60).default(PRIVACY_DEFAULTS.requestDueDays),
  // the worker process (no HTTP server): serve its Prometheus metrics on GET /metrics at this port; unset: not served
  WORKER_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  // WeChat Pay API v3 in service-provider mode (服务商, design.md §5b2): the WECHATPAY_* merchant values are the service
  // provider's (sp_mchid, sp_appid, its key and certificate). Required in production; elsewhere, unset, the local
  // sandbox is used with its own keys
  // 1 in production serves the sandbox anyway (a demo deployment such as docker-compose.yml): never with real money
  WECHATPAY_SANDBOX: bool.optional(),
  WECHATPAY_MCHID: z
    .string()
    .regex(/^\d{8,12}$/, 'a merchant id has 8-12 digits')
    .optional(),
  WECHATPAY_APPID: z
    .string()
    .regex(/^wx[0-9a-zA-Z]{6,30}$/, 'an appid starts with wx')
    .optional(),
  WECHATPAY_MCH_SERIAL: z
    .string()
    .regex(/^[0-9A-Fa-f]{8,64}$/, 'the merchant certificate serial is hexadecimal')
    .optional(),
  // the platform's own sub-merchant under its service provider: what the platform sells (renewals, top-ups, the mall,
  // courseware) is received there; each school's is recorded by the operator (school_sub_merchants)
  WECHATPAY_PLATFORM_SUB_MCHID: z
    .string()
    .regex(/^\d{8,12}$/, 'a merchant id has 8-12 digits')
    .optional(),
  WECHATPAY_PRIVATE_KEY_FILE: z.string().min(1).optional(),
  WECHATPAY_PUBLIC_KEY_ID: z.string().min(1).max(100).optional(),
  WECHATPAY_PUBLIC_KEY_FILE: z.string().min(1).optional(),
  WECHATPAY_APIV3_KEY: z.string().length(32, 'the APIv3 key has 32 characters').optional(),
  // the v3 base URL (default https://api.mch.weixin.qq.com/; outside production unset: this API's own sandbox)
  WECHATPAY_BASE_URL: z
    .string()
    .regex(/^https?:\/\/.+\/$/, 'an http(s) URL ending with /')
    .optional(),
  // where WeChat Pay sends notifies: the public https URL of /api/pay/wechat/notify (outside production: this API)
  WECHATPAY_NOTIFY_URL: z
    .string()
    .regex(/^https?:\/\//, 'an http(s) URL')
    .optional(),
  // the official account (公众号): sign-in inside WeChat and template messages (core/config/wechat-config.ts)
  ...WECHAT_OA_ENV,
  // a JSON file of further years of the State Council's holiday table (core/config/holidays-config.ts)
  NATIONAL_HOLIDAYS_FILE: z.string().min(1).optional(),
  // the keys sealing the schools' pick-up signing keys: id:base64,id2:base64, the first seals (modules/pickup/pickup-keyring.ts)
  PICKUP_KEYS_ENCRYPTION_KEYS: z.string().min(1).optional(),
});

/** The merchant's WeChat Pay settings when configured (always in production). */
export type WechatPayConfig = MerchantCredentials & { baseUrl: string; notifyUrl: string };

const WECHATPAY_REQUIRED = [
  'WECHATPAY_MCHID',
  'WECHATPAY_APPID',
  'WECHATPAY_MCH_SERIAL',
  'WECHATPAY_PRIVATE_KEY_FILE',
  'WECHATPAY_PUBLIC_KEY_ID',
  'WECHATPAY_PUBLIC_KEY_FILE',
  'WECHATPAY_APIV3_KEY',
  'WECHATPAY_PLATFORM_SUB_MCHID',
] as const;

/** Reads the merchant's WeChat Pay settings: all of them, or none and the sandbox (production: only when asked for). */
function wechatPayConfig(e: z.infer<typeof ENV_SCHEMA>): WechatPayConfig | null {
  const sandbox = e.WECHATPAY_SANDBOX ?? e.NODE_ENV !== 'production';
  // the sandbox: no merchant variable at all (WECHATPAY_BASE_URL / _NOTIFY_URL may still say where it is)
  if (WECHATPAY_REQUIRED.every((k) => !e[k]) && sandbox) return null;
  const missing = [...WECHATPAY_REQUIRED, 'WECHATPAY_NOTIFY_URL' as const].filter((k) => !e[k]);
  if (missing.length) {
    const why = sandbox
      ? 'required for WeChat Pay when any of its variables is set'
      : 'required for WeChat Pay in production (or WECHATPAY_SANDBOX=1 for a demo)';
    throw new ConfigError(`Invalid configuration:\n${missing.map((k) => `  ${k}: ${why}`).join('\n')}`);
  }
  const read = (k: 'WECHATPAY_PRIVATE_KEY_FILE' | 'WECHATPAY_PUBLIC_KEY_FILE') => {
    try {
      return readFileSync(e[k]!, 'utf8');
    } catch {
      throw new ConfigError(`Invalid configuration:\n  ${k}=${JSON.stringify(e[k])}: cannot be read`);
    }
  };
  return {
    mchid: e.WECHATPAY_MCHID!,
    appid: e.WECHATPAY_APPID!,
    platformSubMchid: e.WECHATPAY_PLATFORM_SUB_MCHID!,
    serial: e.WECHATPAY_MCH_SERIAL!,
    privateKey: read('WECHATPAY_PRIVATE_KEY_FILE'),
    platformKeyId: e.WECHATPAY_PUBLIC_KEY_ID!,
    platformPublicKey: read('WECHATPAY_PUBLIC_KEY_FILE'),
    apiV3Key: e.WECHATPAY_APIV3_KEY!,
    baseUrl: e.WECHATPAY_BASE_URL ?? 'https://api.mch.weixin.qq.com/',
    notifyUrl: e.WECHATPAY_NOTIFY_URL!,
  };
}

/** HOST values that bind every address: the API is then reached on the loopback */
const WILDCARD_HOSTS = ['0.0.0.0', '::', '[::]'];

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
  /** the backups' folder (ops/backup.ts) and how many archives it keeps */
  backupDir: string;
  backupKeep: number;
  webDist: string;
  /** the web app's public address, no trailing slash (the links of guardians' WeChat messages) */
  webPublicUrl: string;
  /** where a process without HTTP server reaches the API (API_INTERNAL_URL or derived from PORT/HOST), no trailing slash */
  apiInternalUrl: string;
  seedDemo: boolean;
  /** the API's start seeds the demo's showcase with a demo it seeds (the `seed` command: unless --no-showcase) */
  seedShowcase: boolean;
  logLevel: string;
  /** text messages: the provider, its fallback, the gateways' accounts (core/config/sms-config.ts) */
  sms: SmsConfig;
  trustProxy: boolean;
  /** scales the per-IP rate limits (RATE_LIMITS); 0: no per-IP limits */
  rateLimitFactor: number;
  /** the live fan-out writes an event's frame straight to each open websocket (modules/live/fan-out.ts); false: socket.io only */
  liveDirectWrite: boolean;
  /** ms a resolved session is kept in memory (0: off) */
  sessionCacheMs: number;
  /** children's personal information: the access log's keeping, the archived students' retention, the requests' time (days) */
  privacy: { accessLogDays: number; retentionDays: number; requestDueDays: number };
  /** the worker serves GET /metrics on this port (core/metrics/metrics-server.ts); null: it does not */
  workerMetricsPort: number | null;
  /** the merchant's WeChat Pay settings; null: the local sandbox (in production only with WECHATPAY_SANDBOX=1) */
  wechatpay: WechatPayConfig | null;
  /** with the sandbox: where it is (default: this process's own address) and where its notifies go */
  wechatpaySandboxUrl: string | null;
  wechatpayNotifyUrl: string | null;
  /** the official account; null: the local sandbox's account (in production only with WECHAT_OA_SANDBOX=1) */
  wechatOa: WechatOaConfig | null;
  /** with the sandbox: WECHAT_OA_API_URL / WECHAT_OA_OPEN_URL as given (default: this process / the page's origin) */
  wechatOaSandboxApiUrl: string | null;
  wechatOaSandboxOpenUrl: string | null;
  /** the national holiday table: built in, merged with NATIONAL_HOLIDAYS_FILE's years (core/config/holidays-config.ts) */
  nationalHolidays: NationalHolidaysConfig;
  /** PICKUP_KEYS_ENCRYPTION_KEYS (required in production; elsewhere unset: a fixed development key) */
  pickupKeyring: PickupKeyring;
}

export class ConfigError extends Error {}

/** What the process reading the configuration is: `api` for the API's start (main.ts), which runs or queues the jobs. */
export interface LoadOptions {
  api?: boolean;
}

/**
 * Reads and validates the environment; a missing or bad variable throws a ConfigError naming it. Production needs
 * DATABASE_URL (and the WeChat Pay merchant, or WECHATPAY_SANDBOX=1); the API's start in production also REDIS_URL.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, opts: LoadOptions = {}): AppConfig {
  const raw = Object.fromEntries(ENV_KEYS.map((k) => [k, env[k] === '' ? undefined : env[k]]));
  const parsed = ENV_SCHEMA.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}=${JSON.stringify(raw[i.path[0] as string])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  // the embedded PGlite database is for development and `npm start`: production never runs on it
  if (e.NODE_ENV === 'production' && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_URL: required in production (the embedded database is for development: unset NODE_ENV to try it)',
    );
  }
  // without Redis the API runs the jobs in its own timers: delayed and retried ones (the stock hold, payment checks,
  // texts held for quiet hours) would be lost on a restart. The CLI's commands queue none: they run without it
  if (opts.api && e.NODE_ENV === 'production' && !e.REDIS_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  REDIS_URL: required in production (without it jobs run in this process and delayed or retried ones are lost on a restart; unset NODE_ENV to try it)',
    );
  }
  const problems: string[] = [];
  const sms = smsConfig(e, problems);
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  const wechatpay = wechatPayConfig(e);
  const wechatOa = wechatOaConfig(e, problems);
  const nationalHolidays = nationalHolidaysConfig(e.NATIONAL_HOLIDAYS_FILE, problems);
  const pickupKeyring = pickupKeyringConfig(e.PICKUP_KEYS_ENCRYPTION_KEYS, e.NODE_ENV, problems);
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
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
    backupDir: resolve(e.BACKUP_DIR ?? `${dataDir}/backups`),
    backupKeep: e.BACKUP_KEEP,
    webDist: resolve(e.WEB_DIST ?? resolve(__dirname, '../../../../web/dist')),
    webPublicUrl: (e.WEB_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    apiInternalUrl:
      e.API_INTERNAL_URL ?? `http://${WILDCARD_HOSTS.includes(e.HOST) ? '127.0.0.1' : e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`,
    // the embedded database is the "try it" mode: it gets the demo unless told otherwise
    seedDemo: e.SEED_DEMO ?? !e.DATABASE_URL,
    seedShowcase: e.SEED_SHOWCASE ?? !e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    sms,
    trustProxy: e.TRUST_PROXY,
    rateLimitFactor: e.RATE_LIMIT_FACTOR,
    liveDirectWrite: e.LIVE_DIRECT_WRITE,
    sessionCacheMs: e.SESSION_CACHE_MS ?? (e.NODE_ENV === 'test' ? 0 : 3000),
    privacy: { accessLogDays: e.PRIVACY_ACCESS_LOG_DAYS, retentionDays: e.PRIVACY_RETENTION_DAYS, requestDueDays: e.PRIVACY_REQUEST_DUE_DAYS },
    workerMetricsPort: e.WORKER_METRICS_PORT ?? null,
    wechatpay,
    wechatpaySandboxUrl: e.WECHATPAY_BASE_URL ?? null,
    wechatpayNotifyUrl: e.WECHATPAY_NOTIFY_URL ?? null,
    wechatOa,
    wechatOaSandboxApiUrl: e.WECHAT_OA_API_URL ?? null,
    wechatOaSandboxOpenUrl: e.WECHAT_OA_OPEN_URL ?? null,
    nationalHolidays,
    pickupKeyring,
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');
