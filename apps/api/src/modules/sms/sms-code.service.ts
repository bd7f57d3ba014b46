import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SMS_LIMITS, type SmsEvent } from '@wantuo/shared';
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppError } from '../../core/http/app-error';
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
  ) {}

  /**
   * Counts a request against the limits and, when `deliver` is set, creates a code and queues the SMS.
   * A request for a mobile without account is counted (so limits cannot be probed around) but sends nothing.
   */
  async issue(mobile: string, event: SmsEvent, ip: string, deliver: boolean): Promise<void> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await this.db.transaction(async (em) => {
      // ip before mobile, always: two requests never wait on each other in opposite orders
      await em.query(`select pg_advisory_xact_lock(hashtextextended('sms-ip:' || $1, 0))`, [ip]);
      await em.query(`select pg_advisory_xact_lock(hashtextextended('sms-mobile:' || $1, 0))`, [mobile]);
      const [stats]: Array<{ last_age: number | null; today: number; ip_hour: number }> = await em.query(
        `select
           (select extract(epoch from now() - max(created_at)) from sms_codes where mobile = $1)::float8 as last_age,
           (select count(*) from sms_codes where mobile = $1
              and created_at >= (date_trunc('day', now() at time zone $3) at time zone $3))::int as today,
           (select count(*) from sms_codes where ip = $2 and created_at > now() - interval '1 hour')::int as ip_hour`,
        [mobile, ip, QUOTA_ZONE],
      );
      if (stats.last_age !== null && stats.last_age < SMS_LIMITS.resendSeconds) {
        throw new AppError('sms.too_soon', { seconds: Math.ceil(SMS_LIMITS.resendSeconds - stats.last_age) });
      }
      if (stats.today >= SMS_LIMITS.perMobilePerDay) throw new AppError('sms.daily_limit');
      if (stats.ip_hour >= SMS_LIMITS.perIpPerHour) throw new AppError('sms.ip_limit');
      await em.query(
        `insert into sms_codes (mobile, event, code_hash, ip, expires_at)
         values ($1, $2, $3, $4, now() + make_interval(mins => $5))`,
        [mobile, event, deliver ? codeHash(mobile, event, code) : null, ip, SMS_LIMITS.codeTtlMinutes],
      );
    });
    if (!deliver) return;
    // before anyone is signed in: the platform's own text (no school)
    await this.texts.queue([{ school_id: null, mobile, kind: CODE_TEMPLATES[event], params: { code, minutes: String(SMS_LIMITS.codeTtlMinutes) } }]);
  }

  /** Checks and consumes the newest live code of a mobile for an event. A wrong code counts a try. */
  async consume(mobile: string, event: SmsEvent, code: string): Promise<boolean> {
    return this.db.transaction(async (em) => {
      const rows: Array<{ id: string; code_hash: Buffer; attempts: number }> = await em.query(
        `select id, code_hash, attempts from sms_codes
          where mobile = $1 and event = $2 and code_hash is not null and used_at is null and expires_at > now()
          order by id desc limit 1 for update`,
        [mobile, event],
      );
      const row = rows[0];
      if (!row) return false;
      if (timingSafeEqual(row.code_hash, codeHash(mobile, event, code))) {
        await em.query(`update sms_codes set used_at = now() where id = $1`, [row.id]);
        return true;
      }
      await em.query(
        `update sms_codes set attempts = attempts + 1,
                used_at = case when attempts + 1 >= $2 then now() else used_at end
          where id = $1`,
        [row.id, SMS_LIMITS.attemptsPerCode],
      );
      return false;
    });
  }
}
