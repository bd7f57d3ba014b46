import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  describeUserAgent,
  QR_LOGIN,
  type MessageKey,
  type QrPollInput,
  type QrPollResult,
  type QrScanResult,
  type QrTicket,
  type QrTicketCreateInput,
  type QrTicketInput,
} from '@wantuo/shared';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { CallerInfo } from '../../core/auth/current-user.decorator';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { AuthRepository } from './auth.repository';
import { AuthService } from './auth.service';
import { JobStatus, UserStatus } from './entities/user.entity';

/** How long after its 2 minutes a confirmed ticket's session may still be collected (a poll in flight at the end). */
const COLLECT_GRACE_SECONDS = 30;
/** Tickets are kept a day for the record, then removed as new ones are made. */
const KEEP_HOURS = 24;

const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret).digest();

/**
 * QR sign-in (issue 21). The desktop asks for a ticket: a random id, which its QR carries, and a secret that only the
 * desktop knows (stored as its SHA-256) for polling. A signed-in phone scans it (the ticket is that account's from then
 * on), then confirms or cancels. The desktop's first poll after the confirmation opens the session of the phone's
 * account (as a password sign-in does, logged as login.qr with the desktop's address); the ticket is spent then. Every
 * step is one conditional UPDATE, so two phones, two confirmations or two polls racing cannot both win. A ticket lives
 * 2 minutes (the database's clock); past that it reads as expired.
 */
@Injectable()
export class QrLoginService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly auth: AuthService,
    private readonly repo: AuthRepository,
  ) {}

  async create(input: QrTicketCreateInput, caller: CallerInfo): Promise<QrTicket> {
    const ticket = randomBytes(16).toString('base64url');
    const secret = randomBytes(32).toString('base64url');
    await this.repo.pruneTickets(KEEP_HOURS);
    const row = await this.repo.createTicket(
      {
        id: ticket,
        secret_hash: hashSecret(secret),
        remember: input.remember ?? false,
        ip: caller.ip,
        user_agent: caller.userAgent.slice(0, 300),
      },
      QR_LOGIN.ttlSeconds,
    );
    return { ticket, secret, expires_at: row.expires_at.toISOString(), ttl_seconds: QR_LOGIN.ttlSeconds };
  }

  /**
   * The desktop's poll. An unknown ticket, a wrong secret and a ticket already spent answer alike (auth.qr_invalid);
   * the first poll after the phone confirmed gets the session, in the same transaction that spends the ticket.
   */
  async poll(input: QrPollInput, caller: CallerInfo): Promise<QrPollResult> {
    const t = await this.repo.ticketForPoll(input.ticket, hashSecret(input.secret), COLLECT_GRACE_SECONDS);
    if (!t || t.consumed) throw new AppError('auth.qr_invalid');
    const expires_at = t.expires_at.toISOString();
    if (t.state === 'cancelled') return { state: 'cancelled', expires_at };
    if (t.state !== 'confirmed') return { state: t.expired ? 'expired' : t.state, expires_at };
    if (!t.collectable) return { state: 'expired', expires_at };
    const result = await this.db.transaction(async (em) => {
      const spent = await this.repo.consumeTicket(em, input.ticket, hashSecret(input.secret));
      // another poll of the same desktop spent it a moment ago
      if (!spent) throw new AppError('auth.qr_invalid');
      const user = await this.repo.sessionAccount(em, spent.scanned_by);
      if (!user || user.deletedAt) throw new AppError('auth.qr_invalid');
      return this.auth.openSession(em, user, t.remember, 'login.qr', caller, { method: 'qr' });
    });
    return { state: 'confirmed', expires_at, userinfo: result.userinfo };
  }

  /** The phone scanned the code: a waiting ticket becomes the caller's (scanning it again is harmless). */
  async scan(user: SessionUser, input: QrTicketInput): Promise<QrScanResult> {
    const r = await this.repo.scanTicket(input.ticket, user.id);
    if (!r) throw await this.refusal(input.ticket, user.id);
    return {
      state: 'scanned',
      expires_at: r.expires_at.toISOString(),
      device: { ...describeUserAgent(r.user_agent), ip: r.ip, requested_at: r.created_at.toISOString() },
    };
  }

  /** The account that scanned the ticket signs the desktop in as itself (the desktop's next poll collects it). */
  async confirm(user: SessionUser, input: QrTicketInput): Promise<Record<string, never>> {
    const done = await this.repo.confirmTicket(input.ticket, user.id);
    if (!done) throw await this.refusal(input.ticket, user.id);
    return {};
  }

  /** The account that scanned the ticket refuses it. */
  async cancel(user: SessionUser, input: QrTicketInput): Promise<Record<string, never>> {
    const done = await this.repo.cancelTicket(input.ticket, user.id);
    if (!done) throw await this.refusal(input.ticket, user.id);
    return {};
  }

  /** Why a phone's step on a ticket did not apply. */
  private async refusal(ticket: string, userId: number): Promise<AppError> {
    const t = await this.repo.ticket(ticket);
    const u = await this.repo.statusOf(userId);
    let key: MessageKey;
    if (!t) key = 'auth.qr_invalid';
    else if (t.scanned_by !== null && t.scanned_by !== userId) key = 'auth.qr_taken';
    else if (t.state === 'confirmed') key = 'auth.qr_invalid';
    else if (t.state === 'cancelled') key = 'auth.qr_cancelled';
    else if (t.expired) key = 'auth.qr_expired';
    else if (u && u.status !== UserStatus.Active) key = 'auth.disabled';
    else if (u && u.job_status !== JobStatus.OnJob) key = 'auth.left_job';
    else key = 'auth.qr_not_scanned';
    return new AppError(key);
  }
}
