import { Code } from '@wantuo/shared';
import { createHash } from 'node:crypto';
import { startTestApp, type TestApp } from '../../../test/harness';
import { OA_ACCOUNT, type OaAccount } from '../../modules/wechat/oa.provider';
import { WechatSandbox, sandboxOpenid } from './wechat-sandbox.service';

/**
 * The local WeChat official account's own endpoints, called as the real service is (issue 24): the authorisation page
 * and its refusals, sns/oauth2/access_token and cgi-bin/stable_token with WeChat's error codes, the template message's
 * refusals, cgi-bin/ticket/getticket and what WeChat's client does with a wx.config (js/verify, jsbridge.js), and the
 * developer's tools.
 */

let t: TestApp;
let account: OaAccount;

beforeAll(async () => {
  t = await startTestApp({ listen: true });
  account = t.app.get(OA_ACCOUNT);
});
afterAll(async () => {
  await t.app.get(WechatSandbox).settled();
  await t.close();
});

const redirect = 'https://school.example.com/wechat/callback';
const authorizeQuery = (over: Record<string, string> = {}) =>
  new URLSearchParams({ appid: account.appid, redirect_uri: redirect, response_type: 'code', scope: 'snsapi_base', state: 'abc', ...over });

async function codeFor(name: string, follow = true): Promise<string> {
  const res = await t
    .post('/api/dev/wechat/connect/oauth2/authorize/confirm')
    .type('form')
    .send({ ...Object.fromEntries(authorizeQuery()), name, ...(follow ? { follow: '1' } : {}) });
  expect(res.status).toBe(302);
  return new URL(res.headers.location).searchParams.get('code')!;
}

const snsToken = (q: Record<string, string>) =>
  t.get(
    `/api/dev/wechat/sns/oauth2/access_token?${new URLSearchParams({ appid: account.appid, secret: account.secret, grant_type: 'authorization_code', ...q })}`,
  );
const stable = (body: Record<string, unknown>) =>
  t.post('/api/dev/wechat/cgi-bin/stable_token').send({ grant_type: 'client_credential', appid: account.appid, secret: account.secret, ...body });

