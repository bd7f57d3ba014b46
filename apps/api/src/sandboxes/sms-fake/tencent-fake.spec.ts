import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sms } from 'tencentcloud-sdk-nodejs-sms';
import { startTestApp, type TestApp } from '../../../test/harness';
import { GatewayError, type GatewaySend, type SendOutcome } from '../../modules/sms/gateways/gateway';
import { SANDBOX_TENCENT } from '../../modules/sms/gateways/sandbox-account';
import { TencentGateway } from '../../modules/sms/gateways/tencent.gateway';
import type { FakeControl, FakeMessage } from './fake-common';
import { tencentReportBody, TencentFake, verifyTc3 } from './tencent-fake';

/**
 * The real TencentGateway (the SDK, its TC3 signature) against the local fake at /api/dev/sms/tencent of a listening
 * test API: sends, receipts, refusals of each class, and the report callback's body.
 */
let t: TestApp;
let port: number;
const REGION = 'ap-guangzhou';
const endpoint = () => ({ protocol: 'http' as const, host: `127.0.0.1:${port}/api/dev/sms/tencent` });
const gateway = (account: Partial<typeof SANDBOX_TENCENT> = {}) => new TencentGateway({ ...SANDBOX_TENCENT, region: REGION, ...account }, endpoint);

beforeAll(async () => {
  t = await startTestApp({ listen: true, runJobs: false });
  port = (t.app.getHttpServer().address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
});

async function control(c: FakeControl): Promise<void> {
  const res = await t.post('/api/dev/sms/tencent/control').set('content-type', 'application/json').send(JSON.stringify(c));
  expect(res.status).toBe(200);
}
async function messages(mobile: string): Promise<FakeMessage[]> {
  const res = await t.get(`/api/dev/sms/tencent/messages?mobile=${mobile}`);
  expect(res.status).toBe(200);
  return res.body.data as FakeMessage[];
}

let nextId = 1;
function login(...mobiles: string[]): GatewaySend {
  return {
    kind: 'code.login',
    templateCode: SANDBOX_TENCENT.templates['code.login'],
    params: { code: '482913', minutes: '5' },
    content: '【晚托平台】您的登录验证码为 482913，5 分钟内有效。',
    messages: mobiles.map((mobile) => ({ id: nextId++, mobile })),
  };
}

const failed = (o: SendOutcome) => (o.ok ? null : o.failure);

async function refusal(p: Promise<unknown>): Promise<GatewayError['failure']> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(GatewayError);
  return (e as GatewayError).failure;
}

