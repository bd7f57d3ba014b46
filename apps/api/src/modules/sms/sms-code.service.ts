import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SMS_LIMITS, type SmsEvent } from '@wantuo/shared';
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import { SmsCodesRepository } from './sms-codes.repository';
import { SmsTexts } from './texts.service';
import type { SmsTemplate } from '../../core/jobs/jobs.types';

/** The SMS each code event sends. */
const CODE_TEMPLATES: Record<SmsEvent, SmsTemplate> = { login: 'code.login', resetpwd: 'code.resetpwd', dealpwd: 'code.dealpwd' };

function codeHash(mobile: string, event: string, code: string): Buffer {
  return createHash('sha256').update(`${mobile}:${event}:${code}`).digest();
}

/** The platform's day for SMS quotas: China time (codes are sent to mainland mobiles). */
const QUOTA_ZONE = 'Asia/Shanghai';

/**
 * One-time SMS codes: rate limits (per mobile 60 s and 10 a day, per IP an hour), hashed storage,
 * 5 minutes of validity, 5 wrong tries burn a code, a code signs in once.
 */
@Injectable()
export class SmsCodeService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly texts: SmsTexts,
    private readonly repo: SmsCodesRepository,
  ) {}

  /**
   * Counts a request against the limits and, when `deliver` is set, creates a code and queues the SMS.
   * A request for a mobile without account is counted (so limits cannot be probed around) but sends nothing.
   */
  async issue(mobile: string, event: SmsEvent, ip: string, deliver: boolean): Promise<void> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await this.db.transaction(async (em) => {
      // ip before mobile, always: two requests never wait on each other in opposite orders
      await this.repo.lock(em, `sms-ip:${ip}`);
      await this.repo.lock(em, `sms-mobile:${mobile}`);
      const stats = await this.repo.codeStats(em, mobile, ip, QUOTA_ZONE);
      if (stats.last_age !== null && stats.last_age < SMS_LIMITS.resendSeconds) {
        throw new AppError('sms.too_soon', { seconds: Math.ceil(SMS_LIMITS.resendSeconds - stats.last_age) });
      }
      if (stats.today >= SMS_LIMITS.perMobilePerDay) throw new AppError('sms.daily_limit');
      if (stats.ip_hour >= SMS_LIMITS.perIpPerHour) throw new AppError('sms.ip_limit');
      await this.repo.writeCode(em, mobile, event, deliver ? codeHash(mobile, event, code) : null, ip, SMS_LIMITS.codeTtlMinutes);
    });
    if (!deliver) return;
    // before anyone is signed in: the platform's own text (no school)
    await this.texts.queue([{ school_id: null, mobile, kind: CODE_TEMPLATES[event], params: { code, minutes: String(SMS_LIMITS.codeTtlMinutes) } }]);
  }

  /** Checks and consumes the newest live code of a mobile for an event. A wrong code counts a try. */
  async consume(mobile: string, event: SmsEvent, code: string): Promise<boolean> {
    return this.db.transaction(async (em) => {
      const row = await this.repo.liveCode(em, mobile, event);
      if (!row) return false;
      if (timingSafeEqual(row.code_hash, codeHash(mobile, event, code))) {
        await this.repo.useCode(em, row.id);
        return true;
      }
      await this.repo.failCode(em, row.id, SMS_LIMITS.attemptsPerCode);
      return false;
    });
  }
}
