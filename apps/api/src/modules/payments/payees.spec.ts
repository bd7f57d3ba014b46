import {
  Code,
  PAYMENT_KIND_NAMES,
  PAYMENT_PAYEES,
  t as message,
  type ContractDetail,
  type Payee,
  type PaymentKindName,
  type SchoolSubMerchant,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { signedNotify } from '../../../test/wechatpay-notify';
import { seedDemoCourseware, startTestApp, type TestApp } from '../../../test/harness';
import { WechatPaySandbox } from '../../sandboxes/wechatpay-sandbox/wechatpay-sandbox.service';
import { PaymentKinds } from './payment-kinds';
import { loadSandboxKeys, SANDBOX_DEMO_SUB_MCHID, SANDBOX_PLATFORM_SUB_MCHID, type SandboxKeys } from './wechatpay/credentials';

/**
 * Issue 36, "Done when": over every payment kind, the money reaches the WeChat Pay merchant PAYMENT_PAYEES says —
 * the platform's own sub-merchant for what the platform sells, the school's for what a parent pays — and stays
 * there: the refund comes from that merchant, a notify naming another is refused, a school without a merchant takes
 * no parent's payment online, and a payment keeps the merchant it was made with. Driven over HTTP through the
 * sandbox (its sub-merchants' balances are WeChat's view of where the money is), checked in SQL. Table-driven over
 * PAYMENT_KIND_NAMES: a new kind fails here until it has a case.
 */
let t: TestApp;
let keys: SandboxKeys;
let admin: string;
let parent: string;
let teacher: string;
let operator: string;
let schoolId: number;
let child: number;
let contractPackage: number;
let contractStart: string;
let mealGoods: number;
let storeGoods: number;
let storeAddress: number;
let today: string;
const coursewares: number[] = [];
let seq = 0;
const rid = () => `payee-${Date.now().toString(36)}-${seq++}`;
let mealDay = 2;
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };
const PLATFORM = SANDBOX_PLATFORM_SUB_MCHID;
const DEMO = SANDBOX_DEMO_SUB_MCHID;
const msg = (key: Parameters<typeof message>[1]) => message('zh-CN', key);

beforeAll(async () => {
  t = await startTestApp({ runJobs: true, redis: false, listen: true, demoPeople: true });
  keys = loadSandboxKeys(t.config.dataDir);
  schoolId = t.demo.schoolId;
  [admin, parent, teacher, operator] = await Promise.all(['admin', 'parent', 'teacher', 'operator'].map((u) => t.login(u as 'admin')));
  await seedDemoCourseware(t.app.get(DataSource), t.config.uploadDir);
  const cw = await t.sql.query(`select id from coursewares where status = 1 and price_fen > 0 order by id`);
  coursewares.push(...cw.rows.map((r) => r.id as number));

  // the demo parent's child in the running class (booked dinners need a class that meets that day: every day here)
  const mine = await t.sql.query(
    `select s.id from students s join student_guardians g on g.student_id = s.id join care_class_students c on c.student_id = s.id
      where g.user_id = $1 and c.class_id = $2 and s.status = 1 order by s.id`,
    [t.demo.users.parent, t.demo.classes!.running],
  );
  child = mine.rows[0].id;
  await t.sql.query(`update class_times set weekdays = '{1,2,3,4,5,6,7}' where school_id = $1`, [schoolId]);
  // the demo's contracts (some include dinner, which would pay the dinners) are set aside
  await t.sql.query(`update contracts set status = 'cancelled' where school_id = $1`, [schoolId]);
  today = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as d`)).rows[0].d;
  contractStart = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date + 7, 'YYYY-MM-DD') as d`)).rows[0].d;

  const k = await t
    .post('/api/index/addContractPackage', admin)
    .send({ name: '月托-收款商户', kind: 'month', length: 1, price_fen: 158_000, includes: ['care'] });
  expect(k.body).toMatchObject({ code: Code.Ok });
  contractPackage = k.body.data.id;
  const settings = await t.get('/api/index/mealSettings', admin);
  expect(
    (await t.post('/api/index/setMealSettings', admin).send({ cutoff_time: '10:00', days_before: 0, version: settings.body.data.version })).body.code,
  ).toBe(Code.Ok);
  const meal = await t.post('/api/index/addMealGoods', admin).send({ name: '收款商户套餐', price_fen: 1_200 });
  expect(meal.body).toMatchObject({ code: Code.Ok });
  mealGoods = meal.body.data.id;
  const goods = await t.post('/api/index/addStoreGoods', operator).send({
    type_id: 1,
    name: '收款商户 订书机',
    pictures: ['https://img.example.com/stapler.png'],
    description: '办公用订书机',
    price_fen: 1_850,
    stock: 1_000,
    request_id: rid(),
  });
  expect(goods.body).toMatchObject({ code: Code.Ok });
  storeGoods = goods.body.data.id;
  const address = await t
    .post('/api/index/addAddress', admin)
    .send({ name: '王老师', mobile: '13800000001', region: '浙江省杭州市西湖区', detail: '文三路 100 号', is_default: true });
  expect(address.body).toMatchObject({ code: Code.Ok });
  storeAddress = address.body.data.id;
}, 120_000);
afterAll(() => t.close());

