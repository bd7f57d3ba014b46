import { Redis } from 'ioredis';
import request from 'supertest';
import { REDIS_URL } from '../../../test/db';
import { eventually, startTestApp, type TestApp } from '../../../test/harness';
import { WechatSandbox, sandboxOpenid } from '../../sandboxes/wechat-sandbox/wechat-sandbox.service';
import { WechatApiError, WechatOa, sandboxTemplateId, serverSignature } from './oa-client';
import { OA_ACCOUNT, type OaAccount } from './oa.provider';

/**
 * The official account's client against the local sandbox (issue 24): a code for the openid once, the access token
 * kept in Redis and refreshed by one process, an expired token refreshed and the message sent again, WeChat's
 * refusals as WechatApiError; and /api/wechat/server: signed or refused, template results and follows recorded.
 */

let t: TestApp;
let oa: WechatOa;
let sandbox: WechatSandbox;
let account: OaAccount;
let base: string;
const redises: Redis[] = [];
let seq = 0;
/** a WeChat user name no other test uses */
const userName = () => `测试用户${process.pid % 1000}_${seq++}`;

beforeAll(async () => {
  t = await startTestApp({ listen: true });
  oa = t.app.get(WechatOa);
  sandbox = t.app.get(WechatSandbox);
  account = t.app.get(OA_ACCOUNT);
  base = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}/api/dev/wechat/`;
});
afterAll(async () => {
  await sandbox.settled();
  for (const r of redises) await r.quit();
  await t.close();
});
afterEach(() => jest.restoreAllMocks());

/** Another process's client: same account, same Redis, its own connection and memory. */
function peer(): WechatOa {
  const redis = new Redis(REDIS_URL);
  redises.push(redis);
  return new WechatOa({ ...account, apiUrl: () => base, openUrl: () => '/api/dev/wechat/', redis, keyPrefix: t.config.queuePrefix });
}

/** Goes through the sandbox's authorisation page as a browser would: the code it redirects back with. */
async function authorise(name: string, follow = true): Promise<string> {
  const redirect = 'http://school.example.com/wechat/callback';
  const url = new URL(oa.authorizeUrl(redirect, 'st_1'), 'http://x');
  const page = await t.get(`${url.pathname}${url.search}`);
  expect(page.status).toBe(200);
  const res = await t
    .post('/api/dev/wechat/connect/oauth2/authorize/confirm')
    .type('form')
    .send({ ...Object.fromEntries(url.searchParams), name, ...(follow ? { follow: '1' } : {}) });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.location);
  expect(`${back.origin}${back.pathname}`).toBe(redirect);
  expect(back.searchParams.get('state')).toBe('st_1');
  return back.searchParams.get('code')!;
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof WechatApiError ? e.errcode : e),
  );

/** stable_token calls made through fetch from now on */
function countTokenCalls(): () => number {
  const spy = jest.spyOn(globalThis, 'fetch');
  return () => spy.mock.calls.filter(([u]) => String(u).includes('cgi-bin/stable_token')).length;
}

const message = (openid: string, kind = 'arrival.in') => ({
  openid,
  templateId: sandboxTemplateId(kind),
  url: 'http://school.example.com/parent',
  data: { thing1: { value: '小明' }, time2: { value: '16:05' } },
});

describe('web authorisation', () => {
  it('builds the snsapi_base URL', () => {
    expect(oa.sandbox).toBe(true);
    expect(oa.authorizeUrl('https://a.example.com/wechat/callback?x=1', 's-1')).toBe(
      `/api/dev/wechat/connect/oauth2/authorize?appid=${oa.appid}&redirect_uri=https%3A%2F%2Fa.example.com%2Fwechat%2Fcallback%3Fx%3D1&response_type=code&scope=snsapi_base&state=s-1#wechat_redirect`,
    );
  });

  it('exchanges a code for the openid once: a second time 40163, an unknown code 40029', async () => {
    const name = userName();
    const code = await authorise(name);
    const openid = await oa.openidOf(code);
    expect(openid).toBe(sandboxOpenid(oa.appid, name));
    expect(openid).toMatch(/^o[\w-]{27}$/);
    expect(await refusal(oa.openidOf(code))).toBe(40163);
    expect(await refusal(oa.openidOf('nosuchcode0000000000000000000000'))).toBe(40029);
  });

  it('the same user name is the same openid', async () => {
    const name = userName();
    const first = await oa.openidOf(await authorise(name));
    expect(await oa.openidOf(await authorise(name))).toBe(first);
  });

  it('a code older than 5 minutes is refused 40029', async () => {
    const code = await authorise(userName());
    await t.sql.query(`update wechat_sandbox_codes set created_at = now() - interval '301 seconds' where code = $1`, [code]);
    expect(await refusal(oa.openidOf(code))).toBe(40029);
  });
});

