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
