import { isSmsKind, SMS_PROVIDERS, type SmsKind, type SmsProviderName } from '@wantuo/shared';
import { z } from 'zod';

/** The SMS environment (part of ENV_SCHEMA): the provider, its fallback and each gateway's account, all or none. */
export const SMS_ENV = {
  // where texts go: outbox (development: the sms_outbox view), aliyun or tencent; the fallback takes what the first refused
  SMS_PROVIDER: z.enum(SMS_PROVIDERS).default('outbox'),
  SMS_FALLBACK_PROVIDER: z.enum(SMS_PROVIDERS).optional(),
  // the token in the report callback URLs given to the providers' consoles: /api/sms-report/<provider>?token=…
  SMS_REPORT_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  // Aliyun SMS (dysmsapi 2017-05-25): an AccessKey with SMS rights, the approved sign (签名), templates {"kind":"SMS_…"}
  SMS_ALIYUN_ACCESS_KEY_ID: z.string().min(1).optional(),
  SMS_ALIYUN_ACCESS_KEY_SECRET: z.string().min(1).optional(),
  SMS_ALIYUN_SIGN_NAME: z.string().min(2).max(12).optional(),
  SMS_ALIYUN_TEMPLATES: z.string().min(2).optional(),
  // default https://dysmsapi.aliyuncs.com (outside production unset: this API's fake at /api/dev/sms/aliyun)
  SMS_ALIYUN_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^/]+/, 'an http(s) URL')
    .optional(),
  // Tencent Cloud SMS (2021-01-11): a SecretId/SecretKey, the SmsSdkAppId, the approved sign, templates {"kind":"123456"}
  SMS_TENCENT_SECRET_ID: z.string().min(1).optional(),
  SMS_TENCENT_SECRET_KEY: z.string().min(1).optional(),
  SMS_TENCENT_SDK_APP_ID: z
    .string()
    .regex(/^\d{10}$/, 'an SmsSdkAppId has 10 digits')
    .optional(),
  SMS_TENCENT_SIGN_NAME: z.string().min(2).max(12).optional(),
  SMS_TENCENT_TEMPLATES: z.string().min(2).optional(),
  SMS_TENCENT_REGION: z.string().min(1).default('ap-guangzhou'),
  // default https://sms.tencentcloudapi.com (outside production unset: this API's fake at /api/dev/sms/tencent)
  SMS_TENCENT_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^/]+/, 'an http(s) URL')
    .optional(),
};

type SmsEnv = z.infer<z.ZodObject<typeof SMS_ENV>> & { NODE_ENV: 'development' | 'production' | 'test' };

export type SmsTemplates = Partial<Record<SmsKind, string>>;

/** Where a gateway is: the SDK's protocol and endpoint (host, port and any path prefix, as the SDKs take it). */
export interface GatewayEndpoint {
  protocol: 'http' | 'https';
  /** host[:port][/path], e.g. dysmsapi.aliyuncs.com or 127.0.0.1:8080/api/dev/sms/aliyun */
  host: string;
}

export interface AliyunSmsConfig {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templates: SmsTemplates;
  /** null: this process's own fake gateway (outside production) */
  endpoint: GatewayEndpoint | null;
}

export interface TencentSmsConfig {
  secretId: string;
  secretKey: string;
  sdkAppId: string;
  signName: string;
  region: string;
  templates: SmsTemplates;
  endpoint: GatewayEndpoint | null;
}

export interface SmsConfig {
  provider: SmsProviderName;
  fallback: SmsProviderName | null;
  /** null outside production without SMS_REPORT_TOKEN: the fakes' reports carry SANDBOX_REPORT_TOKEN */
  reportToken: string;
  /** a gateway's account; outside production, unset: the fake gateway's sandbox account (sms/gateways/sandbox-account.ts) */
  aliyun: AliyunSmsConfig | null;
  tencent: TencentSmsConfig | null;
  /** the fake gateways are served (/api/dev/sms/…): outside production */
  fakes: boolean;
  /** SMS_<PROVIDER>_ENDPOINT as given (also where a worker finds the fakes: it has no HTTP server of its own) */
  endpoints: { aliyun: GatewayEndpoint | null; tencent: GatewayEndpoint | null };
}

/** The report token of the fakes outside production when SMS_REPORT_TOKEN is unset. */
export const SANDBOX_REPORT_TOKEN = 'sandbox-sms-report-token';

const ALIYUN_ACCOUNT = ['SMS_ALIYUN_ACCESS_KEY_ID', 'SMS_ALIYUN_ACCESS_KEY_SECRET', 'SMS_ALIYUN_SIGN_NAME', 'SMS_ALIYUN_TEMPLATES'] as const;
const TENCENT_ACCOUNT = [
  'SMS_TENCENT_SECRET_ID',
  'SMS_TENCENT_SECRET_KEY',
  'SMS_TENCENT_SDK_APP_ID',
  'SMS_TENCENT_SIGN_NAME',
  'SMS_TENCENT_TEMPLATES',
] as const;

