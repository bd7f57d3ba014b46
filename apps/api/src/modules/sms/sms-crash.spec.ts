import { cutSmsParams, SMS_PARAM_MAX, type SmsGatewayName } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { eventually, startTestApp, type TestApp } from '../../../test/harness';
import { AliyunFake } from '../../sandboxes/sms-fake/aliyun-fake.service';
import { TencentFake } from '../../sandboxes/sms-fake/tencent-fake';
import { SmsGateways } from './gateways/gateways';
import { renderSms } from './render';
import { SmsReports } from './reports.service';
import { SmsTexts } from './texts.service';

/**
 * Issue 34 item 13: a worker killed while a batch was at the provider. The rows stay `sending`; `sms.poll` sends them
 * again only after asking the provider (Aliyun QuerySendDetails, Tencent PullSmsSendStatusByPhoneNumber, by mobile and
 * day) what it already accepted: each guardian gets the notice once.
 */
let seq = 0;
const mobile = () => `137${String(process.pid % 1000).padStart(3, '0')}${String(seq++).padStart(5, '0')}`;

describe.each(['aliyun', 'tencent'] as const)('a worker killed with a batch at %s', (p: SmsGatewayName) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SMS_PROVIDER: p } });
  });
  afterAll(() => t.close());

  it('sms.poll asks the provider first: what it accepted is marked sent with its id, the rest sent once; every mobile gets it once', async () => {
    const fake = p === 'aliyun' ? t.app.get(AliyunFake) : t.app.get(TencentFake);
    fake.control({ reset: true });
    const mobiles = Array.from({ length: 8 }, mobile);
    const params = { school: '阳光晚托', title: `停电通知 ${p}` };
    const staged = await t.app.get(SmsTexts).stage(
      t.app.get(DataSource),
      mobiles.map((m) => ({ school_id: t.demo.schoolId, mobile: m, kind: 'notice.important' as const, params, key: `crash-${p}-${m}` })),
    );
    const ids = staged.map((s) => s.id).sort((a, b) => a - b);
    expect(ids).toHaveLength(8);
    // the worker claimed the batch 11 minutes ago and was killed with its request at the provider: the provider
    // accepted the first five (the request went out), the rows were never recorded
    await t.sql.query(`update sms_messages set state = 'sending', tries = 1, updated_at = now() - interval '11 minutes' where id = any($1)`, [ids]);
    const gateway = t.app.get(SmsGateways).get(p)!;
    const accepted = await gateway.send({
      kind: 'notice.important',
      templateCode: t.app.get(SmsGateways).templateOf(p, 'notice.important')!,
      params: cutSmsParams('notice.important', params, SMS_PARAM_MAX[p]),
      content: renderSms('notice.important', params),
      messages: ids.slice(0, 5).map((id, i) => ({ id, mobile: mobiles[i] })),
    });
    expect(accepted.every((o) => o.ok)).toBe(true);

    await t.app.get(SmsReports).poll();
    const rows = await eventually(async () => {
      const { rows } = await t.sql.query(`select id::int, mobile, state, provider_message_id from sms_messages where id = any($1) order by id`, [
        ids,
      ]);
      // settled: none left sending (one the provider had is recorded as it answered: delivered, or sent when its
      // receipt was not in yet; Aliyun's query names no BizId, so such a one stays sent)
      return rows.every((r) => r.state === 'delivered' || r.state === 'sent') ? rows : null;
    }, 20_000);
    for (const m of mobiles) expect([m, fake.messages(m).length]).toEqual([m, 1]);
    // the ones the provider had are those it accepted (Tencent names them by SerialNo)
    if (p === 'tencent') expect(rows.slice(0, 5).map((r) => r.provider_message_id)).toEqual(accepted.map((o) => (o.ok ? o.messageId : null)));
  });
});
