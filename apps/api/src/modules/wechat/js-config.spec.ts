import { Code } from '@wantuo/shared';
import { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { REDIS_URL } from '../../../test/db';
import { startTestApp, type TestApp } from '../../../test/harness';
import { WechatSandbox } from '../../sandboxes/wechat-sandbox/wechat-sandbox.service';
import { WechatOa } from './oa-client';
import { OA_ACCOUNT, type OaAccount } from './oa.provider';

/**
 * The JS-SDK's wx.config inside WeChat (issue 35): wechatJsConfig signs a page of this site with the official account's
 * jsapi_ticket (the sandbox's getticket), kept in Redis and fetched once for every caller and process, refreshed 5
 * minutes before its end and after WeChat refuses the access token it was asked with; bad input, another site's page
 * and other roles are refused with nothing fetched.
 */

let t: TestApp;
let oa: WechatOa;
let sandbox: WechatSandbox;
let account: OaAccount;
let redis: Redis;
let base: string;
let teacher: string;
let adviser: string;
let parent: string;
const peers: Redis[] = [];

beforeAll(async () => {
  t = await startTestApp({ listen: true });
  oa = t.app.get(WechatOa);
  sandbox = t.app.get(WechatSandbox);
  account = t.app.get(OA_ACCOUNT);
  redis = new Redis(REDIS_URL);
  base = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}/api/dev/wechat/`;
  [teacher, adviser, parent] = await Promise.all([t.login('teacher'), t.login('adviser'), t.login('parent')]);
});
afterAll(async () => {
  await sandbox.settled();
  await redis.quit();
  for (const r of peers) await r.quit();
  await t.close();
});
afterEach(() => jest.restoreAllMocks());

const ticketKey = () => `${t.config.queuePrefix}:wechat:${account.appid}:jsapi-ticket`;
const tokenKey = () => `${t.config.queuePrefix}:wechat:${account.appid}:access-token`;
const kept = async () => {
  const raw = await redis.get(ticketKey());
  return raw ? (JSON.parse(raw) as { token: string; expiresAt: number; refreshAt: number }) : null;
};
const page = (path = '/m/teacher_pickup') => `${t.config.webPublicUrl}${path}`;
const jsConfig = (input: Record<string, unknown>, token = teacher) =>
  t.get(`/api/index/wechatJsConfig?${new URLSearchParams(input as never)}`, token);

/** The JS-SDK's signature as WeChat's document (附录1) gives it, computed here on its own. */
const sign = (ticket: string, nonceStr: string, timestamp: number, url: string) =>
  createHash('sha1').update(`jsapi_ticket=${ticket}&noncestr=${nonceStr}&timestamp=${timestamp}&url=${url}`).digest('hex');

/** getticket / stable_token calls made through fetch from now on (the sandbox's hits). */
function countCalls(): { tickets: () => number; tokens: () => number } {
  const spy = jest.spyOn(globalThis, 'fetch');
  const count = (part: string) => () => spy.mock.calls.filter(([u]) => String(u).includes(part)).length;
  return { tickets: count('cgi-bin/ticket/getticket'), tokens: count('cgi-bin/stable_token') };
}

/** Another API process's client: same account, same Redis, its own memory. */
function peer(): WechatOa {
  const r = new Redis(REDIS_URL);
  peers.push(r);
  return new WechatOa({ ...account, apiUrl: () => base, openUrl: () => '/api/dev/wechat/', redis: r, keyPrefix: t.config.queuePrefix });
}

describe('bad input, another site, other roles: code 100, nothing fetched or kept', () => {
  beforeEach(async () => {
    await redis.del(ticketKey());
  });

  it.each<[string, () => Record<string, string>]>([
    ['no url', () => ({})],
    ['an empty url', () => ({ url: '' })],
    ['not a URL', () => ({ url: 'm/teacher_pickup' })],
    ['a javascript: URL', () => ({ url: 'javascript:alert(1)' })],
    ['an ftp URL', () => ({ url: page().replace('http:', 'ftp:') })],
    ['the URL with its #fragment', () => ({ url: `${page()}#/step` })],
    ['a URL with credentials', () => ({ url: page().replace('//', '//u:p@') })],
    ['a URL with spaces', () => ({ url: `${page()}?q=a b` })],
    ['a URL over 1,024 characters', () => ({ url: `${page()}?q=${'a'.repeat(1024)}` })],
    ['an unknown field', () => ({ url: page(), extra: '1' })],
  ])('refuses %s', async (_, input) => {
    const calls = countCalls();
    const res = await jsConfig(input());
    expect(res.body.code).toBe(Code.Error);
    expect(calls.tickets()).toBe(0);
    expect(await kept()).toBeNull();
  });

  it('names the problem: not a page URL, too long, another site', async () => {
    expect((await jsConfig({ url: `${page()}#x` })).body.msg).toBe('页面地址需为 http(s) 网址，且不含 # 之后的部分');
    expect((await jsConfig({ url: `${page()}?q=${'a'.repeat(1024)}` })).body.msg).toBe('页面地址最多 1024 个字符');
    const otherPort = new URL(page());
    otherPort.port = String(Number(otherPort.port || 80) + 1);
    const otherScheme = new URL(page());
    otherScheme.protocol = otherScheme.protocol === 'http:' ? 'https:' : 'http:';
    for (const url of ['https://evil.example.com/m/teacher_pickup', otherPort.toString(), otherScheme.toString()]) {
      const res = await jsConfig({ url });
      expect(res.body).toMatchObject({ code: Code.Error, msg: '只能为本站的页面获取微信接口配置' });
    }
    expect(await kept()).toBeNull();
  });

  it('refuses the admin and the operator (code 100), a signed-out caller (401)', async () => {
    const calls = countCalls();
    for (const who of ['admin', 'operator'] as const) {
      const res = await jsConfig({ url: page() }, await t.login(who));
      expect(res.body).toMatchObject({ code: Code.Error, msg: '当前账号没有权限执行此操作' });
    }
    expect((await t.get(`/api/index/wechatJsConfig?url=${encodeURIComponent(page())}`)).body.code).toBe(Code.Untoken);
    expect(calls.tickets()).toBe(0);
    expect(await kept()).toBeNull();
  });
});

