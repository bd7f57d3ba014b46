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
import { AuthService } from './auth.service';
import { User } from './entities/user.entity';

/** How long after its 2 minutes a confirmed ticket's session may still be collected (a poll in flight at the end). */
const COLLECT_GRACE_SECONDS = 30;
/** Tickets are kept a day for the record, then removed as new ones are made. */
const KEEP_HOURS = 24;

const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret).digest();

interface TicketRow {
  state: 'waiting' | 'scanned' | 'confirmed' | 'cancelled';
  scanned_by: number | null;
  expired: boolean;
  expires_at: Date;
}

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
  ) {}

  async create(input: QrTicketCreateInput, caller: CallerInfo): Promise<QrTicket> {
    const ticket = randomBytes(16).toString('base64url');
    const secret = randomBytes(32).toString('base64url');
    await this.db.query(`delete from qr_login_tickets where expires_at < now() - make_interval(hours => $1)`, [KEEP_HOURS]);
    const [row]: Array<{ expires_at: Date }> = await this.db.query(
      `insert into qr_login_tickets (id, secret_hash, remember, ip, user_agent, expires_at)
       values ($1, $2, $3, $4, $5, now() + make_interval(secs => $6)) returning expires_at`,
      [ticket, hashSecret(secret), input.remember ?? false, caller.ip, caller.userAgent.slice(0, 300), QR_LOGIN.ttlSeconds],
    );
    return { ticket, secret, expires_at: row.expires_at.toISOString(), ttl_seconds: QR_LOGIN.ttlSeconds };
  }

  /**
   * The desktop's poll. An unknown ticket, a wrong secret and a ticket already spent answer alike (auth.qr_invalid);
   * the first poll after the phone confirmed gets the session, in the same transaction that spends the ticket.
   */
  async poll(input: QrPollInput, caller: CallerInfo): Promise<QrPollResult> {
    const [t]: Array<TicketRow & { consumed: boolean; collectable: boolean; remember: boolean }> = await this.db.query(
      `select state, scanned_by, expires_at, remember, consumed_at is not null as consumed, expires_at <= now() as expired,
              expires_at > now() - make_interval(secs => $3) as collectable
         from qr_login_tickets where id = $1 and secret_hash = $2`,
      [input.ticket, hashSecret(input.secret), COLLECT_GRACE_SECONDS],
    );
    if (!t || t.consumed) throw new AppError('auth.qr_invalid');
    const expires_at = t.expires_at.toISOString();
    if (t.state === 'cancelled') return { state: 'cancelled', expires_at };
    if (t.state !== 'confirmed') return { state: t.expired ? 'expired' : t.state, expires_at };
    if (!t.collectable) return { state: 'expired', expires_at };
    const result = await this.db.transaction(async (em) => {
      // TypeORM answers an UPDATE ... RETURNING with [rows, affected]
      const [rows]: [Array<{ scanned_by: number }>, number] = await em.query(
        `update qr_login_tickets set consumed_at = now()
          where id = $1 and secret_hash = $2 and state = 'confirmed' and consumed_at is null returning scanned_by`,
        [input.ticket, hashSecret(input.secret)],
      );
      // another poll of the same desktop spent it a moment ago
      if (rows.length === 0) throw new AppError('auth.qr_invalid');
      const user = await em.getRepository(User).findOneBy({ id: rows[0].scanned_by });
      if (!user || user.deletedAt) throw new AppError('auth.qr_invalid');
      return this.auth.openSession(em, user, t.remember, 'login.qr', caller, { method: 'qr' });
    });
    return { state: 'confirmed', expires_at, userinfo: result.userinfo };
  }

  /** The phone scanned the code: a waiting ticket becomes the caller's (scanning it again is harmless). */
  async scan(user: SessionUser, input: QrTicketInput): Promise<QrScanResult> {
    const [rows]: [Array<{ expires_at: Date; ip: string; user_agent: string; created_at: Date }>, number] = await this.db.query(
      `update qr_login_tickets set state = 'scanned', scanned_by = $2, scanned_at = now()
        where id = $1 and expires_at > now() and (state = 'waiting' or (state = 'scanned' and scanned_by = $2))
          and exists (select 1 from users u where u.id = $2 and u.status = 1 and u.job_status = 1 and u.deleted_at is null)
        returning expires_at, ip, user_agent, created_at`,
      [input.ticket, user.id],
    );
    const r = rows[0];
    if (!r) throw await this.refusal(input.ticket, user.id);
    return {
      state: 'scanned',
      expires_at: r.expires_at.toISOString(),
      device: { ...describeUserAgent(r.user_agent), ip: r.ip, requested_at: r.created_at.toISOString() },
    };
  }

  /** The account that scanned the ticket signs the desktop in as itself (the desktop's next poll collects it). */
  async confirm(user: SessionUser, input: QrTicketInput): Promise<Record<string, never>> {
    const [rows]: [unknown[], number] = await this.db.query(
      `update qr_login_tickets set state = 'confirmed', confirmed_at = now()
        where id = $1 and state = 'scanned' and scanned_by = $2 and expires_at > now()
          and exists (select 1 from users u where u.id = $2 and u.status = 1 and u.job_status = 1 and u.deleted_at is null)
        returning id`,
      [input.ticket, user.id],
    );
    if (rows.length === 0) throw await this.refusal(input.ticket, user.id);
    return {};
  }

  /** The account that scanned the ticket refuses it. */
  async cancel(user: SessionUser, input: QrTicketInput): Promise<Record<string, never>> {
    const [rows]: [unknown[], number] = await this.db.query(
      `update qr_login_tickets set state = 'cancelled', cancelled_at = now()
        where id = $1 and state = 'scanned' and scanned_by = $2 and expires_at > now() returning id`,
      [input.ticket, user.id],
    );
    if (rows.length === 0) throw await this.refusal(input.ticket, user.id);
    return {};
  }

  /** Why a phone's step on a ticket did not apply. */
  private async refusal(ticket: string, userId: number): Promise<AppError> {
    const [t]: TicketRow[] = await this.db.query(
      `select state, scanned_by, expires_at, expires_at <= now() as expired from qr_login_tickets where id = $1`,
      [ticket],
    );
    const [u]: Array<{ status: number; job_status: number }> = await this.db.query(`select status, job_status from users where id = $1`, [userId]);
    let key: MessageKey;
    if (!t) key = 'auth.qr_invalid';
    else if (t.scanned_by !== null && t.scanned_by !== userId) key = 'auth.qr_taken';
    else if (t.state === 'confirmed') key = 'auth.qr_invalid';
    else if (t.state === 'cancelled') key = 'auth.qr_cancelled';
    else if (t.expired) key = 'auth.qr_expired';
    else if (u && u.status !== 1) key = 'auth.disabled';
    else if (u && u.job_status !== 1) key = 'auth.left_job';
    else key = 'auth.qr_not_scanned';
    return new AppError(key);
  }
}