describe('access token', () => {
  it('is fetched once and shared: two processes asking together, one stable_token call', async () => {
    await peer().accessToken(true); // a token of this test's own, then forget it
    const redis = redises[0];
    await redis.del(`${t.config.queuePrefix}:wechat:${oa.appid}:access-token`);
    const calls = countTokenCalls();
    const [a, b] = [peer(), peer()];
    const tokens = await Promise.all([a.accessToken(), b.accessToken(), a.accessToken(), b.accessToken(), oa.accessToken()]);
    expect(new Set(tokens).size).toBe(1);
    expect(calls()).toBe(1);
    // kept: asked again, no call
    expect(await b.accessToken()).toBe(tokens[0]);
    expect(calls()).toBe(1);
    const ttl = await redis.pttl(`${t.config.queuePrefix}:wechat:${oa.appid}:access-token`);
    expect(ttl).toBeGreaterThan(7000_000);
    expect(ttl).toBeLessThanOrEqual(7200_000);
  });

  it('is refreshed 5 minutes before its end', async () => {
    const kept = await oa.accessToken();
    const key = `${t.config.queuePrefix}:wechat:${oa.appid}:access-token`;
    const redis = redises[0];
    const c = JSON.parse((await redis.get(key))!);
    await redis.set(key, JSON.stringify({ ...c, refreshAt: Date.now() - 1 }), 'PX', 240_000);
    // the sandbox's own token has its 2 hours: to the refresher it is too old, so a new one
    await t.sql.query(`update wechat_sandbox_tokens set expires_at = now() + interval '4 minutes' where token = $1`, [kept]);
    const calls = countTokenCalls();
    const fresh = await oa.accessToken();
    expect(fresh).not.toBe(kept);
    expect(calls()).toBe(1);
  });

  it('a wrong secret is refused 40125 and a wrong appid 40013', async () => {
    const wrong = new WechatOa({ ...account, secret: 'f'.repeat(32), apiUrl: () => base, openUrl: () => '/', redis: null, keyPrefix: 'x' });
    expect(await refusal(wrong.accessToken())).toBe(40125);
    expect(await refusal(wrong.openidOf('whatever'))).toBe(40125);
    const other = new WechatOa({ ...account, appid: 'wxnotthisone1', apiUrl: () => base, openUrl: () => '/', redis: null, keyPrefix: 'x' });
    expect(await refusal(other.accessToken())).toBe(40013);
  });
});

