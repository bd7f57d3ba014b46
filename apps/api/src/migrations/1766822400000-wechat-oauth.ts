import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * WeChat web authorisation (issue 24): the `state` of each authorisation this API started (where the guardian goes
 * after it; used once, 10 minutes) and the bind tickets of openids no guardian is bound to yet (spent by the SMS-code
 * sign-in that binds it; used once, 15 minutes). Kept a day for the record, then removed as new ones are made.
 */
export class WechatOauth1766822400000 implements MigrationInterface {
  name = 'WechatOauth1766822400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table wechat_oauth_tickets (
        -- random; only its SHA-256 is kept
        id_hash bytea primary key,
        kind varchar(5) not null check (kind in ('state', 'bind')),
        appid varchar(32) not null,
        openid varchar(64),
        redirect varchar(300),
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null default now()
      )`);
    await q.query(`create index wechat_oauth_tickets_expiry on wechat_oauth_tickets (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table wechat_oauth_tickets`);
  }
}
