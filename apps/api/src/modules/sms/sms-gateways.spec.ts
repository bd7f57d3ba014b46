import { Code, SMS_PARAM_MAX, type SmsGatewayName } from '@wantuo/shared';
import { eventually, startTestApp, type TestApp } from '../../../test/harness';
import { AliyunFake } from '../../sandboxes/sms-fake/aliyun-fake.service';
import type { FakeControl, FakeMessage } from '../../sandboxes/sms-fake/fake-common';
import { TencentFake } from '../../sandboxes/sms-fake/tencent-fake';
import { AliyunGateway } from './gateways/aliyun.gateway';
import { NoticeClock } from '../notices/notices-sql';
import { SmsGateways } from './gateways/gateways';
import { SANDBOX_ALIYUN, SANDBOX_TENCENT } from './gateways/sandbox-account';
import { TencentGateway } from './gateways/tencent.gateway';
import { SmsReports } from './reports.service';
import { SmsTexts } from './texts.service';

/**
 * The texts of the product through each real gateway's SDK against its local fake (issue 23): every path ends
 * `delivered` by the provider's report; transient refusals are retried, final ones fail and are shown, account ones go
 * to the other provider once; a wrong secret is refused as the provider does.
 */

const OTHER: Record<SmsGatewayName, SmsGatewayName> = { aliyun: 'tencent', tencent: 'aliyun' };
let seq = 0;
/** a mobile no other test uses */
const mobile = () => `139${String(process.pid % 1000).padStart(3, '0')}${String(seq++).padStart(5, '0')}`;

interface Fake {
  control(c: FakeControl): unknown;
  messages(mobile?: string): FakeMessage[];
}

const fakeOf = (t: TestApp, p: SmsGatewayName): Fake => (p === 'aliyun' ? t.app.get(AliyunFake) : t.app.get(TencentFake));

/** A sign-in code as SmsCodeService queues it (the endpoint itself texts only mobiles with an account) */
const codeTo = (t: TestApp, to: string) =>
  t.app.get(SmsTexts).queue([{ school_id: null, mobile: to, kind: 'code.login', params: { code: '246810', minutes: '5' } }]);

const rowsOf = async (t: TestApp, where: string, params: unknown[]) =>
  (
    await t.sql.query(
      `select id::int, mobile, kind, provider, handed_over, state, template_code, provider_message_id, error_code, error_message, units, tries
         from sms_messages where ${where} order by id`,
      params,
    )
  ).rows;

/** Waits until every message of `where` has left queued/sending/sent; answers them. */
const settled = (t: TestApp, where: string, params: unknown[], n = 1) =>
  eventually(async () => {
    const rows = await rowsOf(t, where, params);
    return rows.length >= n && rows.every((r) => r.state === 'delivered' || r.state === 'failed') ? rows : null;
  }, 20_000);

