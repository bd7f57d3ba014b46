import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notices (issue 14):
 * - notices: one published notice (immutable once sent): sanitised HTML, attachments (files the upload action stored,
 *   copied as json), its scope (classes or the school) and audience, whether it is important (texted), the counters
 *   of its receipts, when its texts go (sms_at, held to 07:00 in the quiet hours), when it was last reminded. A
 *   request key makes a publish idempotent.
 * - notice_receipts: one row per (notice, recipient user), created set-based at publish; read_at the first read.
 * - notice_reminders: the history of reminders (appended).
 */
export class Notices1765540800000 implements MigrationInterface {
  name = 'Notices1765540800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table notices (
        id serial primary key,
        school_id int not null references schools(id),
        author_id int not null references users(id),
        title varchar(60) not null,
        content text not null,
        summary varchar(200) not null,
        attachments jsonb not null default '[]',
        scope varchar(8) not null check (scope in ('classes', 'school')),
        class_ids int[] not null default '{}',
        audience varchar(10) not null check (audience in ('guardians', 'staff', 'all')),
        important boolean not null default false,
        recipients int not null default 0,
        read_count int not null default 0 check (read_count >= 0),
        sms_count int not null default 0,
        sms_at timestamptz,
        last_reminded_at timestamptz,
        request_key varchar(64) not null,
        created_at timestamptz not null default now(),
        check ((scope = 'classes') = (cardinality(class_ids) > 0))
      );
      create unique index notices_request_key on notices (school_id, request_key);
      create index notices_school_idx on notices (school_id, id desc);
      create index notices_author_idx on notices (author_id, id desc);
      create index notices_classes_idx on notices using gin (class_ids);

      create table notice_receipts (
        notice_id int not null references notices(id),
        user_id int not null references users(id),
        kind varchar(8) not null check (kind in ('guardian', 'staff')),
        read_at timestamptz,
        primary key (notice_id, user_id)
      );
      create index notice_receipts_user_idx on notice_receipts (user_id, notice_id desc);
      create index notice_receipts_unread_idx on notice_receipts (notice_id) where read_at is null;

      create table notice_reminders (
        id serial primary key,
        notice_id int not null references notices(id),
        actor_id int not null references users(id),
        unread int not null,
        texts int not null,
        sms_at timestamptz not null,
        at timestamptz not null default now()
      );
      create index notice_reminders_notice_idx on notice_reminders (notice_id, at desc);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table notice_reminders, notice_receipts, notices;`);
  }
}
