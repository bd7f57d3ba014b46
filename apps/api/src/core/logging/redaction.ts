import type { LoggerOptions } from 'pino';

export const REDACTED = '[redacted]';

/**
 * Keys whose values never reach a log line: session tokens (the `token` header and field), passwords (sign-in, change
 * and reset: `password`, `oldpassword`, `newpassword`; staff accounts), the school's payment password (`deal_pwd`),
 * password and token hashes, authorization and cookie headers, the WeChat Pay merchant's keys (`privateKey`,
 * `apiV3Key`; config.ts) and the QR sign-in secret.
 */
export const SECRET_KEYS = [
  'token',
  'token_hash',
  'tokenHash',
  'password',
  'oldpassword',
  'newpassword',
  'oldPassword',
  'newPassword',
  'password_hash',
  'passwordHash',
  'deal_pwd',
  'dealPwd',
  'deal_pwd_hash',
  'authorization',
  'Authorization',
  'cookie',
  'privateKey',
  'apiV3Key',
  'WECHATPAY_APIV3_KEY',
  'secret',
] as const;

/**
 * SMS codes: `code` in the bodies of mobilelogin, resetpwd and setDealPwd, and in the `params` of an `sms.send` job or
 * an outbox message. Only there: a line's own top-level `code` is the envelope code of the request log, and `err.code`
 * (`23505`, `ECONNRESET`) is what an operator needs to see.
 */
const CODE_PARENTS = ['body', 'input', 'query', 'params'] as const;

/**
 * Where a secret sits below the top of a logged object: under one of these keys, one or two levels down
 * (`{ body: { password } }`, `{ req: { headers: { token } } }`, `{ rows: [{ password_hash }] }`), headers three
 * (`{ err: { config: { headers: { Authorization } } } }`, an HTTP client's error). Named parents, not a leading `*`:
 * a leading wildcard makes pino run the redaction over every key of every line (about 30 µs a line per few paths,
 * measured), named ones only when the line has that key.
 */
export const SECRET_PARENTS = [
  'req',
  'request',
  'res',
  'response',
  'headers',
  'body',
  'input',
  'query',
  'params',
  'data',
  'payload',
  'dto',
  'user',
  'users',
  'account',
  'session',
  'config',
  'options',
  'wechatpay',
  'err',
  'error',
  'cause',
  'job',
  'message',
  'sms',
  'payment',
  'qr',
  'ticket',
  'row',
  'rows',
  'args',
  'context',
  'detail',
] as const;

/** Headers also sit three levels down. */
const HEADER_KEYS = ['token', 'authorization', 'Authorization', 'cookie'] as const;

function paths(): string[] {
  const out: string[] = [...SECRET_KEYS];
  for (const parent of SECRET_PARENTS) {
    for (const key of SECRET_KEYS) out.push(`${parent}.${key}`, `${parent}.*.${key}`);
    for (const key of HEADER_KEYS) out.push(`${parent}.*.*.${key}`);
    for (const c of CODE_PARENTS) out.push(`${parent}.${c}.code`, `${parent}.*.${c}.code`);
  }
  for (const c of CODE_PARENTS) out.push(`${c}.code`);
  return [...new Set(out)];
}

/** pino's `redact` option: every path above, its value replaced by `[redacted]`. */
export const REDACT: NonNullable<LoggerOptions['redact']> = { paths: paths(), censor: REDACTED };
