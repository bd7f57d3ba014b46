import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  dayDiff,
  defaultMessageChannel,
  GUARDIAN_MESSAGE_KIND_NAMES,
  GUARDIAN_MESSAGE_KINDS,
  type GuardianMessageKind,
  type MessagePrefsAnswer,
  messageChannelsOf,
  type SaveMessagePrefsInput,
  type SaveWechatTemplatesInput,
  type SchoolWechatStats,
  type SchoolWechatStatsQuery,
  type WechatAccountAnswer,
  type WechatBindingState,
  type WechatDeliveryCounts,
  WECHAT_STATS_DEFAULT_SCHOOL_DAYS,
  WECHAT_STATS_MAX_DAYS,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { CallerInfo, SchoolCaller } from '../../core/auth/current-user.decorator';
import { pageOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { ActivityService } from '../auth/activity.service';
import { sandboxTemplateId, WechatOa } from './oa-client';
import { WechatSettingsRepository } from './wechat-settings.repository';

/** An openid shown to people: its first and last 4 characters. */
export const maskOpenid = (openid: string): string => (openid.length <= 8 ? '****' : `${openid.slice(0, 4)}****${openid.slice(-4)}`);

/** How long the operator's page waits for an access token before saying it is not fresh. */
const TOKEN_WAIT_MS = 5000;

/** The counts' columns, summed over the rows `g` of both halves (WeChat messages, direct texts). */
const COUNT_NAMES = ['wechat_sent', 'wechat_delivered', 'wechat_failed', 'wechat_waiting', 'sms_fallback', 'sms_direct'] as const;

const label = (kind: GuardianMessageKind) => ({ zh: GUARDIAN_MESSAGE_KINDS[kind].zh, en: GUARDIAN_MESSAGE_KINDS[kind].en });
const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

/**
 * The settings and counts of parents in WeChat (issue 24): a guardian's channel per message kind and their binding
 * (unbinding it), a school's bound guardians and delivery per day and kind, the operator's official account and its
 * template ids. Bindings are those of the platform's account (its app id); a school sees only its own.
 */
@Injectable()
export class WechatSettings {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: WechatSettingsRepository,
    private readonly oa: WechatOa,
    private readonly activity: ActivityService,
  ) {}

  async prefs(user: SessionUser): Promise<MessagePrefsAnswer> {
    const [chosen, b] = await Promise.all([this.repo.prefs(user.id), this.repo.binding(user.id, this.oa.appid)]);
    const mine = new Map(chosen.map((r) => [r.kind, r.channel]));
    const state: WechatBindingState = b
      ? { bound: true, bound_at: iso(b.bound_at), openid: maskOpenid(b.openid) }
      : { bound: false, bound_at: null, openid: null };
    return {
      kinds: GUARDIAN_MESSAGE_KIND_NAMES.map((kind) => {
        const channels = [...messageChannelsOf(kind)];
        const set = mine.get(kind);
        // a stored channel the kind no longer allows (an alert set to none before the rule) shows as the default
        const channel = set && channels.includes(set) ? set : defaultMessageChannel(kind);
        return { kind, label: label(kind), channel, chosen: channel === set, channels, may_turn_off: channels.includes('none') };
      }),
      binding: state,
    };
  }

  /** Upserts the channels given (one statement); the schema has refused unknown kinds and an alert turned off. */
  async savePrefs(user: SessionUser, input: SaveMessagePrefsInput): Promise<MessagePrefsAnswer> {
    await this.repo.savePrefs(user.id, input.prefs);
    return this.prefs(user);
  }

  /** Ends the account's live binding (kept as history, reason 'user') and records it in the account's activity. */
  async unbind(user: SessionUser, caller: CallerInfo): Promise<Record<string, never>> {
    await this.db.transaction(async (em) => {
      const ended = await this.repo.unbind(em, user.id, this.oa.appid);
      if (!ended.length) throw new AppError('wechat.not_bound');
      await this.activity.record(em, user, 'wechat.unbind', caller, {
        appid: this.oa.appid,
        openid: maskOpenid(ended[0].openid),
        bound_at: iso(ended[0].bound_at),
      });
    });
    return {};
  }

  /**
   * The school's guardians bound of all (accounts of parents, not deleted), and one page of delivery per school-local
   * day and kind: the WeChat messages by state with the texts sent instead of them, and the texts of guardian kinds
   * sent directly (not a fallback of a WeChat message). One grouped statement over both, newest day first.
   */
  async schoolStats(user: SchoolCaller, q: SchoolWechatStatsQuery): Promise<SchoolWechatStats> {
    const school = user.schoolId;
    const [from, to] = await this.range(school, q);
    const kinds = GUARDIAN_MESSAGE_KIND_NAMES;
    const [rows, guardians] = await Promise.all([this.repo.stats(school, from, to, kinds, q), this.repo.guardians(school, this.oa.appid)]);
    const first = rows[0];
    const totals = Object.fromEntries(COUNT_NAMES.map((c) => [c, Number(first?.[`all_${c}`] ?? 0)])) as WechatDeliveryCounts;
    const list = rows.map((r) => ({
      day: String(r.day),
      kind: String(r.kind),
      ...(Object.fromEntries(COUNT_NAMES.map((c) => [c, Number(r[c])])) as WechatDeliveryCounts),
    }));
    return { ...pageOf(list, Number(first?.rows ?? 0), q), from, to, guardians, totals };
  }

  /** The platform's official account: app id, sandbox or real, its access token now, bound guardians and the templates. */
  async account(): Promise<WechatAccountAnswer> {
    const [token, bound, templates] = await Promise.all([this.tokenState(), this.repo.boundCount(this.oa.appid), this.repo.templates()]);
    const set = new Map(templates.map((t) => [t.kind, t]));
    return {
      appid: this.oa.appid,
      sandbox: this.oa.sandbox,
      token,
      bound_guardians: bound,
      templates: GUARDIAN_MESSAGE_KIND_NAMES.map((kind) => {
        const t = set.get(kind);
        if (t) {
          return {
            kind,
            label: label(kind),
            template_id: t.template_id,
            is_default: false,
            updated_at: iso(t.updated_at),
            updated_by_name: t.updated_by_name,
          };
        }
        const fallback = this.oa.sandbox ? sandboxTemplateId(kind) : null;
        return { kind, label: label(kind), template_id: fallback, is_default: fallback !== null, updated_at: null, updated_by_name: null };
      }),
    };
  }

  /** Upserts the template ids given (one statement), who and when kept. */
  async saveTemplates(user: SessionUser, input: SaveWechatTemplatesInput): Promise<WechatAccountAnswer> {
    await this.repo.saveTemplates(user.id, input.templates);
    return this.account();
  }

  /** Whether an access token can be had now (the cached one, or a new one from WeChat), without waiting long. */
  private async tokenState(): Promise<WechatAccountAnswer['token']> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.oa.accessToken(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer in ${TOKEN_WAIT_MS / 1000} s`)), TOKEN_WAIT_MS);
        }),
      ]);
      return { fresh: true, error: null };
    } catch (err) {
      return { fresh: false, error: (err instanceof Error ? err.message : String(err)).slice(0, 300) };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The day range: as asked; else up to today (the school's) from the school's 7th last school day (a weekday that is
   * not a holiday, or a make-up day; today counts when it is one); a missing end is today, a missing start the same
   * rule back from the end. At most 92 days.
   */
  private async range(school: number, q: { from?: string; to?: string }): Promise<[string, string]> {
    let { from, to } = q;
    if (!from || !to) {
      const d = await this.repo.defaultRange(school, to ?? null, WECHAT_STATS_DEFAULT_SCHOOL_DAYS);
      to ??= d.to;
      from ??= d.from;
      if (from > to) to = from;
    }
    if (dayDiff(from, to) + 1 > WECHAT_STATS_MAX_DAYS) throw new AppError('wechat.v.range_too_long', { max: WECHAT_STATS_MAX_DAYS });
    return [from, to];
  }
}