const plus = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** What one kind's payment needs: who pays, the thing paid for (made fresh each time), the request that pays it. */
interface KindCase {
  /** the merchant that must receive it: declared here, checked against PAYMENT_PAYEES */
  payee: Payee;
  payer: 'admin' | 'parent';
  /** makes something new to pay for: its id (null for a kind that pays for nothing kept: top-up, renewal) */
  object(): Promise<number | null>;
  /** the request starting a WeChat payment for it (its raw answer) */
  pay(id: number | null): Promise<{ body: { code: number; msg?: string; data?: { out_trade_no: string; amount_fen: number } } }>;
  /** how many times this payment was settled (the wallet credited, the service renewed, the object paid by it) */
  settledBy(outTradeNo: string): Promise<number>;
  /** how a refund of it is made: the operator's (the school's own purchases), or the surplus rule (a second payment of the object) */
  refund: 'operator' | 'surplus';
}

const count = async (sql: string, params: unknown[]) => (await t.sql.query(sql, params)).rows[0].n as number;

const CASES: Record<PaymentKindName, KindCase> = {
  top_up: {
    payee: 'platform',
    payer: 'admin',
    object: async () => null,
    pay: () => t.post('/api/index/recharge', admin).send({ amount_fen: 10_000 + seq++ }),
    settledBy: (no) => count(`select count(*)::int as n from ledger_entries where ref_id = $1 and type = 'top_up'`, [no]),
    refund: 'operator',
  },
  school_renewal: {
    payee: 'platform',
    payer: 'admin',
    object: async () => null,
    pay: () => t.post('/api/index/wechatPaySchool', admin).send({ period: 'term' }),
    // the renewal keeps the span it bought in the payment's meta
    settledBy: (no) => count(`select count(*)::int as n from payments where out_trade_no = $1 and meta ? 'until'`, [no]),
    refund: 'operator',
  },
  goods_order: {
    payee: 'platform',
    payer: 'admin',
    async object() {
      const pre = await t.get(`/api/index/submitGoodsOrder?items=${storeGoods}:1`, admin);
      const res = await t.post('/api/index/submitGoodsOrder', admin).send({
        items: [{ goods_id: storeGoods, quantity: 1 }],
        address_id: storeAddress,
        total_fen: pre.body.data.total_fen,
        request_id: rid(),
      });
      expect(res.body).toMatchObject({ code: Code.Ok, data: { state: 'unpaid' } });
      return res.body.data.id;
    },
    pay: (id) => t.post('/api/index/wechatPayGoodsOrder', admin).send({ id }),
    settledBy: (no) => count(`select count(*)::int as n from store_orders where out_trade_no = $1 and pay_method = 'wechat'`, [no]),
    refund: 'surplus',
  },
  courseware: {
    payee: 'platform',
    payer: 'admin',
    async object() {
      const id = coursewares.shift();
      if (!id) throw new Error('no demo courseware left to buy');
      return id;
    },
    pay: (id) => t.post('/api/index/wechatPayCourseware', admin).send({ id }),
    settledBy: (no) => count(`select count(*)::int as n from courseware_purchases where out_trade_no = $1 and state = 'owned'`, [no]),
    refund: 'surplus',
  },
  contract: {
    payee: 'school',
    payer: 'parent',
    async object() {
      const res = await t
        .post('/api/index/addContract', admin)
        .send({ student_id: child, guardian_id: t.demo.users.parent, package_id: contractPackage, start_day: contractStart, request_id: rid() });
      expect(res.body).toMatchObject({ code: Code.Ok, data: { status: 'unpaid' } });
      return res.body.data.id;
    },
    pay: (id) => t.post('/api/index/wechatPayContract', parent).send({ id }),
    settledBy: (no) => count(`select count(*)::int as n from contracts where receipt_no = $1 and pay_method = 'wechat'`, [no]),
    refund: 'surplus',
  },
  meal: {
    payee: 'school',
    payer: 'parent',
    async object() {
      const res = await t
        .post('/api/index/bookDinner', parent)
        .send({ student_id: child, goods_id: mealGoods, day: plus(mealDay++), request_id: rid() });
      expect(res.body).toMatchObject({ code: Code.Ok, data: { status: 'unpaid', pay_from: 'wechat' } });
      return res.body.data.id;
    },
    pay: (id) => t.post('/api/index/wechatPayDinner', parent).send({ id }),
    settledBy: (no) => count(`select count(*)::int as n from meal_bookings where out_trade_no = $1`, [no]),
    refund: 'surplus',
  },
};

/** The case of a kind: a kind PAYMENT_PAYEES declares and this spec does not know fails here. */
function caseOf(kind: PaymentKindName): KindCase {
  const c = (CASES as Partial<Record<string, KindCase>>)[kind];
  if (!c) throw new Error(`payment kind ${kind} has no case in payees.spec.ts: add one`);
  return c;
}

