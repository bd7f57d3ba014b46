import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Family conversations (issue 40, docs/modules/conversations.md): one conversation per child between its guardians and
 * the school; messages that are never edited or deleted (a retraction within two minutes sets `retracted_at` once and
 * keeps the row; the erasure of issue 37 may blank a row's text); how far each member has read and when a guardian was
 * last told by WeChat/SMS; the staff's weekly office hours.
 */
export class FamilyConversations1767686400000 implements MigrationInterface {
  name = 'FamilyConversations1767686400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table family_conversations (
        id bigserial primary key,
        school_id int not null references schools(id),
        student_id int not null unique references students(id),
        last_message_id bigint,
        last_message_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index family_conversations_school_idx on family_conversations (school_id, last_message_at desc nulls last);

      create table family_messages (
        id bigserial primary key,
        conversation_id bigint not null references family_conversations(id),
        school_id int not null references schools(id),
        student_id int not null references students(id),
        side varchar(6) not null check (side in ('family', 'school')),
        sender_id int references users(id),
        sender_role smallint not null,
        sender_name varchar(40) not null,
        body text,
        photo_url varchar(300),
        quick boolean not null default false,
        urgent boolean not null default false,
        request_id varchar(64) not null,
        sent_at timestamptz not null default now(),
        retracted_at timestamptz,
        check (body is not null or photo_url is not null or retracted_at is not null or sender_name like '已注销%')
      );
      create unique index family_messages_request_key on family_messages (sender_id, request_id);
      create index family_messages_conversation_idx on family_messages (conversation_id, id desc);
      create index family_messages_sender_idx on family_messages (sender_id, sent_at desc);
      create index family_messages_notify_idx on family_messages (sent_at) where side = 'school' and retracted_at is null;

      create function family_messages_guard() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' then
          if current_setting('wantuo.erasure', true) = 'on' then
            return new;
          end if;
          -- a retraction: retracted_at set once, nothing else changed
          if old.retracted_at is null and new.retracted_at is not null
             and (to_jsonb(new) - 'retracted_at') = (to_jsonb(old) - 'retracted_at') then
            return new;
          end if;
        end if;
        raise exception 'family_messages are never edited or deleted: % refused', tg_op using errcode = 'insufficient_privilege';
      end $$;
      create trigger family_messages_guard before update or delete on family_messages
        for each row execute function family_messages_guard();

      create table family_conversation_reads (
        conversation_id bigint not null references family_conversations(id),
        user_id int not null references users(id),
        side varchar(6) not null check (side in ('family', 'school')),
        last_read_id bigint not null default 0,
        read_at timestamptz,
        notified_at timestamptz,
        notified_upto bigint not null default 0,
        primary key (conversation_id, user_id)
      );
      create index family_conversation_reads_user_idx on family_conversation_reads (user_id);

      create table staff_office_hours (
        user_id int primary key references users(id),
        school_id int not null references schools(id),
        days smallint[] not null check (cardinality(days) between 1 and 7 and days <@ array[1,2,3,4,5,6,7]::smallint[]),
        start_time time not null,
        end_time time not null check (end_time > start_time),
        updated_at timestamptz not null default now()
      );
      create index staff_office_hours_school_idx on staff_office_hours (school_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      drop table staff_office_hours, family_conversation_reads;
      drop trigger family_messages_guard on family_messages;
      drop table family_messages, family_conversations;
      drop function family_messages_guard();
    `);
  }
}
