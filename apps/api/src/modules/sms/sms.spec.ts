import { Code } from '@wantuo/shared';
import { eventually, startTestApp, type TestApp } from '../../../test/harness';

describe('without Redis (the npm start mode), SMS jobs run in-process', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ redis: false });
  });
  afterAll(() => t.close());

  it('delivers the code to the outbox and /api/health says Redis is not configured', async () => {
    expect((await t.post('/api/sms/send').send({ mobile: '13800000002', event: 'login' })).body.code).toBe(Code.Ok);
    const code = await eventually(async () => (await t.get('/api/dev/sms-outbox?mobile=13800000002')).body.data.code);
    expect(code).toMatch(/^\d{6}$/);
    expect((await t.get('/api/health')).body.data).toMatchObject({ status: 'ok', redis: 'not configured' });
  });
});

describe('with Redis, the API only enqueues: without a worker nothing is delivered', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ runJobs: false });
  });
  afterAll(() => t.close());

  it('leaves the job waiting in the BullMQ sms queue', async () => {
    expect((await t.post('/api/sms/send').send({ mobile: '13800000002', event: 'login' })).body.code).toBe(Code.Ok);
    const { JobsService } = await import('../../core/jobs/jobs.service');
    const counts = await t.app.get(JobsService).queue('sms').getJobCounts('waiting');
    expect(counts.waiting).toBe(1);
    expect((await t.get('/api/dev/sms-outbox?mobile=13800000002')).body.data.list).toEqual([]);
  });
});

describe('issue 34 item 9: a sign-in code is readable at the phone only', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('after the provider accepted it, the table keeps the code hashed (sms_codes) and the text masked; the code signs in', async () => {
    const to = '13800000001'; // the demo admin
    expect((await t.post('/api/sms/send').send({ mobile: to, event: 'login' })).body.code).toBe(Code.Ok);
    // the dev outbox reads the code where it was delivered (the phone), not from the table
    const code: string = await eventually(async () => (await t.get(`/api/dev/sms-outbox?mobile=${to}`)).body.data.code);
    expect(code).toMatch(/^\d{6}$/);
    const stored = await eventually(async () => {
      const { rows } = await t.sql.query(`select state, params, content from sms_messages where mobile = $1 and kind = 'code.login'`, [to]);
      return rows.length && rows.every((r) => r.state === 'delivered' || r.state === 'sent') ? rows : null;
    });
    expect(stored[0].params).toEqual({ code: '******', minutes: '5' });
    expect(stored[0].content).toContain('验证码为 ******');
    const view = await t.sql.query(`select params, content from sms_outbox where mobile = $1`, [to]);
    expect(JSON.stringify([stored, view.rows])).not.toContain(code);
    const hash = await t.sql.query(`select encode(code_hash, 'hex') as h from sms_codes where mobile = $1`, [to]);
    expect(hash.rows[0].h).toMatch(/^[0-9a-f]{64}$/);
    expect((await t.post('/api/index/mobilelogin').send({ mobile: to, code })).body.code).toBe(Code.Ok);
  });

  it('the migration masks the codes stored before', async () => {
    const { rows } = await t.sql.query(
      `insert into sms_messages (school_id, day, mobile, kind, params, content, provider, state)
       values (null, current_date, '13800000009', 'code.resetpwd', '{"code":"135791","minutes":"5"}',
               '【晚托平台】您正在重置密码，验证码为 135791，5 分钟内有效。请勿告诉他人。', 'outbox', 'delivered'),
              (null, current_date, '13800000009', 'code.login', '{"code":"246802","minutes":"5"}',
               '【晚托平台】您的登录验证码为 246802，5 分钟内有效。如非本人操作，请忽略本短信。', 'outbox', 'queued')
       returning id::int`,
    );
    const { SmsCodesMasked1767172800000 } = await import('../../migrations/1767172800000-sms-codes-masked');
    await new SmsCodesMasked1767172800000().up({ query: (q: string, p?: unknown[]) => t.sql.query(q, p) } as never);
    const after = await t.sql.query(`select params, content from sms_messages where id = any($1) order by id`, [rows.map((r) => r.id)]);
    expect(after.rows[0]).toEqual({
      params: { code: '******', minutes: '5' },
      content: '【晚托平台】您正在重置密码，验证码为 ******，5 分钟内有效。请勿告诉他人。',
    });
    // a code still to send keeps it (masked once the provider has it)
    expect(after.rows[1].params.code).toBe('246802');
  });
});
