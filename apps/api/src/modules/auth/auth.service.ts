import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  LOGIN_LOCK,
  Role,
  TOKEN_TTL_HOURS,
  type ChangePwdInput,
  type LoginInput,
  type LoginResult,
  type MobileLoginInput,
  type ProfileInput,
  type ResetPwdInput,
  type ResetPwdQuery,
  type SmsSendInput,
  type UserInfo,
  maskMobile,
} from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import type { CallerInfo } from '../../core/auth/current-user.decorator';
import { SessionService } from '../../core/auth/session.service';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { FilesService, type IncomingFile } from '../site/files.service';
import { SmsCodeService } from '../sms/sms-code.service';
import { ActivityService } from './activity.service';
import { AuthRepository } from './auth.repository';
import { JobStatus, User, UserStatus } from './entities/user.entity';
import { hashPassword, verifyPassword } from './passwords';

/** Sign-in, sessions, passwords and the signed-in user's own account. */
@Injectable()
export class AuthService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: SessionService,
    private readonly smsCodes: SmsCodeService,
    private readonly activity: ActivityService,
    private readonly files: FilesService,
    private readonly repo: AuthRepository,
  ) {}

  /**
   * Password sign-in by user name, e-mail or mobile. Unknown account and wrong password answer alike;
   * five wrong passwords in a row lock the account for 15 minutes, and a locked account answers "locked"
   * whatever the password, so no answer tells whether a password was right.
   */
  async login(input: LoginInput, caller: CallerInfo): Promise<LoginResult> {
    const candidates = await this.repo.candidates(input.account);

    const now = Date.now();
    const open = candidates.filter((c) => !c.lockedUntil || c.lockedUntil.getTime() <= now);
    for (const c of open) {
      if (await verifyPassword(c.passwordHash, input.password)) {
        return this.signIn(c, input.remember ?? false, 'login', caller);
      }
    }
    if (candidates.length === 0) await verifyPassword(null, input.password);

    let lockedUntil: Date | null = null;
    await this.db.transaction(async (em) => {
      for (const c of open) {
        // a lock that has run out starts a fresh count
        const row = await this.repo.failedLogin(em, c.id, LOGIN_LOCK.maxFailures, LOGIN_LOCK.lockMinutes);
        await this.activity.record(em, c, row.locked_until ? 'login.locked' : 'login.failed', caller);
        if (row.locked_until) lockedUntil = row.locked_until;
      }
    });
    const locked = candidates.filter((c) => c.lockedUntil && c.lockedUntil.getTime() > now).map((c) => c.lockedUntil!);
    if (lockedUntil) locked.push(lockedUntil);
    if (candidates.length > 0 && locked.length === candidates.length) {
      const until = Math.min(...locked.map((d) => d.getTime()));
      throw new AppError('auth.locked', { minutes: Math.max(1, Math.ceil((until - Date.now()) / 60_000)) });
    }
    throw new AppError('auth.bad_credentials');
  }

  /** Sends a sign-in, password-reset or payment-password code to a mobile that belongs to an account. */
  async sendCode(input: SmsSendInput, caller: CallerInfo): Promise<Record<string, never>> {
    // a payment-password code only goes to an institution admin's mobile
    const exists = await this.repo.mobileHasAccount(input.mobile, input.event === 'dealpwd' ? Role.Admin : undefined);
    await this.smsCodes.issue(input.mobile, input.event, caller.ip, exists);
    if (!exists) throw new AppError('auth.no_account_for_mobile');
    return {};
  }

  async mobileLogin(input: MobileLoginInput, caller: CallerInfo): Promise<LoginResult> {
    if (!(await this.smsCodes.consume(input.mobile, 'login', input.code))) throw new AppError('auth.bad_sms_code');
    const user = await this.repo.lastByMobile(input.mobile);
    if (!user) throw new AppError('auth.no_account_for_mobile');
    return this.signIn(user, input.remember ?? false, 'login.sms', caller);
  }

  private async signIn(
    user: Pick<User, 'id' | 'schoolId' | 'role' | 'status' | 'jobStatus'>,
    remember: boolean,
    action: 'login' | 'login.sms',
    caller: CallerInfo,
  ): Promise<LoginResult> {
    return this.db.transaction((em) => this.openSession(em, user, remember, action, caller));
  }

  /**
   * Opens a session for an account that proved who it is (password, SMS code, or a QR ticket its phone confirmed), in
   * the caller's transaction: refuses a disabled or left account, clears the failed-password count, issues the token
   * and writes the sign-in to the account's login log.
   */
  async openSession(
    em: EntityManager,
    user: Pick<User, 'id' | 'schoolId' | 'role' | 'status' | 'jobStatus'>,
    remember: boolean,
    action: 'login' | 'login.sms' | 'login.qr' | 'login.wechat',
    caller: CallerInfo,
    detail: Record<string, unknown> = {},
  ): Promise<LoginResult> {
    if (user.status !== UserStatus.Active) throw new AppError('auth.disabled');
    if (user.jobStatus === JobStatus.Left) throw new AppError('auth.left_job');
    // an expired school's people still sign in: past the grace period they read but cannot write (AuthGuard)
    await this.repo.signedIn(em, user.id);
    const ttl = remember ? TOKEN_TTL_HOURS.remember : TOKEN_TTL_HOURS.session;
    const { token, expiresAt } = await this.sessions.issue(em, user.id, ttl, caller);
    await this.activity.record(em, user, action, caller, { remember, ...detail });
    const u = await this.repo.account(em, user.id);
    return {
      userinfo: {
        token,
        id: u.id,
        role: u.role,
        nickname: u.nickname,
        avatar_text: u.avatar_url,
        school_id: u.school_id,
        expires_at: expiresAt.toISOString(),
      },
    };
  }

  async logout(user: SessionUser, caller: CallerInfo): Promise<Record<string, never>> {
    await this.db.transaction(async (em) => {
      await this.sessions.revoke(em, user.tokenId);
      await this.activity.record(em, user, 'logout', caller);
    });
    return {};
  }

  async userInfo(user: SessionUser): Promise<UserInfo> {
    const u = await this.repo.account(this.db, user.id);
    const school = u.school_id === null ? null : ((await this.repo.school(u.school_id)) ?? null);
    return {
      id: u.id,
      name: u.name,
      username: u.username,
      nickname: u.nickname,
      avatar_text: u.avatar_url,
      role: u.role,
      school_id: u.school_id,
      school: school && {
        id: school.id,
        name: school.name,
        timezone: school.timezone,
        service_expires_at: school.service_expires_at?.toISOString() ?? null,
      },
      mobile: u.mobile,
      email: u.email,
      lang: u.lang === 'en' ? 'en' : 'zh-CN',
    };
  }

  /** Own nickname and avatar (an image, stored like any upload). */
  async updateProfile(user: SessionUser, input: ProfileInput, avatar: IncomingFile | undefined, caller: CallerInfo): Promise<UserInfo> {
    const stored = avatar ? await this.files.store(avatar, user, 'avatar') : null;
    try {
      await this.db.transaction(async (em) => {
        const changes: { nickname?: string; avatar_url?: string } = {};
        if (input.nickname !== undefined) changes.nickname = input.nickname;
        if (stored) changes.avatar_url = stored.url;
        if (Object.keys(changes).length > 0) {
          await this.repo.updateProfile(em, user.id, changes);
          await this.sessions.changed(em);
        }
        await this.activity.record(em, user, 'profile', caller, { nickname: input.nickname !== undefined, avatar: !!stored });
      });
    } catch (err) {
      // the avatar was stored first: a profile that did not change keeps no orphaned file
      if (stored) await this.files.discard(stored.id);
      throw err;
    }
    return this.userInfo(user);
  }

  /** Changes the caller's password; every session of the account, this one included, ends. */
  async changePassword(user: SessionUser, input: ChangePwdInput, caller: CallerInfo): Promise<Record<string, never>> {
    const u = await this.repo.passwordHashOf(user.id);
    if (!(await verifyPassword(u.password_hash, input.oldpassword))) throw new AppError('auth.old_password_wrong');
    if (input.oldpassword === input.newpassword) throw new AppError('auth.same_password');
    const passwordHash = await hashPassword(input.newpassword);
    await this.db.transaction(async (em) => {
      await this.setPassword(em, user.id, passwordHash);
      await this.sessions.revokeAll(em, user.id);
      await this.activity.record(em, user, 'changepwd', caller);
    });
    return {};
  }

  /** Forgot password, step 1: is there an account, and to which (masked) mobile will the code go. */
  async resetLookup(query: ResetPwdQuery): Promise<{ mobile: string; masked_mobile: string }> {
    const u = await this.repo.mobileOf(query.account);
    if (!u) throw new AppError('auth.no_account');
    if (!u.mobile) throw new AppError('auth.no_mobile');
    // the full mobile is only returned when the caller typed it; otherwise the masked form is all they learn
    return { mobile: query.account === u.mobile ? u.mobile : '', masked_mobile: maskMobile(u.mobile) };
  }

  /** Forgot password, step 2: the code proves the phone; every account on that phone gets the new password. */
  async resetPassword(input: ResetPwdInput, caller: CallerInfo): Promise<Record<string, never>> {
    if (!(await this.smsCodes.consume(input.mobile, 'resetpwd', input.code))) throw new AppError('auth.bad_sms_code');
    const users = await this.repo.allByMobile(input.mobile);
    if (users.length === 0) throw new AppError('auth.no_account_for_mobile');
    const passwordHash = await hashPassword(input.newpassword);
    await this.db.transaction(async (em) => {
      for (const u of users) {
        await this.setPassword(em, u.id, passwordHash);
        await this.sessions.revokeAll(em, u.id);
        await this.activity.record(em, u, 'resetpwd', caller);
      }
    });
    return {};
  }

  private async setPassword(em: EntityManager, userId: number, passwordHash: string): Promise<void> {
    await this.repo.setPassword(em, userId, passwordHash);
  }
}
