import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../../../test/harness';
import { AliyunGateway, chinaDay, type AliyunSmsReport } from '../../modules/sms/gateways/aliyun.gateway';
import { GatewayError, type GatewaySend } from '../../modules/sms/gateways/gateway';
import { SANDBOX_ALIYUN } from '../../modules/sms/gateways/sandbox-account';
import { AliyunFake } from './aliyun-fake.service';

/**
 * The real AliyunGateway (the dysmsapi SDK) against the local fake: signatures, sends, batches, receipts (pushed and
 * polled), the provider's refusals and how they are classed.
 */
let t: TestApp;
let port: number;
let fake: AliyunFake;
let gateway: AliyunGateway;

const endpoint = () => ({ protocol: 'http' as const, host: `127.0.0.1:${port}/api/dev/sms/aliyun` });

const login = (mobiles: string[], params: Record<string, string> = { code: '123456', minutes: '5' }, firstId = 1): GatewaySend => ({
  kind: 'code.login',
  templateCode: SANDBOX_ALIYUN.templates['code.login'],
  params,
  content: `【晚托平台】您的登录验证码为 ${params.code}，${params.minutes} 分钟内有效。如非本人操作，请忽略本短信。`,
  messages: mobiles.map((mobile, i) => ({ id: firstId + i, mobile })),
});

const control = (body: object) => t.post('/api/dev/sms/aliyun/control').set('content-type', 'application/json').send(JSON.stringify(body));
const listed = async (mobile: string) => (await t.get(`/api/dev/sms/aliyun/messages?mobile=${mobile}`)).body.data as Array<Record<string, unknown>>;

async function refusal(p: Promise<unknown>): Promise<GatewayError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  return err as GatewayError;
}

beforeAll(async () => {
  t = await startTestApp({ listen: true, runJobs: false });
  port = (t.app.getHttpServer().address() as AddressInfo).port;
  fake = t.app.get(AliyunFake);
  gateway = new AliyunGateway(SANDBOX_ALIYUN, endpoint);
});
afterAll(() => t.close());
beforeEach(async () => {
  expect((await control({ reset: true })).body.code).toBe(200);
});

