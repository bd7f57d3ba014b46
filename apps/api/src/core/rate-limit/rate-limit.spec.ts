import { Code, t as msg } from '@wantuo/shared';
import { Redis } from 'ioredis';
import request from 'supertest';
import { REDIS_URL } from '../../../test/db';
import { snapshot, startPeerApp, startTestApp, type TestApp } from '../../../test/harness';
import { DEMO_PASSWORD } from '../../seed/demo-seed';
import { ConfigError, loadConfig } from '../config/config';
import { createLogger } from '../logging/logger';
import { RATE_LIMITS, scaledLimit } from './rate-limit';
import { RedisThrottlerStorage } from './redis-throttler-storage';

type Server = Parameters<typeof request>[0];

const LIMITED_ZH = /^操作过于频繁，请 \d+ 秒后再试$/;

/** A refusal of the per-IP limits: the envelope (HTTP 200, code 100, the message) with a Retry-After of at most the window. */
function expectLimited(res: request.Response, windowSeconds = 60) {
  expect({ status: res.status, body: res.body }).toEqual({
    status: 200,
    body: { code: Code.Error, msg: expect.stringMatching(LIMITED_ZH), data: null },
  });
  const retry = Number(res.headers['retry-after']);
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(windowSeconds);
  expect(res.body.msg).toBe(msg('zh-CN', 'error.rate_limited', { seconds: retry }));
}

const invalidApplication = (server: Server, forwardedFor?: string) => {
  const req = request(server).post('/api/index/applyAccount');
  return (forwardedFor ? req.set('x-forwarded-for', forwardedFor) : req).send({});
};

describe('per-IP limits at their real values, with Redis', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ runJobs: false, env: { RATE_LIMIT_FACTOR: '1' } });
  });
  afterAll(() => t.close());

  it('login: the attempt after 20 in a minute from one address is refused before anything runs, in the caller’s language', async () => {
    for (let i = 0; i < RATE_LIMITS.login.limit; i++) {
      const res = await t.post('/api/index/login').send({ account: `nobody_${i}`, password: 'whatever1' });
      expect(res.body).toEqual({ code: Code.Error, msg: msg('zh-CN', 'auth.bad_credentials'), data: null });
    }
    const before = await snapshot(t.sql);
    // the right password does not help: the address is refused before the handler (no session, no login log)
    expectLimited(await t.post('/api/index/login').send({ account: 'admin', password: DEMO_PASSWORD }));
    expect(await snapshot(t.sql)).toEqual(before);
    const en = await t.post('/api/index/login').set('lang', 'en').send({ account: 'admin', password: DEMO_PASSWORD });
    expect(en.body.msg).toMatch(/^Too many attempts from your network: please try again in \d+ seconds$/);
    // each action has its own count: sign-in by SMS code still answers for itself
    const sms = await t.post('/api/index/mobilelogin').send({ mobile: '13800000001', code: '000000' });
    expect(sms.body.msg).toBe(msg('zh-CN', 'auth.bad_sms_code'));
    // routes without a per-IP limit are not counted at all
    for (let i = 0; i < 3; i++) expect((await t.get('/api/health')).status).toBe(200);
  });

  it('sms/send: 5 a minute per address, counted across two API processes on one Redis; the 6th sends nothing on either', async () => {
    const peer = await startPeerApp(t);
    try {
      const servers = [t.app.getHttpServer(), peer.getHttpServer()];
      const send = (server: Server, i: number) =>
        request(server)
          .post('/api/sms/send')
          .send({ mobile: `1390000${String(i).padStart(4, '0')}`, event: 'login' });
      for (let i = 0; i < RATE_LIMITS.sms.limit; i++) {
        const res = await send(servers[i % 2], i);
        expect(res.body.msg).toBe(msg('zh-CN', 'auth.no_account_for_mobile'));
      }
      const before = await snapshot(t.sql);
      for (const server of servers) expectLimited(await send(server, 99));
      expect(await snapshot(t.sql)).toEqual(before);
      // the count lives in Redis under this deployment's key prefix (per limit and address)
      const redis = new Redis(REDIS_URL);
      try {
        const keys = await redis.keys(`${t.config.queuePrefix}:ratelimit:sms:*`);
        expect(keys.length).toBeGreaterThan(0);
        for (const key of keys) expect(key).toMatch(/:ratelimit:sms:(127\.0\.0\.1|::1)(:blocked)?$/);
      } finally {
        await redis.quit();
      }
    } finally {
      await peer.close();
    }
  });

  it('believes no X-Forwarded-For without TRUST_PROXY: a caller cannot pose as other addresses', async () => {
    const server = t.app.getHttpServer();
    for (let i = 0; i < RATE_LIMITS.applyAccount.limit; i++) {
      expect((await invalidApplication(server, `203.0.113.${i}`)).body.code).toBe(Code.Error);
    }
    expectLimited(await invalidApplication(server, '198.51.100.7'));
  });
});

