import { Code } from '@wantuo/shared';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DestinationStream, Logger } from 'pino';
import { eventually, startTestApp, type TestApp } from '../../../test/harness';
import { AuthService } from '../../modules/auth/auth.service';
import { StoreOrdersService } from '../../modules/store/orders.service';
import type { AppRequest } from '../http/request-context';
import { JobRegistry } from '../jobs/job-registry';
import { JobsService } from '../jobs/jobs.service';
import { runInRequestContext } from './log-context';
import { createLogger, LOGGER } from './logger';
import { REDACTED } from './redaction';

type Line = Record<string, unknown>;

/** A pino destination that keeps every line: as written, and parsed. */
function capture() {
  const raw: string[] = [];
  const lines: Line[] = [];
  const stream: DestinationStream = {
    write(s: string) {
      raw.push(s);
      lines.push(JSON.parse(s) as Line);
    },
  };
  return { raw, lines, stream };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('logs that follow a request or a job', () => {
  const out = capture();
  let t: TestApp;
  /** what every service injects */
  let log: Logger;
  const linesOf = (msg: string) => out.lines.filter((l) => l.msg === msg);

  beforeAll(async () => {
    t = await startTestApp({ logger: createLogger('info', out.stream) });
    log = t.app.get<symbol, Logger>(LOGGER);
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  it('a line a service writes during a request carries req_id, user_id, school_id and action, before and after an await; so does the request line', async () => {
    const token = await t.login('admin');
    const real = AuthService.prototype.userInfo;
    jest.spyOn(AuthService.prototype, 'userInfo').mockImplementation(async function (this: AuthService, user) {
      log.info({ step: 'before' }, 'probe: userInfo');
      const answer = await real.call(this, user);
      log.info({ step: 'after' }, 'probe: userInfo');
      return answer;
    });
    const res = await t.get('/api/index/userInfo', token).set('x-request-id', 'trace-0001');
    expect(res.body.code).toBe(Code.Ok);
    // the caller's request id is kept and echoed
    expect(res.headers['x-request-id']).toBe('trace-0001');
    const who = { req_id: 'trace-0001', user_id: t.demo.users.admin, school_id: t.demo.schoolId, action: 'userInfo' };
    expect(linesOf('probe: userInfo')).toEqual([
      expect.objectContaining({ ...who, step: 'before' }),
      expect.objectContaining({ ...who, step: 'after' }),
    ]);
    const request = await eventually(async () => linesOf('request').find((l) => l.req_id === 'trace-0001'));
    expect(request).toMatchObject({ ...who, method: 'GET', path: '/api/index/userInfo', status: 200, code: Code.Ok });
  });

  it('the context holds through a JSON body; a request id that is not a plain token is replaced by a new one', async () => {
    const token = await t.login('teacher');
    jest.spyOn(AuthService.prototype, 'changePassword').mockImplementation(async () => {
      log.info('probe: changepwd');
      return {};
    });
    const res = await t
      .post('/api/index/changepwd', token)
      .set('x-request-id', 'not a plain token')
      .send({ oldpassword: 'Old12345x', newpassword: 'New12345x' });
    expect(res.body.code).toBe(Code.Ok);
    const reqId = res.headers['x-request-id'];
    expect(reqId).toMatch(UUID_RE);
    expect(linesOf('probe: changepwd')).toEqual([
      expect.objectContaining({ req_id: reqId, user_id: t.demo.users.teacher, school_id: t.demo.schoolId, action: 'changepwd' }),
    ]);
  });

  it('two requests at once keep their own contexts', async () => {
    const admin = await t.login('admin');
    const other = await t.otherSchool();
    const { rows } = await t.sql.query(`select id::int from users where school_id = $1`, [other.schoolId]);
    const otherAdmin = rows[0].id as number;
    // each request waits inside the service until both are there: their contexts are live at the same time
    let arrived = 0;
    let release!: () => void;
    const bothIn = new Promise<void>((r) => (release = r));
    const real = AuthService.prototype.userInfo;
    jest.spyOn(AuthService.prototype, 'userInfo').mockImplementation(async function (this: AuthService, user) {
      log.info('probe: in');
      if (++arrived === 2) release();
      await bothIn;
      const answer = await real.call(this, user);
      log.info('probe: out');
      return answer;
    });
    const [a, b] = await Promise.all([
      t.get('/api/index/userInfo', admin).set('x-request-id', 'both-a'),
      t.get('/api/index/userInfo', other.adminToken).set('x-request-id', 'both-b'),
    ]);
    expect([a.body.code, b.body.code]).toEqual([Code.Ok, Code.Ok]);
    const probes = out.lines.filter((l) => l.msg === 'probe: in' || l.msg === 'probe: out');
    expect(probes.map((l) => l.msg)).toEqual(['probe: in', 'probe: in', 'probe: out', 'probe: out']);
    const seen = probes.map((l) => [l.req_id, l.user_id, l.school_id]);
    expect(seen.filter(([id]) => id === 'both-a')).toEqual([
      ['both-a', t.demo.users.admin, t.demo.schoolId],
      ['both-a', t.demo.users.admin, t.demo.schoolId],
    ]);
    expect(seen.filter(([id]) => id === 'both-b')).toEqual([
      ['both-b', otherAdmin, other.schoolId],
      ['both-b', otherAdmin, other.schoolId],
    ]);
  });

  it('a job’s lines carry job_id, queue and job, never the context of the request that started it', async () => {
    jest.spyOn(StoreOrdersService.prototype, 'release').mockImplementation(async () => {
      log.info('probe: job');
      return 'skipped';
    });
    // a BullMQ job, run by this app's worker
    await t.app.get(JobsService).enqueue('store.release', { order_id: 1 });
    const queued = await eventually(async () => linesOf('probe: job')[0]);
    expect(queued).toMatchObject({ job_id: expect.stringMatching(/^\d+$/), queue: 'store', job: 'store.release' });
    expect(queued).not.toHaveProperty('req_id');
    // a job run from inside a request (what the in-process mode does): the job's context replaces the request's
    const req = { method: 'GET', path: '/api/index/userInfo' } as AppRequest;
    await runInRequestContext(req, 'outer-0001', () => t.app.get(JobRegistry).run('store.release', { order_id: 1 }, { id: 'inline-7' }));
    const inline = linesOf('probe: job')[1];
    expect(inline).toMatchObject({ job_id: 'inline-7', queue: 'store', job: 'store.release' });
    expect(inline).not.toHaveProperty('req_id');
    expect(inline).not.toHaveProperty('action');
  });

  it('the request line of a file under /uploads has the path it was asked at', async () => {
    writeFileSync(join(t.config.uploadDir, 'probe.txt'), 'x');
    const res = await t.get('/uploads/probe.txt').set('x-request-id', 'upload-0001');
    expect(res.status).toBe(200);
    const line = await eventually(async () => linesOf('request').find((l) => l.req_id === 'upload-0001'));
    expect(line).toMatchObject({ method: 'GET', path: '/uploads/probe.txt', status: 200 });
    expect(line).not.toHaveProperty('action');
  });
});

describe('redaction', () => {
  it('tokens, passwords, payment passwords, SMS codes, authorization headers and WeChat Pay keys never reach a line', () => {
    const out = capture();
    const log = createLogger('info', out.stream);
    const secret = (n: number) => `SECRET-${n}-x`;
    // an HTTP client's error, as pino's err serializer keeps it: its request config with the signed header
    const err = Object.assign(new Error('socket hang up'), {
      code: 'ECONNRESET',
      config: { url: 'https://api.mch.weixin.qq.com/v3/pay', headers: { Authorization: secret(1), Accept: 'application/json' } },
    });
    log.error(
      {
        err,
        token: secret(2),
        headers: { token: secret(3), authorization: secret(4), cookie: secret(5), 'user-agent': 'jest' },
        req: { headers: { token: secret(6) }, body: { account: 'admin', password: secret(7) } },
        body: { mobile: '13800000001', code: secret(8), newpassword: secret(9) },
        input: { oldpassword: secret(10), newpassword: secret(11), deal_pwd: secret(12), code: secret(13) },
        payment: { deal_pwd: secret(14) },
        job: { data: { mobile: '13800000001', template: 'code.login', params: { code: secret(15), minutes: '5' } } },
        message: { params: { code: secret(16) } },
        config: { wechatpay: { mchid: '1900000001', privateKey: secret(17), apiV3Key: secret(18) } },
        qr: { secret: secret(19) },
        user: { id: 1, password_hash: secret(20) },
        code: 200,
      },
      'everything secret',
    );
    const raw = out.raw.join('');
    for (let n = 1; n <= 20; n++) expect(raw).not.toContain(secret(n));
    const [line] = out.lines;
    expect(line).toMatchObject({
      token: REDACTED,
      headers: { token: REDACTED, authorization: REDACTED, cookie: REDACTED, 'user-agent': 'jest' },
      req: { headers: { token: REDACTED }, body: { account: 'admin', password: REDACTED } },
      body: { mobile: '13800000001', code: REDACTED, newpassword: REDACTED },
      input: { oldpassword: REDACTED, newpassword: REDACTED, deal_pwd: REDACTED, code: REDACTED },
      payment: { deal_pwd: REDACTED },
      job: { data: { mobile: '13800000001', template: 'code.login', params: { code: REDACTED, minutes: '5' } } },
      message: { params: { code: REDACTED } },
      config: { wechatpay: { mchid: '1900000001', privateKey: REDACTED, apiV3Key: REDACTED } },
      qr: { secret: REDACTED },
      user: { id: 1, password_hash: REDACTED },
      // what an operator needs stays: the envelope code, the error's code, message and the rest of its request
      code: 200,
      err: {
        message: 'socket hang up',
        code: 'ECONNRESET',
        config: { url: 'https://api.mch.weixin.qq.com/v3/pay', headers: { Authorization: REDACTED, Accept: 'application/json' } },
      },
    });
  });

  it('outside a request or a job a line has no context fields', () => {
    const out = capture();
    createLogger('info', out.stream).info('plain');
    for (const key of ['req_id', 'user_id', 'school_id', 'action', 'job_id', 'queue', 'job']) expect(out.lines[0]).not.toHaveProperty(key);
  });
});
