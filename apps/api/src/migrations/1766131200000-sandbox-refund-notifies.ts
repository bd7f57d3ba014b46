import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refund notifies in the local WeChat Pay sandbox (issue 21): a sandbox refund keeps its status (SUCCESS, or
 * PROCESSING until told to finish it as SUCCESS, ABNORMAL or CLOSED, as the real service does) and the notify_url its
 * request gave, where its signed REFUND.* notify is sent.
 */
export class SandboxRefundNotifies1766131200000 implements MigrationInterface {
  name = 'SandboxRefundNotifies1766131200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      alter table wechatpay_sandbox_refunds
        add column status varchar(16) not null default 'SUCCESS' check (status in ('PROCESSING', 'SUCCESS', 'ABNORMAL', 'CLOSED')),
        add column notify_url varchar(256);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`alter table wechatpay_sandbox_refunds drop column notify_url, drop column status`);
  }
}