/** The sub-merchant a payee's money must reach (the demo school's: recorded by the demo seed). */
const subOf = (payee: Payee) => (payee === 'platform' ? PLATFORM : DEMO);
const otherOf = (payee: Payee) => (payee === 'platform' ? DEMO : PLATFORM);

/** A sandbox sub-merchant's balance, as WeChat would show it (HTTP). */
async function balanceOf(subMchid: string): Promise<number> {
  const res = await t.get(`/api/dev/wechatpay/subMerchants/${subMchid}`);
  expect(res.status).toBe(200);
  return res.body.balance_fen as number;
}
const balances = async (...subs: string[]) => Object.fromEntries(await Promise.all(subs.map(async (s) => [s, await balanceOf(s)] as const)));

/** Starts a payment of the kind (asserted accepted): its out_trade_no and amount. */
async function start(c: KindCase, id: number | null): Promise<{ no: string; amount: number }> {
  const res = await c.pay(id);
  expect(res.body).toMatchObject({ code: Code.Ok, data: { out_trade_no: expect.any(String), amount_fen: expect.any(Number) } });
  return { no: res.body.data!.out_trade_no, amount: res.body.data!.amount_fen };
}

/** The payer scans and pays at the sandbox: its notify delivered and acknowledged. */
async function simulate(no: string): Promise<void> {
  const sim = await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: no });
  expect(sim.body).toMatchObject({ code: Code.Ok, data: { trade_state: 'SUCCESS', notify_status: 204 } });
  await t.app.get(PaymentKinds).settled();
  await t.app.get(WechatPaySandbox).settled();
}

const paymentRow = async (no: string) =>
  (
    await t.sql.query(
      `select kind, state, payee, sub_mchid, amount_fen::float8 as amount_fen, refunded_fen::float8 as refunded_fen from payments where out_trade_no = $1`,
      [no],
    )
  ).rows[0] as { kind: string; state: string; payee: string; sub_mchid: string | null; amount_fen: number; refunded_fen: number };

const sandboxOrder = async (no: string) =>
  (
    await t.sql.query(
      `select out_trade_no, appid, sp_mchid, sub_mchid, transaction_id, trade_type, state, amount_fen::int as amount_fen, refunded_fen::int as refunded_fen
         from wechatpay_sandbox_orders where out_trade_no = $1`,
      [no],
    )
  ).rows[0] as {
    out_trade_no: string;
    appid: string;
    sp_mchid: string;
    sub_mchid: string | null;
    transaction_id: string | null;
    trade_type: string;
    state: string;
    amount_fen: number;
    refunded_fen: number;
  };

/** The refunds of a payment, with the sub-merchant of the sandbox order each was made against. */
const refundsOf = async (no: string) =>
  (
    await t.sql.query(
      `select r.state, r.request_key, r.amount_fen::float8 as amount_fen,
              (select o.sub_mchid from wechatpay_sandbox_refunds sr join wechatpay_sandbox_orders o on o.out_trade_no = sr.out_trade_no
                where sr.out_refund_no = r.out_refund_no) as sandbox_sub_mchid
         from payment_refunds r join payments p on p.id = r.payment_id where p.out_trade_no = $1 order by r.id`,
      [no],
    )
  ).rows as Array<{ state: string; request_key: string; amount_fen: number; sandbox_sub_mchid: string | null }>;

/** Everything a settled payment may have written, and where the money is: a notify answered again must change none of it. */
async function world() {
  const { rows } = await t.sql.query(
    `select (select count(*) from payments)::int as payments, (select coalesce(sum(version), 0) from payments)::int as payment_versions,
            (select string_agg(state, ',' order by id) from payments) as payment_states, (select count(*) from payment_refunds)::int as refunds,
            (select count(*) from ledger_entries)::int as ledger, (select coalesce(sum(balance_fen), 0)::float8 from schools) as wallets,
            (select string_agg(coalesce(service_expires_at::text, '-'), ',' order by id) from schools) as expiries,
            (select coalesce(sum(version), 0) from store_orders)::int as store_orders, (select count(*) from store_order_events)::int as store_events,
            (select count(*) from courseware_purchases)::int as purchases,
            (select coalesce(sum(version), 0) from contracts)::int as contracts, (select count(*) from contract_events)::int as contract_events,
            (select coalesce(sum(version), 0) from meal_bookings)::int as bookings, (select count(*) from meal_booking_events)::int as booking_events,
            (select json_object_agg(sub_mchid, balance_fen::float8 order by sub_mchid) from wechatpay_sandbox_sub_merchants) as sandbox_balances,
            (select count(*) from wechatpay_sandbox_refunds)::int as sandbox_refunds`,
  );
  return rows[0];
}

/** A TRANSACTION.SUCCESS notify as WeChat would send it: the resource encrypted with the APIv3 key, the body signed (the sandbox's encryptedNotify). */
function transactionNotify(resource: object, o: { platformKey?: string } = {}) {
  return signedNotify(keys, 'TRANSACTION.SUCCESS', 'transaction', resource, o);
}
const sendNotify = (n: { body: string; headers: Record<string, string> }) => t.post('/api/pay/wechat/notify').set(n.headers).send(n.body);