describe('the Aliyun gateway against the fake', () => {
  it('sends one text with SendSms: accepted with a BizId, kept by the fake, then reported delivered', async () => {
    const out = await gateway.send(login(['13800000001']));
    expect(out).toEqual([{ id: 1, ok: true, messageId: expect.stringMatching(/^\d+\^0$/), units: 1 }]);
    const [m] = await listed('13800000001');
    expect(m).toMatchObject({
      messageId: out[0].ok && out[0].messageId,
      signName: '晚托平台',
      templateCode: SANDBOX_ALIYUN.templates['code.login'],
      params: { code: '123456', minutes: '5' },
      report: null,
    });
    await fake.settled();
    expect((await listed('13800000001'))[0].report).toBe('delivered');
  });

  it('sends to several mobiles with SendBatchSms: one BizId for all, each mobile kept', async () => {
    const mobiles = ['13800000011', '13800000012', '13800000013'];
    const out = await gateway.send(login(mobiles, { code: '654321', minutes: '10' }, 10));
    expect(out.map((o) => o.id)).toEqual([10, 11, 12]);
    const ids = new Set(out.map((o) => (o.ok ? o.messageId : null)));
    expect(ids.size).toBe(1);
    for (const mobile of mobiles)
      expect((await listed(mobile))[0]).toMatchObject({ messageId: [...ids][0], params: { code: '654321', minutes: '10' } });
  });

  it('counts the units of a long text with the provider sign', async () => {
    const send = login(['13800000021']);
    send.content = `【晚托平台】${'字'.repeat(80)}`;
    expect((await gateway.send(send))[0]).toMatchObject({ ok: true, units: 2 });
  });

  it('polls receipts with QuerySendDetails: waiting, then delivered; undelivered ones failed with the carrier code', async () => {
    await control({ reports: 'poll' });
    const [sent] = await gateway.send(login(['13800000031'], undefined, 31));
    if (!sent.ok) throw new Error('not sent');
    const pending = { id: 31, mobile: '13800000031', messageId: sent.messageId, sentAt: new Date() };
    // right after the send the receipt is usually still waiting (SendStatus 1: no report); the fake decides it 100 ms
    // on, so a slow machine may already see it delivered. Never anything else.
    expect((await gateway.poll([pending])).every((r) => r.delivered && r.messageId === sent.messageId)).toBe(true);
    await fake.settled();
    expect(await gateway.poll([pending])).toEqual([
      { messageId: sent.messageId, mobile: '13800000031', delivered: true, code: 'DELIVERED', message: null, at: expect.any(Date), units: null },
    ]);

    await control({ reports: 'undelivered' });
    const [lost] = await gateway.send(login(['13800000032'], undefined, 32));
    if (!lost.ok) throw new Error('not sent');
    await fake.settled();
    const [r] = await gateway.poll([{ id: 32, mobile: '13800000032', messageId: lost.messageId, sentAt: new Date() }]);
    expect(r).toMatchObject({ delivered: false, code: 'MK:0001' });
  });

  it('polls many pending messages, a few queries at a time', async () => {
    await control({ reports: 'poll' });
    const mobiles = Array.from({ length: 20 }, (_, i) => `1390000${String(i).padStart(4, '0')}`);
    const out = await gateway.send(login(mobiles, undefined, 100));
    await fake.settled();
    const reports = await gateway.poll(out.map((o, i) => ({ id: o.id, mobile: mobiles[i], messageId: o.ok ? o.messageId : '', sentAt: new Date() })));
    expect(reports).toHaveLength(20);
    expect(reports.every((r) => r.delivered)).toBe(true);
  });

  it('pushes receipts as SmsReport, which parseReport reads', async () => {
    const pushed: AliyunSmsReport[][] = [];
    const real = global.fetch;
    const spy = jest.spyOn(global, 'fetch').mockImplementation(async (url, init) => {
      if (String(url).includes('/api/sms-report/aliyun?token=')) pushed.push(JSON.parse(String(init?.body)));
      return real(url, init);
    });
    try {
      const out = await gateway.send(login(['13800000041', '13800000042'], undefined, 41));
      await fake.settled();
      expect(pushed).toHaveLength(1);
      expect(pushed[0][0]).toEqual({
        phone_number: '13800000041',
        send_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        report_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        success: true,
        err_code: 'DELIVERED',
        err_msg: '用户接收成功',
        sms_size: '1',
        biz_id: out[0].ok && out[0].messageId,
        // the batch's OutId: our ids (smsRef), what records() matches a text of unknown fate by
        out_id: '41-42',
      });
      const reports = gateway.parseReport(Buffer.from(JSON.stringify(pushed[0])));
      expect(reports.map((r) => [r.mobile, r.delivered, r.code, r.units])).toEqual([
        ['13800000041', true, 'DELIVERED', 1],
        ['13800000042', true, 'DELIVERED', 1],
      ]);
      expect(Math.abs(reports[0].at!.getTime() - Date.now())).toBeLessThan(5_000);
    } finally {
      spy.mockRestore();
    }
    expect(gateway.reportAnswer).toEqual({ code: 0, msg: '成功' });
  });

  it('reads an undelivered SmsReport entry with a +86 mobile', () => {
    const [r] = gateway.parseReport([
      {
        phone_number: '+8613800000051',
        send_time: '2025-03-01 23:59:58',
        report_time: '2025-03-02 00:00:03',
        success: false,
        err_code: 'MK:0001',
        err_msg: '用户停机',
        sms_size: '2',
        biz_id: '1234^0',
        out_id: '51',
      },
    ]);
    expect(r).toEqual({
      messageId: '1234^0',
      mobile: '13800000051',
      delivered: false,
      code: 'MK:0001',
      message: '用户停机',
      at: new Date('2025-03-01T16:00:03Z'),
      units: 2,
    });
  });

  it('SendDate is the China day of the send, whatever the process TZ', () => {
    expect(chinaDay(new Date('2025-01-01T15:59:59Z'))).toBe('20250101');
    expect(chinaDay(new Date('2025-01-01T16:00:00Z'))).toBe('20250102');
  });
});