describe('template messages', () => {
  it('are sent to a follower with the sandbox template id and logged', async () => {
    const openid = await oa.openidOf(await authorise(userName()));
    const { msgid } = await oa.sendTemplate(message(openid));
    expect(msgid).toMatch(/^\d+$/);
    const log = await t.get(`/api/dev/wechat/messages?openid=${openid}&limit=5`);
    expect(log.body.data).toEqual([
      expect.objectContaining({
        msgid,
        openid,
        template_id: 'sbx_tpl_arrival_in',
        url: 'http://school.example.com/parent',
        data: message(openid).data,
      }),
    ]);
  });

  it('an expired token is refused 42001 by WeChat: refreshed once and the message sent again', async () => {
    const openid = await oa.openidOf(await authorise(userName()));
    const before = await oa.accessToken();
    expect((await t.post('/api/dev/wechat/tokens/expire')).body.data.expired).toBeGreaterThanOrEqual(1);
    const calls = countTokenCalls();
    const sends = jest.spyOn(globalThis, 'fetch');
    const { msgid } = await oa.sendTemplate(message(openid));
    expect(msgid).toMatch(/^\d+$/);
    expect(calls()).toBe(1);
    expect(sends.mock.calls.filter(([u]) => String(u).includes('template/send')).length).toBe(2);
    expect(await oa.accessToken()).not.toBe(before);
    // the old one: 42001 as WeChat answers
    const raw = await request(base).post(`cgi-bin/message/template/send?access_token=${before}`).send({});
    expect(raw.body).toMatchObject({ errcode: expect.any(Number) });
    expect([40001, 42001]).toContain(raw.body.errcode);
  });

  it('an unknown token is refused 40001, then refreshed and sent', async () => {
    const openid = await oa.openidOf(await authorise(userName()));
    const key = `${t.config.queuePrefix}:wechat:${oa.appid}:access-token`;
    await redises[0].set(
      key,
      JSON.stringify({ token: 'forged', expiresAt: Date.now() + 3600_000, refreshAt: Date.now() + 3000_000 }),
      'PX',
      3600_000,
    );
    expect((await oa.sendTemplate(message(openid))).msgid).toMatch(/^\d+$/);
  });

  it('refuses 43101 a user who does not follow, 40003 one who never authorised, 40037 an unknown template', async () => {
    const name = userName();
    const openid = await oa.openidOf(await authorise(name, false));
    expect(await refusal(oa.sendTemplate(message(openid)))).toBe(43101);
    // follows: sent; unfollows again: refused
    expect((await t.post('/api/dev/wechat/users').send({ name, subscribed: true })).body.data).toEqual({ openid, name, subscribed: true });
    expect((await oa.sendTemplate(message(openid))).msgid).toMatch(/^\d+$/);
    await t.post('/api/dev/wechat/users').send({ name, subscribed: false });
    expect(await refusal(oa.sendTemplate(message(openid)))).toBe(43101);
    expect(await refusal(oa.sendTemplate(message(sandboxOpenid(oa.appid, 'never-seen'))))).toBe(40003);
    const follower = await oa.openidOf(await authorise(userName()));
    expect(await refusal(oa.sendTemplate({ ...message(follower), templateId: 'TM00001' }))).toBe(40037);
    const log = await t.get(`/api/dev/wechat/messages?openid=${openid}`);
    expect(log.body.data).toHaveLength(1);
  });
});