/** The partner transaction resource of a sandbox order, paid (what its genuine notify says), with `over` changed. */
async function paidResource(no: string, over: Record<string, unknown> = {}) {
  const o = await sandboxOrder(no);
  return {
    sp_appid: o.appid,
    sp_mchid: o.sp_mchid,
    sub_mchid: o.sub_mchid,
    out_trade_no: o.out_trade_no,
    transaction_id: o.transaction_id ?? `4200${Date.now()}${seq++}`,
    trade_type: o.trade_type,
    trade_state: 'SUCCESS',
    trade_state_desc: '支付成功',
    success_time: new Date().toISOString(),
    amount: { total: o.amount_fen, payer_total: o.amount_fen, currency: 'CNY', payer_currency: 'CNY' },
    ...over,
  };
}

/** The operator's view of a school's merchant. */
const merchantState = async (id = schoolId): Promise<SchoolSubMerchant> =>
  (await t.get(`/api/index/schoolSubMerchant?school_id=${id}`, operator)).body.data;

/** The operator records (or withdraws: null) a school's sub-merchant, from the record they see now. */
async function setMerchant(sub_mchid: string | null, id = schoolId, more: Record<string, unknown> = {}): Promise<SchoolSubMerchant> {
  const now = await merchantState(id);
  const res = await t
    .post('/api/index/setSchoolSubMerchant', operator)
    .send({ school_id: id, sub_mchid, note: sub_mchid ? '进件完成' : '暂停在线收款', expected_id: now.current?.id ?? null, ...more });
  expect(res.body).toMatchObject({ code: Code.Ok, data: { school_id: id, state: sub_mchid ? 'active' : 'none' } });
  return res.body.data;
}

/** Onboards a sub-merchant in the sandbox (WeChat's 进件 done). */
async function onboard(sub_mchid: string, name: string): Promise<void> {
  const res = await t.post('/api/dev/wechatpay/subMerchants').send({ sub_mchid, name });
  expect(res.body).toMatchObject({ code: Code.Ok, data: { sub_mchid, balance_fen: 0 } });
}

const paymentCount = () => count(`select count(*)::int as n from payments`, []);

describe('the kinds this spec covers', () => {
  it('are exactly the kinds PAYMENT_PAYEES declares, each with the payee it declares', () => {
    expect(Object.keys(CASES).sort()).toEqual([...PAYMENT_KIND_NAMES].sort());
    for (const kind of PAYMENT_KIND_NAMES) expect({ kind, payee: caseOf(kind).payee }).toEqual({ kind, payee: PAYMENT_PAYEES[kind] });
    // a parent's payment is the school's whatever its kind: every kind a parent pays here is the school's
    for (const kind of PAYMENT_KIND_NAMES) if (caseOf(kind).payer === 'parent') expect(caseOf(kind).payee).toBe('school');
  });
});

describe('the receiving account and the refund source, per kind', () => {
  it.each(PAYMENT_KIND_NAMES)('%s: paid to its merchant (that balance grows by the amount, the other not); refunded from it', async (kind) => {
    const c = caseOf(kind);
    const mine = subOf(c.payee);
    const other = otherOf(c.payee);
    const id = await c.object();
    const first = await start(c, id);
    // the object-paying kinds: a second order for the same object, opened before the first is paid (the surplus)
    const second = c.refund === 'surplus' ? await start(c, id) : null;
    expect(await paymentRow(first.no)).toMatchObject({ kind, state: 'pending', payee: c.payee, sub_mchid: mine, amount_fen: first.amount });
    expect(await sandboxOrder(first.no)).toMatchObject({ sp_mchid: keys.mchid, sub_mchid: mine, state: 'NOTPAY', amount_fen: first.amount });

    const b0 = await balances(mine, other);
    await simulate(first.no);
    expect(await paymentRow(first.no)).toMatchObject({ state: 'paid', payee: c.payee, sub_mchid: mine });
    expect(await sandboxOrder(first.no)).toMatchObject({ sub_mchid: mine, state: 'SUCCESS' });
    expect(await c.settledBy(first.no)).toBe(1);
    const b1 = await balances(mine, other);
    expect(b1).toEqual({ [mine]: b0[mine] + first.amount, [other]: b0[other] });

    if (c.refund === 'operator') {
      const res = await t
        .post('/api/index/refundSchoolPayment', operator)
        .send({ school_id: schoolId, out_trade_no: first.no, reason: '退回测试', request_id: rid() });
      expect(res.body).toMatchObject({ code: Code.Ok, data: { state: 'succeeded', amount_fen: first.amount, payment_state: 'refunded' } });
      await t.app.get(WechatPaySandbox).settled();
      expect(await balances(mine, other)).toEqual({ [mine]: b1[mine] - first.amount, [other]: b0[other] });
      expect(await refundsOf(first.no)).toEqual([
        { state: 'succeeded', request_key: expect.any(String), amount_fen: first.amount, sandbox_sub_mchid: mine },
      ]);
    } else {
      // the second payment pays nothing (the object is paid): it goes back in full, from the merchant that received it
      await simulate(second!.no);
      expect(second!.amount).toBe(first.amount);
      expect(await paymentRow(second!.no)).toMatchObject({ state: 'refunded', payee: c.payee, sub_mchid: mine, refunded_fen: second!.amount });
      expect(await refundsOf(second!.no)).toEqual([
        { state: 'succeeded', request_key: 'surplus', amount_fen: second!.amount, sandbox_sub_mchid: mine },
      ]);
      expect(await sandboxOrder(second!.no)).toMatchObject({ sub_mchid: mine, state: 'REFUND', refunded_fen: second!.amount });
      // credited by the second payment and debited by its refund: where it was after the first; the other never moved
      expect(await balances(mine, other)).toEqual({ [mine]: b1[mine], [other]: b0[other] });
      expect(await c.settledBy(second!.no)).toBe(0);
      expect(await paymentRow(first.no)).toMatchObject({ state: 'paid', refunded_fen: 0 });
    }
  });

  it('no payment a parent made was ever received by the platform’s own merchant', async () => {
    const { rows } = await t.sql.query(
      `select kind, payee, sub_mchid, count(*)::int as n from payments where method = 'wechat' and kind = any($1::text[]) group by 1, 2, 3 order by 1`,
      [PAYMENT_KIND_NAMES.filter((k) => PAYMENT_PAYEES[k] === 'school')],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r).toMatchObject({ payee: 'school', sub_mchid: DEMO });
  });
});