function endpointOf(url: string | undefined): GatewayEndpoint | null {
  if (!url) return null;
  const u = new URL(url);
  return { protocol: u.protocol === 'http:' ? 'http' : 'https', host: `${u.host}${u.pathname.replace(/\/+$/, '')}` };
}

function templatesOf(key: string, raw: string, problems: string[]): SmsTemplates {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    problems.push(`  ${key}: not JSON (expected {"code.login":"…", …})`);
    return {};
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    problems.push(`  ${key}: expected an object of message kind to template code`);
    return {};
  }
  const out: SmsTemplates = {};
  for (const [kind, code] of Object.entries(parsed)) {
    if (!isSmsKind(kind)) problems.push(`  ${key}: unknown message kind ${JSON.stringify(kind)}`);
    else if (typeof code !== 'string' || !/^[\w-]{1,40}$/.test(code))
      problems.push(`  ${key}: ${kind}: a template code is 1-40 letters, digits, _ or -`);
    else out[kind] = code;
  }
  return out;
}

/**
 * The SMS settings, or the list of what is wrong with them. A gateway's account is all of its variables or none; a
 * gateway named by SMS_PROVIDER or SMS_FALLBACK_PROVIDER needs its account in production (elsewhere, with none, the
 * fake's sandbox account is used); production needs SMS_REPORT_TOKEN when a gateway is used.
 */
export function smsConfig(e: SmsEnv, problems: string[]): SmsConfig {
  const production = e.NODE_ENV === 'production';
  const account = (keys: readonly (keyof SmsEnv)[], name: 'aliyun' | 'tencent'): boolean => {
    const set = keys.filter((k) => e[k] !== undefined);
    if (set.length && set.length < keys.length)
      problems.push(
        ...keys.filter((k) => e[k] === undefined).map((k) => `  ${k}: required for ${name} SMS when any of its account variables is set`),
      );
    return set.length === keys.length;
  };
  const used = new Set([e.SMS_PROVIDER, e.SMS_FALLBACK_PROVIDER].filter(Boolean));
  const aliyun: AliyunSmsConfig | null = account(ALIYUN_ACCOUNT, 'aliyun')
    ? {
        accessKeyId: e.SMS_ALIYUN_ACCESS_KEY_ID!,
        accessKeySecret: e.SMS_ALIYUN_ACCESS_KEY_SECRET!,
        signName: e.SMS_ALIYUN_SIGN_NAME!,
        templates: templatesOf('SMS_ALIYUN_TEMPLATES', e.SMS_ALIYUN_TEMPLATES!, problems),
        endpoint: endpointOf(e.SMS_ALIYUN_ENDPOINT) ?? { protocol: 'https', host: 'dysmsapi.aliyuncs.com' },
      }
    : null;
  const tencent: TencentSmsConfig | null = account(TENCENT_ACCOUNT, 'tencent')
    ? {
        secretId: e.SMS_TENCENT_SECRET_ID!,
        secretKey: e.SMS_TENCENT_SECRET_KEY!,
        sdkAppId: e.SMS_TENCENT_SDK_APP_ID!,
        signName: e.SMS_TENCENT_SIGN_NAME!,
        region: e.SMS_TENCENT_REGION,
        templates: templatesOf('SMS_TENCENT_TEMPLATES', e.SMS_TENCENT_TEMPLATES!, problems),
        endpoint: endpointOf(e.SMS_TENCENT_ENDPOINT) ?? { protocol: 'https', host: 'sms.tencentcloudapi.com' },
      }
    : null;
  if (production) {
    if (used.has('aliyun') && !aliyun)
      problems.push(`  SMS_ALIYUN_*: SMS_PROVIDER or SMS_FALLBACK_PROVIDER is aliyun: its account is required in production`);
    if (used.has('tencent') && !tencent)
      problems.push(`  SMS_TENCENT_*: SMS_PROVIDER or SMS_FALLBACK_PROVIDER is tencent: its account is required in production`);
    if ((used.has('aliyun') || used.has('tencent')) && !e.SMS_REPORT_TOKEN)
      problems.push('  SMS_REPORT_TOKEN: required in production with an SMS gateway (the token of its report callback URL)');
  }
  if (e.SMS_FALLBACK_PROVIDER && e.SMS_FALLBACK_PROVIDER === e.SMS_PROVIDER)
    problems.push(`  SMS_FALLBACK_PROVIDER=${JSON.stringify(e.SMS_FALLBACK_PROVIDER)}: the fallback must differ from SMS_PROVIDER`);
  return {
    provider: e.SMS_PROVIDER,
    fallback: e.SMS_FALLBACK_PROVIDER ?? null,
    reportToken: e.SMS_REPORT_TOKEN ?? SANDBOX_REPORT_TOKEN,
    aliyun,
    tencent,
    fakes: !production,
    endpoints: { aliyun: endpointOf(e.SMS_ALIYUN_ENDPOINT), tencent: endpointOf(e.SMS_TENCENT_ENDPOINT) },
  };
}
