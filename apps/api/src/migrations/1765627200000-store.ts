import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The online mall (issue 15, module `store`):
 * - store_goods_types: the mall's categories (platform-wide), seeded here.
 * - store_goods: the operator's goods (platform-wide, no school): pictures, price in fen, stock (never below zero: a
 *   check, and every reservation is a conditional update), sold, listed, version for concurrent edits.
 * - store_stock_moves: every change of stock, appended (add, reserve, release) with the stock after it; an operator's
 *   add is idempotent by its request key.
 * - store_addresses: a school's delivery addresses, at most one default (a partial unique index).
 * - store_orders: one school's order with its address copied (an address edited later does not change it), the totals
 *   in fen, the state (unpaid -> paid -> shipped -> done; unpaid/paid -> cancelled), when the stock is released if
 *   unpaid (expires_at), how it was paid, shipping, and a request key unique per school (a retried submit answers the
 *   first order). store_order_lines: its goods at the prices of the moment. store_order_events: its history, appended.
 */
export class Store1765627200000 implements MigrationInterface {
  name = 'Store1765627200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table store_goods_types (
        id serial primary key,
        name varchar(20) not null unique,
        sort int not null default 0
      );
      insert into store_goods_types (name, sort) values ('文具用品', 1), ('图书教辅', 2), ('教学用具', 3), ('办公耗材', 4), ('生活用品', 5);

      create table store_goods (
        id serial primary key,
        type_id int not null references store_goods_types(id),
        name varchar(60) not null,
        pictures jsonb not null default '[]',
        description text not null default '',
        price_fen bigint not null check (price_fen > 0),
        stock int not null default 0 check (stock >= 0),
        sold int not null default 0 check (sold >= 0),
        listed boolean not null default true,
        version int not null default 1,
        created_by int references users(id),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index store_goods_type_idx on store_goods (type_id, id desc) where listed;
      create index store_goods_listed_idx on store_goods (id desc) where listed;

      create table store_stock_moves (
        id bigserial primary key,
        goods_id int not null references store_goods(id),
        kind varchar(8) not null check (kind in ('add', 'reserve', 'release')),
        delta int not null,
        stock_after int not null check (stock_after >= 0),
        order_id int,
        actor_id int references users(id),
        request_key varchar(80),
        created_at timestamptz not null default now()
      );
      create index store_stock_moves_goods_idx on store_stock_moves (goods_id, id);
      create unique index store_stock_moves_key_idx on store_stock_moves (request_key) where request_key is not null;

      create table store_addresses (
        id serial primary key,
        school_id int not null references schools(id),
        name varchar(20) not null,
        mobile varchar(20) not null,
        region varchar(60) not null,
        detail varchar(120) not null,
        is_default boolean not null default false,
        version int not null default 1,
        created_at timestamptz not null default now()
      );
      create index store_addresses_school_idx on store_addresses (school_id, id);
      create unique index store_addresses_default_idx on store_addresses (school_id) where is_default;

      create table store_orders (
        id serial primary key,
        no varchar(20) not null unique,
        school_id int not null references schools(id),
        state varchar(10) not null default 'unpaid' check (state in ('unpaid', 'paid', 'shipped', 'done', 'cancelled')),
        goods_fen bigint not null check (goods_fen > 0),
        freight_fen bigint not null check (freight_fen >= 0),
        total_fen bigint not null check (total_fen = goods_fen + freight_fen),
        address jsonb not null,
        remark varchar(200),
        placed_by int references users(id),
        request_key varchar(64) not null,
        expires_at timestamptz not null,
        pay_method varchar(8) check (pay_method in ('wechat', 'balance')),
        out_trade_no varchar(32),
        paid_at timestamptz,
        carrier varchar(30),
        tracking_no varchar(40),
        shipped_at timestamptz,
        shipped_by int references users(id),
        done_at timestamptz,
        done_by int references users(id),
        cancelled_at timestamptz,
        cancelled_by int references users(id),
        cancel_reason varchar(100),
        refunded_fen bigint not null default 0,
        version int not null default 1,
        created_at timestamptz not null default now()
      );
      create unique index store_orders_request_idx on store_orders (school_id, request_key);
      create index store_orders_school_idx on store_orders (school_id, state, created_at desc);
      create index store_orders_state_idx on store_orders (state, created_at desc);
      create index store_orders_unpaid_idx on store_orders (expires_at) where state = 'unpaid';

      create table store_order_lines (
        order_id int not null references store_orders(id),
        goods_id int not null references store_goods(id),
        name varchar(60) not null,
        picture varchar(500),
        price_fen bigint not null check (price_fen > 0),
        quantity int not null check (quantity > 0),
        amount_fen bigint not null check (amount_fen = price_fen * quantity),
        primary key (order_id, goods_id)
      );

      create table store_order_events (
        id bigserial primary key,
        order_id int not null references store_orders(id),
        school_id int not null references schools(id),
        type varchar(10) not null,
        actor_id int references users(id),
        data jsonb not null default '{}',
        created_at timestamptz not null default now()
      );
      create index store_order_events_order_idx on store_order_events (order_id, id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      drop table if exists store_order_events;
      drop table if exists store_order_lines;
      drop table if exists store_orders;
      drop table if exists store_addresses;
      drop table if exists store_stock_moves;
      drop table if exists store_goods;
      drop table if exists store_goods_types;
    `);
  }
}
