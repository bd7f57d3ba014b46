import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the payments' sweeps (issue 21): the surplus sweep reads paid, unrefunded provider payments by kind and
 * paid time; the refund query reads the refunds still pending or processing by age.
 */
export class PaymentSweeps1766304000000 implements MigrationInterface {
  name = 'PaymentSweeps1766304000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create index payments_unrefunded_paid_idx on payments (kind, paid_at) where state = 'paid' and refunded_fen = 0 and method = 'wechat';
      create index payment_refunds_open_idx on payment_refunds (created_at) where state in ('pending', 'processing');
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop index payment_refunds_open_idx; drop index payments_unrefunded_paid_idx;`);
  }
}
