import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The money core (design.md §5a, issue 10): the school's wallet ledger, payments with a unique out_trade_no, the
 * payment password and the platform's renewal price per school.
 *
 * - ledger_entries is append-only: a trigger refuses every update and delete (a correction is a new entry). Each entry
 *   carries the balance after it and an idempotency key unique per school, so a retried payment is found, not repeated.
 * - schools.balance_fen is changed in the same statement as the entry and can never go below zero (its check).
 * - payments: one row per provider or balance payment, what it pays for (kind + ref), its state; out_trade_no is
 *   unique across the platform (it is the provider's order number).
 */
export class MoneyCore1764460800000 implements MigrationInterface {
  name = 'MoneyCore1764460800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      alter table schools
        add column contact_name varchar(64),
        add column city varchar(64),
        add column address varchar(200),
        add column deal_pwd_hash text,
        add column deal_pwd_failures int not null default 0,
        add column deal_pwd_locked_until timestamptz,
        add column term_price_fen bigint check (term_price_fen >= 0),
        add column year_price_fen bigint check (year_price_fen >= 0);

      create table ledger_entries (
        id bigserial primary key,
        school_id int not null references schools(id),
        type varchar(16) not null check (type in ('top_up', 'payment', 'refund', 'adjustment')),
        amount_fen bigint not null check (amount_fen <> 0),
        balance_after_fen bigint not null check (balance_after_fen >= 0),
        ref_kind varchar(32),
        ref_id varchar(64),
        payment_id bigint,
        actor_id int references users(id),
        note varchar(500),
        idempotency_key varchar(100) not null,
        created_at timestamptz not null default now(),
        unique (school_id, idempotency_key)
      );
      create index ledger_entries_school_idx on ledger_entries (school_id, created_at desc, id desc);
      create index ledger_entries_school_type_idx on ledger_entries (school_id, type, created_at desc, id desc);

      create function ledger_entries_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'ledger_entries is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
      end $$;
      create trigger ledger_entries_no_update before update or delete on ledger_entries
        for each statement execute function ledger_entries_append_only();

      create table payments (
        id bigserial primary key,
        school_id int not null references schools(id),
        out_trade_no varchar(32) not null unique,
        kind varchar(32) not null,
        ref_id varchar(64),
        description varchar(127) not null,
        amount_fen bigint not null check (amount_fen > 0),
        method varchar(16) not null check (method in ('wechat', 'balance')),
        state varchar(16) not null default 'pending' check (state in ('pending', 'paid', 'closed', 'refunded')),
        code_url text,
        provider_txn_id varchar(64),
        meta jsonb not null default '{}',
        created_by int references users(id),
        created_at timestamptz not null default now(),
        expires_at timestamptz,
        paid_at timestamptz,
        closed_at timestamptz,
        refunded_fen bigint not null default 0 check (refunded_fen >= 0 and refunded_fen <= amount_fen),
        version int not null default 1
      );
      create index payments_school_idx on payments (school_id, created_at desc);
      create index payments_pending_idx on payments (created_at) where state = 'pending';

      -- the local WeChat Pay sandbox's own orders (used outside production only; see modules/dev/wechatpay-sandbox)
      create table wechatpay_sandbox_orders (
        out_trade_no varchar(32) primary key,
        mchid varchar(32) not null,
        appid varchar(32) not null,
        description varchar(127) not null,
        amount_fen bigint not null,
        notify_url text not null,
        state varchar(16) not null default 'NOTPAY',
        transaction_id varchar(32),
        refunded_fen bigint not null default 0,
        created_at timestamptz not null default now(),
        paid_at timestamptz
      );

      -- the school an approved application created (onboarding)
      alter table account_applications add column school_id int references schools(id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      alter table account_applications drop column school_id;
      drop table wechatpay_sandbox_orders;
      drop table payments;
      drop trigger ledger_entries_no_update on ledger_entries;
      drop table ledger_entries;
      drop function ledger_entries_append_only();
      alter table schools drop column contact_name, drop column city, drop column address, drop column deal_pwd_hash,
        drop column deal_pwd_failures, drop column deal_pwd_locked_until, drop column term_price_fen, drop column year_price_fen;
    `);
  }
}