describe('the signature', () => {
  it('is the sha1 of the ticket the sandbox issued, a random nonceStr, the time in seconds and the page URL', async () => {
    await redis.del(ticketKey());
    const url = page('/m/teacher_pickup?class=3&from=menu');
    const before = Math.floor(Date.now() / 1000);
    const res = await jsConfig({ url });
    expect(res.body.code).toBe(Code.Ok);
    const c = res.body.data as { appId: string; timestamp: number; nonceStr: string; signature: string };
    expect(c.appId).toBe(account.appid);
    expect(c.timestamp).toBeGreaterThanOrEqual(before);
    expect(c.timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(c.nonceStr).toMatch(/^[A-Za-z0-9]{16}$/);
    const ticket = (await kept())!.token;
    expect(await sandbox.liveTickets()).toContain(ticket);
    expect(c.signature).toBe(sign(ticket, c.nonceStr, c.timestamp, url));
    // WeChat's client (the sandbox's verify) accepts it for that page only
    const verify = (body: Record<string, unknown>) => t.post('/api/dev/wechat/js/verify').send({ ...c, url, ...body });
    expect((await verify({})).body).toEqual({ errMsg: 'config:ok' });
    expect((await verify({ url: page('/m/teacher_pickup') })).body).toEqual({ errMsg: 'config:invalid signature' });
    expect((await verify({ nonceStr: 'x'.repeat(16) })).body).toEqual({ errMsg: 'config:invalid signature' });
    // a second call: another nonce, the same ticket
    const again = (await jsConfig({ url })).body.data as typeof c;
    expect(again.nonceStr).not.toBe(c.nonceStr);
    expect(again.signature).toBe(sign(ticket, again.nonceStr, again.timestamp, url));
  });

  it('is given to head teachers and parents', async () => {
    for (const token of [adviser, parent]) {
      const res = await jsConfig({ url: page('/m/parent') }, token);
      expect(res.body.code).toBe(Code.Ok);
      expect(res.body.data.signature).toBe(sign((await kept())!.token, res.body.data.nonceStr, res.body.data.timestamp, page('/m/parent')));
    }
  });

  it('WeChat refusing the ticket (45009 quota) is 微信 unavailable, nothing kept', async () => {
    await redis.del(ticketKey());
    jest.spyOn(sandbox, 'getTicket').mockResolvedValue({ errcode: 45009, errmsg: 'reach max api daily quota limit' });
    const res = await jsConfig({ url: page() });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '暂时无法使用微信扫一扫和分享，请稍后再试' });
    expect(await kept()).toBeNull();
  });
});

