import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { loadSandboxKeys } from '../../modules/payments/wechatpay/credentials';

const bool = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');
const baseUrl = z.string().regex(/^https?:\/\/.+\/$/, 'an http(s) URL ending with /');

/** The official account's environment (part of ENV_SCHEMA): app id, secret and server-message token, all or none. */
export const WECHAT_OA_ENV = {
  // the platform's official account (公众号): its AppID, AppSecret and the Token of 服务器配置 (server messages)
  WECHAT_OA_APPID: z
    .string()
    .regex(/^wx[0-9a-zA-Z]{6,30}$/, 'an appid starts with wx')
    .optional(),
  WECHAT_OA_SECRET: z
    .string()
    .regex(/^[0-9a-zA-Z]{16,64}$/, 'an AppSecret is 16-64 letters and digits')
    .optional(),
  WECHAT_OA_TOKEN: z
    .string()
    .regex(/^[0-9a-zA-Z]{3,32}$/, 'the server Token is 3-32 letters and digits')
    .optional(),
  // default https://api.weixin.qq.com/ (without an account outside production: this API's sandbox at /api/dev/wechat/)
  WECHAT_OA_API_URL: baseUrl.optional(),
  // where browsers are sent to authorise, default https://open.weixin.qq.com/ (sandbox: /api/dev/wechat/ of the page's origin)
  WECHAT_OA_OPEN_URL: z
    .string()
    .regex(/^(https?:\/\/[^/]+)?\/(.*\/)?$/, 'an http(s) URL or a path, ending with /')
    .optional(),
  // 1 in production serves the sandbox account anyway (a demo deployment such as docker-compose.yml); unset: as
  // WECHATPAY_SANDBOX (the pay sandbox's JSAPI pays with the sandbox account's openids)
  WECHAT_OA_SANDBOX: bool.optional(),
};

type OaEnv = z.infer<z.ZodObject<typeof WECHAT_OA_ENV>> & {
  NODE_ENV: 'development' | 'production' | 'test';
  WECHATPAY_APPID?: string;
  WECHATPAY_SANDBOX?: boolean;
};

/** The official account's settings when configured (always in production, unless WECHAT_OA_SANDBOX=1). */
export interface WechatOaConfig {
  appid: string;
  secret: string;
  /** the Token of the server configuration: signs the server messages WeChat posts to /api/wechat/server */
  token: string;
  apiUrl: string;
  openUrl: string;
}

const REQUIRED = ['WECHAT_OA_APPID', 'WECHAT_OA_SECRET', 'WECHAT_OA_TOKEN'] as const;

/**
 * Reads the official account: all three credentials, or none and the sandbox (production: only when asked for with
 * WECHAT_OA_SANDBOX=1, or WECHATPAY_SANDBOX=1 without WECHAT_OA_SANDBOX). Problems are pushed to `problems` (one line each). JSAPI pays with the openid
 * of the official account: a merchant's WeChat Pay appid must be the account's (the pay sandbox takes the account's).
 */
export function wechatOaConfig(e: OaEnv, problems: string[]): WechatOaConfig | null {
  const sandbox = e.WECHAT_OA_SANDBOX ?? e.WECHATPAY_SANDBOX ?? e.NODE_ENV !== 'production';
  if (REQUIRED.every((k) => !e[k]) && sandbox) return null;
  const missing = REQUIRED.filter((k) => !e[k]);
  if (missing.length) {
    const why = sandbox
      ? 'required for the official account when any of its variables is set'
      : 'required for the official account in production (or WECHAT_OA_SANDBOX=1 for a demo)';
    for (const k of missing) problems.push(`  ${k}: ${why}`);
    return null;
  }
  // in every environment: a guardian bound under the account could not pay inside WeChat with another appid
  if (e.WECHATPAY_APPID && e.WECHATPAY_APPID !== e.WECHAT_OA_APPID) {
    problems.push(
      `  WECHATPAY_APPID=${JSON.stringify(e.WECHATPAY_APPID)}: must be the official account's WECHAT_OA_APPID (${e.WECHAT_OA_APPID}): JSAPI pays with the account's openid`,
    );
  }
  return {
    appid: e.WECHAT_OA_APPID!,
    secret: e.WECHAT_OA_SECRET!,
    token: e.WECHAT_OA_TOKEN!,
    apiUrl: e.WECHAT_OA_API_URL ?? 'https://api.weixin.qq.com/',
    openUrl: e.WECHAT_OA_OPEN_URL ?? 'https://open.weixin.qq.com/',
  };
}

/** The sandbox's official account: the WeChat Pay sandbox's appid (JSAPI needs them equal), its own secret and token. */
export interface SandboxOaAccount {
  appid: string;
  secret: string;
  token: string;
}

/**
 * The sandbox account: read from DATA_DIR/wechat-sandbox/account.json, made there at first start (mode 0600) with a
 * hard link from a temporary file, so concurrent first starts end up with one (as loadSandboxKeys does). `payAppid`:
 * the configured merchant's appid when WeChat Pay is real, else the pay sandbox's.
 */
export function loadSandboxOaAccount(dataDir: string, payAppid?: string): SandboxOaAccount {
  const appid = payAppid ?? loadSandboxKeys(dataDir).appid;
  const dir = join(dataDir, 'wechat-sandbox');
  const file = join(dir, 'account.json');
  const read = (): SandboxOaAccount => ({ ...(JSON.parse(readFileSync(file, 'utf8')) as SandboxOaAccount), appid });
  try {
    return read();
  } catch {
    // absent (or unreadable): make one
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const made = { appid, secret: randomBytes(16).toString('hex'), token: randomBytes(16).toString('hex') };
  const tmp = join(dir, `account.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  writeFileSync(tmp, JSON.stringify(made, null, 2), { mode: 0o600 });
  try {
    linkSync(tmp, file);
    return made;
  } catch {
    // another process made it first: use theirs
    return read();
  } finally {
    rmSync(tmp, { force: true });
  }
}
