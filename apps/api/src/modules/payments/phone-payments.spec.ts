import { Code, type ContractDetail, type DinnerBooking, type PendingPayment } from '@wantuo/shared';
import { createPublicKey, verify as rsaVerify } from 'node:crypto';
import { Formatter, Rsa } from 'wechatpay-axios-plugin';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { WechatPaySandbox } from '../../sandboxes/wechatpay-sandbox/wechatpay-sandbox.service';
import { PaymentKinds } from './payment-kinds';
import { SANDBOX_DEMO_SUB_MCHID, type SandboxKeys } from './wechatpay/credentials';
import { WechatPayProvider } from './wechatpay/wechatpay.provider';
import { SANDBOX_KEYS } from './wechatpay/wechatpay.tokens';

/**
 * Phone payments (issue 24): JSAPI inside WeChat (by the guardian's bound openid) and H5 in another phone browser,
 * beside Native, through the one payment path: the sandbox pays them (the bridge stand-in, the cashier page) with the
 * same signed notify, and the one mark-paid books the dinner or activates the contract.
 */
let t: TestApp;
let admin: string;
let parent: string;
let keys: SandboxKeys;
let sandbox: WechatPaySandbox;
let child: number;
let goodsId: number;
let packageId: number;
let today: string;
let day = 1;
let seq = 0;
const rid = () => `phone-${Date.now().toString(36)}-${seq++}`;
const P = '/api/index/';
const OPENID = 'o_sandbox_parent_0001';
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };
const plus = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await startTestApp({ runJobs: true, redis: false, demoPeople: true, listen: true });
  [admin, parent] = await Promise.all([t.login('admin'), t.login('parent')]);
  keys = t.app.get(SANDBOX_KEYS);
  sandbox = t.app.get(WechatPaySandbox);
  today = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as d`)).rows[0].d;
  child = (
    await t.sql.query(
      `select s.id from students s join student_guardians g on g.student_id = s.id join care_class_students c on c.student_id = s.id
        where g.user_id = $1 and s.status = 1 order by s.id limit 1`,
      [t.demo.users.parent],
    )
  ).rows[0].id;
  // every day is a class day, and the demo's contracts (some include dinner) are set aside: dinners here are paid
  await t.sql.query(`update class_times set weekdays = '{1,2,3,4,5,6,7}' where school_id = $1`, [t.demo.schoolId]);
  await t.sql.query(`update contracts set status = 'cancelled' where school_id = $1`, [t.demo.schoolId]);
  const g = await t.post(`${P}addMealGoods`, admin).send({ name: '手机支付套餐', price_fen: 1500 });
  goodsId = g.body.data.id;
  const k = await t.post(`${P}addContractPackage`, admin).send({ name: '手机月托', kind: 'month', length: 1, price_fen: 158000, includes: ['care'] });
  packageId = k.body.data.id;
});
afterAll(() => t.close());

async function unpaidDinner(): Promise<DinnerBooking> {
  const res = await t.post(`${P}bookDinner`, parent).send({ student_id: child, goods_id: goodsId, day: plus(day++), request_id: rid() });
  expect(res.body).toMatchObject({ code: Code.Ok, data: { status: 'unpaid' } });
  return res.body.data;
}

async function unpaidContract(): Promise<ContractDetail> {
  const res = await t
    .post(`${P}addContract`, admin)
    .send({ student_id: child, guardian_id: t.demo.users.parent, package_id: packageId, start_day: plus(30), request_id: rid() });
  expect(res.body).toMatchObject({ code: Code.Ok, data: { status: 'unpaid' } });
  return res.body.data;
}

const bind = () =>
  t.sql.query(
    `insert into wechat_bindings (user_id, school_id, appid, openid) select $1::int, $2::int, $3::varchar, $4::varchar
      where not exists (select 1 from wechat_bindings where user_id = $1::int and appid = $3::varchar and unbound_at is null)`,
    [t.demo.users.parent, t.demo.schoolId, keys.appid, OPENID],
  );
const unbind = () =>
  t.sql.query(`update wechat_bindings set unbound_at = now(), unbound_reason = 'user' where user_id = $1 and unbound_at is null`, [
    t.demo.users.parent,
  ]);

const bookingStatus = async (id: number) => (await t.sql.query(`select status, out_trade_no from meal_bookings where id = $1`, [id])).rows[0];
const paymentRow = async (no: string) =>
  (await t.sql.query(`select state, channel, code_url, prepay_id, h5_url from payments where out_trade_no = $1`, [no])).rows[0];

/** The bridge stand-in's 确认支付: what it posts to the sandbox. */
const bridgePay = (params: object) => t.post('/api/dev/wechatpay/jsapi/pay').send(params);

describe('JSAPI inside WeChat', () => {
  beforeEach(bind);

  it('a bound guardian pays a dinner: the bridge parameters are signed by the merchant, the sandbox pays, the notify books it', async () => {
    const b = await unpaidDinner();
    const res = await t.post(`${P}wechatPayDinner`, parent).send({ id: b.id, channel: 'jsapi' });
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: {
        channel: 'jsapi',
        amount_fen: 1500,
        jsapi: { appId: keys.appid, package: expect.stringMatching(/^prepay_id=wx\w+$/), signType: 'RSA', timeStamp: expect.stringMatching(/^\d+$/) },
      },
    });
    const p = res.body.data as Extract<PendingPayment, { channel: 'jsapi' }>;
    expect(p).not.toHaveProperty('code_url');
    expect(p).not.toHaveProperty('h5_url');
    // paySign: RSA-SHA256 over appId\ntimeStamp\nnonceStr\npackage\n, verified with the merchant's public key
    const message = `${p.jsapi.appId}\n${p.jsapi.timeStamp}\n${p.jsapi.nonceStr}\n${p.jsapi.package}\n`;
    expect(rsaVerify('sha256', Buffer.from(message), createPublicKey(keys.merchantPublicKey), Buffer.from(p.jsapi.paySign, 'base64'))).toBe(true);

    expect(await paymentRow(p.out_trade_no)).toMatchObject({
      state: 'pending',
      channel: 'jsapi',
      code_url: null,
      prepay_id: p.jsapi.package.slice('prepay_id='.length),
    });
    expect(await sandbox.orderOf(p.out_trade_no)).toMatchObject({ trade_type: 'JSAPI', payer_openid: OPENID, amount_fen: 1500, state: 'NOTPAY' });
    // the overlay's amount
    const order = await t.get(`/api/dev/wechatpay/jsapi/order?prepay_id=${p.jsapi.package.slice(10)}`);
    expect(order.body).toMatchObject({ amount_fen: 1500, trade_state: 'NOTPAY' });

    const paid = await bridgePay(p.jsapi);
    expect(paid.status).toBe(200);
    expect(paid.body).toEqual({ err_msg: 'get_brand_wcpay_request:ok', out_trade_no: p.out_trade_no });
    await t.app.get(PaymentKinds).settled();
    expect(await bookingStatus(b.id)).toEqual({ status: 'booked', out_trade_no: p.out_trade_no });
    expect((await t.get(`${P}paymentState?out_trade_no=${p.out_trade_no}`, parent)).body.data).toMatchObject({ state: 'paid', kind: 'meal' });
    // the provider's query says how it was paid
    expect((await sandbox.orderOf(p.out_trade_no))!.state).toBe('SUCCESS');
  });

  it('a forged paySign, another appId or a tampered package is refused by the bridge; nothing is paid', async () => {
    const b = await unpaidDinner();
    const p = (await t.post(`${P}wechatPayDinner`, parent).send({ id: b.id, channel: 'jsapi' })).body.data as Extract<
      PendingPayment,
      { channel: 'jsapi' }
    >;
    const other = await unpaidDinner();
    const q = (await t.post(`${P}wechatPayDinner`, parent).send({ id: other.id, channel: 'jsapi' })).body.data as Extract<
      PendingPayment,
      { channel: 'jsapi' }
    >;
    const signedBy = (key: string, o: Partial<typeof p.jsapi> = {}) => {
      const x = { ...p.jsapi, ...o };
      return { ...x, paySign: Rsa.sign(Formatter.joinedByLineFeed(x.appId, x.timeStamp, x.nonceStr, x.package), key) };
    };
    for (const forged of [
      { ...p.jsapi, paySign: p.jsapi.paySign.slice(0, -8) + 'AAAAAAA=' },
      signedBy(keys.platformPrivateKey), // a key that is not the merchant's
      { ...p.jsapi, package: q.jsapi.package }, // signed for another order
      { ...p.jsapi, nonceStr: 'x'.repeat(32) },
      signedBy(keys.privateKey, { appId: 'wxother000000001' }),
      {},
    ]) {
      const res = await bridgePay(forged);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ err_msg: 'get_brand_wcpay_request:fail', reason: expect.any(String) });
    }
    expect(await bookingStatus(b.id)).toMatchObject({ status: 'unpaid' });
    expect(await paymentRow(p.out_trade_no)).toMatchObject({ state: 'pending' });
    expect((await sandbox.orderOf(p.out_trade_no))!.state).toBe('NOTPAY');
    expect((await sandbox.orderOf(q.out_trade_no))!.state).toBe('NOTPAY');
  });

  it('an unbound guardian is refused before anything is written; a binding of another app id is named as such', async () => {
    const b = await unpaidDinner();
    const c = await unpaidContract();
    await unbind();
    const before = await snapshot(t.sql);
    const orders = (await t.sql.query(`select count(*)::int as n from wechatpay_sandbox_orders`)).rows[0].n;
    for (const [action, id] of [
      ['wechatPayDinner', b.id],
      ['wechatPayContract', c.id],
    ] as const) {
      const res = await t.post(`${P}${action}`, parent).send({ id, channel: 'jsapi' });
      expect(res.body).toMatchObject({ code: Code.Error, msg: '您的账号尚未绑定微信，请从公众号进入并绑定后再用微信支付' });
    }
    // bound, but under another app id (issue 34 item 11): never told to bind
    await t.sql.query(`insert into wechat_bindings (user_id, school_id, appid, openid) values ($1, $2, 'wxanotherapp0001', 'o_other_app')`, [
      t.demo.users.parent,
      t.demo.schoolId,
    ]);
    const other = await t.post(`${P}wechatPayContract`, parent).send({ id: c.id, channel: 'jsapi' });
    expect(other.body).toMatchObject({ code: Code.Error, msg: expect.stringMatching(/^您的微信绑定在另一个公众号下/) });
    expect(await snapshot(t.sql)).toEqual(before);
    expect((await t.sql.query(`select count(*)::int as n from wechatpay_sandbox_orders`)).rows[0].n).toBe(orders);
    // in English too
    const en = await t.post(`${P}wechatPayDinner`, parent).set('lang', 'en').send({ id: b.id, channel: 'jsapi' });
    expect(en.body.code).toBe(Code.Error);
    await t.sql.query(`delete from wechat_bindings where appid = 'wxanotherapp0001'`);
  });
});

describe('H5 in a phone browser', () => {
  it('a contract: the h5_url opens the cashier page; 确认支付 pays it, the notify activates the contract, back to redirect_url', async () => {
    const c = await unpaidContract();
    const res = await t.post(`${P}wechatPayContract`, parent).set('X-Forwarded-For', '203.0.113.9').send({ id: c.id, channel: 'h5' });
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: { channel: 'h5', amount_fen: 158000, h5_url: expect.stringMatching(/^\/api\/dev\/wechatpay\/h5pay\?prepay_id=wx\w+$/) },
    });
    const p = res.body.data as Extract<PendingPayment, { channel: 'h5' }>;
    expect(p).not.toHaveProperty('code_url');
    expect(await paymentRow(p.out_trade_no)).toMatchObject({ state: 'pending', channel: 'h5', h5_url: p.h5_url, code_url: null });
    expect(await sandbox.orderOf(p.out_trade_no)).toMatchObject({ trade_type: 'MWEB', state: 'NOTPAY' });
    const ip = (await t.sql.query(`select payer_client_ip from wechatpay_sandbox_orders where out_trade_no = $1`, [p.out_trade_no])).rows[0];
    expect(ip.payer_client_ip).toMatch(/^[0-9a-f.:]+$/);

    const back = `/pay/result?out_trade_no=${p.out_trade_no}&back=${encodeURIComponent('/parent/contracts')}`;
    const page = await t.get(`${p.h5_url}&redirect_url=${encodeURIComponent(back)}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('data-testid="h5-confirm"');
    expect(page.text).toContain('1580.00');
    expect(page.text).toContain('确认支付');

    const prepayId = p.h5_url.split('prepay_id=')[1];
    const confirm = await t.post('/api/dev/wechatpay/h5pay').type('form').send({ prepay_id: prepayId, redirect_url: back });
    expect(confirm.status).toBe(303);
    expect(confirm.headers.location).toBe(back);
    await t.app.get(PaymentKinds).settled();
    const info = (await t.get(`${P}contractInfo?id=${c.id}`, admin)).body.data as ContractDetail;
    expect(info).toMatchObject({ status: 'active', pay_method: 'wechat', receipt_no: p.out_trade_no });
    expect((await t.get(`${P}paymentState?out_trade_no=${p.out_trade_no}`, parent)).body.data).toMatchObject({ state: 'paid' });
    // the page of a paid order offers no second payment
    expect((await t.get(p.h5_url)).text).not.toContain('h5-confirm');
  });

  it('the cashier page returns only to this origin; an unknown order is not found; a JSAPI order is not an H5 one', async () => {
    const b = await unpaidDinner();
    const p = (await t.post(`${P}wechatPayDinner`, parent).send({ id: b.id, channel: 'h5' })).body.data as Extract<PendingPayment, { channel: 'h5' }>;
    const prepayId = p.h5_url.split('prepay_id=')[1];
    const page = await t.get(`${p.h5_url}&redirect_url=${encodeURIComponent('https://evil.example/steal')}`);
    expect(page.text).not.toContain('evil.example');
    // a dev server's proxy rewrites Host: a loopback page is this developer's own
    const local = await t.get(`${p.h5_url}&redirect_url=${encodeURIComponent('http://localhost:8080/pay/result?out_trade_no=x')}`);
    expect(local.text).toContain('href="http://localhost:8080/pay/result?out_trade_no=x"');
    const confirm = await t.post('/api/dev/wechatpay/h5pay').type('form').send({ prepay_id: prepayId, redirect_url: '//evil.example/' });
    expect(confirm.status).toBe(303);
    expect(confirm.headers.location).toBe(`h5pay?prepay_id=${prepayId}`);
    await t.app.get(PaymentKinds).settled();
    expect(await bookingStatus(b.id)).toMatchObject({ status: 'booked' }); // paid all the same

    expect((await t.get('/api/dev/wechatpay/h5pay?prepay_id=wx000unknown')).status).toBe(404);
    await bind();
    const j = await unpaidDinner();
    const q = (await t.post(`${P}wechatPayDinner`, parent).send({ id: j.id, channel: 'jsapi' })).body.data as Extract<
      PendingPayment,
      { channel: 'jsapi' }
    >;
    const jsapiPrepay = q.jsapi.package.slice(10);
    expect((await t.get(`/api/dev/wechatpay/h5pay?prepay_id=${jsapiPrepay}`)).status).toBe(404);
    await t.post('/api/dev/wechatpay/h5pay').type('form').send({ prepay_id: jsapiPrepay });
    expect(await bookingStatus(j.id)).toMatchObject({ status: 'unpaid' });
  });
});