describe('per-IP limits in memory without Redis, behind a proxy (TRUST_PROXY)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ redis: false, env: { RATE_LIMIT_FACTOR: '1', TRUST_PROXY: '1' } });
  });
  afterAll(() => t.close());

  it('counts per address the proxy saw (the last X-Forwarded-For hop), so clients behind one proxy are apart', async () => {
    const server = t.app.getHttpServer();
    for (let i = 0; i < RATE_LIMITS.applyAccount.limit; i++) {
      expect((await invalidApplication(server, '203.0.113.1')).body.msg).not.toMatch(LIMITED_ZH);
    }
    expectLimited(await invalidApplication(server, '203.0.113.1'));
    // an address the client wrote before the proxy's own entry changes nothing
    expectLimited(await invalidApplication(server, '192.0.2.50, 203.0.113.1'));
    // another client behind the same proxy is not held up
    const other = await invalidApplication(server, '203.0.113.2');
    expect(other.body).toMatchObject({ code: Code.Error, msg: expect.not.stringMatching(LIMITED_ZH) });
  });

  it('limits resetpwd (lookup and reset share one count) at 10 a minute', async () => {
    const server = t.app.getHttpServer();
    const lookup = () => request(server).get('/api/index/resetpwd').set('x-forwarded-for', '203.0.113.9').query({ account: 'admin' });
    const reset = () =>
      request(server)
        .post('/api/index/resetpwd')
        .set('x-forwarded-for', '203.0.113.9')
        .send({ mobile: '13800000001', code: '000000', newpassword: 'Another@2026' });
    for (let i = 0; i < RATE_LIMITS.resetpwd.limit; i++) {
      expect((await (i % 2 ? reset() : lookup())).body.msg ?? '').not.toMatch(LIMITED_ZH);
    }
    expectLimited(await lookup());
    expectLimited(await reset());
  });
});

describe('RedisThrottlerStorage', () => {
  const log = createLogger('silent');
  const prefix = `test:ratelimit-storage:${process.pid}:${Date.now()}:`;
  let shared: Redis;
  beforeAll(() => {
    shared = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    const keys = await shared.keys(`${prefix}*`);
    if (keys.length) await shared.del(...keys);
    await shared.quit();
  });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('two processes count the same hits; the hit over the limit blocks for blockDuration, then a fresh window starts', async () => {
    const a = new RedisThrottlerStorage(shared, prefix, log);
    const b = new RedisThrottlerStorage(shared, prefix, log);
    try {
      expect(await a.increment('k1', 500, 2, 500, 'x')).toMatchObject({ totalHits: 1, isBlocked: false, timeToExpire: 1 });
      expect(await b.increment('k1', 500, 2, 500, 'x')).toMatchObject({ totalHits: 2, isBlocked: false });
      expect(await a.increment('k1', 500, 2, 500, 'x')).toMatchObject({ isBlocked: true, timeToBlockExpire: 1 });
      expect(await b.increment('k1', 500, 2, 500, 'x')).toMatchObject({ isBlocked: true });
      expect(await a.increment('other', 500, 2, 500, 'x')).toMatchObject({ totalHits: 1, isBlocked: false });
      await sleep(600);
      expect(await b.increment('k1', 500, 2, 500, 'x')).toMatchObject({ totalHits: 1, isBlocked: false });
    } finally {
      await a.onApplicationShutdown();
      await b.onApplicationShutdown();
    }
  });

  it('is a sliding window: each hit leaves it one window after it came', async () => {
    const s = new RedisThrottlerStorage(shared, prefix, log);
    try {
      await s.increment('slide', 400, 3, 400, 'x');
      await sleep(250);
      await s.increment('slide', 400, 3, 400, 'x');
      await sleep(250);
      // the first hit has left, the second is still in
      expect(await s.increment('slide', 400, 3, 400, 'x')).toMatchObject({ totalHits: 2, isBlocked: false });
    } finally {
      await s.onApplicationShutdown();
    }
  });

  it('counts in this process when Redis does not answer, instead of holding requests up', async () => {
    // nothing listens on port 1; no reconnecting, so the test leaves no timer behind
    const dead = new Redis('redis://127.0.0.1:1', { lazyConnect: true, retryStrategy: () => null });
    const s = new RedisThrottlerStorage(dead, prefix, log);
    try {
      const started = Date.now();
      expect(await s.increment('k', 60_000, 1, 60_000, 'x')).toMatchObject({ totalHits: 1, isBlocked: false });
      expect(await s.increment('k', 60_000, 1, 60_000, 'x')).toMatchObject({ isBlocked: true, timeToBlockExpire: 60 });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await s.onApplicationShutdown();
      dead.disconnect();
    }
  });
});

describe('RATE_LIMIT_FACTOR', () => {
  it('defaults to 1, scales every limit (never below 1), and refuses a negative or non-number value', () => {
    expect(loadConfig({}).rateLimitFactor).toBe(1);
    expect(loadConfig({ RATE_LIMIT_FACTOR: '0' }).rateLimitFactor).toBe(0);
    expect(scaledLimit(RATE_LIMITS.login.limit, 1)).toBe(20);
    expect(scaledLimit(RATE_LIMITS.login.limit, 2.5)).toBe(50);
    expect(scaledLimit(RATE_LIMITS.sms.limit, 0.1)).toBe(1);
    for (const bad of ['-1', 'lots']) expect(() => loadConfig({ RATE_LIMIT_FACTOR: bad })).toThrow(ConfigError);
  });
});
