import request from 'supertest';
import { startTestApp, type TestApp } from '../../../test/harness';
import { JobsService } from './jobs.service';

describe('queue board (/admin/queues, design.md §5)', () => {
  describe('with Redis', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ runJobs: false });
    });
    afterAll(() => t.close());
    const server = () => t.app.getHttpServer();

    it('sends a browser without a session to sign in and back; other callers get 401', async () => {
      const page = await request(server()).get('/admin/queues').set('accept', 'text/html');
      expect(page.status).toBe(302);
      expect(page.headers.location).toBe('/login?redirect=%2Fadmin%2Fqueues');
      const api = await request(server()).get('/admin/queues/api/queues').set('accept', 'application/json');
      expect(api.status).toBe(401);
      const stale = await request(server()).get('/admin/queues').set('cookie', 'token=not-a-session').set('accept', 'application/json');
      expect(stale.status).toBe(401);
    });

    it('refuses every role but the platform operator (403)', async () => {
      for (const role of ['admin', 'teacher', 'adviser', 'parent'] as const) {
        const token = await t.login(role);
        const res = await request(server())
          .get('/admin/queues')
          .set('cookie', `token=${encodeURIComponent(token)}`);
        expect({ role, status: res.status }).toEqual({ role, status: 403 });
      }
    });

    it('shows the operator the board with the sms, contracts, alerts and payments queues and their jobs', async () => {
      const token = await t.login('operator');
      const page = await request(server())
        .get('/admin/queues')
        .set('cookie', `theme=dark; token=${encodeURIComponent(token)}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('晚托任务队列');
      await t.app.get(JobsService).enqueue('sms.send', { ids: [0] });
      const res = await request(server()).get('/admin/queues/api/queues').set('token', token);
      expect(res.status).toBe(200);
      const queues = (res.body as { queues: Array<{ name: string; counts: Record<string, number> }> }).queues;
      expect(queues.map((q) => q.name).sort()).toEqual(['alerts', 'contracts', 'payments', 'privacy', 'receipts', 'sms', 'store']);
      const sms = queues.find((q) => q.name === 'sms')!;
      expect(Object.values(sms.counts).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    });

    it('loads nothing from Google Fonts (blocked in mainland China): the system Chinese font stack, only this origin', async () => {
      const token = await t.login('operator');
      const page = await request(server())
        .get('/admin/queues')
        .set('cookie', `token=${encodeURIComponent(token)}`);
      expect(page.status).toBe(200);
      expect(page.text).not.toMatch(/fonts\.(googleapis|gstatic)\.com/);
      // every stylesheet and script of the page is the board's own, served here
      const refs = [...page.text.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]);
      expect(refs.filter((r) => /^(https?:)?\/\//.test(r))).toEqual([]);
      expect(page.text).toContain('PingFang SC');
      expect(page.headers['content-security-policy']).not.toMatch(/https?:/);
    });

    it("refuses a change signed in by the cookie from another site's page; the board's own page may", async () => {
      const cookie = `token=${encodeURIComponent(await t.login('operator'))}`;
      const path = '/admin/queues/api/queues/sms/pause';
      const cross = await request(server()).put(path).set('cookie', cookie).set('sec-fetch-site', 'cross-site');
      expect(cross.status).toBe(403);
      const sameSite = await request(server()).put(path).set('cookie', cookie).set('sec-fetch-site', 'same-site');
      expect(sameSite.status).toBe(403);
      const own = await request(server()).put(path).set('cookie', cookie).set('sec-fetch-site', 'same-origin');
      expect(own.status).toBe(200);
      await request(server()).put('/admin/queues/api/queues/sms/resume').set('cookie', cookie).set('sec-fetch-site', 'same-origin').expect(200);
    });
  });

  it('without Redis the jobs run in the API process: the operator is told there is no queue', async () => {
    const t = await startTestApp({ runJobs: false, redis: false });
    try {
      const token = await t.login('operator');
      const res = await request(t.app.getHttpServer()).get('/admin/queues').set('token', token);
      expect(res.status).toBe(404);
      expect(res.text).toContain('REDIS_URL');
      const admin = await request(t.app.getHttpServer())
        .get('/admin/queues')
        .set('token', await t.login('admin'));
      expect(admin.status).toBe(403);
    } finally {
      await t.close();
    }
  });
});
