import { Injectable } from '@nestjs/common';
import { DEAL_PWD_LOCK } from '@wantuo/shared';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../core/http/app-error';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { PaymentsRepository } from './payments.repository';

/**
 * The school's payment password (6 digits, argon2id): every balance payment of the product asks for it.
 * DEAL_PWD_LOCK.maxFailures wrong tries lock balance payments for DEAL_PWD_LOCK.minutes; a locked school is answered
 * "locked" whatever the password.
 *
 * A correct password is remembered in this process as an HMAC under a key that never leaves it, next to the hash it
 * matched: the next payment with the same password and an unchanged hash skips argon2 (a school paying meals, contracts
 * and renewals in a row). A changed password has another hash, so the remembered one no longer applies.
 */
@Injectable()
export class DealPasswordService {
  private readonly key = randomBytes(32);
  private readonly verified = new Map<number, { hash: string; mac: Buffer }>();

  constructor(private readonly repo: PaymentsRepository) {}

  private mac(schoolId: number, pwd: string): Buffer {
    return createHmac('sha256', this.key).update(`${schoolId}:${pwd}`).digest();
  }

  async set(schoolId: number, pwd: string): Promise<void> {
    const hash = await hashPassword(pwd);
    await this.repo.setDealPassword(schoolId, hash);
    this.verified.delete(schoolId);
  }

  /** Throws unless `pwd` is the school's payment password and balance payments are not locked. */
  async verify(schoolId: number, pwd: string): Promise<void> {
    const s = await this.repo.dealPassword(schoolId);
    if (!s?.deal_pwd_hash) throw new AppError('school.deal_pwd_not_set');
    if (s.locked_until) throw this.locked(s.locked_until);
    const mac = this.mac(schoolId, pwd);
    const known = this.verified.get(schoolId);
    if (known && known.hash === s.deal_pwd_hash && timingSafeEqual(known.mac, mac)) return;

    if (await verifyPassword(s.deal_pwd_hash, pwd)) {
      this.verified.set(schoolId, { hash: s.deal_pwd_hash, mac });
      await this.repo.dealPasswordRight(schoolId);
      return;
    }
    // counted atomically: concurrent wrong tries each count; the one reaching the limit sets the lock and starts over
    const after = await this.repo.dealPasswordWrong(schoolId);
    if (after.locked_until) throw this.locked(after.locked_until);
    throw new AppError('school.deal_pwd_wrong', { left: DEAL_PWD_LOCK.maxFailures - after.failures });
  }

  private locked(until: Date): AppError {
    return new AppError('school.deal_pwd_locked', { minutes: Math.max(1, Math.ceil((new Date(until).getTime() - Date.now()) / 60_000)) });
  }
}
