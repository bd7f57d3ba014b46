import { addDays, Code, instantOf, localDay } from '@wantuo/shared';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Aes, Formatter, Rsa, Wechatpay } from 'wechatpay-axios-plugin';
import { startTestApp, type TestApp } from '../../../test/harness';
import { SANDBOX_PLATFORM_SUB_MCHID, type SandboxKeys } from '../../modules/payments/wechatpay/credentials';
import { SANDBOX_KEYS } from '../../modules/payments/wechatpay/wechatpay.tokens';
import { TRADE_BILL_HEADER, TRADE_BILL_SUMMARY_HEADER, WechatPaySandbox } from './wechatpay-sandbox.service';

/**
 * The sandbox in service-provider mode (服务商, issue 36), driven over HTTP by a real signed v3 client (the one the
 * adapter uses, not the adapter): partner orders only for a sub-merchant bound to the service provider, each
 * sub-merchant's balance credited by its payments and debited by its refunds, and its daily trade bill in WeChat's CSV.
 */
let t: TestApp;
let keys: SandboxKeys;
let sandbox: WechatPaySandbox;
let client: Wechatpay;
let hook: Server;
let notifyUrl: string;
/** the notifies the sandbox sent to notify_url */
const received: Array<{ headers: Record<string, string>; body: string }> = [];

const SUB_A = '1900009001';
const SUB_B = '1900009002';
const SUB_BILL = '1900009003';
const UNBOUND = '1900009999';
const SUB_APPID = 'wxsubappid00000001';
const SP_OPENID = 'o_sp_parent_0001';
const SUB_OPENID = 'o_sub_parent_0001';

let seq = 0;
const no = () => `PT${Date.now().toString(36)}${(seq++).toString(36).padStart(3, '0')}`.toUpperCase();

type Answer = { status: number; data: Record<string, unknown> };
interface Resource {
  get(config?: object): Promise<{ status: number; data: unknown }>;
  post(data?: object, config?: object): Promise<{ status: number; data: unknown }>;
}
const at = (path: string): Resource => path.split('/').reduce((node, s) => (node as Record<string, unknown>)[s], client as unknown) as Resource;

/** A v3 call's answer, refusals included (axios throws on 4xx; the library checked the signature of the 2xx). */
async function call(p: Promise<{ status: number; data: unknown }>): Promise<Answer> {
  try {
    const r = await p;
    return { status: r.status, data: r.data as Record<string, unknown> };
  } catch (err) {
    const res = (err as { response?: { status: number; data: Record<string, unknown> } }).response;
    if (!res) throw err;
    return { status: res.status, data: res.data };
  }
}

const partnerOrder = (sub_mchid: string | undefined, extra: Record<string, unknown> = {}) => ({
  sp_appid: keys.appid,
  sp_mchid: keys.mchid,
  sub_mchid,
  description: '晚托月费',
  out_trade_no: no(),
  time_expire: new Date(Date.now() + 7_200_000 + 8 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+08:00'),
  notify_url: notifyUrl,
  amount: { total: 1_000, currency: 'CNY' },
  ...extra,
});
const create = (kind: 'native' | 'jsapi' | 'h5', body: object) => call(at(`v3/pay/partner/transactions/${kind}`).post(body));
const query = (outTradeNo: string, sub_mchid: unknown, sp_mchid: string = keys.mchid) =>
  call(at('v3/pay/partner/transactions/outTradeNo/$out_trade_no$').get({ params: { sp_mchid, sub_mchid }, out_trade_no: outTradeNo }));
const refund = (outTradeNo: string, refundFen: number, sub_mchid?: string, totalFen = 1_000) => {
  const out_refund_no = no();
  return call(
    at('v3/refund/domestic/refunds').post({
      ...(sub_mchid ? { sub_mchid } : {}),
      out_trade_no: outTradeNo,
      out_refund_no,
      reason: '退课',
      notify_url: notifyUrl,
      amount: { refund: refundFen, total: totalFen, currency: 'CNY' },
    }),
  ).then((a) => ({ ...a, out_refund_no }));
};
const balance = async (subMchid: string) => (await sandbox.subMerchant(subMchid))!.balance_fen;
const simulate = async (outTradeNo: string) => {
  const r = await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: outTradeNo });
  expect(r.body.code).toBe(Code.Ok);
  return r.body.data as { trade_state: string; notify_status: number | null };
};
/** A partner native order of 1000 fen, paid: its out_trade_no. */
async function paidOrder(subMchid: string, totalFen = 1_000): Promise<string> {
  const body = partnerOrder(subMchid, { amount: { total: totalFen, currency: 'CNY' } });
  expect((await create('native', body)).status).toBe(200);
  expect(await simulate(body.out_trade_no)).toMatchObject({ trade_state: 'SUCCESS', notify_status: 204 });
  return body.out_trade_no;
}