describe('the authorisation page', () => {
  it('shows the account, the users already seen, a name input, the follow box (checked) and 同意', async () => {
    await codeFor('页面用户甲');
    const res = await t.get(`/api/dev/wechat/connect/oauth2/authorize?${authorizeQuery()}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['content-security-policy']).toContain("form-action 'self' http: https:");
    expect(res.text).toContain('name="viewport" content="width=device-width');
    expect(res.text).toContain(account.appid);
    expect(res.text).toMatch(/data-testid="wx-user"/);
    expect(res.text).toMatch(/<input type="checkbox" name="follow" value="1" checked data-testid="wx-follow">/);
    expect(res.text).toMatch(/data-testid="wx-consent">同意</);
    expect(res.text).toContain('value="页面用户甲"');
    // the request is carried to the confirm, escaped
    expect(res.text).toContain(`name="redirect_uri" value="${redirect}"`);
  });

  it.each([
    ['a wrong appid', { appid: 'wxnotours01' }, /appid/],
    ['a redirect_uri that is no http(s) URL', { redirect_uri: 'javascript:alert(1)' }, /redirect_uri/],
    ['response_type other than code', { response_type: 'token' }, /response_type/],
    ['an unknown scope', { scope: 'snsapi_login' }, /scope/],
    ['a state too long', { state: 'x'.repeat(129) }, /state/],
  ])('refuses %s with WeChat’s error page', async (_, over, said) => {
    const res = await t.get(`/api/dev/wechat/connect/oauth2/authorize?${authorizeQuery(over)}`);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(said);
    const confirm = await t
      .post('/api/dev/wechat/connect/oauth2/authorize/confirm')
      .type('form')
      .send({ ...Object.fromEntries(authorizeQuery(over)), name: '某人' });
    expect(confirm.status).toBe(400);
  });

  it('同意 without a user asks for one; a picked user wins over the typed name; the code and state go back', async () => {
    const empty = await t
      .post('/api/dev/wechat/connect/oauth2/authorize/confirm')
      .type('form')
      .send({ ...Object.fromEntries(authorizeQuery()), name: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('请选择或输入一个微信用户');
    const picked = await t
      .post('/api/dev/wechat/connect/oauth2/authorize/confirm')
      .type('form')
      .send({ ...Object.fromEntries(authorizeQuery({ redirect_uri: `${redirect}?from=x` })), name: '别人', pick: '页面用户乙' });
    expect(picked.status).toBe(302);
    const back = new URL(picked.headers.location);
    expect([back.searchParams.get('from'), back.searchParams.get('state')]).toEqual(['x', 'abc']);
    const token = await snsToken({ code: back.searchParams.get('code')! });
    expect(token.body.openid).toBe(sandboxOpenid(account.appid, '页面用户乙'));
  });
});

describe('sns/oauth2/access_token', () => {
  it('answers the openid with WeChat’s fields', async () => {
    const res = await snsToken({ code: await codeFor('换码用户') });
    expect(res.body).toEqual({
      access_token: expect.any(String),
      expires_in: 7200,
      refresh_token: expect.any(String),
      openid: sandboxOpenid(account.appid, '换码用户'),
      scope: 'snsapi_base',
    });
    expect(res.body.openid).toHaveLength(28);
  });

  it('refuses as WeChat: 40013 appid, 40125 secret, 40029 unknown code, 40163 used code', async () => {
    const code = await codeFor('拒绝用户');
    expect((await snsToken({ code, appid: 'wxnotours01' })).body).toEqual({ errcode: 40013, errmsg: expect.stringMatching(/^invalid appid rid: /) });
    expect((await snsToken({ code, secret: 'x'.repeat(32) })).body).toMatchObject({
      errcode: 40125,
      errmsg: expect.stringMatching(/^invalid appsecret/),
    });
    expect((await snsToken({ code: 'unknown' })).body).toMatchObject({ errcode: 40029, errmsg: expect.stringMatching(/^invalid code/) });
    // the refusals above did not use the code
    expect((await snsToken({ code })).body.openid).toBeDefined();
    expect((await snsToken({ code })).body).toMatchObject({ errcode: 40163, errmsg: expect.stringMatching(/^code been used/) });
  });
});

describe('cgi-bin/stable_token and the tokens', () => {
  it('answers the current token while it lasts; force_refresh makes a new one and ends the old (40001)', async () => {
    const first = (await stable({})).body;
    expect(first).toEqual({ access_token: expect.any(String), expires_in: expect.any(Number) });
    expect(first.expires_in).toBeGreaterThan(7000);
    expect((await stable({})).body.access_token).toBe(first.access_token);
    const forced = (await stable({ force_refresh: true })).body;
    expect(forced.access_token).not.toBe(first.access_token);
    expect(forced.expires_in).toBe(7200);
    const old = await t.post(`/api/dev/wechat/cgi-bin/message/template/send?access_token=${first.access_token}`).send({});
    expect(old.body.errcode).toBe(40001);
  });

  it('refuses 40013 a wrong appid and 40125 a wrong secret', async () => {
    expect((await stable({ appid: 'wxnotours01' })).body.errcode).toBe(40013);
    expect((await stable({ secret: 'nope' })).body.errcode).toBe(40125);
    expect((await stable({ grant_type: 'password' })).body.errcode).toBe(40002);
  });

  it('tokens/expire ends every token: 42001 afterwards', async () => {
    const token = (await stable({})).body.access_token;
    expect((await t.post('/api/dev/wechat/tokens/expire')).body).toMatchObject({ code: Code.Ok, data: { expired: expect.any(Number) } });
    const res = await t
      .post(`/api/dev/wechat/cgi-bin/message/template/send?access_token=${token}`)
      .send({ touser: 'o', template_id: 'sbx_tpl_x', data: {} });
    expect(res.body).toMatchObject({ errcode: 42001, errmsg: expect.stringMatching(/^access_token expired/) });
    // normal mode then answers a new one
    expect((await stable({})).body.access_token).not.toBe(token);
  });
});

describe('cgi-bin/message/template/send', () => {
  it('logs what it accepts (newest first) and refuses 40003 / 43101 / 40037', async () => {
    const token = (await stable({})).body.access_token;
    const send = (body: Record<string, unknown>) => t.post(`/api/dev/wechat/cgi-bin/message/template/send?access_token=${token}`).send(body);
    const follower = (await snsToken({ code: await codeFor('模板关注者') })).body.openid;
    const stranger = (await snsToken({ code: await codeFor('模板未关注', false) })).body.openid;
    const data = { thing1: { value: '到校' } };
    const a = await send({ touser: follower, template_id: 'sbx_tpl_arrival_in', data });
    const b = await send({ touser: follower, template_id: 'sbx_tpl_notice_published', url: 'https://school.example.com/n/1', data });
    expect(a.body).toEqual({ errcode: 0, errmsg: 'ok', msgid: expect.any(Number) });
    expect((await send({ touser: stranger, template_id: 'sbx_tpl_arrival_in', data })).body.errcode).toBe(43101);
    expect((await send({ touser: 'oNeverAuthorised000000000000', template_id: 'sbx_tpl_arrival_in', data })).body.errcode).toBe(40003);
    expect((await send({ touser: follower, template_id: 'TM0001', data })).body.errcode).toBe(40037);
    const log = (await t.get(`/api/dev/wechat/messages?openid=${follower}`)).body.data;
    expect(log.map((m: { msgid: string }) => m.msgid)).toEqual([String(b.body.msgid), String(a.body.msgid)]);
    expect(log[0]).toMatchObject({ name: '模板关注者', template_id: 'sbx_tpl_notice_published', url: 'https://school.example.com/n/1', data });
    expect((await t.get(`/api/dev/wechat/messages?openid=${stranger}`)).body.data).toEqual([]);
  });
});

describe('the JS-SDK: getticket, js/verify, jsbridge.js', () => {
  const getticket = (token: string, type = 'jsapi') =>
    t.get(`/api/dev/wechat/cgi-bin/ticket/getticket?${new URLSearchParams({ access_token: token, type })}`);
  const sign = (ticket: string, nonceStr: string, timestamp: number, url: string) =>
    createHash('sha1').update(`jsapi_ticket=${ticket}&noncestr=${nonceStr}&timestamp=${timestamp}&url=${url}`).digest('hex');

  it('issues a ticket for the account token (each call a new one, the older still valid), refuses 40001 / 42001 / 40097', async () => {
    const token = (await stable({})).body.access_token;
    const a = (await getticket(token)).body;
    expect(a).toEqual({ errcode: 0, errmsg: 'ok', ticket: expect.stringMatching(/^[\w-]{80,}$/), expires_in: 7200 });
    const b = (await getticket(token)).body;
    expect(b.ticket).not.toBe(a.ticket);
    expect(await t.app.get(WechatSandbox).liveTickets()).toEqual(expect.arrayContaining([a.ticket, b.ticket]));
    expect((await getticket('nosuchtoken')).body).toMatchObject({ errcode: 40001, errmsg: expect.stringMatching(/^invalid credential/) });
    expect((await getticket(token, 'wx_card_x')).body.errcode).toBe(40097);
    // a user's web-authorisation token is not the account's
    const oauth = (await snsToken({ code: await codeFor('网页令牌用户') })).body.access_token;
    expect((await getticket(oauth)).body.errcode).toBe(40001);
    await t.post('/api/dev/wechat/tokens/expire');
    expect((await getticket(token)).body).toMatchObject({ errcode: 42001, errmsg: expect.stringMatching(/^access_token expired/) });
  });

  it('js/verify answers config:ok for a signature of an issued ticket and this site’s page, else why not', async () => {
    const token = (await stable({})).body.access_token;
    const { ticket } = (await getticket(token)).body;
    const url = `${t.config.webPublicUrl}/m/parent?child=2`;
    const timestamp = Math.floor(Date.now() / 1000);
    const nonceStr = 'Wm3WZYTPz0wzccnW';
    const config = { appId: account.appid, timestamp, nonceStr, signature: sign(ticket, nonceStr, timestamp, url), url };
    const verify = async (over: Record<string, unknown>) => (await t.post('/api/dev/wechat/js/verify').send({ ...config, ...over })).body;
    expect(await verify({})).toEqual({ errMsg: 'config:ok' });
    expect(await verify({ timestamp: String(timestamp), signature: config.signature.toUpperCase() })).toEqual({ errMsg: 'config:ok' });
    expect(await verify({ url: `${t.config.webPublicUrl}/m/parent` })).toEqual({ errMsg: 'config:invalid signature' });
    expect(await verify({ timestamp: timestamp + 1 })).toEqual({ errMsg: 'config:invalid signature' });
    expect(await verify({ appId: 'wxnotours01' })).toEqual({ errMsg: 'config:invalid signature' });
    expect(await verify({ signature: sign('not-a-ticket', nonceStr, timestamp, url) })).toEqual({ errMsg: 'config:invalid signature' });
    expect(await verify({ url: 'https://evil.example.com/m/parent?child=2' })).toEqual({ errMsg: 'config:invalid url domain' });
    expect(await verify({ url: `${url}#x` })).toEqual({ errMsg: 'config:invalid url domain' });
    expect((await t.post('/api/dev/wechat/js/verify').send('nonsense')).body).toEqual({ errMsg: 'config:invalid url domain' });
  });

  it('serves the bridge: the JS-SDK calls and WeChat Pay’s sheet in one script', async () => {
    const res = await t.get('/api/dev/wechat/jsbridge.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/javascript/);
    for (const part of [
      'preVerifyJSAPI',
      'js/verify',
      'scanQRCode',
      '__wxScanResult',
      'updateAppMessageShareData',
      'updateTimelineShareData',
      '__wxShared',
      'getBrandWCPayRequest',
      'WeixinJSBridgeReady',
    ]) {
      expect(res.text).toContain(part);
    }
    // it parses as a script
    expect(() => new Function(res.text)).not.toThrow();
  });
});

describe('the developer’s tools', () => {
  it('status names the sandbox account', async () => {
    expect((await t.get('/api/dev/wechat/status')).body.data).toEqual({ sandbox: true, appid: account.appid });
  });

  it('refuses bad input with code 100 and writes nothing', async () => {
    const before = (await t.sql.query(`select count(*)::int as n from wechat_sandbox_users`)).rows[0].n;
    for (const body of [
      { name: '', subscribed: true },
      { name: 'x'.repeat(21), subscribed: true },
      { name: 'a', subscribed: 'yes' },
      { name: 'a', subscribed: true, extra: 1 },
    ]) {
      expect((await t.post('/api/dev/wechat/users').send(body)).body.code).toBe(Code.Error);
    }
    expect((await t.get('/api/dev/wechat/messages?limit=0')).body.code).toBe(Code.Error);
    expect((await t.get('/api/dev/wechat/messages?openid=bad%20id')).body.code).toBe(Code.Error);
    expect((await t.sql.query(`select count(*)::int as n from wechat_sandbox_users`)).rows[0].n).toBe(before);
  });
});
