import { Code, Role, t as msg, type WechatOauthAnswer } from '@wantuo/shared';
import { startTestApp, type TestApp } from '../../../test/harness';

const zh = (key: Parameters<typeof msg>[1]) => msg('zh-CN', key);
const WX_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.50';

let t: TestApp;
let host: string;
const tokens: Record<'admin' | 'adviser' | 'parent', string> = {} as never;
beforeAll(async () => {
  // listening: the API asks its own WeChat sandbox over HTTP, as it would ask WeChat
  t = await startTestApp({ runJobs: false, listen: true, demoPeople: true });
  for (const u of ['admin', 'adviser', 'parent'] as const) tokens[u] = await t.login(u);
  host = `127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
});
afterAll(() => t.close());

const callback = () => `http://${host}/wechat/callback`;

/** The sign-in page's step: the authorisation URL (with a fresh state) for `redirect`. */
async function authorizeUrl(redirect = '/parent'): Promise<URL> {
  const res = await t.get(`/api/index/wechatAuthorize?redirect=${encodeURIComponent(redirect)}&callback=${encodeURIComponent(callback())}`);
  expect(res.body.code).toBe(Code.Ok);
  // the sandbox's page is on this site (a relative URL: the browser stays on its own origin)
  return new URL(res.body.data.url, `http://${host}`);
}

/** The guardian consents on the sandbox's authorisation page as WeChat user `name`: the code and state WeChat sends back. */
async function consent(url: URL, name: string): Promise<{ code: string; state: string }> {
  const page = await t.get(`${url.pathname}${url.search}`);
  expect(page.status).toBe(200);
  // what the page's form posts: its hidden fields, as a browser would
  const unescape = (v: string) => v.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  const form = Object.fromEntries(
    [...page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], unescape(m[2])]),
  );
  expect(Object.keys(form).sort()).toEqual(['appid', 'redirect_uri', 'response_type', 'scope', 'state']);
  const res = await t
    .post(`${url.pathname}/confirm`)
    .type('form')
    .send({ ...form, name, follow: '1' });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.location);
  expect(`${back.origin}${back.pathname}`).toBe(callback());
  return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
}

const oauth = (body: object) => t.post('/api/index/wechatOauth').set('user-agent', WX_UA).send(body);
const bindings = async (userId: number) =>
  (await t.sql.query(`select openid, unbound_at, unbound_reason from wechat_bindings where user_id = $1 order by id`, [userId])).rows;

