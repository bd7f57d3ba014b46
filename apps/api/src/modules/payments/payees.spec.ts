import { Code, PAYMENT_KIND_NAMES, PAYMENT_PAYEES, t as message, type PaymentKindName } from '@wantuo/shared';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Aes, Formatter, Rsa } from 'wechatpay-axios-plugin';
import { startTestApp, type TestApp } from '../../../test/harness';
import { seedDemoCourseware, DEMO_COURSEWARE } from '../courseware/demo-courseware';
import { WechatPaySandbox } from '../dev/wechatpay-sandbox.service';
import { PaymentKinds } from './payment-kinds';
import { SANDBOX_DEMO_SUB_MCHID, SANDBOX_PLATFORM_SUB_MCHID, type SandboxKeys } from './wechatpay/credentials';
import { SANDBOX_KEYS } from './wechatpay/wechatpay.tokens';

/**
 * Issue 36, "Done when": for every payment kind, through the sandbox, the account that receives the money, the one its
 * refund comes from, the notify checks, and the refusal for a school without a sub-merchant. Table-driven over
 * PAYMENT_KIND_NAMES: a new kind fails here until it says how it is paid.
 */
let t: TestApp;
let admin: string;
let parent: string;
let operator: string;
let teacher: string;
let sandbox: WechatPaySandbox;
let keys: SandboxKeys;
let child: number;
let packageId: number;
let contractStart: string;
let today: string;
let addressId: number;
let seq = 0;
const rid = () => `payee-${Date.now().toString(36)}-${seq++}`;
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };
const zh = (key: Parameters<typeof message>[1]) => message('zh-CN', key);
const plus = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await startTestApp({ runJobs: true, redis: false, demoPeople: true, listen: true });
  await seedDemoCourseware(t.app.get(DataSource), t.config.uploadDir);
  [admin, parent, operator, teacher] = await Promise.all([t.login('admin'), t.login('parent'), t.login('operator'), t.login('teacher')]);
  sandbox = t.app.get(WechatPaySandbox);
  keys = t.app.get(SANDBOX_KEYS)!;
  today = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as d`)).rows[0].d;
  child = (
    await t.sql.query(
      `select s.id from students s join student_guardians g on g.student_id = s.id join care_class_students c on c.student_id = s.id
        where g.user_id = $1 and s.status = 1 order by s.id limit 1`,
      [t.demo.users.parent],
    )
  ).rows[0].id;
  // dinners any day, and no demo contract paying them: each booking is paid by WeChat
  await t.sql.query(`update class_times set weekdays = '{1,2,3,4,5,6,7}' where school_id = $1`, [t.demo.schoolId]);
  await t.sql.query(`update contracts set status = 'cancelled' where school_id = $1`, [t.demo.schoolId]);
  const k = await t
    .post('/api/index/addContractPackage', admin)
    .send({ name: '月托', kind: 'month', length: 1, price_fen: 158000, includes: ['care'] });
  packageId = k.body.data.id;
  contractStart = plus(7);
  const address = await t.post('/api/index/addAddress', admin).send({
    name: '王老师',
    mobile: '13800000001',
    region: '浙江省杭州市西湖区',
    detail: '文三路 100 号',
    is_default: true,
  });
  addressId = address.body.data.id;
}, 120_000);
afterAll(() => t.close());

/** The sandbox's balance of a sub-merchant (what WeChat's merchant platform would show it). */
async function balance(subMchid: string): Promise<number> {
  const res = await t.get(`/api/dev/wechatpay/subMerchants/${subMchid}`);
  expect(res.status).toBe(200);
  return res.body.data?.balance_fen ?? res.body.balance_fen;
}
async function balances(): Promise<Record<string, number>> {
  return { platform: await balance(SANDBOX_PLATFORM_SUB_MCHID), school: await balance(SANDBOX_DEMO_SUB_MCHID) };
}

/** An object of each kind, unpaid, and how to start one WeChat payment for it (two may be started for the same one). */
interface Payable {
  start: () => Promise<{ body: { code: number; msg: string; data: { out_trade_no: string; amount_fen: number } } }>;
  /** refunds a paid one (the kinds that pay no object: the operator's refund) */
  refund?: (outTradeNo: string) => Promise<void>;
}
let courseware = 0;
const operatorRefund = async (outTradeNo: string) => {
  const res = await t
    .post('/api/index/refundSchoolPayment', operator)
    .send({ school_id: t.demo.schoolId, out_trade_no: outTradeNo, reason: '测试退款', request_id: rid() });
  expect(res.body).toMatchObject({ code: Code.Ok, data: { state: 'succeeded' } });
};
const PAYABLE: Record<PaymentKindName, () => Promise<Payable>> = {
  top_up: async () => ({ start: () => t.post('/api/index/recharge', admin).send({ amount_fen: 1_234 }), refund: operatorRefund }),
  school_renewal: async () => ({ start: () => t.post('/api/index/wechatPaySchool', admin).send({ period: 'term' }), refund: operatorRefund }),
  goods_order: async () => {
    const g = await t.post('/api/index/addStoreGoods', operator).send({
      type_id: 1,
      name: `订书机 ${seq++}`,
      pictures: ['https://img.example.com/stapler.png'],
      description: '办公用订书机',
      price_fen: 1_500,
      stock: 10,
      request_id: rid(),
    });
    const pre = await t.get(`/api/index/submitGoodsOrder?items=${g.body.data.id}:1`, admin);
    const o = await t.post('/api/index/submitGoodsOrder', admin).send({
      items: [{ goods_id: g.body.data.id, quantity: 1 }],
      address_id: addressId,
      total_fen: pre.body.data.total_fen,
      request_id: rid(),
    });
    expect(o.body).toMatchObject({ code: Code.Ok });
    return { start: () => t.post('/api/index/wechatPayGoodsOrder', admin).send({ id: o.body.data.id }) };
  },
  courseware: async () => {
    const title = DEMO_COURSEWARE[courseware++ % DEMO_COURSEWARE.length].title;
    const { rows } = await t.sql.query(`select id from coursewares where title = $1 and school_id is null`, [title]);
    return { start: () => t.post('/api/index/wechatPayCourseware', admin).send({ id: rows[0].id }) };
  },
  contract: async () => {
    const c = await t
      .post('/api/index/addContract', admin)
      .send({ student_id: child, guardian_id: t.demo.users.parent, package_id: packageId, start_day: contractStart, request_id: rid() });
    expect(c.body).toMatchObject({ code: Code.Ok });
    return { start: () => t.post('/api/index/wechatPayContract', parent).send({ id: c.body.data.id }) };
  },
  meal: async () => {
    const g = await t
      .post('/api/index/addMealGoods', admin)
      .send({ name: `套餐饭${seq++}`, price_fen: 1_500, picture_url: '/uploads/2026-12/a.png' });
    const b = await t
      .post('/api/index/bookDinner', parent)
      .send({ student_id: child, goods_id: g.body.data.id, day: plus(2 + (seq % 20)), request_id: rid() });
    expect(b.body).toMatchObject({ code: Code.Ok, data: { status: 'unpaid' } });
    return { start: () => t.post('/api/index/wechatPayDinner', parent).send({ id: b.body.data.id }) };
  },
};

const payment = async (outTradeNo: string) =>
  (await t.sql.query(`select state, payee, sub_mchid, refunded_fen::int as refunded_fen from payments where out_trade_no = $1`, [outTradeNo]))
    .rows[0];
const simulate = async (outTradeNo: string) => {
  const res = await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: outTradeNo });
  expect(res.body.data).toMatchObject({ trade_state: 'SUCCESS', notify_status: 204 });
  await t.app.get(PaymentKinds).settled();
  await sandbox.settled();
};

const expected = (kind: PaymentKindName) => (PAYMENT_PAYEES[kind] === 'school' ? SANDBOX_DEMO_SUB_MCHID : SANDBOX_PLATFORM_SUB_MCHID);
const payeeOfKind = (kind: PaymentKindName) => PAYMENT_PAYEES[kind];

describe('every kind: the account that receives it, and the one its refund comes from', () => {
  it.each(PAYMENT_KIND_NAMES)('%s', async (kind) => {
    const payable = await PAYABLE[kind]();
    const before = await balances();
    const first = (await payable.start()).body;
    expect(first).toMatchObject({ code: Code.Ok });
    // an object-paying kind: a second order for the same object, paid too, is a surplus
    const second = payable.refund ? null : (await payable.start()).body;
    if (second) expect(second).toMatchObject({ code: Code.Ok });
    const a = first.data;
    expect(await payment(a.out_trade_no)).toMatchObject({ state: 'pending', payee: payeeOfKind(kind), sub_mchid: expected(kind) });
    expect(await sandbox.orderOf(a.out_trade_no)).toMatchObject({ sub_mchid: expected(kind), sp_mchid: keys.mchid });

    await simulate(a.out_trade_no);
    const paid = await balances();
    const mine = payeeOfKind(kind);
    const theirs = mine === 'school' ? 'platform' : 'school';
    expect(paid[mine]).toBe(before[mine] + a.amount_fen);
    expect(paid[theirs]).toBe(before[theirs]);

    // the refund leaves the account that received the payment
    if (payable.refund) {
      await payable.refund(a.out_trade_no);
      await sandbox.settled();
    } else {
      await simulate(second!.data.out_trade_no);
      expect(await payment(second!.data.out_trade_no)).toMatchObject({ state: 'refunded', sub_mchid: expected(kind) });
      const r = await t.sql.query(`select r.state from payment_refunds r join payments p on p.id = r.payment_id where p.out_trade_no = $1`, [
        second!.data.out_trade_no,
      ]);
      expect(r.rows).toEqual([{ state: 'succeeded' }]);
    }
    const after = await balances();
    expect(after[mine]).toBe(payable.refund ? before[mine] : before[mine] + a.amount_fen);
    expect(after[theirs]).toBe(before[theirs]);
    // the platform's own account never receives what a parent pays
    if (mine === 'school') expect(after.platform).toBe(before.platform);
  });
});

/** A TRANSACTION.SUCCESS notify as WeChat would send it (signed, encrypted), of the partner shape, naming `subMchid`. */
function notify(outTradeNo: string, amountFen: number, subMchid: string, o: { platformKey?: string } = {}) {
  const resource = {
    sp_mchid: keys.mchid,
    sp_appid: keys.appid,
    sub_mchid: subMchid,
    out_trade_no: outTradeNo,
    transaction_id: `4200${Date.now()}${seq++}`,
    trade_state: 'SUCCESS',
    success_time: new Date().toISOString(),
    amount: { total: amountFen, payer_total: amountFen, currency: 'CNY' },
  };
  const nonce = randomBytes(6).toString('hex');
  const ciphertext = Aes.AesGcm.encrypt(JSON.stringify(resource), keys.apiV3Key, nonce, 'transaction');
  const body = JSON.stringify({
    id: randomBytes(8).toString('hex'),
    event_type: 'TRANSACTION.SUCCESS',
    resource_type: 'encrypt-resource',
    resource: { algorithm: 'AEAD_AES_256_GCM', ciphertext, nonce, associated_data: 'transaction', original_type: 'transaction' },
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const sigNonce = Formatter.nonce();
  return t
    .post('/api/pay/wechat/notify')
    .set({
      'content-type': 'application/json',
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': sigNonce,
      'wechatpay-serial': keys.platformKeyId,
      'wechatpay-signature': Rsa.sign(Formatter.response(timestamp, sigNonce, body), o.platformKey ?? keys.platformPrivateKey),
    })
    .send(body);
}

describe('every kind: the notify checks', () => {
  it.each(PAYMENT_KIND_NAMES)('%s: another sub-merchant, a forged signature refused; the genuine one replayed credits once', async (kind) => {
    const payable = await PAYABLE[kind]();
    const a = (await payable.start()).body.data;
    const other = expected(kind) === SANDBOX_DEMO_SUB_MCHID ? SANDBOX_PLATFORM_SUB_MCHID : SANDBOX_DEMO_SUB_MCHID;
    expect((await notify(a.out_trade_no, a.amount_fen, other)).status).toBe(400);
    expect((await notify(a.out_trade_no, a.amount_fen, expected(kind), { platformKey: keys.privateKey })).status).toBe(401);
    expect(await payment(a.out_trade_no)).toMatchObject({ state: 'pending' });

    const before = await balances();
    await simulate(a.out_trade_no);
    const once = await balances();
    // WeChat sends a paid order's notify again until acknowledged: nothing is credited twice, here or there
    for (let i = 0; i < 3; i++) await simulate(a.out_trade_no);
    expect(await balances()).toEqual(once);
    expect(once[payeeOfKind(kind)]).toBe(before[payeeOfKind(kind)] + a.amount_fen);
    expect(await payment(a.out_trade_no)).toMatchObject({ state: 'paid' });
    const settled = await t.sql.query(`select count(*)::int as n from payments where out_trade_no = $1 and state = 'paid'`, [a.out_trade_no]);
    expect(settled.rows[0].n).toBe(1);
  });
});

describe('a school without a sub-merchant', () => {
  const current = async () => (await t.get(`/api/index/schoolSubMerchant?school_id=${t.demo.schoolId}`, operator)).body.data;
  const set = async (sub_mchid: string | null, note = '测试') =>
    t
      .post('/api/index/setSchoolSubMerchant', operator)
      .send({ school_id: t.demo.schoolId, sub_mchid, note, expected_id: (await current()).current?.id ?? null });
  const count = async () => Number((await t.sql.query(`select count(*) from payments`)).rows[0].count);
  afterAll(async () => {
    if ((await current()).current?.sub_mchid !== SANDBOX_DEMO_SUB_MCHID) await set(SANDBOX_DEMO_SUB_MCHID);
  });

  it("takes no parent's payment online (nothing written), says so to the guardian, and still sells what the platform sells", async () => {
    expect((await set(null)).body).toMatchObject({ code: Code.Ok, data: { state: 'none', current: null } });
    expect((await t.get('/api/index/parentPayOptions', parent)).body).toMatchObject({
      code: Code.Ok,
      data: { online: false, school_name: expect.any(String), contact_phone: '13800000001' },
    });
    for (const kind of PAYMENT_KIND_NAMES.filter((k) => PAYMENT_PAYEES[k] === 'school')) {
      const payable = await PAYABLE[kind]();
      const n = await count();
      expect((await payable.start()).body).toEqual({ code: Code.Error, msg: zh('payments.school_no_merchant'), data: null });
      expect(await count()).toBe(n);
    }
    // the platform's own kinds do not depend on the school's merchant
    expect((await (await PAYABLE.top_up()).start()).body).toMatchObject({ code: Code.Ok });
    expect((await set(SANDBOX_DEMO_SUB_MCHID)).body).toMatchObject({ code: Code.Ok, data: { state: 'active' } });
    expect((await t.get('/api/index/parentPayOptions', parent)).body.data.online).toBe(true);
    expect((await (await PAYABLE.contract()).start()).body).toMatchObject({ code: Code.Ok });
  });

  it('a sub-merchant recorded but not onboarded at WeChat: the order is refused, its row closed', async () => {
    expect((await set('1900000777')).body).toMatchObject({ code: Code.Ok });
    const n = await count();
    const res = (await (await PAYABLE.meal()).start()).body;
    expect(res).toEqual({ code: Code.Error, msg: zh('payments.merchant_unavailable'), data: null });
    const rows = await t.sql.query(`select state, sub_mchid from payments order by id desc limit 1`);
    expect(await count()).toBe(n + 1);
    expect(rows.rows[0]).toEqual({ state: 'closed', sub_mchid: '1900000777' });
    await set(SANDBOX_DEMO_SUB_MCHID);
  });

  it('a payment keeps the merchant it was made with: a change of number moves neither an open order nor its money', async () => {
    await t.post('/api/dev/wechatpay/subMerchants').send({ sub_mchid: '1900000778', name: '新商户' });
    const payable = await PAYABLE.contract();
    const a = (await payable.start()).body.data;
    expect((await set('1900000778')).body).toMatchObject({ code: Code.Ok, data: { current: { sub_mchid: '1900000778' } } });
    const [old, fresh] = [await balance(SANDBOX_DEMO_SUB_MCHID), await balance('1900000778')];
    await simulate(a.out_trade_no);
    expect(await payment(a.out_trade_no)).toMatchObject({ state: 'paid', sub_mchid: SANDBOX_DEMO_SUB_MCHID });
    expect([await balance(SANDBOX_DEMO_SUB_MCHID), await balance('1900000778')]).toEqual([old + a.amount_fen, fresh]);
    const b = (await (await PAYABLE.contract()).start()).body.data;
    expect(await payment(b.out_trade_no)).toMatchObject({ sub_mchid: '1900000778' });
    await set(SANDBOX_DEMO_SUB_MCHID);
  });
});

describe('schoolSubMerchant, setSchoolSubMerchant, parentPayOptions', () => {
  it('the admin reads their own school whatever school_id says; the operator any; others are refused', async () => {
    const other = await t.otherSchool();
    expect((await t.get(`/api/index/schoolSubMerchant?school_id=${other.schoolId}`, admin)).body).toMatchObject({
      code: Code.Ok,
      data: { school_id: t.demo.schoolId, state: 'active', current: { sub_mchid: SANDBOX_DEMO_SUB_MCHID } },
    });
    expect((await t.get(`/api/index/schoolSubMerchant?school_id=${other.schoolId}`, operator)).body).toMatchObject({
      code: Code.Ok,
      data: { school_id: other.schoolId, state: 'none', history: [] },
    });
    expect((await t.get('/api/index/schoolSubMerchant', teacher)).body).toMatchObject(DENIED);
    expect((await t.get('/api/index/parentPayOptions', admin)).body).toMatchObject(DENIED);
    expect((await t.get('/api/index/schoolSubMerchant?school_id=999999', operator)).body).toMatchObject({
      code: Code.Error,
      msg: zh('school.not_found'),
    });
  });

  it('records with history; refuses bad input, other roles, a stale record, the same record, a number taken, the platform’s own', async () => {
    const other = await t.otherSchool();
    const snapshot = async () => (await t.sql.query(`select count(*)::int as n, count(ended_at)::int as ended from school_sub_merchants`)).rows[0];
    const before = await snapshot();
    const send = (body: Record<string, unknown>, token = operator) =>
      t.post('/api/index/setSchoolSubMerchant', token).send({ school_id: other.schoolId, note: '进件完成', expected_id: null, ...body });
    expect((await send({ sub_mchid: 'abc' })).body).toMatchObject({ code: Code.Error, msg: zh('school.v.sub_mchid_invalid') });
    expect((await send({ sub_mchid: '1900000801', sub_appid: 'wx1' })).body).toMatchObject({
      code: Code.Error,
      msg: zh('school.v.sub_appid_invalid'),
    });
    expect((await send({ sub_mchid: '1900000801' }, admin)).body).toMatchObject(DENIED);
    expect((await send({ sub_mchid: '1900000801' }, other.adminToken)).body).toMatchObject(DENIED);
    expect((await send({ sub_mchid: SANDBOX_DEMO_SUB_MCHID })).body).toMatchObject({ code: Code.Error, msg: zh('payments.sub_merchant_taken') });
    expect((await send({ sub_mchid: SANDBOX_PLATFORM_SUB_MCHID })).body).toMatchObject({
      code: Code.Error,
      msg: zh('payments.sub_merchant_platform'),
    });
    expect((await send({ sub_mchid: '1900000801', school_id: 999999 })).body).toMatchObject({ code: Code.Error, msg: zh('school.not_found') });
    expect(await snapshot()).toEqual(before);

    const first = (await send({ sub_mchid: '1900000801' })).body;
    expect(first).toMatchObject({ code: Code.Ok, data: { state: 'active', current: { sub_mchid: '1900000801', recorded_by_name: '平台运营' } } });
    const id = first.data.current.id as number;
    expect((await send({ sub_mchid: '1900000802' })).body).toMatchObject({ code: Code.Error, msg: zh('payments.sub_merchant_changed') });
    expect((await send({ sub_mchid: '1900000801', expected_id: id })).body).toMatchObject({
      code: Code.Error,
      msg: zh('payments.sub_merchant_same'),
    });
    const second = (await send({ sub_mchid: '1900000802', sub_appid: 'wxabcdef1234567890', expected_id: id })).body;
    expect(second).toMatchObject({ code: Code.Ok, data: { current: { sub_mchid: '1900000802', sub_appid: 'wxabcdef1234567890' } } });
    expect(second.data.history.map((h: { sub_mchid: string; ended_at: string | null }) => [h.sub_mchid, h.ended_at === null])).toEqual([
      ['1900000802', true],
      ['1900000801', false],
    ]);
    expect(await snapshot()).toEqual({ n: before.n + 2, ended: before.ended + 1 });
  });
});
