import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  dayDiff,
  Role,
  SMS_KIND_NAMES,
  SMS_USAGE_MAX_DAYS,
  type SmsCounts,
  type SmsMessagePage,
  type SmsMessagesQuery,
  type SmsOverview,
  type SmsUsagePage,
  type SmsUsageQuery,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { containsPattern, offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { SmsGateways } from './gateways/gateways';

/** The counts' columns over sms_messages `m` (units: what the providers accepted, so billed). */
const COUNTS = `count(*)::int as total,
  count(*) filter (where m.state in ('sent', 'delivered'))::int as sent,
  count(*) filter (where m.state = 'delivered')::int as delivered,
  count(*) filter (where m.state = 'failed')::int as failed,
  count(*) filter (where m.state in ('queued', 'sending'))::int as waiting,
  coalesce(sum(m.units) filter (where m.provider_message_id is not null), 0)::int as units`;

/** The range's default: the last 30 days up to today (in the zone of the school filtered on, else China's). */
const DEFAULT_DAYS = 30;

/**
 * The SMS consoles (issue 23): the operator sees the gateways, every school's counts per day and every text; a
 * school's admin sees their own school's. A school never sees another's: the admin's school is the filter, whatever
 * the query says.
 */
@Injectable()
export class SmsConsole {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly gateways: SmsGateways,
  ) {}

  async overview(): Promise<SmsOverview> {
    const sms = this.config.sms;
    const [today]: SmsCounts[] = await this.db.query(`select ${COUNTS} from sms_messages m where m.day = (now() at time zone 'Asia/Shanghai')::date`);
    return {
      provider: sms.provider,
      fallback: sms.fallback,
      gateways: this.gateways.configured().map(({ provider, templates }) => {
        const list = SMS_KIND_NAMES.map((kind) => ({ kind, code: templates[kind] ?? null }));
        return { provider, sandbox: !sms[provider as 'aliyun' | 'tencent'], templates: list, missing: list.filter((t) => !t.code).length };
      }),
      report_paths: this.gateways.configured().map(({ provider }) => ({ provider, path: `/api/sms-report/${provider}` })),
      today,
    };
  }

  async usage(user: SessionUser, q: SmsUsageQuery): Promise<SmsUsagePage> {
    const school = this.schoolOf(user, q.school_id);
    const [from, to] = await this.range(school, q);
    const rows: Array<SmsUsagePage['list'][number] & { rows: number } & { [k: `all_${string}`]: number }> = await this.db.query(
      `with g as (
         select m.day, m.school_id, ${COUNTS}
           from sms_messages m
          where m.day between $2 and $3 and ($1::int is null or m.school_id = $1)
          group by m.day, m.school_id
       )
       select to_char(g.day, 'YYYY-MM-DD') as day, g.school_id, s.name as school_name, g.total, g.sent, g.delivered, g.failed, g.waiting, g.units,
              count(*) over ()::int as rows,
              sum(g.total) over ()::int as all_total, sum(g.sent) over ()::int as all_sent, sum(g.delivered) over ()::int as all_delivered,
              sum(g.failed) over ()::int as all_failed, sum(g.waiting) over ()::int as all_waiting, sum(g.units) over ()::int as all_units
         from g left join schools s on s.id = g.school_id
        order by g.day desc, g.school_id nulls first
        limit $4 offset $5`,
      [school, from, to, q.limit, offsetOf(q)],
    );
    const first = rows[0];
    const totals: SmsCounts = first
      ? {
          total: first.all_total,
          sent: first.all_sent,
          delivered: first.all_delivered,
          failed: first.all_failed,
          waiting: first.all_waiting,
          units: first.all_units,
        }
      : { total: 0, sent: 0, delivered: 0, failed: 0, waiting: 0, units: 0 };
    const list = rows.map(({ day, school_id, school_name, total, sent, delivered, failed, waiting, units }) => ({
      day,
      school_id,
      school_name,
      total,
      sent,
      delivered,
      failed,
      waiting,
      units,
    }));
    return { ...pageOf(list, first?.rows ?? 0, q), totals };
  }

  async messages(user: SessionUser, q: SmsMessagesQuery): Promise<SmsMessagePage> {
    const school = this.schoolOf(user, q.school_id);
    const [from, to] = await this.range(school, q);
    const rows: Array<SmsMessagePage['list'][number] & { total: number }> = await this.db.query(
      `select m.id::int, m.school_id, s.name as school_name, to_char(m.day, 'YYYY-MM-DD') as day, m.mobile, m.kind, m.content, m.provider, m.handed_over, m.template_code,
              m.state, m.provider_message_id, m.error_code, m.error_message, m.units, m.tries, m.created_at, m.sent_at, m.done_at,
              count(*) over ()::int as total
         from sms_messages m left join schools s on s.id = m.school_id
        where m.day between $2 and $3 and ($1::int is null or m.school_id = $1)
          and ($4::text is null or m.state = $4) and ($5::text is null or m.kind = $5) and ($6::text is null or m.provider = $6)
          and ($7::text is null or m.mobile like $7)
        order by m.id desc
        limit $8 offset $9`,
      [school, from, to, q.state ?? null, q.kind ?? null, q.provider ?? null, containsPattern(q.mobile), q.limit, offsetOf(q)],
    );
    return pageOf(
      rows.map(({ total: _total, ...r }) => ({
        ...r,
        created_at: iso(r.created_at),
        sent_at: r.sent_at && iso(r.sent_at),
        done_at: r.done_at && iso(r.done_at),
      })),
      totalOf(rows),
      q,
    );
  }

  /** An admin's own school always; the operator's choice (null: every school and the platform's own texts). */
  private schoolOf(user: SessionUser, asked: number | undefined): number | null {
    return user.role === Role.Operator ? (asked ?? null) : user.schoolId!;
  }

  /** The day range: as asked, else the last 30 days to today in the school's zone (China's for all schools), at most 92 days. */
  private async range(school: number | null, q: { from?: string; to?: string }): Promise<[string, string]> {
    let { from, to } = q;
    if (!from || !to) {
      const [d]: Array<{ today: string; first: string }> = await this.db.query(
        `select to_char(t.today, 'YYYY-MM-DD') as today, to_char(t.today - $2::int, 'YYYY-MM-DD') as first
           from (select (now() at time zone coalesce((select timezone from schools where id = $1), 'Asia/Shanghai'))::date as today) t`,
        [school, DEFAULT_DAYS - 1],
      );
      to ??= from && from > d.today ? from : d.today;
      from ??= to < d.first ? to : d.first;
    }
    if (dayDiff(from, to) + 1 > SMS_USAGE_MAX_DAYS) throw new AppError('sms.v.range_too_long', { max: SMS_USAGE_MAX_DAYS });
    return [from, to];
  }
}

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();