describe('the sandbox checks JSAPI and H5 orders as v3 does', () => {
  const provider = (appid: string) =>
    new WechatPayProvider(
      { ...keys, appid },
      () => `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}/api/dev/wechatpay/`,
      () => 'http://127.0.0.1/notify',
    );
  // the demo school's sub-merchant (onboarded in the sandbox): every order is a partner order now (issue 36)
  const order = () => ({
    merchant: { subMchid: SANDBOX_DEMO_SUB_MCHID },
    outTradeNo: `P${Date.now()}${seq++}`,
    description: '测试',
    amountFen: 100,
    expiresAt: new Date(Date.now() + 3_600_000),
    notifyUrl: 'http://127.0.0.1/notify',
  });
  const refusal = async (work: Promise<unknown>) => {
    const err = (await work.then(
      () => null,
      (e: unknown) => e,
    )) as { response?: { status: number; data: { code: string; message: string } } } | null;
    return err?.response && { status: err.response.status, code: err.response.data.code, message: err.response.data.message };
  };

  it('another appid, no payer.openid, no payer_client_ip: 400 PARAM_ERROR; good ones answer prepay_id and h5_url', async () => {
    expect(await refusal(provider('wxnotthemerchant1').createJsapi({ ...order(), openid: OPENID, openidOf: 'sp' }))).toEqual({
      status: 400,
      code: 'PARAM_ERROR',
      message: 'sp_mchid/sp_appid mismatch',
    });
    expect(await refusal(provider(keys.appid).createJsapi({ ...order(), openid: '', openidOf: 'sp' }))).toMatchObject({
      status: 400,
      message: 'payer.sp_openid',
    });
    expect(await refusal(provider(keys.appid).createH5({ ...order(), clientIp: '' }))).toMatchObject({
      status: 400,
      message: 'scene_info.payer_client_ip',
    });
    expect(await provider(keys.appid).createJsapi({ ...order(), openid: OPENID, openidOf: 'sp' })).toEqual({
      prepayId: expect.stringMatching(/^wx\w+$/),
    });
    expect(await provider(keys.appid).createH5({ ...order(), clientIp: '127.0.0.1' })).toEqual({
      h5Url: expect.stringMatching(/h5pay\?prepay_id=wx/),
    });
  });
});