describe('/api/wechat/server', () => {
  const signedQuery = (token = account.token, ts = String(Math.floor(Date.now() / 1000))) => {
    const nonce = '123456';
    return { signature: serverSignature(token, ts, nonce), timestamp: ts, nonce };
  };
  const finished = (msgid: string, status: string) =>
    `<xml><ToUserName><![CDATA[gh_x]]></ToUserName><FromUserName><![CDATA[oX]]></FromUserName><CreateTime>${Math.floor(Date.now() / 1000)}</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[TEMPLATESENDJOBFINISH]]></Event><MsgID>${msgid}</MsgID><Status><![CDATA[${status}]]></Status></xml>`;
  const row = async (msgid: string) => {
    await t.sql.query(
      `insert into wechat_messages (appid, openid, kind, template_id, day, state, msgid) values ($1, 'oX', 'arrival.in', 'sbx_tpl_arrival_in', current_date, 'sent', $2)`,
      [oa.appid, msgid],
    );
  };
  const stateOf = async (msgid: string) =>
    (await t.sql.query(`select state, errmsg from wechat_messages where msgid = $1`, [msgid])).rows[0] as { state: string; errmsg: string | null };
  const post = (q: Record<string, string>, xml: string) =>
    t
      .post(`/api/wechat/server?${new URLSearchParams(q)}`)
      .set('content-type', 'text/xml')
      .send(xml);

  it('answers the URL check with echostr when signed by the Token, 401 otherwise', async () => {
    const ok = await t.get(`/api/wechat/server?${new URLSearchParams({ ...signedQuery(), echostr: 'e123' })}`);
    expect([ok.status, ok.text]).toEqual([200, 'e123']);
    const forged = await t.get(`/api/wechat/server?${new URLSearchParams({ ...signedQuery('wrongtoken'), echostr: 'e123' })}`);
    expect(forged.status).toBe(401);
    const old = await t.get(
      `/api/wechat/server?${new URLSearchParams({ ...signedQuery(account.token, String(Math.floor(Date.now() / 1000) - 600)), echostr: 'e' })}`,
    );
    expect(old.status).toBe(401);
    expect((await t.get('/api/wechat/server?echostr=e')).status).toBe(401);
  });

  it('a forged signature is refused 401 and changes nothing', async () => {
    await row('900001');
    const followers = (await t.sql.query(`select count(*)::int as n from wechat_followers`)).rows[0].n;
    const res = await post(signedQuery('wrongtoken'), finished('900001', 'success'));
    expect(res.status).toBe(401);
    const unsubscribe = `<xml><FromUserName><![CDATA[oForged]]></FromUserName><CreateTime>1</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[subscribe]]></Event></xml>`;
    expect((await post({ ...signedQuery(), signature: 'a'.repeat(40) }, unsubscribe)).status).toBe(401);
    expect(await stateOf('900001')).toEqual({ state: 'sent', errmsg: null });
    expect((await t.sql.query(`select count(*)::int as n from wechat_followers`)).rows[0].n).toBe(followers);
  });

  it('TEMPLATESENDJOBFINISH marks the message delivered, or failed with the status', async () => {
    await row('900002');
    await row('900003');
    const ok = await post(signedQuery(), finished('900002', 'success'));
    expect([ok.status, ok.text]).toEqual([200, 'success']);
    expect(await stateOf('900002')).toEqual({ state: 'delivered', errmsg: null });
    await post(signedQuery(), finished('900003', 'failed:user block'));
    expect(await stateOf('900003')).toEqual({ state: 'failed', errmsg: 'failed:user block' });
    // a repeat changes nothing
    await post(signedQuery(), finished('900003', 'success'));
    expect(await stateOf('900003')).toMatchObject({ state: 'failed' });
  });

  it('the sandbox pushes the result of a sent message: its row ends delivered', async () => {
    const openid = await oa.openidOf(await authorise(userName()));
    const { msgid } = await oa.sendTemplate(message(openid));
    await t.sql.query(
      `insert into wechat_messages (appid, openid, kind, template_id, day, state, msgid) values ($1, $2, 'arrival.in', 'sbx_tpl_arrival_in', current_date, 'sent', $3)`,
      [oa.appid, openid, msgid],
    );
    await sandbox.settled();
    expect(await stateOf(msgid)).toEqual({ state: 'delivered', errmsg: null });
    const [logged] = (await t.get(`/api/dev/wechat/messages?openid=${openid}`)).body.data;
    expect(logged.pushed_status).toBe(200);
  });

  it('follows and unfollows (pushed by the sandbox) are kept in wechat_followers', async () => {
    const name = userName();
    const openid = await oa.openidOf(await authorise(name));
    const follower = () =>
      eventually(
        async () => (await t.sql.query(`select subscribed from wechat_followers where appid = $1 and openid = $2`, [oa.appid, openid])).rows[0],
      );
    await sandbox.settled();
    expect(await follower()).toEqual({ subscribed: true });
    await t.post('/api/dev/wechat/users').send({ name, subscribed: false });
    await sandbox.settled();
    expect(await follower()).toEqual({ subscribed: false });
  });
});
