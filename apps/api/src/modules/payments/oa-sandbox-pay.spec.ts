import { addDays, Code, localDay, type ContractDetail, type PendingPayment } from '@wantuo/shared';
import { startTestApp, type TestApp } from '../../../test/harness';
import { WechatPayProvider } from './wechatpay/wechatpay.provider';
import { PaymentProvider } from './provider';
import { PaymentKinds } from './payment-kinds';

/**
 * Issue 34 item 11: a real official account (WECHAT_OA_*) beside WeChat Pay's local sandbox (the trial set-up of a
 * school before it has a merchant). The sandbox pays for the account's appid: the guardian bound to the account (as
 * messagePrefs shows, the account's messages reach them) pays inside WeChat; a binding of another appid is named as
 * such, never "not bound".
 */
const OA_APPID = 'wx0a1b2c3d4e5f6a7b';
const P = '/api/index/';
let t: TestApp;
let admin: string;
let parent: string;
let child: number;
let packageId: number;
let seq = 0;

beforeAll(async () => {
  t = await startTestApp({
    runJobs: true,
    redis: false,
    demoPeople: true,
    listen: true,
    env: { WECHAT_OA_APPID: OA_APPID, WECHAT_OA_SECRET: 'a1'.repeat(16), WECHAT_OA_TOKEN: 'serverToken1' },
  });
  [admin, parent] = await Promise.all([t.login('admin'), t.login('parent')]);
  child = (
    await t.sql.query(
      `select s.id from students s join student_guardians g on g.student_id = s.id where g.user_id = $1 and s.status = 1 order by s.id limit 1`,
      [t.demo.users.parent],
    )
  ).rows[0].id;
  await t.sql.query(`update contracts set status = 'cancelled' where school_id = $1`, [t.demo.schoolId]);
  const k = await t.post(`${P}addContractPackage`, admin).send({ name: '试用月托', kind: 'month', length: 1, price_fen: 120000, includes: ['care'] });
  packageId = k.body.data.id;
});
afterAll(() => t.close());

async function unpaidContract(): Promise<ContractDetail> {
  const start = addDays(localDay(new Date(), 'Asia/Shanghai'), 40 + seq); // the demo school's day, not the UTC one
  const res = await t
    .post(`${P}addContract`, admin)
    .send({ student_id: child, guardian_id: t.demo.users.parent, package_id: packageId, start_day: start, request_id: `oa-pay-${seq++}` });
  expect(res.body).toMatchObject({ code: Code.Ok, data: { status: 'unpaid' } });
  return res.body.data;
}

const bindUnder = (appid: string, openid: string) =>
  t.sql.query(`insert into wechat_bindings (user_id, school_id, appid, openid) values ($1, $2, $3, $4)`, [
    t.demo.users.parent,
    t.demo.schoolId,
    appid,
    openid,
  ]);

it("the sandbox pays for the official account's appid", () => {
  expect((t.app.get(PaymentProvider) as WechatPayProvider).appId()).toBe(OA_APPID);
});

it('a guardian bound to the account pays a contract inside WeChat', async () => {
  await bindUnder(OA_APPID, 'o_real_account_parent_000001');
  const prefs = await t.get(`${P}messagePrefs`, parent);
  expect(prefs.body).toMatchObject({ code: Code.Ok, data: { binding: { bound: true } } });
  const c = await unpaidContract();
  const res = await t.post(`${P}wechatPayContract`, parent).send({ id: c.id, channel: 'jsapi' });
  expect(res.body).toMatchObject({ code: Code.Ok, data: { channel: 'jsapi', amount_fen: 120000, jsapi: { appId: OA_APPID } } });
  const p = res.body.data as Extract<PendingPayment, { channel: 'jsapi' }>;
  // the bridge stand-in pays it; the signed notify activates the contract
  const paid = await t.post('/api/dev/wechatpay/jsapi/pay').send(p.jsapi);
  expect(paid.body).toEqual({ err_msg: 'get_brand_wcpay_request:ok', out_trade_no: p.out_trade_no });
  await t.app.get(PaymentKinds).settled();
  expect((await t.get(`${P}paymentState?out_trade_no=${p.out_trade_no}`, parent)).body.data).toMatchObject({ state: 'paid' });
  await t.sql.query(`update wechat_bindings set unbound_at = now(), unbound_reason = 'user' where user_id = $1 and unbound_at is null`, [
    t.demo.users.parent,
  ]);
});

it('a guardian bound under another appid only is told so, not asked to bind', async () => {
  await bindUnder('wxanotherapp0001', 'o_other_app_parent_00000001');
  const c = await unpaidContract();
  const res = await t.post(`${P}wechatPayContract`, parent).send({ id: c.id, channel: 'jsapi' });
  expect(res.body.code).toBe(Code.Error);
  expect(res.body.msg).not.toMatch(/尚未绑定/);
  expect(res.body.msg).toMatch(/另一个公众号/);
  const en = await t.post(`${P}wechatPayContract`, parent).set('lang', 'en').send({ id: c.id, channel: 'jsapi' });
  expect(en.body.msg).toMatch(/another official account/);
});
