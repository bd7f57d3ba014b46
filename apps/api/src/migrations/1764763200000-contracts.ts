import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * After-school-care contracts (issue 11):
 * - contract_packages: what a school sells (kind term/month/days/sessions, length, price, includes); disabled, never
 *   deleted once used.
 * - contracts: one per signing, with its own copy of the terms (start, end, units) and prices; `status` is stored
 *   (unpaid, active, expired, cancelled), "expiring" is derived (packages/shared contracts.ts). `renewed_from` is unique:
 *   a contract is renewed once, whoever asks (the admin, the daily job) and however often. `request_key` makes a
 *   signing idempotent per school.
 * - contract_events: the history (signed, paid, edited with before/after, renewed, cancelled, refunded, expired,
 *   reminded), append-only: a trigger refuses updates and deletes.
 * - contract_usage: the days that used a unit of a days/sessions contract (a projection of flow_events kept by the
 *   flow's domain event and rebuildable); contracts.units_used is its count.
 * - contract_reminders: one row per contract and reminder kind, so the daily job reminds once however often it runs.
 */
export class Contracts1764763200000 implements MigrationInterface {
  name = 'Contracts1764763200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table contract_packages (
        id serial primary key,
        school_id int not null references schools(id),
        name varchar(50) not null,
        kind varchar(10) not null check (kind in ('term', 'month', 'days', 'sessions')),
        length int not null check (length between 1 and 400),
        valid_months int check (valid_months between 1 and 36),
        price_fen bigint not null check (price_fen > 0),
        includes text[] not null default '{}',
        description varchar(500),
        active boolean not null default true,
        version int not null default 1,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index contract_packages_name_idx on contract_packages (school_id, lower(name));

      create table contracts (
        id serial primary key,
        school_id int not null references schools(id),
        no varchar(20) not null unique,
        student_id int not null references students(id),
        package_id int not null references contract_packages(id),
        kind varchar(10) not null check (kind in ('term', 'month', 'days', 'sessions')),
        start_day date not null,
        end_day date not null,
        units_total int check (units_total > 0),
        units_used int not null default 0 check (units_used >= 0),
        list_price_fen bigint not null check (list_price_fen > 0),
        price_fen bigint not null check (price_fen > 0 and price_fen <= list_price_fen),
        discount_reason varchar(200),
        paid_fen bigint not null default 0 check (paid_fen >= 0),
        refunded_fen bigint not null default 0 check (refunded_fen >= 0 and refunded_fen <= paid_fen),
        status varchar(10) not null check (status in ('unpaid', 'active', 'expired', 'cancelled')),
        auto_renew boolean not null default false,
        guardian_id int references users(id),
        renewed_from int unique references contracts(id),
        pay_method varchar(10) check (pay_method in ('cash', 'bank', 'external', 'wechat')),
        receipt_no varchar(64),
        remark varchar(500),
        request_key varchar(80),
        version int not null default 1,
        created_by int references users(id),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        paid_at timestamptz,
        cancelled_at timestamptz,
        expired_at timestamptz,
        check (start_day <= end_day),
        unique (school_id, request_key)
      );
      create index contracts_school_status_end_idx on contracts (school_id, status, end_day);
      create index contracts_school_created_idx on contracts (school_id, created_at desc, id desc);
      create index contracts_student_idx on contracts (student_id, start_day);
      create index contracts_package_idx on contracts (package_id);
      -- the daily job: active contracts by end day across schools
      create index contracts_active_end_idx on contracts (end_day) where status = 'active';

      create table contract_events (
        id bigserial primary key,
        school_id int not null references schools(id),
        contract_id int not null references contracts(id),
        type varchar(12) not null check (type in ('signed', 'paid', 'edited', 'renewed', 'cancelled', 'refunded', 'expired', 'reminded')),
        data jsonb not null default '{}',
        reason varchar(200),
        actor_id int references users(id),
        at timestamptz not null default now()
      );
      create index contract_events_contract_idx on contract_events (contract_id, id);
      create function contract_events_append_only() returns trigger language plpgsql as $$
        begin raise exception 'contract_events is append-only'; end $$;
      create trigger contract_events_no_update before update or delete on contract_events
        for each statement execute function contract_events_append_only();

      create table contract_usage (
        contract_id int not null references contracts(id),
        day date not null,
        student_id int not null,
        primary key (contract_id, day)
      );
      create index contract_usage_student_day_idx on contract_usage (student_id, day);

      create table contract_reminders (
        contract_id int not null references contracts(id),
        kind varchar(12) not null,
        sent_at timestamptz not null default now(),
        primary key (contract_id, kind)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      drop table contract_reminders, contract_usage;
      drop trigger contract_events_no_update on contract_events;
      drop table contract_events;
      drop function contract_events_append_only();
      drop table contracts, contract_packages;
    `);
  }
}
