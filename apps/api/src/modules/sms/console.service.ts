import { Inject, Injectable } from '@nestjs/common';
import {
  dayDiff,
  Role,
  SMS_KIND_NAMES,
  SMS_USAGE_MAX_DAYS,
  type SmsCounts,
  type SmsMessageRow,
  type SmsMessagePage,
  type SmsMessagesQuery,
  type SmsOverview,
  type SmsUsagePage,
  type SmsUsageQuery,
} from '@wantuo/shared';
import { schoolCaller } from '../../core/auth/current-user.decorator';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { pageOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { SmsGateways } from './gateways/gateways';
import { SmsConsoleRepository } from './sms-console.repository';

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
    private readonly repo: SmsConsoleRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly gateways: SmsGateways,
  ) {}

  async overview(): Promise<SmsOverview> {
    const sms = this.config.sms;
    const today: SmsCounts = await this.repo.todayCounts();
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
    const school = this.scopeOf(user, q.school_id);
    const [from, to] = await this.range(school, q);
    const rows = await this.repo.usage(school, from, to, q);
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
    const school = this.scopeOf(user, q.school_id);
    const [from, to] = await this.range(school, q);
    const page = await this.repo.messages(school, from, to, q);
    return {
      ...page,
      list: page.list.map((r): SmsMessageRow => ({
        ...r,
        created_at: iso(r.created_at),
        sent_at: r.sent_at && iso(r.sent_at),
        done_at: r.done_at && iso(r.done_at),
      })),
    };
  }

  /** An admin's own school always; the operator's choice (null: every school and the platform's own texts). */
  private scopeOf(user: SessionUser, asked: number | undefined): number | null {
    return user.role === Role.Operator ? (asked ?? null) : schoolCaller(user).schoolId;
  }

  /** The day range: as asked, else the last 30 days to today in the school's zone (China's for all schools), at most 92 days. */
  private async range(school: number | null, q: { from?: string; to?: string }): Promise<[string, string]> {
    let { from, to } = q;
    if (!from || !to) {
      const d = await this.repo.defaultRange(school, DEFAULT_DAYS);
      to ??= from && from > d.today ? from : d.today;
      from ??= to < d.first ? to : d.first;
    }
    if (dayDiff(from, to) + 1 > SMS_USAGE_MAX_DAYS) throw new AppError('sms.v.range_too_long', { max: SMS_USAGE_MAX_DAYS });
    return [from, to];
  }
}

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();
