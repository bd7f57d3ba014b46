import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Guardians' messages (issue 24): a WeChat message keeps the variables it was made from, so the SMS that replaces it
 * (WeChat refused it: 43101 not subscribed, …) says the same thing in full (the template's data is cut to 20 characters).
 */
export class GuardianMessageParams1766908800000 implements MigrationInterface {
  name = 'GuardianMessageParams1766908800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table wechat_messages add column params jsonb not null default '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`alter table wechat_messages drop column params`);
  }
}