describe('the notify checks, per kind', () => {
  it.each(PAYMENT_KIND_NAMES)(
    '%s: a notify naming another merchant is 400, a forged one 401, both credit nothing; the genuine one replayed credits once',
    async (kind) => {
      const c = caseOf(kind);
      const mine = subOf(c.payee);
      const other = otherOf(c.payee);
      const p = await start(c, await c.object());
      const w0 = await world();

      // signed and encrypted as WeChat would, but the money said to have reached the other merchant
      const elsewhere = await sendNotify(transactionNotify(await paidResource(p.no, { sub_mchid: other })));
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.body).toMatchObject({ code: 'FAIL', message: expect.stringContaining('another merchant') });
      // signed with another key (the merchant's own): forged
      const forged = await sendNotify(transactionNotify(await paidResource(p.no), { platformKey: keys.privateKey }));
      expect(forged.status).toBe(401);
      await t.app.get(PaymentKinds).settled();
      expect(await world()).toEqual(w0);
      expect(await paymentRow(p.no)).toMatchObject({ state: 'pending', sub_mchid: mine });
      expect(await c.settledBy(p.no)).toBe(0);

      // paid for real: the sandbox's own notify
      await simulate(p.no);
      const w1 = await world();
      expect(w1.sandbox_balances).toEqual({ ...w0.sandbox_balances, [mine]: w0.sandbox_balances[mine] + p.amount });
      expect(await c.settledBy(p.no)).toBe(1);
      // the genuine notify again, three times, and the sandbox resending its own: acknowledged, nothing credited twice
      const genuine = transactionNotify(await paidResource(p.no));
      for (let i = 0; i < 3; i++) expect((await sendNotify(genuine)).status).toBe(204);
      expect((await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: p.no })).body.data.notify_status).toBe(204);
      // and the other merchant's again, after it is paid: still refused
      expect((await sendNotify(transactionNotify(await paidResource(p.no, { sub_mchid: other })))).status).toBe(400);
      await t.app.get(PaymentKinds).settled();
      expect(await world()).toEqual(w1);
      expect(await c.settledBy(p.no)).toBe(1);
      expect(await paymentRow(p.no)).toMatchObject({ state: 'paid', sub_mchid: mine });
    },
  );
});

