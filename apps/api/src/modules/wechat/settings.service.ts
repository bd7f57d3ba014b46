import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  dayDiff,
  defaultMessageChannel,
  GUARDIAN_MESSAGE_KIND_NAMES,
  GUARDIAN_MESSAGE_KINDS,
  type GuardianMessageKind,
  type MessageChannel,
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
import type { CallerInfo } from '../../core/auth/current-user.decorator';
import { offsetOf, pageOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { ActivityService } from '../auth/activity.service';
import { sandboxTemplateId, WechatOa } from './oa-client';

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
    private readonly oa: WechatOa,
    private readonly activity: ActivityService,
  ) {}

  async prefs(user: SessionUser): Promise<MessagePrefsAnswer> {
    const [chosen, binding]: [Array<{ kind: string; channel: MessageChannel }>, Array<{ bound_at: Date; openid: string }>] = await Promise.all([
      this.db.query(`select kind, channel from message_prefs where user_id = $1`, [user.id]),
      this.db.query(`select bound_at, openid from wechat_bindings where user_id = $1 and appid = $2 and unbound_at is null`, [
        user.id,
        this.oa.appid,
      ]),
    ]);
    const mine = new Map(chosen.map((r) => [r.kind, r.channel]));
    const b = binding[0];
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
    await this.db.query(
      `insert into message_prefs (user_id, kind, channel)
       select $1, p.kind, p.channel from unnest($2::text[], $3::text[]) as p(kind, channel)
       on conflict (user_id, kind) do update set channel = excluded.channel, updated_at = now()
         where message_prefs.channel is distinct from excluded.channel`,
      [user.id, input.prefs.map((p) => p.kind), input.prefs.map((p) => p.channel)],
    );
    return this.prefs(user);
  }

  /** Ends the account's live binding (kept as history, reason 'user') and records it in the account's activity. */
  async unbind(user: SessionUser, caller: CallerInfo): Promise<Record<string, never>> {
    await this.db.transaction(async (em) => {
      // TypeORM answers a bare UPDATE with [rows, count]
      const [ended]: [Array<{ openid: string; bound_at: Date }>, number] = await em.query(
        `update wechat_bindings set unbound_at = now(), unbound_reason = 'user'
          where user_id = $1 and appid = $2 and unbound_at is null
        returning openid, bound_at`,
        [user.id, this.oa.appid],
      );
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
  async schoolStats(user: SessionUser, q: SchoolWechatStatsQuery): Promise<SchoolWechatStats> {
    const school = user.schoolId!;
    const [from, to] = await this.range(school, q);
    const kinds = GUARDIAN_MESSAGE_KIND_NAMES;
    const [rows, guardians]: [Array<Record<string, number | string>>, Array<{ bound: number; total: number }>] = await Promise.all([
      this.db.query(
        `with w as (
           select m.day, m.kind,
                  count(*) filter (where m.state in ('sent', 'delivered')) as wechat_sent,
                  count(*) filter (where m.state = 'delivered') as wechat_delivered,
                  count(*) filter (where m.state = 'failed') as wechat_failed,
                  count(*) filter (where m.state in ('queued', 'sending')) as wechat_waiting,
                  count(m.sms_message_id) as sms_fallback,
                  0::bigint as sms_direct
             from wechat_messages m
            where m.school_id = $1 and m.day between $2::date and $3::date and m.kind = any($4::text[])
            group by m.day, m.kind
         ),
         -- the texts sent instead of a WeChat message (its day may be a few days before the text's, the quiet hours and retries)
         fallback as (
           select m.sms_message_id as id from wechat_messages m
            where m.school_id = $1 and m.day between $2::date - 7 and $3::date and m.sms_message_id is not null
         ),
         s as (
           select t.day, t.kind, 0::bigint, 0::bigint, 0::bigint, 0::bigint, 0::bigint, count(*) as sms_direct
             from sms_messages t
            where t.school_id = $1 and t.day between $2::date and $3::date and t.kind = any($4::text[])
              and not exists (select 1 from fallback f where f.id = t.id)
            group by t.day, t.kind
         ),
         g as (
           select day, kind, ${COUNT_NAMES.map((c) => `sum(${c})::int as ${c}`).join(', ')}
             from (select * from w union all select * from s) u
            group by day, kind
         )
         select to_char(g.day, 'YYYY-MM-DD') as day, g.kind, ${COUNT_NAMES.map((c) => `g.${c}`).join(', ')},
                count(*) over ()::int as rows, ${COUNT_NAMES.map((c) => `sum(g.${c}) over ()::int as all_${c}`).join(', ')}
           from g
          order by g.day desc, array_position($4::text[], g.kind::text)
          limit $5 offset $6`,
        [school, from, to, kinds, q.limit, offsetOf(q)],
      ),
      this.db.query(
        `select count(b.user_id)::int as bound, count(*)::int as total
           from users u
           left join wechat_bindings b on b.user_id = u.id and b.appid = $2 and b.unbound_at is null
          where u.school_id = $1 and u.role = 6 and u.deleted_at is null`,
        [school, this.oa.appid],
      ),
    ]);
    const first = rows[0];
    const totals = Object.fromEntries(COUNT_NAMES.map((c) => [c, Number(first?.[`all_${c}`] ?? 0)])) as WechatDeliveryCounts;
    const list = rows.map((r) => ({
      day: String(r.day),
      kind: String(r.kind),
      ...(Object.fromEntries(COUNT_NAMES.map((c) => [c, Number(r[c])])) as WechatDeliveryCounts),
    }));
    return { ...pageOf(list, Number(first?.rows ?? 0), q), from, to, guardians: guardians[0], totals };
  }

  /** The platform's official account: app id, sandbox or real, its access token now, bound guardians and the templates. */
  async account(): Promise<WechatAccountAnswer> {
    const [token, [bound], templates] = await Promise.all([
      this.tokenState(),
      this.db.query(`select count(*)::int as n from wechat_bindings where appid = $1 and unbound_at is null`, [this.oa.appid]) as Promise<
        Array<{ n: number }>
      >,
      this.db.query(
        `select t.kind, t.template_id, t.updated_at, u.name as updated_by_name
           from wechat_templates t left join users u on u.id = t.updated_by`,
      ) as Promise<Array<{ kind: string; template_id: string; updated_at: Date; updated_by_name: string | null }>>,
    ]);
    const set = new Map(templates.map((t) => [t.kind, t]));
    return {
      appid: this.oa.appid,
      sandbox: this.oa.sandbox,
      token,
      bound_guardians: bound.n,
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
    await this.db.query(
      `insert into wechat_templates (kind, template_id, updated_by)
       select t.kind, t.template_id, $1 from unnest($2::text[], $3::text[]) as t(kind, template_id)
       on conflict (kind) do update set template_id = excluded.template_id, updated_by = excluded.updated_by, updated_at = now()
         where wechat_templates.template_id is distinct from excluded.template_id`,
      [user.id, input.templates.map((t) => t.kind), input.templates.map((t) => t.template_id)],
    );
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
      const [d]: Array<{ to: string; from: string }> = await this.db.query(
        `with t as (select coalesce($2::date, (now() at time zone s.timezone)::date) as last from schools s where s.id = $1),
         days as (
           select g::date as day from t, generate_series(t.last - 60, t.last, interval '1 day') g
            where coalesce((select cd.kind = 'makeup' from school_calendar_days cd where cd.school_id = $1 and cd.day = g::date), extract(isodow from g) < 6)
            order by g desc limit $3
         )
         select to_char(t.last, 'YYYY-MM-DD') as to, to_char(coalesce((select min(day) from days), t.last), 'YYYY-MM-DD') as from from t`,
        [school, to ?? null, WECHAT_STATS_DEFAULT_SCHOOL_DAYS],
      );
      to ??= d.to;
      from ??= d.from;
      if (from > to) to = from;
    }
    if (dayDiff(from, to) + 1 > WECHAT_STATS_MAX_DAYS) throw new AppError('wechat.v.range_too_long', { max: WECHAT_STATS_MAX_DAYS });
    return [from, to];
  }
}
