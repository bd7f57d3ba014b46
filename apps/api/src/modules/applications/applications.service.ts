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
import { AppError } from '../../core/http/app-error';
import { SmsTexts } from '../sms/texts.service';
import { onboardSchool } from '../school/onboarding';
import type { SessionUser } from '../../core/http/request-context';
import type { Sendable } from '../../core/http/sendable';
import { ApplicationsRepository } from './applications.repository';

/**
 * "Create new account" from the sign-in screen: institutions not yet on the platform apply (public, rate-limited),
 * the platform operator lists the applications and approves or rejects them.
 */
@Injectable()
export class ApplicationsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly texts: SmsTexts,
    private readonly repo: ApplicationsRepository,
  ) {}

  /** Stores an application: at most 3 per mobile in 24 hours and 20 per IP address in an hour. */
  async apply(input: ApplyAccountInput, caller: CallerInfo): Promise<ApplyAccountResult> {
    const ip = caller.ip.slice(0, 64);
    return this.db.transaction(async (em) => {
      // ip before mobile, always: two requests never wait on each other in opposite orders
      await this.repo.lock(em, ip, input.mobile);
      const stats = await this.repo.stats(em, input.mobile, ip);
      if (stats.mobile_day >= APPLICATION_LIMITS.perMobilePerDay) {
        throw new AppError('application.mobile_limit', { max: APPLICATION_LIMITS.perMobilePerDay });
      }
      if (stats.ip_hour >= APPLICATION_LIMITS.perIpPerHour) throw new AppError('application.ip_limit');
      const row = await this.repo.insert(em, {
        institution_name: input.institution_name,
        contact_name: input.contact_name,
        mobile: input.mobile,
        city: input.city || null,
        students_estimate: input.students_estimate ?? null,
        message: input.message || null,
        ip,
      });
      return { id: row.id, status: row.status, created_at: row.created_at.toISOString() };
    });
  }

  /** Newest first; rows and total in one query (the count row comes back even past the last page). */
  async list(q: AccountApplicationsQuery): Promise<Page<Sendable<AccountApplication>>> {
    return this.repo.page(q.status ?? null, q);
  }

  /**
   * Approves or rejects a pending application. The write only lands on the version the operator read and
   * while the application is pending; it records who handled it and when.
   */
  async handle(user: SessionUser, input: HandleAccountApplicationInput): Promise<Sendable<AccountApplication>> {
    const { updated, welcome } = await this.db.transaction(async (em) => {
      const row = await this.repo.decide(em, input.id, input.version, input.status, input.note || null, user.id);
      if (!row || input.status !== ApplicationStatus.Approved) return { updated: row, welcome: null };
      // approval creates the school and its admin in the same transaction: never one without the other
      const school = await onboardSchool(em, {
        name: row.institution_name,
        city: row.city,
        contactName: row.contact_name,
        mobile: row.mobile,
        timezone: DEFAULT_TIMEZONE,
      });
      await this.repo.setSchool(em, row.id, school.schoolId);
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
    const current = await this.repo.current(input.id);
    if (!current) throw new AppError('application.not_found');
    if (current.version !== input.version) throw new AppError('error.conflict');
    throw new AppError('application.already_handled');
  }
}
