import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  type WechatAuthorizeAnswer,
  type WechatAuthorizeInput,
  type WechatBindAnswer,
  type WechatBindInput,
  type WechatOauthAnswer,
  type WechatOauthInput,
} from '@wantuo/shared';
import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from 'typeorm';
import type { CallerInfo } from '../../core/auth/current-user.decorator';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { isUniqueViolation } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { LOGGER } from '../../core/logging/logger';
import { ActivityService } from '../auth/activity.service';
import { AuthService } from '../auth/auth.service';
import { WechatApiError, WechatOa } from './oa-client';
import { WechatRepository } from './wechat.repository';

/** How long an authorisation's state and an openid's bind ticket live (seconds). */
export const WECHAT_TICKETS = { stateSeconds: 600, bindSeconds: 900, keepHours: 24 };

const hashOf = (id: string): Buffer => createHash('sha256').update(id).digest();
/** an openid as the logs and the guardian's settings show it */
export const maskOpenid = (openid: string) => `${openid.slice(0, 4)}…${openid.slice(-4)}`;

/** Hosts a callback may name outside production besides the request's own (the Vite dev server proxies with another Host). */
const DEV_HOSTS = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/**
 * The official account's web sign-in (issue 24, 网页授权 with snsapi_base). The sign-in page inside WeChat asks for the
 * authorisation URL (a one-use state kept as its SHA-256, with where to go after); WeChat sends the guardian back to
 * /wechat/callback with a code, which this exchanges once for the openid. A guardian bound to that openid is signed in
 * as by a password (AuthService.openSession, logged as login.wechat). An openid no guardian is bound to gets a one-use
 * bind ticket: the guardian signs in once with an SMS code, and wechatBind ties the openid to that account. Staff are
 * never signed in by openid, and never bound (wechatBind is the parents' only). Bindings are ended, never deleted.
 */
@Injectable()
export class WechatSignIn {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly oa: WechatOa,
    private readonly auth: AuthService,
    private readonly activity: ActivityService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly log: Logger,
    private readonly repo: WechatRepository,
  ) {}

  async authorize(input: WechatAuthorizeInput, caller: CallerInfo): Promise<WechatAuthorizeAnswer> {
    const callback = new URL(input.callback);
    const ownHost = callback.host === caller.host || (this.config.env !== 'production' && DEV_HOSTS.test(callback.host));
    if (callback.pathname !== '/wechat/callback' || !ownHost || callback.search || callback.hash) {
      throw new AppError('auth.wechat_callback_invalid');
    }
    const state = randomBytes(18).toString('base64url');
    await this.repo.pruneTickets(WECHAT_TICKETS.keepHours);
    await this.repo.writeState(hashOf(state), this.oa.appid, input.redirect, WECHAT_TICKETS.stateSeconds);
    return { url: this.oa.authorizeUrl(callback.toString(), state) };
  }

  async oauth(input: WechatOauthInput, caller: CallerInfo): Promise<WechatOauthAnswer> {
    // the state first, spent whatever follows: a code comes back once per authorisation
    const st = await this.repo.spendState(hashOf(input.state), this.oa.appid);
    if (!st) throw new AppError('auth.wechat_state_invalid');
    let openid: string;
    try {
      openid = await this.oa.openidOf(input.code);
    } catch (err) {
      if (err instanceof WechatApiError && err.errcode === 40163) throw new AppError('auth.wechat_code_used');
      if (err instanceof WechatApiError && err.errcode === 40029) throw new AppError('auth.wechat_code_invalid');
      this.log.warn({ err }, 'wechat: the code could not be exchanged for an openid');
      throw new AppError('auth.wechat_unavailable');
    }
    const bound = await this.repo.boundParent(this.oa.appid, openid);
    if (bound) {
      const user = await this.repo.account(bound.user_id);
      const { userinfo } = await this.db.transaction((em) =>
        this.auth.openSession(em, user, true, 'login.wechat', caller, { method: 'wechat', openid: maskOpenid(openid) }),
      );
      return { userinfo, redirect: st.redirect };
    }
    const ticket = randomBytes(18).toString('base64url');
    const t = await this.repo.writeBindTicket(hashOf(ticket), this.oa.appid, openid, st.redirect, WECHAT_TICKETS.bindSeconds);
    return { bind_ticket: ticket, bind_expires_at: t.expires_at.toISOString(), redirect: st.redirect };
  }

  /**
   * Binds a ticket's openid to the signed-in guardian, in one transaction: the ticket is spent; a live binding of the
   * same openid (another guardian) or of this guardian (another openid) is ended as `rebound`; both sides are logged.
   */
  async bind(user: SessionUser, input: WechatBindInput, caller: CallerInfo): Promise<WechatBindAnswer> {
    try {
      return await this.db.transaction(async (em) => {
        const t = await this.repo.spendBindTicket(em, hashOf(input.ticket));
        if (!t || t.appid !== this.oa.appid) throw new AppError('auth.wechat_ticket_invalid');
        return this.bindOpenid(em, user, t.appid, t.openid, caller);
      });
    } catch (err) {
      // two bindings of one openid or one guardian racing: the partial unique indexes let one win
      if (isUniqueViolation(err)) throw new AppError('error.conflict');
      throw err;
    }
  }

  private async bindOpenid(em: EntityManager, user: SessionUser, appid: string, openid: string, caller: CallerInfo): Promise<WechatBindAnswer> {
    const ended = await this.repo.endForRebind(em, appid, openid, user.id);
    const same = ended.find((e) => e.user_id === user.id && e.openid === openid);
    const row = await this.repo.bind(em, user.id, user.schoolId, appid, openid);
    const others = ended.filter((e) => e.user_id !== user.id);
    await this.activity.record(em, { id: user.id, schoolId: user.schoolId }, 'wechat.bind', caller, {
      openid: maskOpenid(openid),
      replaced: ended.filter((e) => e.user_id === user.id && e.openid !== openid).map((e) => maskOpenid(e.openid)),
      from_other_account: others.length > 0,
    });
    for (const o of others) {
      // the guardian the openid leaves learns of it in their own log
      await this.activity.record(em, { id: o.user_id, schoolId: o.school_id }, 'wechat.unbind', caller, {
        openid: maskOpenid(o.openid),
        reason: 'rebound',
      });
    }
    return { bound_at: row.bound_at.toISOString(), rebound: ended.length > 0 && !same };
  }
}
