import { Code, Role } from '@wantuo/shared';
import { Redis } from 'ioredis';
import pino from 'pino';
import { DataSource } from 'typeorm';
import { eventually, startTestApp, type TestApp } from '../../../test/harness';
import { REDIS_URL } from '../../../test/db';
import { SessionCache } from './session-cache';
import { SessionRepository } from './session.repository';
import { hashToken, SessionService } from './session.service';

// A minute of cache: within a test only an invalidation can make a cached session go.
const TTL = '60000';
const PASSWORD = 'Teach2026x';
const api = (action: string) => `/api/index/${action}`;

let t: TestApp;
let admin: string;
/** another process's session cache: its own Redis connections on the deployment's channel, the same database */
let other: SessionService;
let otherRedis: Redis;
beforeAll(async () => {
  t = await startTestApp({ runJobs: false, env: { SESSION_CACHE_MS: TTL } });
  admin = await t.login('admin');
  otherRedis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  other = new SessionService(t.app.get(DataSource), t.app.get(SessionRepository), otherRedis, t.config, pino({ level: 'silent' }));
  await other.onModuleInit();
  await until(() => other.cache.serving);
});
afterAll(async () => {
  await other.onApplicationShutdown();
  otherRedis.disconnect();
  await t.close();
});

/** waits (a bounded number of turns, no clock) for the subscription to be confirmed */
async function until(ok: () => boolean) {
  for (let i = 0; i < 1000 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(ok()).toBe(true);
}

let nextMobile = 0;
const freshMobile = () => `1372222${String(++nextMobile).padStart(4, '0')}`;

async function addTeacher(role = Role.Teacher): Promise<{ id: number; mobile: string; version: number }> {
  const res = await t.post(api('addTeacher'), admin).send({ name: '缓存老师', mobile: freshMobile(), role, password: PASSWORD });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data;
}
async function signIn(account: string, password = PASSWORD): Promise<string> {
  const res = await t.post(api('login')).send({ account, password });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data.userinfo.token;
}
/** the session is in both processes' caches: this app's (by a request) and the other one's */
async function cachedEverywhere(token: string) {
  const key = hashToken(token).toString('base64');
  expect((await t.get(api('userInfo'), token)).body.code).toBe(Code.Ok);
  expect(t.app.get(SessionService).cache.get(key)).toBeDefined();
  expect(await other.resolve(token)).not.toBeNull();
  expect(other.cache.get(key)).toBeDefined();
}
/** refused at once by the other process (no wait) and by this app */
/**
 * The other process hears of a change through Redis a moment after the commit (its subscriber's turn of the event
 * loop): it must see it within 2 s, far inside the caches' 60 s, so what is proven is the invalidation, not the expiry.
 */
const otherSees = (token: string, ok: (u: Awaited<ReturnType<typeof other.resolve>>) => boolean) =>
  eventually(async () => (ok(await other.resolve(token)) ? true : null), 2_000);

async function refusedEverywhere(token: string) {
  await otherSees(token, (u) => u === null);
  expect((await t.get(api('userInfo'), token)).body.code).toBe(Code.Untoken);
}

describe('the session cache across processes', () => {
  it('serves a session from memory once resolved (no query on the second lookup)', async () => {
    const token = await signIn('teacher', 'Demo@2026');
    await cachedEverywhere(token);
    // the row is gone behind the caches' back (no invalidation): both still answer it from memory
    await t.sql.query(`update user_tokens set expires_at = now() - interval '1 second' where token_hash = $1`, [hashToken(token)]);
    expect((await other.resolve(token))?.role).toBe(Role.Teacher);
    expect((await t.get(api('userInfo'), token)).body.code).toBe(Code.Ok);
  });

  it('logout: the token is refused at once by the other process', async () => {
    const token = await signIn('adviser', 'Demo@2026');
    await cachedEverywhere(token);
    expect((await t.post(api('logout'), token).send({})).body.code).toBe(Code.Ok);
    await refusedEverywhere(token);
  });

  it('password change: every session of the account is refused at once', async () => {
    const x = await addTeacher();
    const [a, b] = [await signIn(x.mobile), await signIn(x.mobile)];
    await cachedEverywhere(a);
    await cachedEverywhere(b);
    const res = await t.post(api('changepwd'), a).send({ oldpassword: PASSWORD, newpassword: 'NewPass2026' });
    expect(res.body.code).toBe(Code.Ok);
    await refusedEverywhere(a);
    await refusedEverywhere(b);
  });

  it("the admin's password reset, the person leaving, the person deleted: refused at once", async () => {
    for (const action of ['resetTeacherPwd', 'setLeave', 'delTeacher']) {
      const x = await addTeacher();
      const token = await signIn(x.mobile);
      await cachedEverywhere(token);
      const res = await t.post(api(action), admin).send({ id: x.id, ...(action === 'resetTeacherPwd' ? { password: 'Other2026x' } : {}) });
      expect(res.body.code).toBe(Code.Ok);
      await refusedEverywhere(token);
    }
  });

  it('a role change is seen at once by the other process', async () => {
    const x = await addTeacher(Role.Teacher);
    const token = await signIn(x.mobile);
    await cachedEverywhere(token);
    const res = await t.post(api('editTeacher'), admin).send({ id: x.id, version: x.version, role: Role.HeadTeacher });
    expect(res.body.code).toBe(Code.Ok);
    await otherSees(token, (u) => u?.role === Role.HeadTeacher);
    expect((await t.get(api('userInfo'), token)).body.data.role).toBe(Role.HeadTeacher);
  });

  it('a rolled-back change invalidates nothing after the fact, a committed one does', async () => {
    const x = await addTeacher();
    const token = await signIn(x.mobile);
    await cachedEverywhere(token);
    const db = t.app.get(DataSource);
    const sessions = t.app.get(SessionService);
    // the transaction's own process drops its entries at once; after the rollback nothing is published
    await expect(
      db.transaction(async (em) => {
        await sessions.changed(em);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(other.cache.get(hashToken(token).toString('base64'))).toBeDefined();
    await db.transaction(async (em) => {
      await em.query(`update user_tokens set revoked_at = now() where token_hash = $1`, [hashToken(token)]);
      await sessions.changed(em);
      // not yet committed: the other process still answers the session (its row is not revoked for anyone yet)
      expect(other.cache.get(hashToken(token).toString('base64'))).toBeDefined();
    });
    // published after the commit (no HTTP answer in between here: the message is awaited, not raced)
    await until(() => other.cache.size === 0);
    await refusedEverywhere(token);
  });
});

describe('SessionCache', () => {
  const user = { id: 1, role: Role.Teacher, schoolId: 1, name: 'x', nickname: 'x', lang: 'zh-CN' as const, tokenId: 1, serviceExpiresAt: null };
  const far = new Date(Date.now() + 3_600_000);

  it('does not keep what a lookup read while an invalidation arrived', () => {
    const c = new SessionCache({ ttlMs: 60_000, max: 10, redis: null, channel: 'x' });
    const mark = c.mark();
    c.clear();
    c.put('k', user, far, mark);
    expect(c.get('k')).toBeUndefined();
    c.put('k', user, far, c.mark());
    expect(c.get('k')).toEqual(user);
  });

  it('never keeps a session past its token expiry, and drops the least recently used beyond its size', () => {
    const c = new SessionCache({ ttlMs: 60_000, max: 2, redis: null, channel: 'x' });
    c.put('gone', user, new Date(Date.now() - 1), c.mark());
    expect(c.get('gone')).toBeUndefined();
    c.put('a', user, far, c.mark());
    c.put('b', user, far, c.mark());
    c.get('a');
    c.put('c', user, far, c.mark());
    expect([c.get('a'), c.get('b'), c.get('c')].map(Boolean)).toEqual([true, false, true]);
  });

  it('serves nothing while its subscription is down, and again once it is back', async () => {
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    const c = new SessionCache({ ttlMs: 60_000, max: 10, redis, channel: `${t.config.queuePrefix}:sessions` });
    try {
      expect(c.serving).toBe(false);
      await c.start();
      await until(() => c.serving);
      c.put('k', user, far, c.mark());
      expect(c.get('k')).toEqual(user);
      const sub = (c as unknown as { sub: Redis }).sub;
      const closed = new Promise<boolean>((r) => sub.once('close', () => r(c.serving)));
      sub.disconnect(true); // a lost connection, reconnected by ioredis
      expect(await closed).toBe(false);
      expect(c.get('k')).toBeUndefined();
      await until(() => c.serving);
      expect(c.get('k')).toBeUndefined();
      // and it hears the other processes again
      c.put('k', user, far, c.mark());
      await t.app.get(SessionService).cache.invalidate();
      await until(() => c.get('k') === undefined);
    } finally {
      await c.stop();
      redis.disconnect();
    }
  });
});
