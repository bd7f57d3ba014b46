import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The official account's followers as its server messages tell them (subscribe / unsubscribe), and the local WeChat
 * sandbox's state (issue 24): its users per app id (following or not), authorisation codes, access tokens and the log
 * of the template messages it was sent.
 */
export class WechatSandbox1766649600000 implements MigrationInterface {
  name = 'WechatSandbox1766649600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table wechat_followers (
        appid varchar(32) not null,
        openid varchar(64) not null,
        subscribed boolean not null,
        -- the event's CreateTime: an older event never overwrites a newer one
        changed_at timestamptz not null,
        primary key (appid, openid)
      )`);

    await q.query(`
      create table wechat_sandbox_users (
        appid varchar(32) not null,
        openid varchar(64) not null,
        name varchar(40) not null,
        subscribed boolean not null default true,
        created_at timestamptz not null default now(),
        last_seen_at timestamptz not null default now(),
        primary key (appid, openid),
        unique (appid, name)
      )`);

    await q.query(`
      create table wechat_sandbox_codes (
        code varchar(64) primary key,
        appid varchar(32) not null,
        openid varchar(64) not null,
        scope varchar(20) not null,
        created_at timestamptz not null default now(),
        used_at timestamptz
      )`);

    await q.query(`
      create table wechat_sandbox_tokens (
        token varchar(160) primary key,
        appid varchar(32) not null,
        -- client: cgi-bin/stable_token; oauth: sns/oauth2/access_token (with its openid)
        kind varchar(8) not null check (kind in ('client', 'oauth')),
        openid varchar(64),
        expires_at timestamptz not null,
        -- a forced refresh ends the previous client token at once (40001 afterwards)
        revoked boolean not null default false,
        created_at timestamptz not null default now()
      )`);
    await q.query(
      `create index wechat_sandbox_tokens_client on wechat_sandbox_tokens (appid, expires_at desc) where kind = 'client' and not revoked`,
    );

    await q.query(`
      create table wechat_sandbox_messages (
        msgid bigserial primary key,
        appid varchar(32) not null,
        openid varchar(64) not null,
        template_id varchar(64) not null,
        url text,
        data jsonb not null,
        -- the TEMPLATESENDJOBFINISH pushed to the API: its HTTP status (null: not yet)
        pushed_status int,
        created_at timestamptz not null default now()
      )`);
    await q.query(`create index wechat_sandbox_messages_openid on wechat_sandbox_messages (openid, msgid desc)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table wechat_sandbox_messages`);
    await q.query(`drop table wechat_sandbox_tokens`);
    await q.query(`drop table wechat_sandbox_codes`);
    await q.query(`drop table wechat_sandbox_users`);
    await q.query(`drop table wechat_followers`);
  }
}
