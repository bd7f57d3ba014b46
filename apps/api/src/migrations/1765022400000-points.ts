import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Points (issue 12):
 * - points_ledger: every change of a student's points (award, deduct, exchange, refund) with the balance after it;
 *   append-only (a trigger refuses updates and deletes). `request_key` makes an award or an exchange idempotent per
 *   school; a cancelled order is refunded once (unique refund per order).
 * - points_accounts: the balance of each student, the sum of its ledger, changed in the same transaction as the entry
 *   by a conditional update (never below zero: a check and the `balance >= n` condition); its row is the per-student lock.
 * - points_goods: the shop's goods (price in points, stock, listed); deleted softly when never exchanged, else unlisted.
 *   points_goods_prices (price history) and points_stock_moves (every stock change: initial, add, exchange, cancel)
 *   are append-only; a stock move per order and kind is unique, so a cancellation gives the unit back once.
 * - points_orders: exchange orders, pending -> handed_over or cancelled (packages/shared points.ts orderTransition).
 */
export class Points1765022400000 implements MigrationInterface {
  name = 'Points1765022400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create function points_append_only() returns trigger language plpgsql as $$
        begin raise exception '% is append-only', tg_table_name; end $$;

      create table points_accounts (
        student_id int primary key references students(id),
        school_id int not null references schools(id),
        balance int not null default 0 check (balance >= 0),
        updated_at timestamptz not null default now()
      );
      create index points_accounts_school_idx on points_accounts (school_id);

      create table points_goods (
        id serial primary key,
        school_id int not null references schools(id),
        name varchar(50) not null,
        picture_url varchar(500),
        description varchar(500),
        price int not null check (price between 1 and 1000000),
        stock int not null check (stock >= 0),
        listed boolean not null default true,
        exchanged int not null default 0 check (exchanged >= 0),
        request_key varchar(100),
        version int not null default 1,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        deleted_at timestamptz,
        unique (school_id, request_key)
      );
      create unique index points_goods_name_idx on points_goods (school_id, lower(name)) where deleted_at is null;
      create index points_goods_school_idx on points_goods (school_id, id desc) where deleted_at is null;

      create table points_goods_prices (
        id bigserial primary key,
        school_id int not null references schools(id),
        goods_id int not null references points_goods(id),
        old_price int,
        new_price int not null check (new_price > 0),
        reason varchar(100),
        actor_id int references users(id),
        at timestamptz not null default now()
      );
      create index points_goods_prices_goods_idx on points_goods_prices (goods_id, id);
      create trigger points_goods_prices_append_only before update or delete on points_goods_prices
        for each statement execute function points_append_only();

      create table points_orders (
        id serial primary key,
        school_id int not null references schools(id),
        no varchar(20) not null unique,
        student_id int not null references students(id),
        goods_id int not null references points_goods(id),
        goods_name varchar(50) not null,
        price int not null check (price > 0),
        state varchar(12) not null default 'pending' check (state in ('pending', 'handed_over', 'cancelled')),
        placed_by int references users(id),
        handed_over_by int references users(id),
        handed_over_at timestamptz,
        cancelled_by int references users(id),
        cancelled_at timestamptz,
        cancel_reason varchar(100),
        request_key varchar(100) not null,
        created_at timestamptz not null default now(),
        unique (school_id, request_key),
        check ((state = 'handed_over') = (handed_over_at is not null)),
        check ((state = 'cancelled') = (cancelled_at is not null))
      );
      create index points_orders_school_created_idx on points_orders (school_id, created_at desc, id desc);
      create index points_orders_school_state_idx on points_orders (school_id, state, created_at desc, id desc);
      create index points_orders_student_idx on points_orders (student_id, created_at desc, id desc);
      create index points_orders_goods_idx on points_orders (goods_id);
      create index points_orders_handed_idx on points_orders (school_id, handed_over_at) where handed_over_at is not null;
      create index points_orders_cancelled_idx on points_orders (school_id, cancelled_at) where cancelled_at is not null;

      create table points_ledger (
        id bigserial primary key,
        school_id int not null references schools(id),
        student_id int not null references students(id),
        kind varchar(8) not null check (kind in ('award', 'deduct', 'exchange', 'refund')),
        delta int not null check (delta <> 0),
        balance_after int not null check (balance_after >= 0),
        reason varchar(100),
        order_id int references points_orders(id),
        actor_id int references users(id),
        request_key varchar(100),
        created_at timestamptz not null default now(),
        unique (school_id, request_key),
        check ((kind in ('award', 'refund')) = (delta > 0)),
        check ((kind in ('exchange', 'refund')) = (order_id is not null))
      );
      create index points_ledger_student_idx on points_ledger (student_id, id desc);
      create index points_ledger_school_created_idx on points_ledger (school_id, created_at);
      create unique index points_ledger_order_once_idx on points_ledger (order_id, kind) where order_id is not null;
      create trigger points_ledger_append_only before update or delete on points_ledger
        for each statement execute function points_append_only();

      create table points_stock_moves (
        id bigserial primary key,
        school_id int not null references schools(id),
        goods_id int not null references points_goods(id),
        kind varchar(8) not null check (kind in ('initial', 'add', 'exchange', 'cancel')),
        delta int not null,
        stock_after int not null check (stock_after >= 0),
        order_id int references points_orders(id),
        reason varchar(100),
        actor_id int references users(id),
        request_key varchar(100),
        at timestamptz not null default now(),
        unique (school_id, request_key),
        check ((kind in ('exchange', 'cancel')) = (order_id is not null))
      );
      create index points_stock_moves_goods_idx on points_stock_moves (goods_id, id);
      create unique index points_stock_moves_order_once_idx on points_stock_moves (order_id, kind) where order_id is not null;
      create trigger points_stock_moves_append_only before update or delete on points_stock_moves
        for each statement execute function points_append_only();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      drop table points_stock_moves, points_ledger, points_orders, points_goods_prices, points_goods, points_accounts;
      drop function points_append_only();
    `);
  }
}