describe.each(['aliyun', 'tencent'] as const)('texts through %s', (p) => {
  let t: TestApp;
  let fake: Fake;
  let other: Fake;
  const templates = p === 'aliyun' ? SANDBOX_ALIYUN.templates : SANDBOX_TENCENT.templates;

  beforeAll(async () => {
    t = await startTestApp({ demoPeople: true, env: { SMS_PROVIDER: p, SMS_FALLBACK_PROVIDER: OTHER[p] } });
    // noon in China: outside the quiet hours, when a notice's texts are held to 07:00
    const noon = new Date();
    noon.setUTCHours(4, 0, 0, 0);
    jest.spyOn(t.app.get(NoticeClock), 'now').mockImplementation(() => noon);
    fake = fakeOf(t, p);
    other = fakeOf(t, OTHER[p]);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    fake.control({ reset: true });
    other.control({ reset: true });
  });

  it('a sign-in code goes through the SDK with the approved template, ends delivered by the report, and signs in', async () => {
    const to = '13800000001'; // the demo admin
    expect((await t.post('/api/sms/send').send({ mobile: to, event: 'login' })).body.code).toBe(Code.Ok);
    const [row] = await settled(t, 'mobile = $1', [to]);
    expect(row).toMatchObject({
      provider: p,
      state: 'delivered',
      kind: 'code.login',
      template_code: templates['code.login'],
      handed_over: false,
      tries: 1,
    });
    expect(row.provider_message_id).toBeTruthy();
    expect(row.units).toBeGreaterThanOrEqual(1);
    // the fake notes its own report once the push has been answered, a moment after the API has applied it
    const got = await eventually(async () => fake.messages(to).find((m) => m.report === 'delivered') ?? null);
    expect(got).toMatchObject({ mobile: to, templateCode: templates['code.login'], report: 'delivered' });
    // the code the fake received is the one that signs in
    const code = p === 'aliyun' ? (got.params as Record<string, string>).code : (got.params as string[])[0];
    const login = await t.post('/api/index/mobilelogin').send({ mobile: to, code });
    expect(login.body.code).toBe(Code.Ok);
  });

  it('an important notice to every guardian of a class: batched through the SDK, each delivered once', async () => {
    const token = await t.login('adviser');
    const res = await t.post('/api/index/teacherAddInform', token).send({
      title: `重要通知 ${p}：周五下午提前放学，请家长按时接回孩子`,
      content: '<p>周五下午提前放学。</p>',
      scope: 'classes',
      class_ids: [t.demo.classes!.running],
      audience: 'guardians',
      important: true,
      request_id: `sms-gw-${p}-${Date.now()}`,
    });
    expect(res.body.code).toBe(Code.Ok);
    const n = res.body.data.sms_count as number;
    expect(n).toBeGreaterThan(1);
    const rows = await settled(t, `kind = 'notice.important' and provider = $1`, [p], n);
    expect(rows).toHaveLength(n);
    expect(rows.every((r) => r.state === 'delivered')).toBe(true);
    expect(new Set(rows.map((r) => r.mobile)).size).toBe(n);
    // one request for the class (the provider's batch), the title cut to the provider's limit with …
    if (p === 'aliyun') expect(new Set(rows.map((r) => r.provider_message_id)).size).toBe(1);
    const [got] = fake.messages(rows[0].mobile);
    const title = p === 'aliyun' ? (got.params as Record<string, string>).title : (got.params as string[])[1];
    expect(Array.from(title).length).toBeLessThanOrEqual(SMS_PARAM_MAX[p]);
    if (Array.from(`重要通知 ${p}：周五下午提前放学，请家长按时接回孩子`).length > SMS_PARAM_MAX[p]) expect(title.endsWith('…')).toBe(true);
  });

  it('an alert and a contract reminder (their kinds through SmsTexts, the one way every module sends) end delivered', async () => {
    const [a, b] = [mobile(), mobile()];
    await t.app.get(SmsTexts).queue([
      {
        school_id: t.demo.schoolId,
        mobile: a,
        kind: 'alert.raised',
        params: { school: '阳光晚托', student: '张小明', class: '三年级一班', what: '18:00 仍未离园' },
      },
      {
        school_id: t.demo.schoolId,
        mobile: b,
        kind: 'contract.expiring',
        params: { school: '阳光晚托', student: '张小明', date: '2026年12月1日', units: '3' },
      },
    ]);
    const rows = await settled(t, 'mobile = any($1)', [[a, b]], 2);
    expect(rows.map((r) => [r.kind, r.state, r.provider])).toEqual([
      ['alert.raised', 'delivered', p],
      ['contract.expiring', 'delivered', p],
    ]);
  });

  it('a transient refusal is retried, then delivered; a business limit fails at once and is shown with its code', async () => {
    const [a, b] = [mobile(), mobile()];
    fake.control({ fail: { mode: 'transient', times: 1, mobile: a } });
    await codeTo(t, a);
    const [retried] = await settled(t, 'mobile = $1', [a]);
    expect(retried).toMatchObject({ state: 'delivered', provider: p, handed_over: false, tries: 2 });

    fake.control({ fail: { mode: 'final', times: 1, mobile: b } });
    await t.app
      .get(SmsTexts)
      .queue([{ school_id: t.demo.schoolId, mobile: b, kind: 'notice.remind', params: { school: '阳光晚托', title: '家长会' } }]);
    const [limited] = await settled(t, 'mobile = $1', [b]);
    expect(limited).toMatchObject({ state: 'failed', provider: p, handed_over: false, tries: 1 });
    expect(limited.error_code).toBe(p === 'aliyun' ? 'isv.BUSINESS_LIMIT_CONTROL' : 'LimitExceeded.PhoneNumberDailyLimit');
    expect(other.messages(b)).toEqual([]);
    // the school's admin sees it, with the provider's code and message
    const admin = await t.login('admin');
    const list = await t.get(`/api/index/smsMessages?state=failed&mobile=${b}`, admin);
    expect(list.body.data.list).toEqual([expect.objectContaining({ mobile: b, state: 'failed', error_code: limited.error_code })]);
    expect(list.body.data.list[0].error_message).toBeTruthy();
  });

  it("one mobile's business limit in a batch fails that mobile only; the others are delivered", async () => {
    const [a, b, c] = [mobile(), mobile(), mobile()];
    // the batch with b is refused (Aliyun: the whole request; Tencent: b's status), then b alone
    fake.control({ fail: { mode: 'final', times: 2, mobile: b } });
    await t.app.get(SmsTexts).queue(
      [a, b, c].map((to) => ({
        school_id: t.demo.schoolId,
        mobile: to,
        kind: 'notice.important' as const,
        params: { school: '阳光晚托', title: '同一批' },
      })),
    );
    const rows = await settled(t, 'mobile = any($1)', [[a, b, c]], 3);
    expect(rows.map((r) => [r.mobile, r.state])).toEqual([
      [a, 'delivered'],
      [b, 'failed'],
      [c, 'delivered'],
    ]);
  });

  it('an account refusal hands the text to the other provider, which sends it once', async () => {
    const to = mobile();
    fake.control({ fail: { mode: 'account', times: 1, mobile: to } });
    await codeTo(t, to);
    const [row] = await settled(t, 'mobile = $1', [to]);
    expect(row).toMatchObject({ state: 'delivered', provider: OTHER[p], handed_over: true });
    expect(row.error_code).toBe(p === 'aliyun' ? 'isv.AMOUNT_NOT_ENOUGH' : 'FailedOperation.InsufficientBalanceInSmsPackage');
    expect(fake.messages(to)).toEqual([]);
    expect(other.messages(to)).toHaveLength(1);
  });

  it('receipts not pushed are polled from the provider', async () => {
    const to = mobile();
    fake.control({ reports: 'poll' });
    await codeTo(t, to);
    await eventually(async () => ((await rowsOf(t, `mobile = $1 and state = 'sent'`, [to])).length ? true : null));
    // the poll asks for texts sent over a minute ago
    await t.sql.query(`update sms_messages set sent_at = now() - interval '2 minutes' where mobile = $1`, [to]);
    // the provider decides a receipt a moment after the send
    const [row] = await eventually(async () => {
      await t.app.get(SmsReports).poll();
      const rows = await rowsOf(t, 'mobile = $1', [to]);
      return rows[0].state === 'sent' ? null : rows;
    });
    expect(row).toMatchObject({ state: 'delivered', provider: p });
  });

  it('a wrong secret is refused by the provider as an account failure: the other provider takes the text', async () => {
    const gateways = t.app.get(SmsGateways) as unknown as { byName: Map<string, unknown> };
    const real = gateways.byName.get(p);
    const port = (t.app.getHttpServer().address() as { port: number }).port;
    const at = () => ({ protocol: 'http' as const, host: `127.0.0.1:${port}/api/dev/sms/${p}` });
    gateways.byName.set(
      p,
      p === 'aliyun'
        ? new AliyunGateway({ ...SANDBOX_ALIYUN, accessKeySecret: 'not-the-secret' }, at)
        : new TencentGateway({ ...SANDBOX_TENCENT, region: 'ap-guangzhou', secretKey: 'not-the-secret' }, at),
    );
    try {
      const to = mobile();
      await codeTo(t, to);
      const [row] = await settled(t, 'mobile = $1', [to]);
      expect(row).toMatchObject({ state: 'delivered', provider: OTHER[p], handed_over: true });
      // the first provider's refusal is kept on the message
      expect(row.error_code).toBe(p === 'aliyun' ? 'SignatureDoesNotMatch' : 'AuthFailure.SignatureFailure');
      expect(fake.messages(to)).toEqual([]);
    } finally {
      gateways.byName.set(p, real);
    }
  });
});

describe('report callbacks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SMS_PROVIDER: 'aliyun' } });
  });
  afterAll(() => t.close());

  it('refuses a wrong token (401), an unknown provider (404) and a body that is no report (400), changing nothing', async () => {
    expect((await t.post('/api/sms-report/aliyun?token=wrong').send([])).status).toBe(401);
    expect((await t.post('/api/sms-report/aliyun').send([])).status).toBe(401);
    expect((await t.post('/api/sms-report/nope?token=x').send([])).status).toBe(404);
    const token = encodeURIComponent(t.config.sms.reportToken);
    const bad = await t.post(`/api/sms-report/aliyun?token=${token}`).set('content-type', 'application/json').send('{"not":"an array"}');
    expect(bad.status).toBe(400);
    const ok = await t.post(`/api/sms-report/aliyun?token=${token}`).set('content-type', 'application/json').send('[]');
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ code: 0, msg: '成功' });
  });
});
