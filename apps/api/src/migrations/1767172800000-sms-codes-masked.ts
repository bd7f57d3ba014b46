import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in codes no longer readable in sms_messages / sms_outbox (issue 34 item 9): a code text the provider has (sent,
 * delivered) or that failed keeps its code masked, in its variables and its text; the code's hash stays in sms_codes
 * (what verifies it), the code itself only at the phone. From now on SmsDelivery masks it when it records the send;
 * this masks the texts stored before. Texts still to send (queued, sending) keep their code. Not reversible.
 */
export class SmsCodesMasked1767172800000 implements MigrationInterface {
  name = 'SmsCodesMasked1767172800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      update sms_messages
         set params = jsonb_set(params, '{code}', '"******"'),
             content = replace(content, params->>'code', '******')
       where kind in ('code.login', 'code.resetpwd', 'code.dealpwd')
         and state in ('sent', 'delivered', 'failed')
         and params ? 'code' and params->>'code' <> '******'
    `);
  }

  async down(): Promise<void> {
    // the codes are gone: nothing to put back
  }
}