describe('a school without a sub-merchant takes no parent’s payment online', () => {
  afterAll(async () => {
    // the demo school's own again, whatever a failed test left
    const now = await merchantState();
    if (now.current?.sub_mchid !== DEMO) await setMerchant(DEMO);
  });

  it('withdrawn: contracts and dinners are refused with the desk message and write no payment; the platform’s kinds still work; recorded again, they work', async () => {
    const contract = await CASES.contract.object();
    const dinner = await CASES.meal.object();
    expect((await t.get('/api/index/parentPayOptions', parent)).body).toMatchObject({ code: Code.Ok, data: { online: true } });

    const withdrawn = await setMerchant(null);
    expect(withdrawn).toMatchObject({ state: 'none', current: null });
    const before = await paymentCount();
    for (const res of [await CASES.contract.pay(contract), await CASES.meal.pay(dinner)]) {
      expect(res.body).toMatchObject({ code: Code.Error, msg: msg('payments.school_no_merchant') });
    }
    expect(await paymentCount()).toBe(before);
    expect((await t.get('/api/index/parentPayOptions', parent)).body).toMatchObject({
      code: Code.Ok,
      data: { online: false, school_name: expect.any(String) },
    });
    // the platform's kinds do not depend on the school's merchant
    const top = await start(CASES.top_up, null);
    expect(await paymentRow(top.no)).toMatchObject({ payee: 'platform', sub_mchid: PLATFORM });
    await simulate(top.no);
    expect(await CASES.top_up.settledBy(top.no)).toBe(1);

    await setMerchant(DEMO);
    expect((await t.get('/api/index/parentPayOptions', parent)).body.data).toMatchObject({ online: true });
    for (const c of [CASES.contract, CASES.meal]) {
      const p = await start(c, c === CASES.contract ? contract : dinner);
      expect(await paymentRow(p.no)).toMatchObject({ payee: 'school', sub_mchid: DEMO, state: 'pending' });
    }
  });

  it('recorded but not onboarded at WeChat: the order is refused (merchant_unavailable) and its payment row closed', async () => {
    const unbound = '1900000777';
    await setMerchant(unbound);
    for (const c of [CASES.contract, CASES.meal]) {
      const id = await c.object();
      const before = await paymentCount();
      const res = await c.pay(id);
      expect(res.body).toMatchObject({ code: Code.Error, msg: msg('payments.merchant_unavailable') });
      expect(await paymentCount()).toBe(before + 1);
      const { rows } = await t.sql.query(`select state, closed_at, payee, sub_mchid from payments order by id desc limit 1`);
      expect(rows[0]).toMatchObject({ state: 'closed', closed_at: expect.any(Date), payee: 'school', sub_mchid: unbound });
    }
    // the platform's kinds are unaffected
    const top = await start(CASES.top_up, null);
    expect(await paymentRow(top.no)).toMatchObject({ state: 'pending', sub_mchid: PLATFORM });
    await setMerchant(DEMO);
  });
});

describe('a payment keeps the merchant it was made with', () => {
  const NEW = '1900000401';
  afterAll(async () => {
    const now = await merchantState();
    if (now.current?.sub_mchid !== DEMO) await setMerchant(DEMO);
  });

  it('an order opened before the school’s merchant changed is credited to the old one, and refunded from it; a new order goes to the new one', async () => {
    await onboard(NEW, '阳光晚托中心（新商户号）');
    const oldId = await CASES.contract.object();
    const old = await start(CASES.contract, oldId);
    expect(await paymentRow(old.no)).toMatchObject({ sub_mchid: DEMO });

    await setMerchant(NEW);
    const b0 = await balances(DEMO, NEW, PLATFORM);
    await simulate(old.no);
    expect(await paymentRow(old.no)).toMatchObject({ state: 'paid', payee: 'school', sub_mchid: DEMO });
    expect(await sandboxOrder(old.no)).toMatchObject({ sub_mchid: DEMO, state: 'SUCCESS' });
    expect(await balances(DEMO, NEW, PLATFORM)).toEqual({ ...b0, [DEMO]: b0[DEMO] + old.amount });
    expect(await CASES.contract.settledBy(old.no)).toBe(1);

    const fresh = await start(CASES.contract, await CASES.contract.object());
    expect(await paymentRow(fresh.no)).toMatchObject({ payee: 'school', sub_mchid: NEW });
    expect(await sandboxOrder(fresh.no)).toMatchObject({ sub_mchid: NEW });
    await simulate(fresh.no);
    const b1 = await balances(DEMO, NEW, PLATFORM);
    expect(b1).toEqual({ ...b0, [DEMO]: b0[DEMO] + old.amount, [NEW]: b0[NEW] + fresh.amount });

    // cancelling the old contract refunds through the merchant that received it, not the school's current one
    const paid = (await t.get(`/api/index/contractInfo?id=${oldId}`, admin)).body.data as ContractDetail;
    const preview = (await t.get(`/api/index/contractRefundPreview?id=${oldId}`, admin)).body.data;
    expect(preview).toMatchObject({ via: 'wechat', refund_fen: old.amount });
    const cancel = await t
      .post('/api/index/cancellationContract', admin)
      .send({ id: oldId, version: paid.version, reason: '家长退费', refund_fen: preview.refund_fen, request_id: rid() });
    expect(cancel.body).toMatchObject({ code: Code.Ok, data: { status: 'cancelled', refunded_fen: old.amount } });
    await t.app.get(WechatPaySandbox).settled();
    expect(await refundsOf(old.no)).toEqual([
      { state: 'succeeded', request_key: expect.any(String), amount_fen: old.amount, sandbox_sub_mchid: DEMO },
    ]);
    expect(await balances(DEMO, NEW, PLATFORM)).toEqual({ ...b1, [DEMO]: b1[DEMO] - old.amount });
  });
});

