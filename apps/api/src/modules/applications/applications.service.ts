import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  APPLICATION_LIMITS,
  DEFAULT_TIMEZONE,
  TRIAL_DAYS,
  ApplicationStatus,
  type AccountApplication,
  type AccountApplicationsQuery,
  type ApplyAccountInput,
  type ApplyAccountResult,
  type HandleAccountApplicationInput,
  type Page,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { CallerInfo } from '../../core/auth/current-user.decorator';
import { offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import { SmsTexts } from '../sms/texts.service';
import { onboardSchool } from '../school/onboarding';
import type { SessionUser } from '../../core/http/request-context';

/** The columns of an application as the operator sees it (`a` the application, `h` the operator who handled it). */
const COLUMNS = `a.id, a.school_id, a.institution_name, a.contact_name, a.mobile, a.city, a.students_estimate, a.message, a.status::int as status,
  a.handled_by, h.name as handled_by_name, a.handled_note, a.handled_at, a.ip, a.version, a.created_at`;

/**
 * "Create new account" from the sign-in screen: institutions not yet on the platform apply (public, rate-limited),
 * the platform operator lists the applications and approves or rejects them.
 */
@Injectable()
export class ApplicationsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly texts: SmsTexts,
  ) {}

  /** Stores an application: at most 3 per mobile in 24 hours and 20 per IP address in an hour. */
  async apply(input: ApplyAccountInput, caller: CallerInfo): Promise<ApplyAccountResult> {
    const ip = caller.ip.slice(0, 64);
    return this.db.transaction(async (em) => {
      // ip before mobile, always: two requests never wait on each other in opposite orders
      await em.query(`select pg_advisory_xact_lock(hashtextextended('apply-ip:' || $1, 0))`, [ip]);
      await em.query(`select pg_advisory_xact_lock(hashtextextended('apply-mobile:' || $1, 0))`, [input.mobile]);
      const [stats]: Array<{ mobile_day: number; ip_hour: number }> = await em.query(
        `select
           (select count(*) from account_applications where mobile = $1 and created_at > now() - interval '24 hours')::int as mobile_day,
           (select count(*) from account_applications where ip = $2 and created_at > now() - interval '1 hour')::int as ip_hour`,
        [input.mobile, ip],
      );
      if (stats.mobile_day >= APPLICATION_LIMITS.perMobilePerDay) {
        throw new AppError('application.mobile_limit', { max: APPLICATION_LIMITS.perMobilePerDay });
      }
      if (stats.ip_hour >= APPLICATION_LIMITS.perIpPerHour) throw new AppError('application.ip_limit');
      const [row]: Array<{ id: number; status: ApplicationStatus; created_at: Date }> = await em.query(
        `insert into account_applications (institution_name, contact_name, mobile, city, students_estimate, message, ip)
         values ($1, $2, $3, $4, $5, $6, $7) returning id, status::int as status, created_at`,
        [input.institution_name, input.contact_name, input.mobile, input.city || null, input.students_estimate ?? null, input.message || null, ip],
      );
      return { id: row.id, status: row.status, created_at: row.created_at.toISOString() };
    });
  }

  /** Newest first; rows and total in one query (the count row comes back even past the last page). */
  async list(q: AccountApplicationsQuery): Promise<Page<AccountApplication>> {
    const rows: Array<Partial<AccountApplication> & { total: number }> = await this.db.query(
      `select c.total, p.*
         from (select count(*)::int as total from account_applications where $1::smallint is null or status = $1) c
         left join lateral (
           select ${COLUMNS}
             from account_applications a left join users h on h.id = a.handled_by
            where $1::smallint is null or a.status = $1
            order by a.created_at desc, a.id desc
            limit $2 offset $3
         ) p on true`,
      [q.status ?? null, q.limit, offsetOf(q)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as AccountApplication);
    return pageOf(list, totalOf(rows), q);
  }

  /**
   * Approves or rejects a pending application. The write only lands on the version the operator read and
   * while the application is pending; it records who handled it and when.
   */
  async handle(user: SessionUser, input: HandleAccountApplicationInput): Promise<AccountApplication> {
    const { updated, welcome } = await this.db.transaction(async (em) => {
      const [row]: AccountApplication[] = await em.query(
        `with a as (
           update account_applications
              set status = $3, handled_note = $4, handled_by = $5, handled_at = now(), version = version + 1
            where id = $1 and version = $2 and status = ${ApplicationStatus.Pending}
            returning *
         )
         select ${COLUMNS} from a left join users h on h.id = a.handled_by`,
        [input.id, input.version, input.status, input.note || null, user.id],
      );
      if (!row || input.status !== ApplicationStatus.Approved) return { updated: row, welcome: null };
      // approval creates the school and its admin in the same transaction: never one without the other
      const school = await onboardSchool(em, {
        name: row.institution_name,
        city: row.city,
        contactName: row.contact_name,
        mobile: row.mobile,
        timezone: DEFAULT_TIMEZONE,
      });
      await em.query(`update account_applications set school_id = $2 where id = $1`, [row.id, school.schoolId]);
      return {
        updated: { ...row, school_id: school.schoolId },
        welcome: { mobile: row.mobile, school: row.institution_name, school_id: school.schoolId },
      };
    });
    if (welcome) {
      await this.texts.queue([
        {
          school_id: welcome.school_id,
          mobile: welcome.mobile,
          kind: 'school.welcome',
          params: { school: welcome.school, days: String(TRIAL_DAYS) },
        },
      ]);
    }
    if (updated) return updated;
    const [current]: Array<{ status: number; version: number }> = await this.db.query(
      `select status, version from account_applications where id = $1`,
      [input.id],
    );
    if (!current) throw new AppError('application.not_found');
    if (current.version !== input.version) throw new AppError('error.conflict');
    throw new AppError('application.already_handled');
  }
}
