import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * WeChat Pay in service-provider mode (issue 36, design.md §5b2).
 * - `school_sub_merchants`: the sub_mchid WeChat gave each school after its onboarding, as the operator recorded it;
 *   a change ends the current row and adds one (history kept), at most one current row per school.
 * - `payments.payee` (platform | school) and `payments.sub_mchid` / `sub_appid`: the merchant a payment was made with,
 *   kept for its life (query, close, refund, reconciliation). Rows before this migration were the platform's direct
 *   merchant's (payee platform, as they were): they keep sub_mchid null and are asked for in direct mode.
 * - `payment_refunds.succeeded_at`: when the provider finished a refund (the day its line is on the trade bill).
 * - `payment_bill_checks` / `payment_bill_differences`: the daily trade bill of each merchant compared line by line
 *   with the payments and refunds recorded; differences are appended, and resolved by the operator with a note.
 * - The sandbox keeps which sub-merchants are bound to its service provider, their balances, and each order's
 *   sp_mchid / sub_mchid / sub_appid.
 */
export class PartnerPayments1767345600000 implements MigrationInterface {
  name = 'PartnerPayments1767345600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table school_sub_merchants (
        id bigserial primary key,
        school_id int not null references schools(id),
        sub_mchid varchar(32) not null check (sub_mchid ~ '^[0-9]{8,12}$'),
        sub_appid varchar(32) check (sub_appid ~ '^wx[0-9a-zA-Z]{16}$'),
        note varchar(200) not null default '',
        recorded_by int references users(id),
        recorded_at timestamptz not null default now(),
        ended_at timestamptz,
        ended_by int references users(id)
      );
      create unique index school_sub_merchants_current on school_sub_merchants (school_id) where ended_at is null;
      create index school_sub_merchants_school on school_sub_merchants (school_id, recorded_at desc);
      create index school_sub_merchants_mchid on school_sub_merchants (sub_mchid) where ended_at is null;

      alter table payments
        add column payee varchar(16) not null default 'platform' check (payee in ('platform', 'school')),
        add column sub_mchid varchar(32),
        add column sub_appid varchar(32),
        add column payer_openid_kind varchar(8) check (payer_openid_kind in ('sp', 'sub'));
      -- (a balance payment is the platform's: the wallet is held by the platform for what it sells)
      -- what parents pay a school is never received by the platform (the kinds of PAYMENT_PAYEES that are the school's)
      alter table payments add constraint payments_school_kinds_to_school
        check (method <> 'wechat' or sub_mchid is null or kind not in ('contract', 'meal') or payee = 'school');
      create index payments_merchant_paid on payments (sub_mchid, paid_at) where method = 'wechat' and paid_at is not null;

      alter table payment_refunds add column succeeded_at timestamptz;
      update payment_refunds set succeeded_at = created_at where state = 'succeeded';
      create index payment_refunds_succeeded on payment_refunds (succeeded_at) where state = 'succeeded';

      create table payment_bill_checks (
        id bigserial primary key,
        sub_mchid varchar(32) not null,
        school_id int references schools(id),
        bill_date date not null,
        state varchar(16) not null check (state in ('matched', 'differences', 'failed')),
        bill_lines int not null default 0,
        payments_fen bigint not null default 0,
        refunds_fen bigint not null default 0,
        differences int not null default 0,
        error text,
        checked_at timestamptz not null default now(),
        unique (sub_mchid, bill_date)
      );
      create index payment_bill_checks_date on payment_bill_checks (bill_date desc, id desc);

      create table payment_bill_differences (
        id bigserial primary key,
        check_id bigint not null references payment_bill_checks(id),
        sub_mchid varchar(32) not null,
        school_id int references schools(id),
        bill_date date not null,
        kind varchar(24) not null check (kind in ('missing_here', 'missing_there', 'amount_differs')),
        line varchar(8) not null check (line in ('payment', 'refund')),
        out_trade_no varchar(32) not null,
        out_refund_no varchar(64),
        ours_fen bigint,
        theirs_fen bigint,
        state varchar(12) not null default 'open' check (state in ('open', 'resolved')),
        resolved_by int references users(id),
        resolved_at timestamptz,
        resolution varchar(200),
        created_at timestamptz not null default now(),
        unique nulls not distinct (sub_mchid, bill_date, line, out_trade_no, out_refund_no)
      );
      create index payment_bill_differences_open on payment_bill_differences (created_at desc) where state = 'open';
      create index payment_bill_differences_school on payment_bill_differences (school_id, created_at desc);

      create table wechatpay_sandbox_sub_merchants (
        sub_mchid varchar(32) primary key,
        sp_mchid varchar(32) not null,
        name varchar(100) not null,
        balance_fen bigint not null default 0 check (balance_fen >= 0),
        created_at timestamptz not null default now()
      );
      alter table wechatpay_sandbox_orders
        add column sp_mchid varchar(32),
        add column sub_mchid varchar(32),
        add column sub_appid varchar(32),
        add column payer_sub_openid varchar(128);
      create index wechatpay_sandbox_orders_sub_paid on wechatpay_sandbox_orders (sub_mchid, paid_at);
      alter table wechatpay_sandbox_refunds add column succeeded_at timestamptz;
      update wechatpay_sandbox_refunds set succeeded_at = created_at where status = 'SUCCESS';
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      alter table wechatpay_sandbox_refunds drop column succeeded_at;
      drop index if exists wechatpay_sandbox_orders_sub_paid;
      alter table wechatpay_sandbox_orders drop column sp_mchid, drop column sub_mchid, drop column sub_appid, drop column payer_sub_openid;
      drop table wechatpay_sandbox_sub_merchants;
      drop table payment_bill_differences;
      drop table payment_bill_checks;
      drop index if exists payment_refunds_succeeded;
      alter table payment_refunds drop column succeeded_at;
      drop index if exists payments_merchant_paid;
      alter table payments drop column payee, drop column sub_mchid, drop column sub_appid, drop column payer_openid_kind;
      drop table school_sub_merchants;
    `);
  }
}
