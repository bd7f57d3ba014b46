import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * QR sign-in (issue 21): a desktop's short-lived ticket that a signed-in phone scans and confirms.
 * - qr_login_tickets: the random id (what the QR carries), the SHA-256 of the secret only the desktop knows (it polls
 *   with it), the state (waiting → scanned → confirmed, or cancelled), who scanned and confirmed it, when it expires
 *   (2 minutes), when the desktop collected its session (once: consumed_at), the desktop's address and browser (shown
 *   on the phone before confirming) and the desktop's "remember me".
 * Expiry is not a stored state: a ticket past expires_at reads as expired. Old rows are removed as new tickets are made.
 */
export class QrLogin1765990800000 implements MigrationInterface {
  name = 'QrLogin1765990800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table qr_login_tickets (
        id varchar(32) primary key,
        secret_hash bytea not null,
        state varchar(10) not null default 'waiting' check (state in ('waiting', 'scanned', 'confirmed', 'cancelled')),
        remember boolean not null default false,
        ip varchar(64) not null default '',
        user_agent varchar(300) not null default '',
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        scanned_by int references users(id),
        scanned_at timestamptz,
        confirmed_at timestamptz,
        cancelled_at timestamptz,
        consumed_at timestamptz,
        check ((state = 'waiting') = (scanned_by is null)),
        check (state <> 'confirmed' or confirmed_at is not null),
        check (consumed_at is null or state = 'confirmed')
      );
      create index qr_login_tickets_expires_idx on qr_login_tickets (expires_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table qr_login_tickets`);
  }
}
