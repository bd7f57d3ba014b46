import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { InFlight } from '../../core/events/in-flight';
import { LOGGER } from '../../core/logging/logger';
import { REDIS } from '../../core/redis/redis.provider';
import { jsapiSignature, serverSignature } from '../../modules/wechat/oa-client';
import { OA_ACCOUNT, type OaAccount } from '../../modules/wechat/oa.provider';
import { authorizeErrorPage, authorizePage, type AuthorizeRequest } from './authorize-page';

/** What WeChat answers: JSON with errcode/errmsg on a refusal (HTTP 200, as the real service). */
export type WechatAnswer = Record<string, unknown>;

/** An HTML answer (the authorisation page) or a redirect to the app's callback. */
export type PageAnswer = { status: number; html: string } | { redirect: string };

export interface SandboxMessage {
  msgid: string;
  openid: string;
  name: string | null;
  template_id: string;
  url: string | null;
  data: Record<string, { value: string }>;
  created_at: Date;
  pushed_status: number | null;
}

/** seconds: an access token's life, an authorisation code's */
export const SANDBOX_TOKEN_SECONDS = 7200;
export const SANDBOX_CODE_SECONDS = 300;
/** seconds: a jsapi_ticket's life; the newest this many are kept (each getticket issues one) */
export const SANDBOX_TICKET_SECONDS = 7200;
const TICKETS_KEPT = 50;
/** the sandbox account's original id (ToUserName of its server messages) */
const ORIGINAL_ID = 'gh_0000sandbox0';
const TEMPLATE_RE = /^sbx_tpl_[a-z0-9_]{1,50}$/;
const SCOPES = new Set(['snsapi_base', 'snsapi_userinfo']);

/** The openid of a WeChat user of an app: 'o' + base64url(sha256(appid, name)), 28 characters as WeChat's. */
export const sandboxOpenid = (appid: string, name: string) => `o${createHash('sha256').update(`${appid}\n${name}`).digest('base64url').slice(0, 27)}`;

