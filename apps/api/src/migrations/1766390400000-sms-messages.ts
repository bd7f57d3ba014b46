import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Text messages through real gateways (issue 23): one row per message with its provider, template, the provider's id
 * (BizId / SerialNo), state and cost units; counted per school and school-local day. The development outbox becomes
 * a view of the messages handed to a provider (what tests and GET /api/dev/sms-outbox read), its rows kept.
 */
export class SmsMessages1766390400000 implements MigrationInterface {
  name = 'SmsMessages1766390400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table sms_messages (
        id bigserial primary key,
        -- null: the platform's own texts (sign-in codes before anyone is known)
        school_id int references schools(id) on delete set null,
        -- the day it was queued, in the school's zone (the platform's: Asia/Shanghai): the counts' day
        day date not null,
        mobile varchar(20) not null,
        kind varchar(40) not null,
        params jsonb not null default '{}',
        content text not null,
        -- a caller's idempotency key (a notice's fan-out: <key>-<mobile>): queued once however often it is asked
        dedupe_key varchar(160) unique,
        provider varchar(10) not null,
        -- handed to the fallback provider (never twice)
        handed_over boolean not null default false,
        template_code varchar(40),
        state varchar(10) not null default 'queued' check (state in ('queued', 'sending', 'sent', 'delivered', 'failed')),
        provider_message_id varchar(80),
        error_code varchar(80),
        error_message varchar(300),
        units int not null default 0,
        -- tries with the current provider (transient refusals count)
        tries int not null default 0,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        sent_at timestamptz,
        done_at timestamptz
      );
      create index sms_messages_mobile_idx on sms_messages (mobile, id desc);
      create index sms_messages_school_day_idx on sms_messages (school_id, day);
      create index sms_messages_day_idx on sms_messages (day);
      create index sms_messages_report_idx on sms_messages (provider, provider_message_id) where provider_message_id is not null;
      create index sms_messages_pending_idx on sms_messages (provider, sent_at) where state = 'sent';
      create index sms_messages_stuck_idx on sms_messages (updated_at) where state in ('queued', 'sending');

      insert into sms_messages (school_id, day, mobile, kind, params, content, provider, state, units, created_at, updated_at, sent_at, done_at)
      select null, (created_at at time zone 'Asia/Shanghai')::date, mobile, template, params, content, 'outbox', 'delivered', 1,
             created_at, created_at, created_at, created_at
        from sms_outbox order by id;
      drop table sms_outbox;
      -- what development and the tests read: every text handed to a provider, with its rendered content
      create view sms_outbox as
        select id, mobile, kind as template, content, params, created_at, provider, state
          from sms_messages where state in ('sent', 'delivered');
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      drop view sms_outbox;
      create table sms_outbox (
        id bigserial primary key,
        mobile varchar(20) not null,
        template varchar(40) not null,
        content text not null,
        params jsonb not null default '{}',
        created_at timestamptz not null default now()
      );
      create index sms_outbox_mobile_idx on sms_outbox (mobile, id desc);
      insert into sms_outbox (mobile, template, content, params, created_at)
      select mobile, kind, content, params, created_at from sms_messages where state in ('sent', 'delivered') order by id;
      drop table sms_messages;
    `);
  }
}
