import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { guardianPhoneLink, messageRoute, messageSendAt, wechatTemplateData, type GuardianMessageKind } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { Queryable } from '../../core/database/sql-kit';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { JobsService } from '../../core/jobs/jobs.service';
import { SmsTexts, type Staged, type Text } from '../sms/texts.service';
import { WechatOa } from '../wechat/oa-client';
import { MessagesRepository, type WechatMessageDraft } from './messages.repository';

/** A message to one guardian. */
export interface GuardianMessage {
  school_id: number;
  /** the guardian (a parent account); anyone else is skipped */
  user_id: number;
  kind: GuardianMessageKind;
  /** the kind's variables (SMS_KINDS[kind].vars), as the SMS has them */
  params: Record<string, string>;
  /** the web path the message opens, e.g. /parent?student=1 (made absolute with WEB_PUBLIC_URL) */
  link: string;
  /** idempotency: a message with a key already written is not written again (a retried job, an event seen twice) */
  key?: string;
}

export interface StageOptions {
  /** the time the messages are due (the quiet hours are judged by it): a job's run time; default the clock's now */
  now?: Date;
}

/** What stage() wrote: WeChat rows and texts to hand out after the commit, and the texts the quiet hours hold. */
export interface StagedMessages {
  wechat: Array<{ id: number; send_after: Date }>;
  sms: Staged;
  /** texts due in the quiet hours: written at 07:00 school time (a delayed `messages.send` job), not now */
  held: Array<{ at: Date; items: GuardianMessage[] }>;
  /** WeChat rows and texts newly written (a key seen before counts none) */
  fresh: number;
  /** the guardians told (by WeChat, SMS or both, now or held): the items that go somewhere */
  users: number;
}

/** The time the messages module works with (a provider: tests set it to 22:00 to see the quiet hours). */
@Injectable()
export class MessagesClock {
  now(): Date {
    return new Date();
  }
}

/** The longest dedupe key of a row (the tables' varchar(160)). */
const KEY_MAX = 160;

/**
 * The one way to tell a guardian something (issue 24): WeChat first, SMS as the fallback. One query finds each item's
 * guardian (a parent: mobile, live binding to the official account, channel for the kind, the school's zone); one
 * insert writes the WeChat template messages (`wechat_messages`, sent by `wechat.send` jobs, held to 07:00 in the
 * quiet hours); the texts go through SmsTexts (the one SMS path), those due in the quiet hours written at 07:00.
 * A WeChat refusal that means it cannot reach the guardian (43101 not subscribed, …) sends the SMS instead (WechatSender).
 */
@Injectable()
export class GuardianMessages {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: MessagesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: JobsService,
    private readonly texts: SmsTexts,
    private readonly oa: WechatOa,
    private readonly clock: MessagesClock,
  ) {}

  /** Writes and sends now (outside a transaction); answers how many messages were new. */
  async send(items: readonly GuardianMessage[], opts: StageOptions = {}): Promise<number> {
    const staged = await this.stage(this.db, items, opts);
    await this.dispatch(staged);
    return staged.fresh;
  }

  /**
   * Writes the messages inside the caller's transaction (committed with what they announce, or not at all); hand the
   * answer to dispatch() after the commit. A dispatch that never comes is made up by `wechat.poll` / `sms.poll`.
   */
  async stage(em: Queryable, items: readonly GuardianMessage[], opts: StageOptions = {}): Promise<StagedMessages> {
    const out: StagedMessages = { wechat: [], sms: Object.assign([], { fresh: 0 }), held: [], fresh: 0, users: 0 };
    if (!items.length) return out;
    const resolved = await this.repo.resolve(
      em,
      items.map((m, ord) => ({ ord, school_id: m.school_id, user_id: m.user_id, kind: m.kind })),
      this.oa.appid,
    );
    const now = opts.now ?? this.clock.now();
    const rows: WechatMessageDraft[] = [];
    const texts: Text[] = [];
    const held = new Map<number, GuardianMessage[]>();
    for (const r of resolved) {
      const m = items[r.ord];
      const templateId = r.template_id ?? (this.oa.sandbox ? this.oa.sandboxTemplateId(m.kind) : null);
      const route = messageRoute(m.kind, r.channel, !!r.openid && !!templateId);
      // with no template for the kind, a bound guardian who wanted WeChat still hears by SMS
      const at = messageSendAt(m.kind, now, r.timezone);
      if (route.wechat || (route.sms && r.mobile)) out.users++;
      // route.wechat means a live binding (openid) and a template
      if (route.wechat && r.openid && templateId) {
        rows.push({
          school_id: m.school_id,
          user_id: m.user_id,
          openid: r.openid,
          kind: m.kind,
          template_id: templateId,
          data: wechatTemplateData(m.kind, m.params),
          params: m.params,
          url: this.absolute(m.link),
          dedupe_key: m.key ? `gm:${m.key}`.slice(0, KEY_MAX) : null,
          send_after: at.toISOString(),
        });
      }
      if (route.sms && r.mobile) {
        if (at.getTime() > now.getTime()) held.set(at.getTime(), [...(held.get(at.getTime()) ?? []), m]);
        else
          texts.push({
            school_id: m.school_id,
            mobile: r.mobile,
            kind: m.kind,
            params: m.params,
            key: m.key ? `gm:${m.key}`.slice(0, KEY_MAX) : undefined,
          });
      }
    }
    if (rows.length) {
      const written = await this.repo.writeWechat(em, rows, this.oa.appid, now);
      out.wechat = written.filter((w) => w.queued).map((w) => ({ id: w.id, send_after: new Date(w.send_after) }));
      out.fresh += written.filter((w) => w.fresh).length;
    }
    if (texts.length) {
      out.sms = await this.texts.stage(em, texts);
      out.fresh += out.sms.fresh;
    }
    out.held = [...held].map(([at, list]) => ({ at: new Date(at), items: list }));
    return out;
  }

  /** After the commit: `wechat.send` jobs (delayed to each row's send_after), the texts' `sms.send` jobs, the held texts' jobs. */
  async dispatch(staged: StagedMessages): Promise<void> {
    const now = this.clock.now().getTime();
    const byDelay = new Map<number, number[]>();
    for (const w of staged.wechat) {
      const delay = Math.max(0, w.send_after.getTime() - now);
      byDelay.set(delay, [...(byDelay.get(delay) ?? []), w.id]);
    }
    for (const [delayMs, ids] of byDelay) {
      const jobs = [];
      for (let i = 0; i < ids.length; i += WECHAT_BATCH) jobs.push({ ids: ids.slice(i, i + WECHAT_BATCH) });
      await this.jobs.enqueueMany('wechat.send', jobs, { delayMs });
    }
    await this.texts.dispatch(staged.sms);
    for (const h of staged.held) {
      await this.jobs.enqueue('messages.send', { items: h.items }, { delayMs: Math.max(0, h.at.getTime() - now) });
    }
  }

  /**
   * A web path as the absolute URL a WeChat message opens. A message to a guardian opens on a phone, inside WeChat:
   * a parent's page (/parent, /parent_report?…) is linked as its phone page (/m/parent, /m/parent_report?…; the phone
   * app of issue 35), never the desktop console's.
   */
  absolute(link: string): string {
    if (/^https?:\/\//.test(link)) return link;
    const path = link.startsWith('/') ? link : `/${link}`;
    return `${this.config.webPublicUrl.replace(/\/$/, '')}${guardianPhoneLink(path)}`;
  }
}

/** WeChat template messages per `wechat.send` job (each is one request to WeChat). */
export const WECHAT_BATCH = 20;