const rid = () => `${randomBytes(4).toString('hex')}-${randomBytes(4).toString('hex')}-${randomBytes(4).toString('hex')}`;
/** WeChat's refusal */
const refuse = (errcode: number, errmsg: string): WechatAnswer => ({ errcode, errmsg: `${errmsg} rid: ${rid()}` });
const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const cdata = (v: string) => `<![CDATA[${v.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;

/**
 * The local WeChat official account (issue 24), outside production or when asked for: the endpoints the client calls,
 * under /api/dev/wechat/ with WeChat's paths, answering and refusing as WeChat does (40013 appid, 40125 secret, 40029
 * bad code, 40163 code used, 40001 unknown token, 42001 expired token, 40003 openid never authorised, 43101 not
 * following, 40037 template id). Its users, codes, tokens and sent messages are in wechat_sandbox_* tables; each
 * follow, unfollow and delivered template message is pushed to this API's /api/wechat/server signed with the Token.
 * The JS-SDK's side (issue 35): cgi-bin/ticket/getticket issues jsapi_tickets (kept in Redis, or this process without
 * one), and `js/verify` checks a wx.config's signature with them as WeChat's client does (jssdk-bridge.ts).
 */
@Injectable()
export class WechatSandbox implements BeforeApplicationShutdown {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(OA_ACCOUNT) private readonly account: OaAccount,
    private readonly host: HttpAdapterHost,
    @Inject(LOGGER) private readonly log: Logger,
    @Inject(REDIS) private readonly redis: Redis | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** without Redis: the tickets issued by this process (ticket → its end, ms) */
  private readonly localTickets = new Map<string, number>();

  private get ticketsKey(): string {
    return `${this.config.queuePrefix}:wechat-sandbox:${this.appid}:jsapi-tickets`;
  }

  get appid(): string {
    return this.account.appid;
  }

  /** GET connect/oauth2/authorize: the page, or WeChat's refusal of the request. */
  async authorize(q: Record<string, unknown>): Promise<PageAnswer> {
    const checked = this.checkAuthorize(q);
    if (typeof checked === 'string') return { status: 400, html: authorizeErrorPage(checked) };
    return { status: 200, html: authorizePage(checked, await this.userNames()) };
  }

  /** POST connect/oauth2/authorize/confirm: the user (made on first use) follows or not; a code; back to redirect_uri. */
  async confirm(body: Record<string, unknown>): Promise<PageAnswer> {
    const checked = this.checkAuthorize(body);
    if (typeof checked === 'string') return { status: 400, html: authorizeErrorPage(checked) };
    const name = (str(body.pick) || str(body.name)).trim();
    if (!name || name.length > 20) {
      return { status: 400, html: authorizePage(checked, await this.userNames(), name ? '用户名最多 20 个字' : '请选择或输入一个微信用户') };
    }
    const { openid } = await this.setUser(name, body.follow === '1' || body.follow === 'on');
    const code = randomBytes(24).toString('base64url').slice(0, 32);
    await this.db.query(`insert into wechat_sandbox_codes (code, appid, openid, scope) values ($1, $2, $3, $4)`, [
      code,
      this.appid,
      openid,
      checked.scope,
    ]);
    const to = new URL(checked.redirect_uri);
    to.searchParams.set('code', code);
    to.searchParams.set('state', checked.state);
    return { redirect: to.toString() };
  }

  /** GET sns/oauth2/access_token: a code (once, within 5 minutes) for the openid. */
  async oauthAccessToken(q: Record<string, unknown>): Promise<WechatAnswer> {
    const refused = this.checkApp(q.appid, q.secret);
    if (refused) return refused;
    if (q.grant_type !== 'authorization_code') return refuse(40002, 'invalid grant_type');
    const code = str(q.code);
    if (!code || code.length > 64) return refuse(40029, 'invalid code');
    const [c]: Array<{ openid: string; scope: string; used: boolean; old: boolean; taken: boolean }> = await this.db.query(
      `with c as (select code, openid, scope, used_at, created_at from wechat_sandbox_codes where code = $1 and appid = $2 for update),
            u as (update wechat_sandbox_codes s set used_at = now() from c
                   where s.code = c.code and c.used_at is null and c.created_at > now() - make_interval(secs => $3) returning s.code)
       select c.openid, c.scope, c.used_at is not null as used, c.created_at <= now() - make_interval(secs => $3) as old,
              exists (select 1 from u) as taken
         from c`,
      [code, this.appid, SANDBOX_CODE_SECONDS],
    );
    if (!c) return refuse(40029, 'invalid code');
    if (c.used) return refuse(40163, 'code been used');
    if (c.old || !c.taken) return refuse(40029, 'invalid code');
    const token = await this.issueToken('oauth', c.openid);
    return {
      access_token: token,
      expires_in: SANDBOX_TOKEN_SECONDS,
      refresh_token: randomBytes(48).toString('base64url'),
      openid: c.openid,
      scope: c.scope,
    };
  }

  /**
   * POST cgi-bin/stable_token: the account's token. Normal mode answers the current one while more than 5 minutes are
   * left (with what is left), else a new one; force_refresh makes a new one and ends the others at once.
   */
  async stableToken(body: Record<string, unknown>): Promise<WechatAnswer> {
    if (body.grant_type !== 'client_credential') return refuse(40002, 'invalid grant_type');
    const refused = this.checkApp(body.appid, body.secret);
    if (refused) return refused;
    if (body.force_refresh === true) {
      await this.db.query(`update wechat_sandbox_tokens set revoked = true where appid = $1 and kind = 'client' and not revoked`, [this.appid]);
    } else {
      const [kept]: Array<{ token: string; left: number }> = await this.db.query(
        `select token, floor(extract(epoch from expires_at - now()))::int as left from wechat_sandbox_tokens
          where appid = $1 and kind = 'client' and not revoked and expires_at > now() + interval '5 minutes'
          order by expires_at desc limit 1`,
        [this.appid],
      );
      if (kept) return { access_token: kept.token, expires_in: kept.left };
    }
    return { access_token: await this.issueToken('client', null), expires_in: SANDBOX_TOKEN_SECONDS };
  }

  /** POST cgi-bin/message/template/send: to a user who authorised and follows, with a template id of the sandbox. */
  async sendTemplate(accessToken: unknown, body: Record<string, unknown>): Promise<WechatAnswer> {
    const refused = await this.checkClientToken(accessToken);
    if (refused) return refused;
    const openid = str(body.touser);
    const [u]: Array<{ subscribed: boolean }> = await this.db.query(`select subscribed from wechat_sandbox_users where appid = $1 and openid = $2`, [
      this.appid,
      openid,
    ]);
    if (!u) return refuse(40003, 'invalid openid');
    if (!u.subscribed) return refuse(43101, 'user refuse to accept the msg');
    const templateId = str(body.template_id);
    if (!TEMPLATE_RE.test(templateId)) return refuse(40037, 'invalid template_id');
    const data = body.data;
    if (!data || typeof data !== 'object' || Array.isArray(data)) return refuse(47001, 'data format error');
    const url = typeof body.url === 'string' && body.url ? body.url : null;
    const [m]: Array<{ msgid: string }> = await this.db.query(
      `insert into wechat_sandbox_messages (appid, openid, template_id, url, data) values ($1, $2, $3, $4, $5) returning msgid::text`,
      [this.appid, openid, templateId, url, JSON.stringify(data)],
    );
    this.later(this.pushTemplateFinished(m.msgid, openid));
    return { errcode: 0, errmsg: 'ok', msgid: Number(m.msgid) };
  }

  /** GET cgi-bin/ticket/getticket?type=jsapi: a new jsapi_ticket for 7,200 s (the ones issued before stay valid until their end). */
  async getTicket(accessToken: unknown, type: unknown): Promise<WechatAnswer> {
    const refused = await this.checkClientToken(accessToken);
    if (refused) return refused;
    if (type !== 'jsapi') return refuse(40097, 'invalid args');
    const ticket = randomBytes(64).toString('base64url');
    const endsAt = Date.now() + SANDBOX_TICKET_SECONDS * 1000;
    if (this.redis) {
      await this.redis
        .multi()
        .zadd(this.ticketsKey, endsAt, ticket)
        .zremrangebyscore(this.ticketsKey, '-inf', Date.now())
        .zremrangebyrank(this.ticketsKey, 0, -TICKETS_KEPT - 1)
        .pexpire(this.ticketsKey, SANDBOX_TICKET_SECONDS * 1000)
        .exec();
    } else {
      this.localTickets.set(ticket, endsAt);
      for (const t of [...this.localTickets.keys()].slice(0, -TICKETS_KEPT)) this.localTickets.delete(t);
    }
    return { errcode: 0, errmsg: 'ok', ticket, expires_in: SANDBOX_TICKET_SECONDS };
  }

  /** The jsapi_tickets still valid, newest first. */
  async liveTickets(): Promise<string[]> {
    if (this.redis) return this.redis.zrevrangebyscore(this.ticketsKey, '+inf', Date.now());
    return [...this.localTickets.entries()]
      .filter(([, end]) => end > Date.now())
      .map(([t]) => t)
      .reverse();
  }

  /**
   * What WeChat's client answers a wx.config (preVerifyJSAPI), as `errMsg`: `config:ok` when the signature is the sha1
   * of a ticket the sandbox issued with the nonceStr, timestamp and the page's URL; `config:invalid url domain` for a
   * page off the account's JS接口安全域名 (the site's public URL); `config:invalid signature` otherwise.
   */
  async verifyJsConfig(body: Record<string, unknown>): Promise<{ errMsg: string }> {
    const url = str(body.url);
    let page: URL | null = null;
    try {
      page = new URL(url);
    } catch {
      // below
    }
    if (!page || page.origin !== new URL(this.config.webPublicUrl).origin || url.includes('#')) return { errMsg: 'config:invalid url domain' };
    const timestamp = typeof body.timestamp === 'number' ? String(body.timestamp) : str(body.timestamp);
    const nonceStr = str(body.nonceStr);
    const signature = str(body.signature).toLowerCase();
    if (body.appId !== this.appid || !/^\d{1,12}$/.test(timestamp) || !nonceStr || nonceStr.length > 32 || !/^[0-9a-f]{40}$/.test(signature)) {
      return { errMsg: 'config:invalid signature' };
    }
    const ok = (await this.liveTickets()).some((t) => same(jsapiSignature(t, nonceStr, timestamp, url), signature));
    return { errMsg: ok ? 'config:ok' : 'config:invalid signature' };
  }

  /** The log of sent template messages, newest first (for one openid, or all). */
  async messages(openid: string | undefined, limit: number): Promise<SandboxMessage[]> {
    return this.db.query(
      `select m.msgid::text, m.openid, u.name, m.template_id, m.url, m.data, m.created_at, m.pushed_status
         from wechat_sandbox_messages m left join wechat_sandbox_users u on u.appid = m.appid and u.openid = m.openid
        where m.appid = $1 and ($2::text is null or m.openid = $2) order by m.msgid desc limit $3`,
      [this.appid, openid ?? null, limit],
    );
  }

  /** A WeChat user of the account (made on first use) follows or not; a change is pushed to the API as WeChat does. */
  async setUser(name: string, subscribed: boolean): Promise<{ openid: string; name: string; subscribed: boolean }> {
    const openid = sandboxOpenid(this.appid, name);
    const [r]: Array<{ was: boolean | null }> = await this.db.query(
      `with old as (select subscribed from wechat_sandbox_users where appid = $1 and openid = $2)
       insert into wechat_sandbox_users (appid, openid, name, subscribed) values ($1, $2, $3, $4)
       on conflict (appid, openid) do update set subscribed = excluded.subscribed, last_seen_at = now()
       returning (select subscribed from old) as was`,
      [this.appid, openid, name, subscribed],
    );
    // a new user who does not follow has nothing to tell
    if ((r.was ?? false) !== subscribed) this.later(this.pushFollow(openid, subscribed));
    return { openid, name, subscribed };
  }

  /** Every access token expires now (tests of 42001). */
  async expireTokens(): Promise<{ expired: number }> {
    const rows: unknown[] = await this.db.query(
      `update wechat_sandbox_tokens set expires_at = now() - interval '1 second' where appid = $1 and expires_at > now() returning 1`,
      [this.appid],
    );
    return { expired: rows.length };
  }

  status(): { sandbox: true; appid: string } {
    return { sandbox: true, appid: this.appid };
  }

  /** Pushes sent after an answer, awaited by settled() (tests) and before the API stops. */
  private readonly pushes = new InFlight((err) => this.log.warn({ err }, 'wechat sandbox push failed'));
  private later(work: Promise<unknown>): void {
    this.pushes.track(work);
  }
  async settled(): Promise<void> {
    await this.pushes.settled();
  }
  async beforeApplicationShutdown(): Promise<void> {
    await this.settled();
  }

  /** An account access token (stable_token's) as WeChat checks it: 40001 unknown or replaced, 42001 expired. */
  private async checkClientToken(accessToken: unknown): Promise<WechatAnswer | null> {
    const [t]: Array<{ expired: boolean }> = await this.db.query(
      `select expires_at <= now() as expired from wechat_sandbox_tokens where token = $1 and appid = $2 and kind = 'client' and not revoked`,
      [str(accessToken), this.appid],
    );
    if (!t) return refuse(40001, 'invalid credential, access_token is invalid or not latest');
    if (t.expired) return refuse(42001, 'access_token expired');
    return null;
  }

  private checkApp(appid: unknown, secret: unknown): WechatAnswer | null {
    if (appid !== this.appid) return refuse(40013, 'invalid appid');
    if (!same(str(secret), this.account.secret)) return refuse(40125, 'invalid appsecret');
    return null;
  }

  /** The authorisation request's checks (WeChat's own words on its refusal page), or the request. */
  private checkAuthorize(q: Record<string, unknown>): AuthorizeRequest | string {
    if (q.appid !== this.appid) return '参数错误：appid 无效（40013 invalid appid）';
    const redirect = str(q.redirect_uri);
    let url: URL | null = null;
    try {
      url = new URL(redirect);
    } catch {
      // below
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return 'redirect_uri 参数错误';
    if (q.response_type !== 'code') return '参数错误：response_type 只能是 code';
    const scope = str(q.scope);
    if (!SCOPES.has(scope)) return 'scope 参数错误或没有 scope 权限';
    const state = str(q.state);
    if (!/^[\w-]{0,128}$/.test(state)) return 'state 参数错误（最多 128 个字母或数字）';
    return { appid: this.appid, redirect_uri: redirect, response_type: 'code', scope, state };
  }

  private async userNames(): Promise<string[]> {
    const rows: Array<{ name: string }> = await this.db.query(
      `select name from wechat_sandbox_users where appid = $1 order by last_seen_at desc limit 12`,
      [this.appid],
    );
    return rows.map((r) => r.name);
  }

  private async issueToken(kind: 'client' | 'oauth', openid: string | null): Promise<string> {
    const token = randomBytes(72).toString('base64url');
    await this.db.query(
      `insert into wechat_sandbox_tokens (token, appid, kind, openid, expires_at) values ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
      [token, this.appid, kind, openid, SANDBOX_TOKEN_SECONDS],
    );
    return token;
  }

  private selfUrl(): string {
    const server = this.host.httpAdapter?.getHttpServer() as { address(): { port: number } | string | null } | undefined;
    const addr = server?.address();
    if (!addr || typeof addr === 'string') throw new Error('the WeChat sandbox pushes to this API: it must listen');
    return `http://127.0.0.1:${addr.port}`;
  }

  /** A server message to /api/wechat/server, signed with the Token as WeChat signs; answers the HTTP status. */
  private async push(openid: string, fields: string): Promise<number> {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = String(randomBytes(4).readUInt32BE());
    const signature = serverSignature(this.account.token, timestamp, nonce);
    const xml = `<xml><ToUserName>${cdata(ORIGINAL_ID)}</ToUserName><FromUserName>${cdata(openid)}</FromUserName><CreateTime>${timestamp}</CreateTime><MsgType>${cdata('event')}</MsgType>${fields}</xml>`;
    const q = new URLSearchParams({ signature, timestamp, nonce, openid });
    const res = await fetch(`${this.selfUrl()}/api/wechat/server?${q}`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml' },
      body: xml,
      signal: AbortSignal.timeout(10_000),
    });
    await res.text();
    return res.status;
  }

  private async pushTemplateFinished(msgid: string, openid: string): Promise<void> {
    const status = await this.push(
      openid,
      `<Event>${cdata('TEMPLATESENDJOBFINISH')}</Event><MsgID>${msgid}</MsgID><Status>${cdata('success')}</Status>`,
    );
    await this.db.query(`update wechat_sandbox_messages set pushed_status = $2 where msgid = $1`, [msgid, status]);
  }

  private async pushFollow(openid: string, subscribed: boolean): Promise<void> {
    await this.push(openid, `<Event>${cdata(subscribed ? 'subscribe' : 'unsubscribe')}</Event><EventKey>${cdata('')}</EventKey>`);
  }
}
