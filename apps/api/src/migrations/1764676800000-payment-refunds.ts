import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refunds (issue 10, design.md §5a): one row per refund of a payment, all or part, through the provider (WeChat
 * payments) or back to the balance (balance payments, with their `refund` ledger entry).
 *
 * - request_key is unique per payment: the same request refunds once and is answered from its row.
 * - out_refund_no is the provider's refund number, unique across the platform; it is derived from the payment and
 *   the request key, so a request retried after a failure of ours reaches the provider with the same number (and the
 *   provider answers the refund it already made instead of making a second one).
 * - state: pending (recorded, the provider not asked or its answer unknown), processing (the provider accepted it and
 *   has not finished), succeeded, failed (the provider refused it; what the refund did here was corrected).
 * - payments.refunded_fen (already checked to stay within the amount) is the sum of a payment's refunds that did not
 *   fail; the payment is `refunded` once it reaches the amount.
 * - the local WeChat Pay sandbox keeps its refunds too, by out_refund_no, as the real service does.
 */
export class PaymentRefunds1764676800000 implements MigrationInterface {
  name = 'PaymentRefunds1764676800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table payment_refunds (
        id bigserial primary key,
        payment_id bigint not null references payments(id),
        school_id int not null references schools(id),
        out_refund_no varchar(64) not null unique,
        request_key varchar(100) not null,
        amount_fen bigint not null check (amount_fen > 0),
        reason varchar(200) not null,
        state varchar(16) not null check (state in ('pending', 'processing', 'succeeded', 'failed')),
        provider_refund_id varchar(64),
        meta jsonb not null default '{}',
        actor_id int references users(id),
        created_at timestamptz not null default now(),
        unique (payment_id, request_key)
      );
      create index payment_refunds_school_idx on payment_refunds (school_id, created_at desc);
      create index payment_refunds_pending_idx on payment_refunds (created_at) where state = 'pending';

      create table wechatpay_sandbox_refunds (
        out_refund_no varchar(64) primary key,
        out_trade_no varchar(32) not null references wechatpay_sandbox_orders(out_trade_no),
        refund_id varchar(40) not null,
        amount_fen bigint not null,
        reason varchar(80),
        created_at timestamptz not null default now()
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      drop table wechatpay_sandbox_refunds;
      drop table payment_refunds;
    `);
  }
}
