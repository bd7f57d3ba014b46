import { Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * The official account's (公众号) client: web authorisation (snsapi_base), the access token, the JS-SDK's jsapi_ticket
 * and template messages.
 *
 * There is no official WeChat SDK for Node; the community ones (node-webot's wechat-api / co-wechat-api, wechat-oauth)
 * call the legacy `cgi-bin/token` (each call invalidating the other processes' token) and keep tokens in their own
 * per-process store. Four HTTP calls do not need them: this uses Node's fetch, `cgi-bin/stable_token`, and one
 * refresher across processes through Redis.
 */

/** WeChat's refusal: `errcode` and `errmsg` as the service answered them (e.g. 40029 invalid code, 43101 not following). */
export class WechatApiError extends Error {
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
  ) {
    super(`WeChat ${errcode}: ${errmsg}`);
    this.name = 'WechatApiError';
  }
}

/** The template id the sandbox knows for a message kind (`arrival.in` → `sbx_tpl_arrival_in`). */
export const sandboxTemplateId = (kind: string): string => `sbx_tpl_${kind.replace(/\./g, '_')}`;

/** What WechatOa is built from (wechat.module.ts: the configured account, or the sandbox's). */
export interface WechatOaOptions {
  appid: string;
  secret: string;
  /** the server configuration's Token (signs the messages WeChat posts to /api/wechat/server) */
  token: string;
  sandbox: boolean;
  /** the API's base URL ending with / (https://api.weixin.qq.com/; the sandbox: this process + /api/dev/wechat/) */
  apiUrl: () => string;
  /** where browsers authorise, ending with / (https://open.weixin.qq.com/; the sandbox: /api/dev/wechat/) */
  openUrl: () => string;
  /** the shared Redis connection (the token is kept there for every process); null: one process, kept in memory */
  redis: Redis | null;
  /** the Redis key prefix (QUEUE_PREFIX: tests use one each) */
  keyPrefix: string;
}

interface CachedToken {
  /** the access token, or the jsapi_ticket */
  token: string;
  /** ms: the token's end, and when it is refreshed (5 min before its end) */
  expiresAt: number;
  refreshAt: number;
}

/** refreshed this long before the token ends */
const EARLY_MS = 5 * 60_000;
/** how long one refresher may hold the lock (a stable_token call times out before) */
const LOCK_MS = 15_000;
const HTTP_TIMEOUT_MS = 10_000;
/** access_token expired / invalid: refreshed once and the call retried */
const TOKEN_REFUSED = new Set([42001, 40001]);
/** the server messages' timestamp must be this close to now */
const SIGNATURE_WINDOW_S = 300;

const RELEASE_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The kept copy of a token answered with `expires_in` seconds: 5 minutes early; with less left, still used a minute. */
function keptFor(token: string, expiresIn: number): CachedToken {
  const now = Date.now();
  const expiresAt = now + expiresIn * 1000;
  const refreshAt = Math.min(expiresAt - 10_000, Math.max(expiresAt - EARLY_MS, now + 60_000));
  return { token, expiresAt, refreshAt };
}

/**
 * One credential of the account kept for every process (the access token, the jsapi_ticket): in Redis with its end
 * while more than 5 minutes are left, else fetched again by one caller in this process and one process of all (a Redis
 * lock) while the others wait for it. Without Redis: kept in this (only) process's memory.
 */
class KeptCredential {
  private readonly lockKey: string;
  /** without Redis: the credential of this (only) process */
  private local: CachedToken | null = null;
  /** one refresh at a time in this process (the others wait for it) */
  private refreshing: Promise<string> | null = null;

  constructor(
    private readonly redis: Redis | null,
    private readonly key: string,
    /** a new one from WeChat; `replacing`: the kept one was refused */
    private readonly fetchOne: (replacing: boolean) => Promise<CachedToken>,
    private readonly what: string,
  ) {
    this.lockKey = `${key}:lock`;
  }

  /** The kept one while it is fresh, else a new one; `force`: the kept one was refused, replace it. */
  async get(force = false): Promise<string> {
    const kept = await this.cached();
    if (!force && kept && Date.now() < kept.refreshAt) return kept.token;
    return this.refreshed(force ? (kept?.token ?? null) : null);
  }

  /** One other than `stale`, refreshed by one caller in this process and one process of all. */
  async refreshed(stale: string | null, again = true): Promise<string> {
    this.refreshing ??= this.refreshOnce(stale).finally(() => (this.refreshing = null));
    const token = await this.refreshing;
    // joined a refresh that was not asked to replace `stale`
    return again && stale !== null && token === stale ? this.refreshed(stale, false) : token;
  }

  private async cached(): Promise<CachedToken | null> {
    if (!this.redis) return this.local && Date.now() < this.local.expiresAt ? this.local : null;
    const raw = await this.redis.get(this.key);
    return raw ? (JSON.parse(raw) as CachedToken) : null;
  }

  private async refreshOnce(stale: string | null): Promise<string> {
    const usable = (c: CachedToken | null) => !!c && Date.now() < c.refreshAt && c.token !== stale;
    const redis = this.redis;
    if (!redis) {
      if (usable(this.local)) return this.local!.token;
      this.local = await this.fetchOne(stale !== null);
      return this.local.token;
    }
    const deadline = Date.now() + 2 * LOCK_MS;
    for (;;) {
      const kept = await this.cached();
      if (usable(kept)) return kept!.token;
      const id = randomUUID();
      if (await redis.set(this.lockKey, id, 'PX', LOCK_MS, 'NX')) {
        try {
          // another process may have written one between the read and the lock
          const again = await this.cached();
          if (usable(again)) return again!.token;
          const t = await this.fetchOne(stale !== null);
          await redis.set(this.key, JSON.stringify(t), 'PX', Math.max(1, t.expiresAt - Date.now()));
          return t.token;
        } finally {
          await redis.eval(RELEASE_LOCK, 1, this.lockKey, id);
        }
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for the WeChat ${this.what} refresher`);
      await sleep(50);
    }
  }
}

@Injectable()
export class WechatOa {
  readonly appid: string;
  readonly sandbox: boolean;
  private readonly secret: string;
  private readonly serverToken: string;
  private readonly token: KeptCredential;
  private readonly ticket: KeptCredential;

  constructor(private readonly opts: WechatOaOptions) {
    this.appid = opts.appid;
    this.sandbox = opts.sandbox;
    this.secret = opts.secret;
    this.serverToken = opts.token;
    const key = `${opts.keyPrefix}:wechat:${opts.appid}`;
    this.token = new KeptCredential(opts.redis, `${key}:access-token`, (force) => this.fetchToken(force), 'access token');
    this.ticket = new KeptCredential(opts.redis, `${key}:jsapi-ticket`, () => this.fetchTicket(), 'jsapi_ticket');
  }

  /** The snsapi_base authorisation URL the browser is sent to; WeChat comes back to redirectUri?code=…&state=…. */
  authorizeUrl(redirectUri: string, state: string): string {
    const q = `appid=${this.appid}&redirect_uri=${encodeURIComponent(redirectUri)}&response_type=code&scope=snsapi_base&state=${encodeURIComponent(state)}`;
    return `${this.opts.openUrl()}connect/oauth2/authorize?${q}#wechat_redirect`;
  }

  /** The openid of an authorisation code (sns/oauth2/access_token); a bad or used code throws WechatApiError 40029 / 40163. */
  async openidOf(code: string): Promise<string> {
    const q = new URLSearchParams({ appid: this.appid, secret: this.secret, code, grant_type: 'authorization_code' });
    const { json } = await this.call(`sns/oauth2/access_token?${q}`);
    if (typeof json.openid !== 'string' || !json.openid) throw new Error('WeChat sns/oauth2/access_token answered without an openid');
    return json.openid;
  }

  /**
   * The account's access token: the one kept in Redis while more than 5 minutes are left, else a new one from
   * cgi-bin/stable_token, fetched by one process (a Redis lock) while the others wait for it. `force`: the kept one
   * was refused, get a new one (force_refresh) unless another process already did.
   */
  async accessToken(force = false): Promise<string> {
    return this.token.get(force);
  }

  /**
   * The account's jsapi_ticket (the JS-SDK's wx.config is signed with it): kept in Redis like the access token (5
   * minutes early, one process fetching), else from cgi-bin/ticket/getticket with the access token; a token refused
   * there (42001 / 40001) is refreshed once and the ticket asked again.
   */
  async jsapiTicket(): Promise<string> {
    return this.ticket.get();
  }

  /** Sends a template message; a refused token (42001 / 40001) is refreshed once and the message sent again. */
  async sendTemplate(m: { openid: string; templateId: string; url?: string; data: Record<string, { value: string }> }): Promise<{ msgid: string }> {
    const body = JSON.stringify({ touser: m.openid, template_id: m.templateId, ...(m.url ? { url: m.url } : {}), data: m.data });
    const send = async (token: string) => {
      const { text } = await this.call(`cgi-bin/message/template/send?access_token=${encodeURIComponent(token)}`, body);
      // msgid is an int64: read from the text, never through a double
      const msgid = /"msgid"\s*:\s*"?(\d+)/.exec(text)?.[1];
      if (!msgid) throw new Error('WeChat template/send answered without a msgid');
      return { msgid };
    };
    const token = await this.accessToken();
    try {
      return await send(token);
    } catch (err) {
      if (!(err instanceof WechatApiError) || !TOKEN_REFUSED.has(err.errcode)) throw err;
      return send(await this.token.refreshed(token));
    }
  }

  /** A server message's signature: sha1 of the sorted Token, timestamp and nonce; the timestamp within 5 minutes. */
  verifySignature(signature: string, timestamp: string, nonce: string): boolean {
    if (typeof signature !== 'string' || typeof timestamp !== 'string' || typeof nonce !== 'string') return false;
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > SIGNATURE_WINDOW_S) return false;
    const expected = Buffer.from(serverSignature(this.serverToken, timestamp, nonce));
    const given = Buffer.from(signature.toLowerCase());
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** sandboxTemplateId(kind), for callers holding the client */
  sandboxTemplateId(kind: string): string {
    return sandboxTemplateId(kind);
  }

  /** A call to the API: JSON answered; a non-zero errcode throws WechatApiError. */
  private async call(path: string, body?: string): Promise<{ json: Record<string, unknown>; text: string }> {
    const res = await fetch(`${this.opts.apiUrl()}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    const text = await res.text();
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new Error(`WeChat ${path.split('?')[0]}: HTTP ${res.status}, not JSON`);
    }
    const errcode = Number(json.errcode ?? 0);
    if (errcode !== 0) throw new WechatApiError(errcode, String(json.errmsg ?? ''));
    return { json, text };
  }

  private async fetchToken(forceRefresh: boolean): Promise<CachedToken> {
    const body = JSON.stringify({ grant_type: 'client_credential', appid: this.appid, secret: this.secret, force_refresh: forceRefresh });
    const { json } = await this.call('cgi-bin/stable_token', body);
    const token = json.access_token;
    const expiresIn = Number(json.expires_in);
    if (typeof token !== 'string' || !token || !(expiresIn > 0)) throw new Error('WeChat stable_token answered without a token');
    return keptFor(token, expiresIn);
  }

  private async fetchTicket(): Promise<CachedToken> {
    const ask = async (token: string) => {
      const { json } = await this.call(`cgi-bin/ticket/getticket?access_token=${encodeURIComponent(token)}&type=jsapi`);
      const ticket = json.ticket;
      const expiresIn = Number(json.expires_in);
      if (typeof ticket !== 'string' || !ticket || !(expiresIn > 0)) throw new Error('WeChat getticket answered without a ticket');
      return keptFor(ticket, expiresIn);
    };
    const token = await this.accessToken();
    try {
      return await ask(token);
    } catch (err) {
      if (!(err instanceof WechatApiError) || !TOKEN_REFUSED.has(err.errcode)) throw err;
      return ask(await this.token.refreshed(token));
    }
  }
}

/** The server messages' signature: sha1 hex of the sorted Token, timestamp and nonce (also how the sandbox signs). */
export function serverSignature(token: string, timestamp: string, nonce: string): string {
  return createHash('sha1').update([token, timestamp, nonce].sort().join('')).digest('hex');
}

/**
 * The JS-SDK's signature (附录1 of WeChat's JS-SDK document): sha1 hex of `jsapi_ticket=…&noncestr=…&timestamp=…&url=…`,
 * the url the page's own without its #fragment (also how the sandbox verifies a wx.config).
 */
export function jsapiSignature(ticket: string, nonceStr: string, timestamp: number | string, url: string): string {
  return createHash('sha1').update(`jsapi_ticket=${ticket}&noncestr=${nonceStr}&timestamp=${timestamp}&url=${url}`).digest('hex');
}
