import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Parents in WeChat (issue 24): which guardian an official account's openid is (bindings, history kept: a binding is
 * ended, never deleted, so a rebinding is audited), each template message sent with its result, each guardian's channel
 * per message kind, and the platform's template id per kind (set by the operator).
 */
export class Wechat1766563200000 implements MigrationInterface {
  name = 'Wechat1766563200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table wechat_bindings (
        id bigserial primary key,
        user_id int not null references users(id) on delete cascade,
        school_id int references schools(id) on delete set null,
        appid varchar(32) not null,
        openid varchar(64) not null,
        bound_at timestamptz not null default now(),
        -- ended (never deleted): by the guardian ('user'), by another binding of the same openid or account ('rebound')
        unbound_at timestamptz,
        unbound_reason varchar(12) check (unbound_reason in ('user', 'rebound', 'admin'))
      )`);
    // one live openid per guardian per app id, one live guardian per openid
    await q.query(`create unique index wechat_bindings_user_live on wechat_bindings (user_id, appid) where unbound_at is null`);
    await q.query(`create unique index wechat_bindings_openid_live on wechat_bindings (appid, openid) where unbound_at is null`);
    await q.query(`create index wechat_bindings_school_live on wechat_bindings (school_id) where unbound_at is null`);

    await q.query(`
      create table wechat_messages (
        id bigserial primary key,
        school_id int references schools(id) on delete set null,
        user_id int references users(id) on delete set null,
        appid varchar(32) not null,
        openid varchar(64) not null,
        kind varchar(40) not null,
        template_id varchar(64) not null,
        data jsonb not null default '{}',
        url text,
        -- the day it was queued, in the school's zone: the counts' day
        day date not null,
        state varchar(10) not null default 'queued' check (state in ('queued', 'sending', 'sent', 'delivered', 'failed')),
        errcode int,
        errmsg varchar(300),
        msgid varchar(32),
        -- the SMS sent instead (WeChat refused it, e.g. 43101 not subscribed)
        sms_message_id bigint references sms_messages(id) on delete set null,
        dedupe_key varchar(160) unique,
        -- not before (the quiet hours hold a message to 07:00, school time)
        send_after timestamptz not null default now(),
        tries int not null default 0,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        sent_at timestamptz
      )`);
    await q.query(`create index wechat_messages_school_day on wechat_messages (school_id, day, kind)`);
    await q.query(`create index wechat_messages_msgid on wechat_messages (msgid) where msgid is not null`);
    await q.query(`create index wechat_messages_open on wechat_messages (send_after) where state in ('queued', 'sending')`);
    await q.query(`create index wechat_messages_user on wechat_messages (user_id, created_at desc)`);

    await q.query(`
      create table message_prefs (
        user_id int not null references users(id) on delete cascade,
        kind varchar(40) not null,
        channel varchar(8) not null check (channel in ('wechat', 'sms', 'both', 'none')),
        updated_at timestamptz not null default now(),
        primary key (user_id, kind)
      )`);

    await q.query(`
      create table wechat_templates (
        kind varchar(40) primary key,
        template_id varchar(64) not null,
        updated_by int references users(id) on delete set null,
        updated_at timestamptz not null default now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table wechat_templates`);
    await q.query(`drop table message_prefs`);
    await q.query(`drop table wechat_messages`);
    await q.query(`drop table wechat_bindings`);
  }
}