describe('the ticket', () => {
  it('is fetched once for many callers and processes, then kept in Redis (7,200 s)', async () => {
    await redis.del(ticketKey());
    const calls = countCalls();
    const [a, b] = [peer(), peer()];
    const answers = await Promise.all([
      ...[teacher, adviser, parent, teacher, parent].map((token) => jsConfig({ url: page() }, token)),
      a.jsapiTicket(),
      b.jsapiTicket(),
      oa.jsapiTicket(),
    ]);
    expect(calls.tickets()).toBe(1);
    const ticket = (await kept())!.token;
    for (const r of answers.slice(0, 5) as Array<{ body: { data: { nonceStr: string; timestamp: number; signature: string } } }>) {
      expect(r.body.data.signature).toBe(sign(ticket, r.body.data.nonceStr, r.body.data.timestamp, page()));
    }
    expect(answers.slice(5)).toEqual([ticket, ticket, ticket]);
    // asked again: no call
    await jsConfig({ url: page() }, parent);
    expect(await peer().jsapiTicket()).toBe(ticket);
    expect(calls.tickets()).toBe(1);
    const ttl = await redis.pttl(ticketKey());
    expect(ttl).toBeGreaterThan(7000_000);
    expect(ttl).toBeLessThanOrEqual(7200_000);
  });

  it('is refreshed 5 minutes before its end', async () => {
    await jsConfig({ url: page() });
    const old = (await kept())!;
    await redis.set(ticketKey(), JSON.stringify({ ...old, refreshAt: Date.now() - 1, expiresAt: Date.now() + 240_000 }), 'PX', 240_000);
    const calls = countCalls();
    const res = await jsConfig({ url: page() });
    expect(calls.tickets()).toBe(1);
    const fresh = (await kept())!;
    expect(fresh.token).not.toBe(old.token);
    expect(fresh.refreshAt).toBeGreaterThan(Date.now() + 7000_000 - 300_000);
    expect(res.body.data.signature).toBe(sign(fresh.token, res.body.data.nonceStr, res.body.data.timestamp, page()));
  });

  it('an expired access token (42001 at getticket) is refreshed once and the ticket asked again', async () => {
    await redis.del(ticketKey());
    const token = await oa.accessToken();
    expect((await t.post('/api/dev/wechat/tokens/expire')).body.data.expired).toBeGreaterThanOrEqual(1);
    const calls = countCalls();
    const res = await jsConfig({ url: page() });
    expect(res.body.code).toBe(Code.Ok);
    expect([calls.tickets(), calls.tokens()]).toEqual([2, 1]);
    expect(await oa.accessToken()).not.toBe(token);
    expect(res.body.data.signature).toBe(sign((await kept())!.token, res.body.data.nonceStr, res.body.data.timestamp, page()));
  });

  it('an unknown access token (40001 at getticket) is refreshed once and the ticket asked again', async () => {
    await redis.del(ticketKey());
    await redis.set(
      tokenKey(),
      JSON.stringify({ token: 'forged', expiresAt: Date.now() + 3600_000, refreshAt: Date.now() + 3000_000 }),
      'PX',
      3600_000,
    );
    const calls = countCalls();
    const res = await jsConfig({ url: page() });
    expect(res.body.code).toBe(Code.Ok);
    expect([calls.tickets(), calls.tokens()]).toEqual([2, 1]);
    expect(await sandbox.liveTickets()).toContain((await kept())!.token);
  });
});