describe('refusals, classed', () => {
  it('a wrong secret: SignatureDoesNotMatch (account); an unknown AccessKeyId: InvalidAccessKeyId.NotFound (account)', async () => {
    const wrong = new AliyunGateway({ ...SANDBOX_ALIYUN, accessKeySecret: 'notTheSandboxSecret' }, endpoint);
    const e = await refusal(wrong.send(login(['13800000061'])));
    expect(e.failure).toMatchObject({ class: 'account', code: 'SignatureDoesNotMatch' });
    expect(e.failure.message).toContain('Specified signature does not match our calculation');
    const unknown = new AliyunGateway({ ...SANDBOX_ALIYUN, accessKeyId: 'LTAI5tSomebodyElse' }, endpoint);
    expect((await refusal(unknown.send(login(['13800000061'])))).failure).toMatchObject({ class: 'account', code: 'InvalidAccessKeyId.NotFound' });
    expect(await listed('13800000061')).toEqual([]);
  });

  it.each([
    ['transient', 'isp.SYSTEM_ERROR'],
    ['account', 'isv.AMOUNT_NOT_ENOUGH'],
    ['final', 'isv.BUSINESS_LIMIT_CONTROL'],
  ] as const)('a forced %s failure: %s, once', async (mode, code) => {
    await control({ fail: { mode, times: 1 } });
    expect((await refusal(gateway.send(login(['13800000071'])))).failure).toMatchObject({ class: mode, code });
    expect((await gateway.send(login(['13800000071'])))[0].ok).toBe(true);
  });

  it('a forced failure for one mobile leaves the others alone', async () => {
    await control({ fail: { mode: 'final', times: 5, mobile: '13800000081' } });
    expect((await gateway.send(login(['13800000082'])))[0].ok).toBe(true);
    const e = await refusal(gateway.send(login(['13800000082', '13800000081'])));
    expect(e.failure).toMatchObject({ class: 'final', code: 'isv.BUSINESS_LIMIT_CONTROL', message: '触发天级流控Permits:10' });
  });

  it('an unapproved template: isv.SMS_TEMPLATE_ILLEGAL (final)', async () => {
    const e = await refusal(gateway.send({ ...login(['13800000091']), templateCode: 'SMS_999999' }));
    expect(e.failure).toMatchObject({ class: 'final', code: 'isv.SMS_TEMPLATE_ILLEGAL' });
  });

  it('another sign: isv.SMS_SIGNATURE_ILLEGAL (account)', async () => {
    const other = new AliyunGateway({ ...SANDBOX_ALIYUN, signName: '别的签名' }, endpoint);
    expect((await refusal(other.send(login(['13800000092'])))).failure).toMatchObject({ class: 'account', code: 'isv.SMS_SIGNATURE_ILLEGAL' });
  });

  it('template variables: too long, missing or extra, refused; a bad mobile refused', async () => {
    const long = { code: '123456', minutes: '5'.repeat(36) };
    expect((await refusal(gateway.send(login(['13800000101'], long)))).failure).toMatchObject({ class: 'final', code: 'isv.PARAM_LENGTH_LIMIT' });
    // 35 characters (code points) pass
    expect((await gateway.send(login(['13800000101'], { code: '123456', minutes: '分'.repeat(35) })))[0].ok).toBe(true);
    expect((await refusal(gateway.send(login(['13800000101'], { code: '123456' })))).failure).toMatchObject({
      class: 'final',
      code: 'isv.TEMPLATE_MISSING_PARAMETERS',
    });
    expect((await refusal(gateway.send(login(['13800000101'], { code: '1', minutes: '5', more: 'x' })))).failure.code).toBe(
      'isv.TEMPLATE_MISSING_PARAMETERS',
    );
    expect((await refusal(gateway.send(login(['1380000010'])))).failure).toMatchObject({ class: 'final', code: 'isv.MOBILE_NUMBER_ILLEGAL' });
  });

  it('a network failure is not a GatewayError (transient by the caller)', async () => {
    const nowhere = new AliyunGateway(SANDBOX_ALIYUN, () => ({ protocol: 'http', host: '127.0.0.1:1/api/dev/sms/aliyun' }));
    const err = await nowhere.send(login(['13800000111'])).then(
      () => null,
      (e: unknown) => e,
    );
    // the SDK lets node's own error through (ECONNREFUSED, a timeout): no statusCode, so not the provider's answer
    expect(err).toMatchObject({ code: 'ECONNREFUSED' });
    expect(err).not.toBeInstanceOf(GatewayError);
  });
});