/** The notify last sent about an order or refund, its signature checked and its resource decrypted. */
function notifyAbout(key: 'out_trade_no' | 'out_refund_no', value: string): { event_type: string; resource: Record<string, unknown> } {
  const found = received
    .map((n) => {
      const h = n.headers;
      expect(
        Rsa.verify(Formatter.response(h['wechatpay-timestamp'], h['wechatpay-nonce'], n.body), h['wechatpay-signature'], keys.platformPublicKey),
      ).toBe(true);
      const p = JSON.parse(n.body) as { event_type: string; resource: { ciphertext: string; nonce: string; associated_data: string } };
      const resource = JSON.parse(Aes.AesGcm.decrypt(p.resource.ciphertext, keys.apiV3Key, p.resource.nonce, p.resource.associated_data)) as Record<
        string,
        unknown
      >;
      return { event_type: p.event_type, resource };
    })
    .filter((n) => n.resource[key] === value);
  expect(found.length).toBeGreaterThan(0);
  return found[found.length - 1];
}

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, redis: false, listen: true });
  keys = t.app.get(SANDBOX_KEYS);
  sandbox = t.app.get(WechatPaySandbox);
  const addr = t.app.getHttpServer().address() as AddressInfo;
  client = new Wechatpay({
    mchid: keys.mchid,
    serial: keys.serial,
    privateKey: keys.privateKey,
    certs: { [keys.platformKeyId]: keys.platformPublicKey },
    baseURL: `http://127.0.0.1:${addr.port}/api/dev/wechatpay/`,
    timeout: 10_000,
  });
  // the merchant's notify endpoint: keeps what it is sent, answers 204 as v3 asks
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((ok) => hook.listen(0, '127.0.0.1', ok));
  notifyUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/notify`;
  for (const [sub_mchid, name] of [
    [SUB_A, '阳光晚托'],
    [SUB_B, '另一家'],
    [SUB_BILL, '账单机构'],
  ]) {
    const r = await t.post('/api/dev/wechatpay/subMerchants').send({ sub_mchid, name });
    expect(r.body).toMatchObject({ code: Code.Ok, data: { sub_mchid, name, balance_fen: 0 } });
  }
});
afterAll(async () => {
  await sandbox.settled();
  await t.close();
  await new Promise((ok) => hook.close(ok));
});

describe('sub-merchants', () => {
  it('the platform own one is bound from the start; binding keeps one already there; the dev endpoints', async () => {
    expect(await sandbox.subMerchant(SANDBOX_PLATFORM_SUB_MCHID)).toEqual({
      sub_mchid: SANDBOX_PLATFORM_SUB_MCHID,
      name: '平台自营',
      balance_fen: 0,
    });
    const again = await t.post('/api/dev/wechatpay/subMerchants').send({ sub_mchid: SUB_A, name: '改名' });
    expect(again.body.data).toMatchObject({ sub_mchid: SUB_A, name: '阳光晚托' });
    expect((await t.get(`/api/dev/wechatpay/subMerchants/${SUB_B}`)).body).toMatchObject({ sub_mchid: SUB_B, name: '另一家' });
    expect((await t.get(`/api/dev/wechatpay/subMerchants/${UNBOUND}`)).status).toBe(404);
    expect((await t.post('/api/dev/wechatpay/subMerchants').send({ sub_mchid: '12ab', name: 'x' })).body.code).not.toBe(Code.Ok);
    expect((await t.post('/api/dev/wechatpay/subMerchants').send({ sub_mchid: '1900009010', name: '' })).body.code).not.toBe(Code.Ok);
    expect(await sandbox.subMerchant('1900009010')).toBeNull();
  });
});

describe('partner orders', () => {
  it('native, jsapi (sp_openid or sub_openid) and h5 for a bound sub-merchant, kept with sp_mchid, sub_mchid, sub_appid', async () => {
    const n = partnerOrder(SUB_A);
    expect(await create('native', n)).toEqual({ status: 200, data: { code_url: expect.stringMatching(/^weixin:\/\/wxpay\/bizpayurl\?pr=/) } });
    const j = partnerOrder(SUB_A, { payer: { sp_openid: SP_OPENID } });
    expect(await create('jsapi', j)).toEqual({ status: 200, data: { prepay_id: expect.stringMatching(/^wx\w+$/) } });
    const js = partnerOrder(SUB_A, { sub_appid: SUB_APPID, payer: { sub_openid: SUB_OPENID } });
    expect(await create('jsapi', js)).toEqual({ status: 200, data: { prepay_id: expect.stringMatching(/^wx\w+$/) } });
    const h = partnerOrder(SUB_A, { scene_info: { payer_client_ip: '127.0.0.1', h5_info: { type: 'Wap' } } });
    expect(await create('h5', h)).toEqual({ status: 200, data: { h5_url: expect.stringMatching(/^\/api\/dev\/wechatpay\/h5pay\?prepay_id=wx/) } });
    const partner = { mchid: keys.mchid, appid: keys.appid, sp_mchid: keys.mchid, sub_mchid: SUB_A, state: 'NOTPAY' };
    expect(await sandbox.orderOf(n.out_trade_no)).toMatchObject({ ...partner, sub_appid: null, trade_type: 'NATIVE', payer_openid: null });
    expect(await sandbox.orderOf(j.out_trade_no)).toMatchObject({ ...partner, sub_appid: null, payer_openid: SP_OPENID, payer_sub_openid: null });
    expect(await sandbox.orderOf(js.out_trade_no)).toMatchObject({
      ...partner,
      sub_appid: SUB_APPID,
      payer_openid: null,
      payer_sub_openid: SUB_OPENID,
    });
    expect(await sandbox.orderOf(h.out_trade_no)).toMatchObject({ ...partner, trade_type: 'MWEB' });
  });

  it('refuses as v3 does: NO_AUTH for an unbound sub-merchant, PARAM_ERROR naming the field, nothing kept', async () => {
    const count = async () => (await t.sql.query(`select count(*)::int as n from wechatpay_sandbox_orders`)).rows[0].n as number;
    const kept = await count();
    const refusals: Array<[ReturnType<typeof create>, number, string, string]> = [
      [create('native', partnerOrder(UNBOUND)), 403, 'NO_AUTH', '特约子商户商户号未授权服务商的产品权限'],
      [create('native', partnerOrder('12ab5678')), 400, 'PARAM_ERROR', 'sub_mchid'],
      [create('native', partnerOrder('1234567')), 400, 'PARAM_ERROR', 'sub_mchid'],
      [create('native', partnerOrder(undefined)), 400, 'PARAM_ERROR', 'sub_mchid'],
      [create('native', partnerOrder(SUB_A, { sp_mchid: '1900000999' })), 400, 'PARAM_ERROR', 'sp_mchid/sp_appid mismatch'],
      [create('native', partnerOrder(SUB_A, { sp_appid: 'wxnotthemerchant1' })), 400, 'PARAM_ERROR', 'sp_mchid/sp_appid mismatch'],
      [create('native', partnerOrder(SUB_A, { sub_appid: 'notanappid' })), 400, 'PARAM_ERROR', 'sub_appid'],
      [create('native', partnerOrder(SUB_A, { amount: { total: 0, currency: 'CNY' } })), 400, 'PARAM_ERROR', 'amount.total'],
      [create('native', partnerOrder(SUB_A, { notify_url: 'ftp://x' })), 400, 'PARAM_ERROR', 'notify_url'],
      [create('native', partnerOrder(SUB_A, { out_trade_no: 'a b' })), 400, 'PARAM_ERROR', 'out_trade_no'],
      [create('jsapi', partnerOrder(SUB_A)), 400, 'PARAM_ERROR', 'payer: one of sp_openid, sub_openid'],
      [
        create('jsapi', partnerOrder(SUB_A, { sub_appid: SUB_APPID, payer: { sp_openid: SP_OPENID, sub_openid: SUB_OPENID } })),
        400,
        'PARAM_ERROR',
        'payer: one of sp_openid, sub_openid',
      ],
      [
        create('jsapi', partnerOrder(SUB_A, { payer: { sub_openid: SUB_OPENID } })),
        400,
        'PARAM_ERROR',
        'sub_appid is required with payer.sub_openid',
      ],
      [create('jsapi', partnerOrder(SUB_A, { payer: { sp_openid: '' } })), 400, 'PARAM_ERROR', 'payer.sp_openid'],
      [create('jsapi', partnerOrder(SUB_A, { sub_appid: SUB_APPID, payer: { sub_openid: 'a b' } })), 400, 'PARAM_ERROR', 'payer.sub_openid'],
      [create('h5', partnerOrder(SUB_A)), 400, 'PARAM_ERROR', 'scene_info.payer_client_ip'],
      [
        create('h5', partnerOrder(SUB_A, { scene_info: { payer_client_ip: '127.0.0.1', h5_info: { type: 'PC' } } })),
        400,
        'PARAM_ERROR',
        'scene_info.h5_info.type',
      ],
    ];
    for (const [p, status, code, message] of refusals) expect(await p).toEqual({ status, data: { code, message } });
    expect(await count()).toBe(kept);
    const dup = partnerOrder(SUB_A);
    expect((await create('native', dup)).status).toBe(200);
    expect(await create('native', dup)).toEqual({ status: 400, data: { code: 'INVALID_REQUEST', message: '商户订单号重复' } });
    // unsigned: 401 as the real service
    expect((await t.post('/api/dev/wechatpay/v3/pay/partner/transactions/native').send(partnerOrder(SUB_A))).status).toBe(401);
  });

  it('is asked about and closed under its own sub-merchant only; a direct order is not a partner one, nor the reverse', async () => {
    const o = partnerOrder(SUB_A, { payer: { sp_openid: SP_OPENID } });
    await create('jsapi', o);
    expect(await query(o.out_trade_no, SUB_A)).toEqual({
      status: 200,
      data: {
        sp_appid: keys.appid,
        sp_mchid: keys.mchid,
        sub_mchid: SUB_A,
        out_trade_no: o.out_trade_no,
        trade_type: 'JSAPI',
        trade_state: 'NOTPAY',
        trade_state_desc: 'NOTPAY',
        payer: { sp_openid: SP_OPENID },
        amount: { total: 1_000, payer_total: 0, currency: 'CNY', payer_currency: 'CNY' },
      },
    });
    const notFound = { status: 404, data: { code: 'ORDER_NOT_EXIST', message: '订单不存在' } };
    expect(await query(o.out_trade_no, SUB_B)).toEqual(notFound);
    expect(await query('PTNOSUCHORDER0001', SUB_A)).toEqual(notFound);
    expect(await query(o.out_trade_no, UNBOUND)).toMatchObject({ status: 403, data: { code: 'NO_AUTH' } });
    expect(await query(o.out_trade_no, SUB_A, '1900000999')).toMatchObject({ status: 400, data: { code: 'PARAM_ERROR' } });
    // the direct query does not see a partner order
    expect(
      await call(at('v3/pay/transactions/outTradeNo/$out_trade_no$').get({ params: { mchid: keys.mchid }, out_trade_no: o.out_trade_no })),
    ).toEqual(notFound);
    const direct = { appid: keys.appid, mchid: keys.mchid, description: '直连', out_trade_no: no(), notify_url: notifyUrl, amount: { total: 500 } };
    expect((await call(at('v3/pay/transactions/native').post(direct))).status).toBe(200);
    expect(await query(direct.out_trade_no, SUB_A)).toEqual(notFound);
    expect(
      await call(at('v3/pay/transactions/outTradeNo/$out_trade_no$').get({ params: { mchid: keys.mchid }, out_trade_no: direct.out_trade_no })),
    ).toMatchObject({ status: 200, data: { mchid: keys.mchid, appid: keys.appid, trade_state: 'NOTPAY' } });

    const close = (outTradeNo: string, sub_mchid: string) =>
      call(at('v3/pay/partner/transactions/outTradeNo/$out_trade_no$/close').post({ sp_mchid: keys.mchid, sub_mchid }, { out_trade_no: outTradeNo }));
    expect(await close(o.out_trade_no, SUB_B)).toEqual(notFound);
    expect(await close(direct.out_trade_no, SUB_A)).toEqual(notFound);
    expect(await close('PTNOSUCHORDER0001', SUB_A)).toEqual(notFound);
    expect((await close(o.out_trade_no, SUB_A)).status).toBe(204);
    expect((await sandbox.orderOf(o.out_trade_no))!.state).toBe('CLOSED');
    const paid = await paidOrder(SUB_A);
    expect(await close(paid, SUB_A)).toEqual({ status: 400, data: { code: 'ORDERPAID', message: '订单已支付' } });
  });
});

describe('the money reaches the sub-merchant', () => {
  it('a payment credits its sub-merchant once (not another, not again on a re-sent notify); the notify has the partner shape', async () => {
    const [a0, b0] = [await balance(SUB_A), await balance(SUB_B)];
    const o = partnerOrder(SUB_A, { payer: { sp_openid: SP_OPENID }, amount: { total: 1_234, currency: 'CNY' } });
    await create('jsapi', o);
    expect(await simulate(o.out_trade_no)).toEqual({ out_trade_no: o.out_trade_no, trade_state: 'SUCCESS', notify_status: 204 });
    expect([await balance(SUB_A), await balance(SUB_B)]).toEqual([a0 + 1_234, b0]);
    // the notify again (as the real service retries it): no second credit
    expect(await simulate(o.out_trade_no)).toMatchObject({ trade_state: 'SUCCESS', notify_status: 204 });
    expect(await balance(SUB_A)).toBe(a0 + 1_234);
    const paid = (await sandbox.orderOf(o.out_trade_no))!;
    const n = notifyAbout('out_trade_no', o.out_trade_no);
    expect(n.event_type).toBe('TRANSACTION.SUCCESS');
    expect(n.resource).toEqual({
      sp_appid: keys.appid,
      sp_mchid: keys.mchid,
      sub_mchid: SUB_A,
      out_trade_no: o.out_trade_no,
      transaction_id: paid.transaction_id,
      trade_type: 'JSAPI',
      trade_state: 'SUCCESS',
      trade_state_desc: 'SUCCESS',
      success_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/),
      payer: { sp_openid: SP_OPENID },
      amount: { total: 1_234, payer_total: 1_234, currency: 'CNY', payer_currency: 'CNY' },
    });
    expect(n.resource).not.toHaveProperty('mchid');
    expect(await query(o.out_trade_no, SUB_A)).toMatchObject({ status: 200, data: { trade_state: 'SUCCESS', transaction_id: paid.transaction_id } });
  });

  it('the JSAPI bridge pays by the appId of the payer account (sub_appid for a sub_openid) and credits the sub-merchant', async () => {
    const o = partnerOrder(SUB_B, { sub_appid: SUB_APPID, payer: { sub_openid: SUB_OPENID } });
    const prepay = (await create('jsapi', o)).data.prepay_id as string;
    const params = (appId: string) => {
      const timeStamp = String(Math.floor(Date.now() / 1000));
      const nonceStr = Formatter.nonce();
      const pkg = `prepay_id=${prepay}`;
      const paySign = Rsa.sign(Formatter.joinedByLineFeed(appId, timeStamp, nonceStr, pkg), keys.privateKey);
      return { appId, timeStamp, nonceStr, package: pkg, signType: 'RSA', paySign };
    };
    const b0 = await balance(SUB_B);
    expect(await sandbox.payJsapi(params(keys.appid))).toMatchObject({ ok: false, reason: "appId is not the payer's account's" });
    expect(await balance(SUB_B)).toBe(b0);
    expect(await sandbox.payJsapi(params(SUB_APPID))).toMatchObject({ ok: true, err_msg: 'get_brand_wcpay_request:ok' });
    expect(await balance(SUB_B)).toBe(b0 + 1_000);
    expect(notifyAbout('out_trade_no', o.out_trade_no).resource).toMatchObject({
      sp_appid: keys.appid,
      sub_appid: SUB_APPID,
      sub_mchid: SUB_B,
      payer: { sub_openid: SUB_OPENID },
    });
  });

  it('the H5 cashier page pays and credits the sub-merchant', async () => {
    const o = partnerOrder(SUB_B, { scene_info: { payer_client_ip: '127.0.0.1', h5_info: { type: 'Wap' } } });
    const url = (await create('h5', o)).data.h5_url as string;
    const b0 = await balance(SUB_B);
    expect(await sandbox.payH5(new URL(url, 'http://x').searchParams.get('prepay_id')!)).toBe(true);
    expect(await sandbox.payH5(new URL(url, 'http://x').searchParams.get('prepay_id')!)).toBe(true);
    expect(await balance(SUB_B)).toBe(b0 + 1_000);
    expect(notifyAbout('out_trade_no', o.out_trade_no).resource).toMatchObject({ sub_mchid: SUB_B, trade_type: 'MWEB' });
  });

  it('a refund is made under the order sub-merchant, from its balance; its answer and notify name sp_mchid and sub_mchid', async () => {
    const paid = await paidOrder(SUB_A);
    const a0 = await balance(SUB_A);
    const gone = { status: 404, data: { code: 'RESOURCE_NOT_EXISTS', message: '订单不存在' } };
    expect(await refund(paid, 300)).toMatchObject(gone);
    expect(await refund(paid, 300, SUB_B)).toMatchObject(gone);
    expect(await balance(SUB_A)).toBe(a0);
    const r = await refund(paid, 300, SUB_A);
    expect(r).toMatchObject({
      status: 200,
      data: {
        sp_mchid: keys.mchid,
        sub_mchid: SUB_A,
        out_refund_no: r.out_refund_no,
        out_trade_no: paid,
        refund_id: expect.stringMatching(/^5030/),
        status: 'SUCCESS',
        success_time: expect.stringMatching(/\+08:00$/),
        amount: { refund: 300, total: 1_000 },
      },
    });
    expect(r.data).not.toHaveProperty('mchid');
    expect(await balance(SUB_A)).toBe(a0 - 300);
    const row = (await t.sql.query(`select status, succeeded_at from wechatpay_sandbox_refunds where out_refund_no = $1`, [r.out_refund_no])).rows[0];
    expect(row).toMatchObject({ status: 'SUCCESS', succeeded_at: expect.any(Date) });
    // the same number again answers the same refund, debiting nothing more
    const again = await call(
      at('v3/refund/domestic/refunds').post({
        sub_mchid: SUB_A,
        out_trade_no: paid,
        out_refund_no: r.out_refund_no,
        amount: { refund: 300, total: 1_000, currency: 'CNY' },
      }),
    );
    expect(again).toMatchObject({ status: 200, data: { refund_id: r.data.refund_id } });
    expect(await balance(SUB_A)).toBe(a0 - 300);
    await sandbox.settled();
    const n = notifyAbout('out_refund_no', r.out_refund_no);
    expect(n.event_type).toBe('REFUND.SUCCESS');
    expect(n.resource).toMatchObject({ sp_mchid: keys.mchid, sub_mchid: SUB_A, out_trade_no: paid, refund_status: 'SUCCESS' });
    expect(n.resource).not.toHaveProperty('mchid');
    const asked = (sub_mchid?: string) =>
      call(at('v3/refund/domestic/refunds/$out_refund_no$').get({ ...(sub_mchid ? { params: { sub_mchid } } : {}), out_refund_no: r.out_refund_no }));
    expect(await asked(SUB_A)).toMatchObject({ status: 200, data: { sp_mchid: keys.mchid, sub_mchid: SUB_A, status: 'SUCCESS' } });
    const noRefund = { status: 404, data: { code: 'RESOURCE_NOT_EXISTS', message: '退款单不存在' } };
    expect(await asked()).toEqual(noRefund);
    expect(await asked(SUB_B)).toEqual(noRefund);
  });

  it('more than the balance: 403 NOT_ENOUGH and nothing recorded; more than is left on the order: 400 PARAM_ERROR', async () => {
    const paid = await paidOrder(SUB_B, 2_000);
    // the sub-merchant's money was withdrawn meanwhile
    await t.sql.query(`update wechatpay_sandbox_sub_merchants set balance_fen = 500 where sub_mchid = $1`, [SUB_B]);
    const r = await refund(paid, 800, SUB_B, 2_000);
    expect(r).toMatchObject({ status: 403, data: { code: 'NOT_ENOUGH', message: '基本账户余额不足，请充值后原路退款' } });
    expect(await balance(SUB_B)).toBe(500);
    expect((await t.sql.query(`select count(*)::int as n from wechatpay_sandbox_refunds where out_trade_no = $1`, [paid])).rows[0].n).toBe(0);
    expect(await sandbox.orderOf(paid)).toMatchObject({ state: 'SUCCESS', refunded_fen: 0 });
    expect((await refund(paid, 500, SUB_B, 2_000)).status).toBe(200);
    expect(await balance(SUB_B)).toBe(0);
    await t.sql.query(`update wechatpay_sandbox_sub_merchants set balance_fen = 10000 where sub_mchid = $1`, [SUB_B]);
    expect(await refund(paid, 1_501, SUB_B, 2_000)).toMatchObject({
      status: 400,
      data: { code: 'PARAM_ERROR', message: '退款金额超过订单可退金额' },
    });
    expect(await balance(SUB_B)).toBe(10_000);
    expect((await refund(paid, 1_500, SUB_B, 2_000)).status).toBe(200);
    expect(await balance(SUB_B)).toBe(8_500);
  });

  it('a held refund is debited at once; CLOSED gives the sub-merchant its money back, SUCCESS records when', async () => {
    const paid = await paidOrder(SUB_A);
    const a0 = await balance(SUB_A);
    sandbox.holdRefunds = true;
    try {
      const closed = await refund(paid, 400, SUB_A);
      const done = await refund(paid, 100, SUB_A);
      expect([closed.data.status, done.data.status]).toEqual(['PROCESSING', 'PROCESSING']);
      expect(closed.data.success_time).toBeUndefined();
      expect(await balance(SUB_A)).toBe(a0 - 500);
      expect(await sandbox.finishRefund(closed.out_refund_no, 'CLOSED')).toMatchObject({ refund_status: 'CLOSED', notify_status: 204 });
      expect(await balance(SUB_A)).toBe(a0 - 100);
      expect(await sandbox.orderOf(paid)).toMatchObject({ refunded_fen: 100 });
      // finishing it again sends the notify again, crediting nothing more
      await sandbox.finishRefund(closed.out_refund_no, 'CLOSED');
      expect(await balance(SUB_A)).toBe(a0 - 100);
      expect(notifyAbout('out_refund_no', closed.out_refund_no)).toMatchObject({
        event_type: 'REFUND.CLOSED',
        resource: { sp_mchid: keys.mchid, sub_mchid: SUB_A, refund_status: 'CLOSED' },
      });
      const rows = async () =>
        (
          await t.sql.query(`select out_refund_no, status, succeeded_at from wechatpay_sandbox_refunds where out_trade_no = $1 order by created_at`, [
            paid,
          ])
        ).rows;
      expect(await rows()).toEqual([
        { out_refund_no: closed.out_refund_no, status: 'CLOSED', succeeded_at: null },
        { out_refund_no: done.out_refund_no, status: 'PROCESSING', succeeded_at: null },
      ]);
      await sandbox.finishRefund(done.out_refund_no, 'SUCCESS');
      expect((await rows())[1]).toMatchObject({ status: 'SUCCESS', succeeded_at: expect.any(Date) });
      expect(await balance(SUB_A)).toBe(a0 - 100);
    } finally {
      sandbox.holdRefunds = false;
    }
  });

  it('direct-mode orders still pay and refund the direct way (no sub_mchid), crediting no sub-merchant', async () => {
    const before = (await t.sql.query(`select sum(balance_fen)::int as s from wechatpay_sandbox_sub_merchants`)).rows[0].s;
    const direct = { appid: keys.appid, mchid: keys.mchid, description: '直连', out_trade_no: no(), notify_url: notifyUrl, amount: { total: 700 } };
    expect((await call(at('v3/pay/transactions/native').post(direct))).status).toBe(200);
    expect(await simulate(direct.out_trade_no)).toMatchObject({ trade_state: 'SUCCESS', notify_status: 204 });
    const n = notifyAbout('out_trade_no', direct.out_trade_no).resource;
    expect(n).toMatchObject({ mchid: keys.mchid, appid: keys.appid });
    expect(n).not.toHaveProperty('sub_mchid');
    expect(await refund(direct.out_trade_no, 100, SUB_A, 700)).toMatchObject({ status: 404, data: { code: 'RESOURCE_NOT_EXISTS' } });
    const r = await refund(direct.out_trade_no, 100, undefined, 700);
    expect(r).toMatchObject({ status: 200, data: { status: 'SUCCESS' } });
    expect(r.data).not.toHaveProperty('sub_mchid');
    await sandbox.settled();
    expect(notifyAbout('out_refund_no', r.out_refund_no).resource).toMatchObject({ mchid: keys.mchid });
    expect((await t.sql.query(`select sum(balance_fen)::int as s from wechatpay_sandbox_sub_merchants`)).rows[0].s).toBe(before);
  });
});

describe('the trade bill (GET /v3/bill/tradebill, bill_type ALL)', () => {
  const today = () => localDay(new Date(), 'Asia/Shanghai');
  const bill = (bill_date: string, sub_mchid: string) => call(at('v3/bill/tradebill').get({ params: { bill_date, sub_mchid, bill_type: 'ALL' } }));
  const download = async (url: string) => {
    const u = new URL(url);
    return call(
      at('v3/billdownload/file').get({ params: Object.fromEntries(u.searchParams), responseType: 'arraybuffer' }) as Promise<{
        status: number;
        data: unknown;
      }>,
    );
  };

  it('refuses a malformed or not past day, an unbound sub-merchant, and a day without a payment or refund', async () => {
    const param = (message: string) => ({ status: 400, data: { code: 'PARAM_ERROR', message } });
    expect(await bill('2026-13-01', SUB_BILL)).toEqual(param('bill_date'));
    expect(await bill('20260101', SUB_BILL)).toEqual(param('bill_date'));
    expect(await bill(today(), SUB_BILL)).toEqual(param('账单日期只能是今天之前的日期'));
    expect(await bill(addDays(today(), 3), SUB_BILL)).toEqual(param('账单日期只能是今天之前的日期'));
    expect(await bill(addDays(today(), -1), UNBOUND)).toEqual({
      status: 403,
      data: { code: 'NO_AUTH', message: '特约子商户商户号未授权服务商的产品权限' },
    });
    expect(await bill(addDays(today(), -1), '12ab')).toEqual(param('sub_mchid'));
    expect(await bill(addDays(today(), -30), SUB_BILL)).toEqual({ status: 400, data: { code: 'NO_STATEMENT_EXIST', message: '账单文件不存在' } });
    expect((await t.get(`/api/dev/wechatpay/v3/bill/tradebill?bill_date=${addDays(today(), -1)}&sub_mchid=${SUB_BILL}`)).status).toBe(401);
  });

  it('a day of payments and refunds: the file hashes to hash_value, its lines in WeChat shape, the summary; a forged token refused', async () => {
    const day = addDays(today(), -5);
    const at8 = (d: string, time: string) => instantOf(d, time, 'Asia/Shanghai');
    // SUB_BILL: a native payment and a jsapi payment that day, a refund of the jsapi one that day; a payment the day
    // before and a refund the day after (in neither); another sub-merchant's and a direct payment that day (not here)
    const nat = partnerOrder(SUB_BILL, { description: '晚托月费, 三月' });
    const js = partnerOrder(SUB_BILL, { payer: { sp_openid: SP_OPENID }, amount: { total: 2_599, currency: 'CNY' }, description: '晚餐' });
    const before = partnerOrder(SUB_BILL);
    const other = partnerOrder(SUB_B);
    const direct = { appid: keys.appid, mchid: keys.mchid, description: '直连', out_trade_no: no(), notify_url: notifyUrl, amount: { total: 900 } };
    for (const [kind, o] of [
      ['native', nat],
      ['jsapi', js],
      ['native', before],
      ['native', other],
    ] as const)
      expect((await create(kind, o)).status).toBe(200);
    expect((await call(at('v3/pay/transactions/native').post(direct))).status).toBe(200);
    for (const o of [nat, js, before, other, direct]) await simulate(o.out_trade_no);
    const r1 = await refund(js.out_trade_no, 599, SUB_BILL, 2_599);
    const r2 = await refund(nat.out_trade_no, 100, SUB_BILL);
    expect([r1.status, r2.status]).toEqual([200, 200]);
    const paidAt = async (o: { out_trade_no: string }, when: Date) =>
      t.sql.query(`update wechatpay_sandbox_orders set paid_at = $2 where out_trade_no = $1`, [o.out_trade_no, when]);
    await paidAt(nat, at8(day, '09:00:05'));
    await paidAt(js, at8(day, '10:15:00'));
    await paidAt(before, at8(addDays(day, -1), '23:59:59'));
    await paidAt(other, at8(day, '12:00:00'));
    await paidAt(direct, at8(day, '12:00:00'));
    await t.sql.query(`update wechatpay_sandbox_refunds set succeeded_at = $2 where out_refund_no = $1`, [r1.out_refund_no, at8(day, '11:00:00')]);
    await t.sql.query(`update wechatpay_sandbox_refunds set succeeded_at = $2 where out_refund_no = $1`, [
      r2.out_refund_no,
      at8(addDays(day, 1), '00:00:00'),
    ]);
    // the direct payment is on nobody's partner bill: the platform's own has no line that day
    expect(await bill(day, SANDBOX_PLATFORM_SUB_MCHID)).toMatchObject({ status: 400, data: { code: 'NO_STATEMENT_EXIST' } });

    const answer = await bill(day, SUB_BILL);
    const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    expect(answer).toEqual({
      status: 200,
      data: {
        hash_type: 'SHA1',
        hash_value: expect.stringMatching(/^[0-9a-f]{40}$/),
        download_url: expect.stringMatching(new RegExp(`^${base}/api/dev/wechatpay/v3/billdownload/file\\?token=[\\w-]+\\.[\\w-]+$`)),
      },
    });
    const file = await download(answer.data.download_url as string);
    expect(file.status).toBe(200);
    const bytes = Buffer.from(file.data as unknown as ArrayBuffer);
    expect(createHash('sha1').update(bytes).digest('hex')).toBe(answer.data.hash_value);

    const tx = async (o: { out_trade_no: string }) => (await sandbox.orderOf(o.out_trade_no))!.transaction_id!;
    const refundId = (r: typeof r1) => r.data.refund_id as string;
    const line = (fields: string[]) => fields.map((f) => `\`${f}`).join(',');
    const common = [keys.appid, keys.mchid, SUB_BILL, ''];
    const expected = [
      TRADE_BILL_HEADER,
      // (a comma in the goods' name would split the field: it is written as a space)
      line([
        `${day} 09:00:05`,
        ...common,
        await tx(nat),
        nat.out_trade_no,
        '',
        'NATIVE',
        'SUCCESS',
        'OTHERS',
        'CNY',
        '10.00',
        '0.00',
        '0',
        '0',
        '0.00',
        '0.00',
        '',
        '',
        '晚托月费  三月',
        '',
        '0.06000',
        '0.60%',
        '10.00',
        '0.00',
        '',
      ]),
      line([
        `${day} 10:15:00`,
        ...common,
        await tx(js),
        js.out_trade_no,
        SP_OPENID,
        'JSAPI',
        'SUCCESS',
        'OTHERS',
        'CNY',
        '25.99',
        '0.00',
        '0',
        '0',
        '0.00',
        '0.00',
        '',
        '',
        '晚餐',
        '',
        '0.15594',
        '0.60%',
        '25.99',
        '0.00',
        '',
      ]),
      line([
        `${day} 11:00:00`,
        ...common,
        await tx(js),
        js.out_trade_no,
        SP_OPENID,
        'JSAPI',
        'REFUND',
        'OTHERS',
        'CNY',
        '25.99',
        '0.00',
        refundId(r1),
        r1.out_refund_no,
        '5.99',
        '0.00',
        'ORIGINAL',
        'SUCCESS',
        '晚餐',
        '',
        '-0.03594',
        '0.60%',
        '25.99',
        '5.99',
        '',
      ]),
      TRADE_BILL_SUMMARY_HEADER,
      line(['3', '35.99', '5.99', '0.00', '0.18000', '35.99', '5.99']),
    ];
    const text = bytes.toString('utf8');
    expect(text.split(/\r?\n/).filter(Boolean)).toEqual(expected);
    expect(TRADE_BILL_HEADER.split(',')).toHaveLength(27);
    for (const l of expected.slice(1, 4)) expect(l.split(',')).toHaveLength(27);
    // the day after has the other refund
    const next = await bill(addDays(day, 1), SUB_BILL);
    const nextFile = Buffer.from((await download(next.data.download_url as string)).data as unknown as ArrayBuffer).toString('utf8');
    expect(nextFile.split(/\r?\n/).filter(Boolean)).toHaveLength(4);
    expect(nextFile).toContain(`\`${r2.out_refund_no},\`1.00,`);

    // a token only the sandbox makes: another sub-merchant's or day's payload under this MAC, or a made-up one, is refused
    const token = new URL(answer.data.download_url as string).searchParams.get('token')!;
    const [, mac] = token.split('.');
    const forged = (payload: string) => `${Buffer.from(payload).toString('base64url')}.${mac}`;
    const refused = { status: 400, data: { code: 'PARAM_ERROR', message: 'token' } };
    for (const bad of [forged(`${SUB_B}|${day}`), forged(`${SUB_BILL}|${addDays(day, -1)}`), 'x', `${token.split('.')[0]}.AAAA`, `${token}x`])
      expect(await call(at('v3/billdownload/file').get({ params: { token: bad } }))).toEqual(refused);
    expect((await t.get(`/api/dev/wechatpay/v3/billdownload/file?token=${token}`)).status).toBe(401);
  });
});