/** Records what the SDK really sends (headers, path, bytes) by pointing it at a throwaway server on the same path. */
async function sdkRequest(action: 'SendSms', req: Record<string, unknown>): Promise<{ path: string; headers: IncomingHttpHeaders; body: Buffer }> {
  let seen: { path: string; headers: IncomingHttpHeaders; body: Buffer } | null = null;
  const server = createServer((rq, rs) => {
    const chunks: Buffer[] = [];
    rq.on('data', (c: Buffer) => chunks.push(c));
    rq.on('end', () => {
      seen = { path: rq.url ?? '', headers: rq.headers, body: Buffer.concat(chunks) };
      rs.setHeader('content-type', 'application/json');
      rs.end(JSON.stringify({ Response: { SendStatusSet: [], RequestId: 'captured' } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const p = (server.address() as AddressInfo).port;
  try {
    const client = new sms.v20210111.Client({
      credential: { secretId: SANDBOX_TENCENT.secretId, secretKey: SANDBOX_TENCENT.secretKey },
      region: REGION,
      profile: { httpProfile: { endpoint: `127.0.0.1:${p}/api/dev/sms/tencent`, protocol: 'http://' } },
    });
    await client[action](req as never);
  } finally {
    await new Promise((r) => server.close(r));
  }
  return seen!;
}

const replay = (r: { path: string; headers: IncomingHttpHeaders; body: Buffer }, body = r.body) => {
  let q = t.post(r.path);
  for (const [k, v] of Object.entries(r.headers)) if (typeof v === 'string' && !['host', 'content-length', 'connection'].includes(k)) q = q.set(k, v);
  // a string goes out as its bytes (superagent would JSON-encode a Buffer under application/json)
  return q.send(body.toString('utf8'));
};

beforeEach(() => control({ reset: true }));

describe('TencentGateway against the fake', () => {
  it('sends one text: accepted with its SerialNo and Fee, kept by the fake', async () => {
    const req = login('13800000001');
    const [o] = await gateway().send(req);
    expect(o).toEqual({ id: req.messages[0].id, ok: true, messageId: expect.stringMatching(/^2640:\d+$/), units: 1 });
    const [m] = await messages('13800000001');
    expect(m).toMatchObject({
      messageId: (o as { messageId: string }).messageId,
      mobile: '13800000001',
      signName: SANDBOX_TENCENT.signName,
      templateCode: SANDBOX_TENCENT.templates['code.login'],
      params: ['482913', '5'],
      report: null,
    });
  });

  it('sends to several numbers in one request (the same mobile twice too), each with its own id and the Fee of a long text', async () => {
    const req: GatewaySend = {
      kind: 'exam.published',
      templateCode: SANDBOX_TENCENT.templates['exam.published'],
      params: { school: '阳光晚托中心第一分校区', student: '欧阳小明同学', exam: '第二学期期末综合测试', subject: '数学与逻辑思维' },
      content: '…',
      messages: [
        { id: nextId++, mobile: '13800000011' },
        { id: nextId++, mobile: '13800000012' },
        { id: nextId++, mobile: '13800000011' },
      ],
    };
    const out = await gateway().send(req);
    expect(out.map((o) => [o.id, o.ok, o.ok && o.units])).toEqual(req.messages.map((m) => [m.id, true, 2]));
    expect(new Set(out.map((o) => o.ok && o.messageId)).size).toBe(3);
    expect(await messages('13800000011')).toHaveLength(2);
  });

  it('polls delivered receipts (reports: poll), each once, and makes no call with nothing pending', async () => {
    await control({ reports: 'poll' });
    const gw = gateway();
    const out = await gw.send(login('13800000021', '13800000022'));
    const pending = out.map((o, i) => ({
      id: o.id,
      mobile: ['13800000021', '13800000022'][i],
      messageId: o.ok ? o.messageId : '',
      sentAt: new Date(),
    }));
    const reports = await gw.poll(pending);
    expect(reports).toHaveLength(2);
    for (const p of pending)
      expect(reports).toContainEqual({
        messageId: p.messageId,
        mobile: p.mobile,
        delivered: true,
        code: 'DELIVRD',
        message: '用户短信送达成功',
        at: expect.any(Date),
        units: null,
      });
    expect(await gw.poll(pending)).toEqual([]);
    expect(await gw.poll([])).toEqual([]);
    expect((await messages('13800000021'))[0].report).toBe('delivered');
  });

  it('pulls past one page of 100 receipts in one poll', async () => {
    await control({ reports: 'poll' });
    const gw = gateway();
    const mobiles = Array.from({ length: 150 }, (_, i) => `139${String(i).padStart(8, '0')}`);
    const out = await gw.send(login(...mobiles));
    expect(out.every((o) => o.ok)).toBe(true);
    const reports = await gw.poll([{ id: out[0].id, mobile: mobiles[0], messageId: 'x', sentAt: new Date() }]);
    expect(reports).toHaveLength(150);
  });

  it('a wrong secret is AuthFailure.SignatureFailure, an unknown SecretId AuthFailure.SecretIdNotFound: account', async () => {
    expect(await refusal(gateway({ secretKey: 'not-the-sandbox-secret' }).send(login('13800000031')))).toMatchObject({
      class: 'account',
      code: 'AuthFailure.SignatureFailure',
    });
    expect(await refusal(gateway({ secretId: 'AKIDUnknownUnknownUnknown0001' }).send(login('13800000031')))).toMatchObject({
      class: 'account',
      code: 'AuthFailure.SecretIdNotFound',
    });
    expect(await refusal(gateway({ sdkAppId: '1400000000' }).send(login('13800000031')))).toMatchObject({
      class: 'account',
      code: 'UnauthorizedOperation.SmsSdkAppIdVerifyFail',
    });
    expect(await messages('13800000031')).toEqual([]);
  });

  it('forced failures: transient and account refuse the request, final refuses the one number', async () => {
    const gw = gateway();
    await control({ fail: { mode: 'transient', times: 1 } });
    expect(await refusal(gw.send(login('13800000041')))).toMatchObject({ class: 'transient', code: 'InternalError.SendAndRecvFail' });
    expect((await gw.send(login('13800000041')))[0].ok).toBe(true);

    await control({ fail: { mode: 'account', times: 1 } });
    expect(await refusal(gw.send(login('13800000041')))).toMatchObject({ class: 'account', code: 'FailedOperation.InsufficientBalanceInSmsPackage' });

    await control({ fail: { mode: 'final', times: 1, mobile: '13800000042' } });
    const out = await gw.send(login('13800000041', '13800000042', '13800000043'));
    expect(out.map((o) => o.ok)).toEqual([true, false, true]);
    expect(failed(out[1])).toMatchObject({ class: 'final', code: 'LimitExceeded.PhoneNumberDailyLimit' });
    expect((await gw.send(login('13800000042')))[0].ok).toBe(true);
  });

  it('refuses, number by number and final: an unapproved template, variables that do not fit it, a bad number', async () => {
    const gw = gateway();
    const unapproved = await gw.send({ ...login('13800000051', '13800000052'), templateCode: '999999' });
    expect(unapproved.map(failed)).toEqual([
      expect.objectContaining({ class: 'final', code: 'FailedOperation.TemplateIncorrectOrUnapproved' }),
      expect.objectContaining({ class: 'final', code: 'FailedOperation.TemplateIncorrectOrUnapproved' }),
    ]);
    const tooLong = await gw.send({
      kind: 'school.welcome',
      templateCode: SANDBOX_TENCENT.templates['school.welcome'],
      params: { school: '一二三四五六七八九十一二三', days: '30' },
      content: '…',
      messages: [{ id: nextId++, mobile: '13800000051' }],
    });
    expect(failed(tooLong[0])).toMatchObject({ class: 'final', code: 'InvalidParameterValue.TemplateParameterLengthLimit' });
    // code.login's two variables sent to school.expiring's template (four)
    const mismatch = await gw.send({ ...login('13800000051'), templateCode: SANDBOX_TENCENT.templates['school.expiring'] });
    expect(failed(mismatch[0])).toMatchObject({ class: 'final', code: 'FailedOperation.TemplateParamSetNotMatchApprovedTemplate' });
    const badNumber = await gw.send(login('1380000005', '13800000053'));
    expect(failed(badNumber[0])).toMatchObject({ class: 'final', code: 'InvalidParameterValue.IncorrectPhoneNumber' });
    expect(badNumber[1].ok).toBe(true);
    expect(await messages('13800000051')).toEqual([]);
    const wrongSign = await gateway({ signName: '别的签名' }).send(login('13800000054'));
    expect(failed(wrongSign[0])).toMatchObject({ class: 'account', code: 'FailedOperation.SignatureIncorrectOrUnapproved' });
  });

  it('a network failure is thrown as is (transient), not as a GatewayError', async () => {
    const gw = new TencentGateway({ ...SANDBOX_TENCENT, region: REGION }, () => ({ protocol: 'http', host: '127.0.0.1:1/api/dev/sms/tencent' }));
    const e = await gw.send(login('13800000061')).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(Error);
    expect(e).not.toBeInstanceOf(GatewayError);
  });
});

describe('the fake checks the signature over the exact request', () => {
  const send = {
    PhoneNumberSet: ['+8613800000071'],
    SmsSdkAppId: SANDBOX_TENCENT.sdkAppId,
    SignName: SANDBOX_TENCENT.signName,
    TemplateId: SANDBOX_TENCENT.templates['code.login'],
    TemplateParamSet: ['123456', '5'],
  };

  it('accepts the SDK request replayed as is, refuses it with a tampered body', async () => {
    const r = await sdkRequest('SendSms', send);
    expect(r.path).toBe('/api/dev/sms/tencent/');
    expect(r.headers.authorization).toMatch(
      /^TC3-HMAC-SHA256 Credential=AKIDSandboxWantuoDevTencent0001\/\d{4}-\d{2}-\d{2}\/127\/tc3_request, SignedHeaders=content-type;host, Signature=[0-9a-f]{64}$/,
    );
    const asIs = await replay(r);
    expect(asIs.body.Response.SendStatusSet[0]).toMatchObject({ Code: 'Ok', PhoneNumber: '+8613800000071', IsoCode: 'CN' });
    const tampered = await replay(r, Buffer.from(r.body.toString('utf8').replace('13800000071', '13800000072')));
    expect(tampered.status).toBe(200);
    expect(tampered.body.Response.Error.Code).toBe('AuthFailure.SignatureFailure');
    expect(tampered.body.Response.RequestId).toEqual(expect.any(String));
    expect(await messages('13800000072')).toEqual([]);
  });

  it('refuses a timestamp more than five minutes off (AuthFailure.SignatureExpire), and no Authorization at all', async () => {
    const r = await sdkRequest('SendSms', send);
    const ts = Number(r.headers['x-tc-timestamp']);
    const signed = { method: 'POST', path: r.path, query: '', headers: r.headers, body: r.body };
    const secrets = { [SANDBOX_TENCENT.secretId]: SANDBOX_TENCENT.secretKey };
    expect(verifyTc3(signed, TencentFake.basePath, secrets, ts + 200)).toBeNull();
    expect(verifyTc3(signed, TencentFake.basePath, secrets, ts + 301)?.Response.Error.Code).toBe('AuthFailure.SignatureExpire');
    expect(verifyTc3(signed, TencentFake.basePath, secrets, ts - 301)?.Response.Error.Code).toBe('AuthFailure.SignatureExpire');
    const bare = await t.post('/api/dev/sms/tencent/').set('x-tc-action', 'SendSms').send(JSON.stringify(send));
    expect(bare.body.Response.Error.Code).toBe('AuthFailure.InvalidAuthorization');
  });
});

describe('delivery reports', () => {
  it('parseReport reads the callback body the fake builds (raw bytes as the report route gets them)', () => {
    const at = new Date('2026-03-01T02:03:04Z');
    const ok = tencentReportBody([{ messageId: '2640:1', mobile: '13800000081' }], true, at);
    expect(ok[0].user_receive_time).toBe('2026-03-01 10:03:04');
    expect(gateway().parseReport(Buffer.from(JSON.stringify(ok)))).toEqual([
      { messageId: '2640:1', mobile: '13800000081', delivered: true, code: 'DELIVRD', message: '用户短信送达成功', at, units: null },
    ]);
    const fail = tencentReportBody([{ messageId: '2640:2', mobile: '13800000082' }], false, at);
    expect(gateway().parseReport(JSON.stringify(fail))).toEqual([
      expect.objectContaining({ messageId: '2640:2', delivered: false, code: 'MK:0001' }),
    ]);
    expect(gateway().reportAnswer).toEqual({ result: 0, errmsg: 'OK' });
  });

  it('parseReport refuses a body that is not Tencent’s', () => {
    const good = tencentReportBody([{ messageId: '2640:3', mobile: '13800000083' }], true)[0];
    const gw = gateway();
    expect(() => gw.parseReport(Buffer.from('{not json'))).toThrow();
    expect(() => gw.parseReport({ ...good })).toThrow();
    expect(() => gw.parseReport([{ ...good, sid: '' }])).toThrow();
    expect(() => gw.parseReport([{ ...good, report_status: 'DELIVERED' }])).toThrow();
    expect(() => gw.parseReport([{ ...good, mobile: '12345' }])).toThrow();
    expect(() => gw.parseReport([good, null])).toThrow();
  });

  it('push mode posts the callback body to the report URL; undelivered posts FAIL', async () => {
    const posted: Array<{ url: string; body: string }> = [];
    const real = globalThis.fetch;
    // the fake's pushes go through global fetch (the SDK uses node-fetch): answered here as the report route would
    const spy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
      if (!String(url).includes('/api/sms-report/tencent')) return real(url, init);
      posted.push({ url: String(url), body: String(init?.body) });
      return new Response(JSON.stringify({ result: 0, errmsg: 'OK' }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    try {
      const gw = gateway();
      const [o] = await gw.send(login('13800000091'));
      await waitFor(async () => (await messages('13800000091'))[0].report === 'delivered');
      expect(posted[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/sms-report\/tencent\?token=/);
      expect(gw.parseReport(posted[0].body)).toEqual([
        expect.objectContaining({ messageId: (o as { messageId: string }).messageId, delivered: true }),
      ]);

      await control({ reports: 'undelivered' });
      await gw.send(login('13800000092'));
      await waitFor(async () => (await messages('13800000092'))[0].report === 'failed');
      expect(gw.parseReport(posted.at(-1)!.body)).toEqual([expect.objectContaining({ mobile: '13800000092', delivered: false, code: 'MK:0001' })]);
    } finally {
      spy.mockRestore();
    }
  });
});

async function waitFor(cond: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
