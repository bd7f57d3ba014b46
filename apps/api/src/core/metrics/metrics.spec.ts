import type { FlowEventMessage } from '@wantuo/shared';
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { eventually, startTestApp, type TestApp } from '../../../test/harness';
import { createWorker } from '../../bootstrap';
import { DomainEvents } from '../events/domain-events';
import { JobsService } from '../jobs/jobs.service';
import { createLogger } from '../logging/logger';
import { MetricsServer } from './metrics-server';
import { parseSamples, sample } from '../../../test/prometheus-text';

describe('GET /metrics', () => {
  let t: TestApp;
  let base: string;
  let admin: string;

  const scrape = async () => {
    const res = await t.get('/metrics');
    expect(res.status).toBe(200);
    return parseSamples(res.text);
  };

  beforeAll(async () => {
    t = await startTestApp({ demoPeople: true, listen: true });
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    admin = await t.login('admin');
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers the Prometheus text, without a token and outside the envelope, with the process figures', async () => {
    const res = await t.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toContain('# TYPE http_request_duration_seconds histogram');
    const samples = parseSamples(res.text);
    expect(sample(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('times every request by catalogue action (or route) and envelope code', async () => {
    expect((await t.get('/api/index/contractList', admin)).body.code).toBe(200);
    expect((await t.get('/api/index/contractList?limit=abc', admin)).body.code).toBe(100);
    expect((await t.get('/api/index/contractList')).body.code).toBe(401);
    expect((await t.get('/api/index/noSuchAction', admin)).status).toBe(404);
    expect((await t.get('/api/health')).status).toBe(200);
    const samples = await scrape();
    const count = (labels: Record<string, string>) => sample(samples, 'http_request_duration_seconds_count', labels);
    expect(count({ action: 'contractList', code: '200' })).toBeGreaterThanOrEqual(1);
    expect(count({ action: 'contractList', code: '100' })).toBeGreaterThanOrEqual(1);
    expect(count({ action: 'contractList', code: '401' })).toBeGreaterThanOrEqual(1);
    expect(count({ action: 'login', code: '200' })).toBeGreaterThanOrEqual(1);
    expect(count({ action: '/api/health', code: '200' })).toBeGreaterThanOrEqual(1);
    // no route: one label for every unknown path (a scanner cannot grow the series)
    expect(count({ action: 'other', code: '404' })).toBeGreaterThanOrEqual(1);
    expect(samples.some((s) => s.labels.action === 'noSuchAction' || s.labels.action === '/api/index/noSuchAction')).toBe(false);
    // the buckets are there, and the slowest bucket holds every request
    expect(sample(samples, 'http_request_duration_seconds_bucket', { action: 'contractList', code: '200', le: '+Inf' })).toBe(
      count({ action: 'contractList', code: '200' }),
    );
  });

  it('times the jobs by queue, and reads the BullMQ queues by state from Redis', async () => {
    const jobs = t.app.get(JobsService);
    await jobs.enqueue('alerts.scan', {});
    // a text due in an hour stays in the sms queue as delayed
    await jobs.enqueue('sms.send', { ids: [0] }, { delayMs: 3_600_000 });
    const samples = await eventually(async () => {
      const s = await scrape();
      return (sample(s, 'job_duration_seconds_count', { queue: 'alerts', job: 'alerts.scan', outcome: 'completed' }) ?? 0) >= 1 ? s : null;
    });
    for (const queue of ['sms', 'contracts', 'alerts', 'payments', 'store', 'privacy', 'receipts']) {
      for (const state of ['waiting', 'active', 'delayed', 'failed'])
        expect(sample(samples, 'queue_jobs', { queue, state })).toBeGreaterThanOrEqual(0);
    }
    expect(sample(samples, 'queue_jobs', { queue: 'sms', state: 'delayed' })).toBeGreaterThanOrEqual(1);
  });

  it('reads the pool, payments pending too long, texts sent, the database size and the disk', async () => {
    const school = t.demo.schoolId;
    const pay = (no: string, state: string, age: string, expiresIn: string) =>
      t.sql.query(
        `insert into payments (school_id, out_trade_no, kind, description, amount_fen, method, state, created_at, expires_at)
         values ($1, $2, 'test', 'metrics test', 100, 'wechat', $3, now() - $4::interval, now() + $5::interval)`,
        [school, no, state, age, expiresIn],
      );
    await pay('MTEST1', 'pending', '2 minutes', '118 minutes'); // a fresh QR: neither
    await pay('MTEST2', 'pending', '11 minutes', '109 minutes'); // over 10 minutes
    await pay('MTEST3', 'pending', '3 hours', '-1 hour'); // over 10 minutes and past its expiry
    await pay('MTEST4', 'paid', '3 hours', '-1 hour'); // not pending
    await t.sql.query(
      `insert into sms_messages (day, mobile, kind, content, provider, state) values ((now() at time zone 'Asia/Shanghai')::date, '13800000001', 'notice.remind', 'metrics test', 'aliyun', 'sent')`,
    );
    const samples = await eventually(async () => {
      const s = await scrape();
      return sample(s, 'payments_pending', { age: 'over_10m' }) === 2 ? s : null;
    });
    expect(sample(samples, 'payments_pending', { age: 'past_expiry' })).toBe(1);
    expect(sample(samples, 'sms_messages', { state: 'sent' })).toBeGreaterThanOrEqual(1);
    expect(sample(samples, 'db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(sample(samples, 'db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    expect(sample(samples, 'db_pool_connections', { state: 'waiting' })).toBe(0);
    expect(sample(samples, 'db_size_bytes')).toBeGreaterThan(0);
    const free = sample(samples, 'disk_free_bytes', { path: t.config.uploadDir })!;
    expect(free).toBeGreaterThan(0);
    expect(sample(samples, 'disk_size_bytes', { path: t.config.uploadDir })).toBeGreaterThanOrEqual(free);
  });

  it('counts open sockets and delivered live messages, and the commit-to-delivery lag', async () => {
    const token = await t.login('admin');
    const socket: Socket = io(base, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    try {
      const received: FlowEventMessage[] = [];
      socket.on('flow.event', (e: FlowEventMessage) => received.push(e));
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      expect(sample(await scrape(), 'live_sockets')).toBe(1);
      const { rows } = await t.sql.query(`select student_id from care_class_students where class_id = $1 limit 1`, [t.demo.classes!.running]);
      const studentId = rows[0].student_id as number;
      // an event committed like the store does (flow_events row, then 'flow.committed')
      const ins = await t.sql.query(
        `insert into flow_events (event_id, school_id, student_id, day, version, type, class_id, state_after, actor_id, occurred_at)
         values (gen_random_uuid(), $1, $2, (now() at time zone 'Asia/Shanghai')::date,
                 coalesce((select max(version) from flow_events where student_id = $2 and day = (now() at time zone 'Asia/Shanghai')::date), 0) + 1,
                 'student.entered', $3, 'in_centre', null, now())
         returning global_position, to_char(day, 'YYYY-MM-DD') as day, occurred_at`,
        [t.demo.schoolId, studentId, t.demo.classes!.running],
      );
      const position = Number(ins.rows[0].global_position);
      t.app.get(DomainEvents).emit('flow.committed', {
        position,
        student_id: studentId,
        class_id: t.demo.classes!.running,
        day: ins.rows[0].day,
        type: 'student.entered',
        state: 'in_centre',
        at: new Date(ins.rows[0].occurred_at).toISOString(),
        actor: null,
        school_id: t.demo.schoolId,
      });
      await eventually(async () => (received.some((e) => e.position === position) ? true : null));
      const samples = await scrape();
      expect(sample(samples, 'live_messages_delivered_total', { event: 'flow.event' })).toBeGreaterThanOrEqual(1);
      expect(sample(samples, 'flow_delivery_lag_seconds_count')).toBeGreaterThanOrEqual(1);
      // committed and delivered within the test: well under a minute
      expect(sample(samples, 'flow_delivery_lag_seconds_bucket', { le: '30' })).toBe(sample(samples, 'flow_delivery_lag_seconds_count'));
    } finally {
      socket.close();
    }
    await eventually(async () => (sample(await scrape(), 'live_sockets') === 0 ? true : null));
  });

  it('the worker, which has no HTTP server, serves its own figures on WORKER_METRICS_PORT', async () => {
    const worker = await createWorker({ ...t.config, workerMetricsPort: 0, host: '127.0.0.1' }, createLogger('silent'));
    try {
      await worker.init();
      const port = worker.get(MetricsServer).port();
      expect(port).toBeGreaterThan(0);
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain('# TYPE job_duration_seconds histogram');
      const samples = parseSamples(text);
      expect(sample(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      expect(sample(samples, 'db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(0);
      // the queues, payments and texts are the API's to read (one reading, not one per process)
      expect(text).not.toContain('queue_jobs');
      expect(text).not.toContain('http_request_duration_seconds');
      expect(text).not.toContain('live_sockets');
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    } finally {
      await worker.close();
    }
  });
});