describe('who may pay how', () => {
  it('a bad channel is code 100 and writes nothing; Native stays the default with its QR', async () => {
    const b = await unpaidDinner();
    const c = await unpaidContract();
    const before = await snapshot(t.sql);
    for (const channel of ['app', 'NATIVE', '', 7, null]) {
      for (const [action, id] of [
        ['wechatPayDinner', b.id],
        ['wechatPayContract', c.id],
      ] as const) {
        const res = await t.post(`${P}${action}`, parent).send({ id, channel });
        expect(res.body).toMatchObject({ code: Code.Error, msg: '支付方式无效' });
      }
    }
    expect(await snapshot(t.sql)).toEqual(before);
    const native = await t.post(`${P}wechatPayDinner`, parent).send({ id: b.id });
    expect(native.body.data).toMatchObject({ channel: 'native', code_url: expect.stringMatching(/^weixin:\/\//) });
    expect(await paymentRow(native.body.data.out_trade_no)).toMatchObject({ channel: 'native', prepay_id: null, h5_url: null });
  });

  it('the admin may not pay a guardian’s way; another school’s booking or contract is not found, nothing written', async () => {
    await bind();
    const b = await unpaidDinner();
    const c = await unpaidContract();
    expect((await t.post(`${P}wechatPayDinner`, admin).send({ id: b.id, channel: 'jsapi' })).body).toMatchObject(DENIED);
    expect((await t.post(`${P}wechatPayContract`, admin).send({ id: c.id, channel: 'h5' })).body).toMatchObject(DENIED);

    const other = await t.otherSchool();
    await t.sql.query(`update meal_bookings set school_id = $1 where id = $2`, [other.schoolId, b.id]);
    await t.sql.query(`update contracts set school_id = $1 where id = $2`, [other.schoolId, c.id]);
    const before = await snapshot(t.sql);
    for (const channel of ['jsapi', 'h5', 'native']) {
      expect((await t.post(`${P}wechatPayDinner`, parent).send({ id: b.id, channel })).body).toMatchObject({
        code: Code.Error,
        msg: expect.any(String),
      });
      expect((await t.post(`${P}wechatPayContract`, parent).send({ id: c.id, channel })).body).toMatchObject({
        code: Code.Error,
        msg: '未找到该合同',
      });
    }
    expect(await snapshot(t.sql)).toEqual(before);
  });
});