describe('the fake checks signatures as Aliyun does', () => {
  interface Captured {
    method: string;
    url: string;
    headers: IncomingHttpHeaders;
    body: Buffer;
  }

  /** The SDK's request, signed for the fake's endpoint but caught on the way (answered OK), to be replayed. */
  async function captureSdkRequest(): Promise<Captured> {
    let captured: Captured | null = null;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        captured = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ RequestId: 'x', Code: 'OK', Message: 'OK', BizId: '1^0' }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const at = (server.address() as AddressInfo).port;
    try {
      // the host header the SDK signs is its endpoint string: the same path under the recorder's port
      await new AliyunGateway(SANDBOX_ALIYUN, () => ({ protocol: 'http', host: `127.0.0.1:${at}/api/dev/sms/aliyun` })).send(login(['13800000121']));
    } finally {
      await new Promise((r) => server.close(r));
    }
    return captured!;
  }

  const replay = (c: Captured, url = c.url) =>
    new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method: c.method, path: url, headers: c.headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      });
      req.on('error', reject);
      req.end(c.body);
    });

  it('accepts the request once, refuses its nonce again and any tampered query', async () => {
    const c = await captureSdkRequest();
    expect(c.url).toMatch(/^\/api\/dev\/sms\/aliyun\/\?.*PhoneNumbers=13800000121/);
    expect(String(c.headers.authorization)).toMatch(/^ACS3-HMAC-SHA256 Credential=LTAI5tSandboxWantuoDev01,SignedHeaders=host;x-acs-/);

    const tampered = await replay(c, c.url.replace('PhoneNumbers=13800000121', 'PhoneNumbers=13800000122'));
    expect(tampered.status).toBe(400);
    expect(tampered.body).toMatchObject({ Code: 'SignatureDoesNotMatch', HostId: 'dysmsapi.aliyuncs.com', RequestId: expect.any(String) });
    expect(tampered.body.Recommend).toContain('SignatureDoesNotMatch');
    expect(await listed('13800000122')).toEqual([]);

    const first = await replay(c);
    expect(first).toMatchObject({ status: 200, body: { Code: 'OK', Message: 'OK', BizId: expect.stringMatching(/\^0$/) } });
    const again = await replay(c);
    expect(again).toMatchObject({ status: 400, body: { Code: 'SignatureNonceUsed' } });

    const stale = await replay({ ...c, headers: { ...c.headers, 'x-acs-date': '2020-01-01T00:00:00Z' } });
    expect(stale).toMatchObject({ status: 400, body: { Code: 'InvalidTimeStamp.Expired' } });
  });

  it('refuses a tampered batch body (the payload hash is signed)', async () => {
    const statuses: number[] = [];
    let body: Buffer | null = null;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (d: Buffer) => chunks.push(d));
      req.on('end', async () => {
        body = Buffer.concat(chunks);
        const forged = Buffer.from(body.toString('utf8').replace('13800000131', '13800000139'));
        // the SDK sends its form body chunked; the forged copy goes with its length
        const { 'transfer-encoding': _, ...headers } = req.headers;
        const answer = await replay({
          method: req.method!,
          url: req.url!,
          headers: { ...headers, 'content-length': String(forged.length) },
          body: forged,
        });
        statuses.push(answer.status);
        res.setHeader('content-type', 'application/json');
        res.statusCode = answer.status;
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const at = (server.address() as AddressInfo).port;
    try {
      const relay = new AliyunGateway(SANDBOX_ALIYUN, () => ({ protocol: 'http', host: `127.0.0.1:${at}/api/dev/sms/aliyun` }));
      const e = await refusal(relay.send(login(['13800000131', '13800000132'])));
      expect(e.failure.code).toBe('SignatureDoesNotMatch');
    } finally {
      await new Promise((r) => server.close(r));
    }
    expect(String(body)).toContain('PhoneNumberJson=');
    expect(statuses).toEqual([400]);
  });

  it('control and messages are plain dev routes', async () => {
    expect((await control({ reports: 'nope' })).body.code).toBe(100);
    expect((await control({ fail: { mode: 'final', times: 2 } })).body.data).toEqual({ reports: 'push', fail: { mode: 'final', times: 2 } });
  });
});