describe('WeChat web sign-in (snsapi_base)', () => {
  it('unbound openid → bind ticket → the guardian binds it once → the next authorisation signs in without a code', async () => {
    const url = await authorizeUrl('/parent?tab=leave');
    expect(url.pathname).toMatch(/\/api\/dev\/wechat\/connect\/oauth2\/authorize$/);
    expect(url.searchParams.get('scope')).toBe('snsapi_base');
    expect(url.searchParams.get('redirect_uri')).toBe(callback());
    expect(url.hash).toBe('#wechat_redirect');

    const first = await oauth(await consent(url, '陈家长微信'));
    expect(first.body.code).toBe(Code.Ok);
    const a = first.body.data as WechatOauthAnswer;
    expect(a.userinfo).toBeUndefined();
    expect(a.bind_ticket).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(a.redirect).toBe('/parent?tab=leave');

    const bound = await t.post('/api/index/wechatBind', tokens.parent).send({ ticket: a.bind_ticket });
    expect(bound.body).toMatchObject({ code: Code.Ok, data: { rebound: false } });
    const rows = await bindings(t.demo.users.parent);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ unbound_at: null });
    // the ticket is spent
    expect((await t.post('/api/index/wechatBind', tokens.parent).send({ ticket: a.bind_ticket })).body.msg).toBe(zh('auth.wechat_ticket_invalid'));

    // the same WeChat user again: signed in at once, logged as login.wechat
    const again = await oauth(await consent(await authorizeUrl('/parent'), '陈家长微信'));
    const b = again.body.data as WechatOauthAnswer;
    expect(b.bind_ticket).toBeUndefined();
    expect(b.userinfo).toMatchObject({ id: t.demo.users.parent, role: Role.Parent, token: expect.any(String) });
    const me = await t.get('/api/index/userInfo', b.userinfo!.token);
    expect(me.body.data).toMatchObject({ id: t.demo.users.parent });
    const { rows: log } = await t.sql.query(`select action, detail, user_agent from user_activity where user_id = $1 order by id desc limit 2`, [
      t.demo.users.parent,
    ]);
    expect(log[0]).toMatchObject({ action: 'login.wechat', detail: { method: 'wechat' }, user_agent: WX_UA });
    expect(log[1]).toMatchObject({ action: 'wechat.bind' });
    // the openid is never written whole to the log
    expect(JSON.stringify(log)).not.toContain(rows[0].openid);
  });

  it('a code used twice is refused (40163), an unknown code too (40029), and each state works once', async () => {
    const url = await authorizeUrl();
    const got = await consent(url, '一次性');
    expect((await oauth(got)).body.code).toBe(Code.Ok);
    // the same code with a fresh state: WeChat refuses it as used
    const fresh = (await authorizeUrl()).searchParams.get('state')!;
    const twice = await oauth({ code: got.code, state: fresh });
    expect(twice.body).toMatchObject({ code: Code.Error, msg: zh('auth.wechat_code_used') });
    // the state of the first round is spent
    expect((await oauth(got)).body.msg).toBe(zh('auth.wechat_state_invalid'));
    const other = (await authorizeUrl()).searchParams.get('state')!;
    expect((await oauth({ code: 'NOT-A-CODE-WECHAT-GAVE', state: other })).body.msg).toBe(zh('auth.wechat_code_invalid'));
    // an unknown state never reaches WeChat
    expect((await oauth({ code: got.code, state: 'A'.repeat(24) })).body.msg).toBe(zh('auth.wechat_state_invalid'));
  });

  it('rebinding: the openid moves to the guardian who binds it last, the old binding is ended (kept) and both logs say so', async () => {
    const [other] = (
      await t.sql.query(
        `select u.id, u.username from users u where u.school_id = $1 and u.role = $2 and u.id <> $3 and u.deleted_at is null order by u.id limit 1`,
        [t.demo.schoolId, Role.Parent, t.demo.users.parent],
      )
    ).rows as Array<{ id: number; username: string }>;
    // another guardian of the school, given the demo password to sign in with
    await t.sql.query(`update users set password_hash = (select password_hash from users where id = $2) where id = $1`, [
      other.id,
      t.demo.users.parent,
    ]);
    const login = await t.post('/api/index/login').send({ account: other.username, password: 'Demo@2026' });
    const otherToken = login.body.data.userinfo.token as string;
    const ticketFor = async (name: string) => ((await oauth(await consent(await authorizeUrl(), name))).body.data as WechatOauthAnswer).bind_ticket!;

    expect((await t.post('/api/index/wechatBind', otherToken).send({ ticket: await ticketFor('共用微信') })).body.code).toBe(Code.Ok);
    // the same WeChat user is now signed in as `other`; `parent` binds it to themselves (from a ticket of a fresh WeChat
    // user, then of this one: the second replaces parent's first binding and takes the openid from `other`)
    const moved = await oauth(await consent(await authorizeUrl(), '共用微信'));
    expect((moved.body.data as WechatOauthAnswer).userinfo?.id).toBe(other.id);
    const { rows } = await t.sql.query(
      `insert into wechat_oauth_tickets (id_hash, kind, appid, openid, expires_at)
       select sha256(convert_to('manual-ticket-000000000000', 'UTF8')), 'bind', appid, openid, now() + interval '5 minutes'
         from wechat_bindings where user_id = $1 and unbound_at is null returning openid`,
      [other.id],
    );
    const res = await t.post('/api/index/wechatBind', tokens.parent).send({ ticket: 'manual-ticket-000000000000' });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { rebound: true } });
    expect(await bindings(other.id)).toEqual([{ openid: rows[0].openid, unbound_at: expect.any(Date), unbound_reason: 'rebound' }]);
    const mine = await bindings(t.demo.users.parent);
    expect(mine.filter((b) => b.unbound_at === null)).toEqual([{ openid: rows[0].openid, unbound_at: null, unbound_reason: null }]);
    const { rows: otherLog } = await t.sql.query(`select action, detail from user_activity where user_id = $1 order by id desc limit 1`, [other.id]);
    expect(otherLog[0]).toMatchObject({ action: 'wechat.unbind', detail: { reason: 'rebound' } });
    // signing in with that WeChat user is now `parent`
    const now = await oauth(await consent(await authorizeUrl(), '共用微信'));
    expect((now.body.data as WechatOauthAnswer).userinfo?.id).toBe(t.demo.users.parent);
  });

  it('staff are never signed in by openid nor bound', async () => {
    const ticket = ((await oauth(await consent(await authorizeUrl(), '班主任微信'))).body.data as WechatOauthAnswer).bind_ticket!;
    const res = await t.post('/api/index/wechatBind', tokens.adviser).send({ ticket });
    expect(res.body.msg).toBe(zh('auth.forbidden'));
    // a binding written for a staff account by hand is not honoured either
    await t.sql.query(
      `insert into wechat_bindings (user_id, school_id, appid, openid)
       select $1, $2, appid, openid from wechat_oauth_tickets where id_hash = sha256(convert_to($3, 'UTF8'))`,
      [t.demo.users.adviser, t.demo.schoolId, ticket],
    );
    const again = await oauth(await consent(await authorizeUrl(), '班主任微信'));
    expect((again.body.data as WechatOauthAnswer).userinfo).toBeUndefined();
    expect((again.body.data as WechatOauthAnswer).bind_ticket).toBeDefined();
  });

  it('bad input: code 100 and nothing written; a callback that is not this site refused', async () => {
    const before = (await t.sql.query(`select count(*)::int as n from wechat_oauth_tickets`)).rows[0].n;
    for (const q of [
      `redirect=${encodeURIComponent('//evil.example/x')}&callback=${encodeURIComponent(callback())}`,
      `redirect=/parent`,
      `redirect=/parent&callback=not-a-url`,
    ]) {
      expect((await t.get(`/api/index/wechatAuthorize?${q}`)).body.code).toBe(Code.Error);
    }
    const foreign = await t.get(`/api/index/wechatAuthorize?redirect=/parent&callback=${encodeURIComponent('https://evil.example/wechat/callback')}`);
    expect(foreign.body.msg).toBe(zh('auth.wechat_callback_invalid'));
    const otherPath = await t.get(`/api/index/wechatAuthorize?redirect=/parent&callback=${encodeURIComponent(`http://${host}/elsewhere`)}`);
    expect(otherPath.body.msg).toBe(zh('auth.wechat_callback_invalid'));
    expect((await oauth({ code: '', state: 'x' })).body.code).toBe(Code.Error);
    expect((await oauth({ code: 'abc', state: 'A'.repeat(24), extra: 1 })).body.code).toBe(Code.Error);
    expect((await t.post('/api/index/wechatBind', tokens.parent).send({ ticket: 'short' })).body.code).toBe(Code.Error);
    expect((await t.sql.query(`select count(*)::int as n from wechat_oauth_tickets`)).rows[0].n).toBe(before);
    // wrong role: the admin cannot bind
    expect((await t.post('/api/index/wechatBind', tokens.admin).send({ ticket: 'A'.repeat(24) })).body.msg).toBe(zh('auth.forbidden'));
    // signed out: no binding
    expect((await t.post('/api/index/wechatBind').send({ ticket: 'A'.repeat(24) })).body.code).toBe(Code.Untoken);
  });
});