describe('schoolSubMerchant / setSchoolSubMerchant / parentPayOptions', () => {
  let other: { schoolId: number; adminToken: string };
  beforeAll(async () => {
    other = await t.otherSchool();
  });
  /** what the merchant actions write */
  const records = async () =>
    (
      await t.sql.query(
        `select count(*)::int as n, count(ended_at)::int as ended, string_agg(sub_mchid || ':' || coalesce(ended_at::text, '-'), ',' order by id) as rows
           from school_sub_merchants`,
      )
    ).rows[0];

  it('the happy path: the operator reads any school’s, the admin their own, the parent whether to pay online', async () => {
    const op = await t.get(`/api/index/schoolSubMerchant?school_id=${schoolId}`, operator);
    expect(op.body).toMatchObject({
      code: Code.Ok,
      data: { school_id: schoolId, state: 'active', current: { sub_mchid: DEMO, ended_at: null, recorded_at: expect.any(String) } },
    });
    expect(op.body.data.history[0]).toEqual(op.body.data.current);
    const own = await t.get('/api/index/schoolSubMerchant', admin);
    expect(own.body).toMatchObject({ code: Code.Ok, data: { school_id: schoolId, current: { sub_mchid: DEMO } } });
    const pay = await t.get('/api/index/parentPayOptions', parent);
    expect(pay.body).toMatchObject({ code: Code.Ok, data: { online: true, school_name: expect.any(String) } });
    expect((await t.get(`/api/index/schoolSubMerchant?school_id=${other.schoolId}`, operator)).body.data).toEqual({
      school_id: other.schoolId,
      state: 'none',
      current: null,
      history: [],
    });
  });

  it('bad input is code 100 and writes nothing', async () => {
    const before = await records();
    const now = await merchantState();
    const set = (over: Record<string, unknown>) =>
      t
        .post('/api/index/setSchoolSubMerchant', operator)
        .send({ school_id: schoolId, sub_mchid: '1900000402', note: '进件', expected_id: now.current!.id, ...over });
    expect((await set({ sub_mchid: 'abcdefgh' })).body).toMatchObject({ code: Code.Error, msg: msg('school.v.sub_mchid_invalid') });
    expect((await set({ sub_appid: 'wx1' })).body).toMatchObject({ code: Code.Error, msg: msg('school.v.sub_appid_invalid') });
    for (const over of [
      { sub_mchid: '1234567' },
      { sub_mchid: '1234567890123' },
      { sub_mchid: 1900000401 },
      { sub_appid: 'not-an-appid' },
      { school_id: 'x' },
      { expected_id: 'x' },
      { note: 'x'.repeat(201) },
      { extra: 1 },
    ]) {
      expect({ over, code: (await set(over)).body.code }).toEqual({ over, code: Code.Error });
    }
    const { expected_id: _e, ...withoutExpected } = { school_id: schoolId, sub_mchid: '1900000402', expected_id: 1 };
    expect((await t.post('/api/index/setSchoolSubMerchant', operator).send(withoutExpected)).body.code).toBe(Code.Error);
    expect((await t.get('/api/index/schoolSubMerchant?school_id=abc', operator)).body.code).toBe(Code.Error);
    // the operator must name the school
    expect((await t.get('/api/index/schoolSubMerchant', operator)).body.code).toBe(Code.Error);
    expect(await records()).toEqual(before);
  });

  it('other roles are refused; the admin reads their own school whatever school_id says; an unknown school is not found', async () => {
    const before = await records();
    const now = await merchantState();
    const body = { school_id: schoolId, sub_mchid: '1900000403', note: '进件', expected_id: now.current!.id };
    expect((await t.get(`/api/index/schoolSubMerchant?school_id=${schoolId}`, teacher)).body).toMatchObject(DENIED);
    expect((await t.get(`/api/index/schoolSubMerchant?school_id=${schoolId}`, parent)).body).toMatchObject(DENIED);
    for (const token of [admin, teacher, parent])
      expect((await t.post('/api/index/setSchoolSubMerchant', token).send(body)).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/setSchoolSubMerchant', other.adminToken).send({ ...body, school_id: other.schoolId })).body).toMatchObject(
      DENIED,
    );
    for (const token of [teacher, admin, operator]) expect((await t.get('/api/index/parentPayOptions', token)).body).toMatchObject(DENIED);
    expect((await t.get('/api/index/schoolSubMerchant')).body.code).toBe(Code.Untoken);

    // the admin asking about another school is answered with their own
    const mine = await t.get(`/api/index/schoolSubMerchant?school_id=${other.schoolId}`, admin);
    expect(mine.body).toMatchObject({ code: Code.Ok, data: { school_id: schoolId, current: { sub_mchid: DEMO } } });
    const theirs = await t.get(`/api/index/schoolSubMerchant?school_id=${schoolId}`, other.adminToken);
    expect(theirs.body).toMatchObject({ code: Code.Ok, data: { school_id: other.schoolId, state: 'none', current: null } });

    const unknown = await t.post('/api/index/setSchoolSubMerchant', operator).send({ ...body, school_id: 2_000_000, expected_id: null });
    expect(unknown.body).toMatchObject({ code: Code.Error, msg: msg('school.not_found') });
    expect((await t.get('/api/index/schoolSubMerchant?school_id=2000000', operator)).body).toMatchObject({
      code: Code.Error,
      msg: msg('school.not_found'),
    });
    expect(await records()).toEqual(before);
  });

  it('refuses a stale record, the same number, another school’s current number and the platform’s own; writes nothing', async () => {
    const taken = '1900000501';
    const recorded = await setMerchant(taken, other.schoolId);
    expect(recorded).toMatchObject({ state: 'active', current: { sub_mchid: taken } });
    const before = await records();
    const now = await merchantState();
    const set = (over: Record<string, unknown>) =>
      t.post('/api/index/setSchoolSubMerchant', operator).send({ school_id: schoolId, note: '变更', expected_id: now.current!.id, ...over });

    expect((await set({ sub_mchid: '1900000502', expected_id: now.current!.id + 1000 })).body).toMatchObject({
      code: Code.Error,
      msg: msg('payments.sub_merchant_changed'),
    });
    expect((await set({ sub_mchid: '1900000502', expected_id: null })).body).toMatchObject({
      code: Code.Error,
      msg: msg('payments.sub_merchant_changed'),
    });
    expect((await set({ sub_mchid: DEMO })).body).toMatchObject({ code: Code.Error, msg: msg('payments.sub_merchant_same') });
    expect((await set({ sub_mchid: ` ${DEMO} ` })).body).toMatchObject({ code: Code.Error, msg: msg('payments.sub_merchant_same') });
    expect((await set({ sub_mchid: taken })).body).toMatchObject({ code: Code.Error, msg: msg('payments.sub_merchant_taken') });
    expect((await set({ sub_mchid: PLATFORM })).body).toMatchObject({ code: Code.Error, msg: msg('payments.sub_merchant_platform') });
    expect(
      (
        await t
          .post('/api/index/setSchoolSubMerchant', operator)
          .send({ school_id: other.schoolId, sub_mchid: PLATFORM, note: 'x', expected_id: recorded.current!.id })
      ).body,
    ).toMatchObject({ code: Code.Error, msg: msg('payments.sub_merchant_platform') });
    // withdrawing a school that has none: nothing to change
    const third = await t.otherSchool();
    expect(
      (await t.post('/api/index/setSchoolSubMerchant', operator).send({ school_id: third.schoolId, sub_mchid: null, note: 'x', expected_id: null }))
        .body,
    ).toMatchObject({ code: Code.Error, msg: msg('payments.sub_merchant_same') });
    expect(await records()).toEqual(before);
    expect(await merchantState()).toEqual(now);
  });

  it('two operators changing from the same record at once: one change, the other told it changed', async () => {
    const school = (await t.otherSchool()).schoolId;
    const first = await setMerchant('1900000601', school);
    const before = await records();
    const answers = await Promise.all(
      ['1900000602', '1900000603'].map((sub_mchid) =>
        t.post('/api/index/setSchoolSubMerchant', operator).send({ school_id: school, sub_mchid, note: '并发', expected_id: first.current!.id }),
      ),
    );
    expect(answers.map((a) => a.body.code).sort()).toEqual([Code.Error, Code.Ok].sort());
    const refused = answers.find((a) => a.body.code === Code.Error)!;
    expect(refused.body.msg).toBe(msg('payments.sub_merchant_changed'));
    const won = answers.find((a) => a.body.code === Code.Ok)!.body.data as SchoolSubMerchant;
    expect(await records()).toMatchObject({ n: before.n + 1, ended: before.ended + 1 });
    expect(await merchantState(school)).toEqual(won);
  });

  it('keeps the history: a change ends the record and adds one; withdrawn, none is current and both are kept', async () => {
    const school = (await t.otherSchool()).schoolId;
    const a = await setMerchant('1900000701', school);
    // the same number with the school's own official account is a change
    const b = await setMerchant('1900000701', school, { sub_appid: 'wxabcdef1234567890' });
    expect(b.current).toMatchObject({
      sub_mchid: '1900000701',
      sub_appid: 'wxabcdef1234567890',
      ended_at: null,
      note: '进件完成',
      recorded_by_name: expect.any(String),
    });
    expect(b.history).toEqual([b.current, { ...a.current, ended_at: expect.any(String) }]);
    expect(Date.parse(b.history[1].ended_at!)).toBeGreaterThanOrEqual(Date.parse(a.current!.recorded_at));
    const c = await setMerchant('1900000702', school);
    expect(c.history.map((r) => [r.sub_mchid, r.sub_appid, r.ended_at === null])).toEqual([
      ['1900000702', null, true],
      ['1900000701', 'wxabcdef1234567890', false],
      ['1900000701', null, false],
    ]);
    const { rows } = await t.sql.query(
      `select sub_mchid, ended_at is not null as ended, ended_by from school_sub_merchants where school_id = $1 order by id`,
      [school],
    );
    expect(rows).toEqual([
      { sub_mchid: '1900000701', ended: true, ended_by: t.demo.users.operator },
      { sub_mchid: '1900000701', ended: true, ended_by: t.demo.users.operator },
      { sub_mchid: '1900000702', ended: false, ended_by: null },
    ]);
    const none = await setMerchant(null, school);
    expect(none).toMatchObject({ state: 'none', current: null });
    expect(none.history.map((r) => [r.sub_mchid, r.ended_at !== null])).toEqual([
      ['1900000702', true],
      ['1900000701', true],
      ['1900000701', true],
    ]);
    // a number its school no longer holds is free for another
    const again = await setMerchant('1900000701', (await t.otherSchool()).schoolId);
    expect(again.current).toMatchObject({ sub_mchid: '1900000701' });
  });
});
