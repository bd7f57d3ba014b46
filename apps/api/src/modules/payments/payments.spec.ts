import { Code, DEFAULT_PRICE_FEN, instantOf, localDateTime } from '@wantuo/shared';
import { createHash, randomBytes } from 'node:crypto';
import { eventually, snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { signedNotify, type NotifyForgery } from '../../../test/wechatpay-notify';
import { WechatPaySandbox } from '../../sandboxes/wechatpay-sandbox/wechatpay-sandbox.service';
import { PaymentsService } from './payments.service';
import { PaymentProvider } from './provider';
import { RefundsService } from './refunds.service';
import { SANDBOX_PLATFORM_SUB_MCHID, type SandboxKeys } from './wechatpay/credentials';
import { SANDBOX_KEYS } from './wechatpay/wechatpay.tokens';

let t: TestApp;
let admin: string;
let schoolId: number;
let sandbox: WechatPaySandbox;
let keys: SandboxKeys;
beforeAll(async () => {
  t = await startTestApp({ runJobs: true, redis: false, listen: true });
  admin = await t.login('admin');
  schoolId = t.demo.schoolId;
  sandbox = t.app.get(WechatPaySandbox);
  keys = t.app.get(SANDBOX_KEYS);
});
afterAll(() => t.close());

async function money() {
  const { rows } = await t.sql.query(
    `select s.balance_fen::float8 as balance, coalesce(sum(e.amount_fen), 0)::float8 as ledger, count(e.id)::int as entries
       from schools s left join ledger_entries e on e.school_id = s.id where s.id = $1 group by s.id`,
    [schoolId],
  );
  return rows[0] as { balance: number; ledger: number; entries: number };
}

const recharge = async (amount_fen: number) => {
  const res = await t.post('/api/index/recharge', admin).send({ amount_fen });
  expect(res.body).toMatchObject({
    code: Code.Ok,
    data: { out_trade_no: expect.stringMatching(/^T\d{14}[A-Z2-9]{12}$/), code_url: expect.stringMatching(/^weixin:\/\//), amount_fen },
  });
  return res.body.data as { out_trade_no: string; code_url: string; expires_at: string };
};

/** A notify as the platform would send it, signed and encrypted with the given keys (the sandbox's unless told). */
function notify(resource: object, o: NotifyForgery = {}) {
  return signedNotify(keys, 'TRANSACTION.SUCCESS', 'transaction', resource, o);
}

// a partner notify's resource (issue 36): the service provider and the sub-merchant that received it (a top-up: the platform's own)
const paid = (out_trade_no: string, total: number) => ({
  sp_mchid: keys.mchid,
  sp_appid: keys.appid,
  sub_mchid: SANDBOX_PLATFORM_SUB_MCHID,
  out_trade_no,
  transaction_id: `4200${Date.now()}`,
  trade_state: 'SUCCESS',
  success_time: new Date().toISOString(),
  amount: { total, payer_total: total, currency: 'CNY' },
});

/** The merchant a payment was made with (issue 36: kept per payment). */
const merchantOf = async (outTradeNo: string) => ({
  subMchid: (await t.sql.query(`select sub_mchid from payments where out_trade_no = $1`, [outTradeNo])).rows[0].sub_mchid as string | null,
});
const sendNotify = (n: { body: string; headers: Record<string, string> }) => t.post('/api/pay/wechat/notify').set(n.headers).send(n.body);

describe('recharge by WeChat Pay through the sandbox', () => {
  it('creates a pending payment at the provider; the sandbox’s paid notify credits the wallet once', async () => {
    const before = await money();
    const p = await recharge(12345);
    expect((await t.get(`/api/index/paymentState?out_trade_no=${p.out_trade_no}`, admin)).body.data).toMatchObject({
      state: 'pending',
      amount_fen: 12345,
    });
    expect(await sandbox.orderOf(p.out_trade_no)).toMatchObject({ amount_fen: 12345, state: 'NOTPAY', mchid: keys.mchid });

    const sim = await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: p.out_trade_no });
    expect(sim.body).toMatchObject({ code: Code.Ok, data: { trade_state: 'SUCCESS', notify_status: 204 } });
    const state = await t.get(`/api/index/paymentState?out_trade_no=${p.out_trade_no}`, admin);
    expect(state.body.data).toMatchObject({ state: 'paid', paid_at: expect.any(String) });
    expect(await money()).toMatchObject({ balance: before.balance + 12345, entries: before.entries + 1 });
    const log = await t.get('/api/index/consumeLog?type=top_up', admin);
    expect(log.body.data.list[0]).toMatchObject({
      type: 'top_up',
      amount_fen: 12345,
      ref_id: p.out_trade_no,
      balance_after_fen: before.balance + 12345,
    });

    // the sandbox resends the notify: answered, nothing credited again
    const again = await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: p.out_trade_no });
    expect(again.body.data.notify_status).toBe(204);
    expect(await money()).toMatchObject({ balance: before.balance + 12345, entries: before.entries + 1 });
  });

  it('the same notify sent 20 times, concurrently: one credit', async () => {
    const p = await recharge(500);
    const before = await money();
    const n = notify(paid(p.out_trade_no, 500));
    const answers = await Promise.all(Array.from({ length: 20 }, () => sendNotify(n)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(204));
    expect(await money()).toMatchObject({ balance: before.balance + 500, entries: before.entries + 1 });
  });

  it.each([
    ['a bad signature', (no: string) => notify(paid(no, 700), { platformKey: keys.privateKey /* the merchant's key, not the platform's */ }), 401],
    ['a stale timestamp', (no: string) => notify(paid(no, 700), { timestamp: Math.floor(Date.now() / 1000) - 301 }), 401],
    ['an unknown key id', (no: string) => notify(paid(no, 700), { serial: 'PUB_KEY_ID_OTHER' }), 401],
    ['an unknown order', () => notify(paid('T20261123000000UNKNOWN12345', 700)), 404],
    ['an amount that differs from the order', (no: string) => notify(paid(no, 70000)), 400],
    ['money received by another sub-merchant', (no: string) => notify({ ...paid(no, 700), sub_mchid: '1900000999' }), 400],
    ['a partner notify of another service provider', (no: string) => notify({ ...paid(no, 700), sp_mchid: '1900000888' }), 400],
    ['a resource that does not decrypt', (no: string) => notify(paid(no, 700), { apiV3Key: 'x'.repeat(32) }), 400],
  ])('a forged notify (%s) is refused and credits nothing', async (_, make, status) => {
    const p = await recharge(700);
    const before = await snapshot(t.sql);
    const m = await money();
    const res = await sendNotify(make(p.out_trade_no));
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code: 'FAIL', message: expect.any(String) });
    expect(await money()).toEqual(m);
    expect(await snapshot(t.sql)).toEqual(before);
    const { rows } = await t.sql.query(`select state from payments where out_trade_no = $1`, [p.out_trade_no]);
    expect(rows[0].state).toBe('pending');
  });

  it('a body changed after signing is refused', async () => {
    const p = await recharge(800);
    const n = notify(paid(p.out_trade_no, 800));
    const res = await sendNotify({ ...n, body: n.body.replace('"event_type"', '"event_type" ') });
    expect(res.status).toBe(401);
  });

  it('a failed payment (the payer gave up) stays pending; the check job closes it at the provider after its time', async () => {
    const p = await recharge(900);
    expect((await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: p.out_trade_no, result: 'FAIL' })).body.data).toMatchObject({
      trade_state: 'PAYERROR',
      notify_status: null,
    });
    const payments = t.app.get(PaymentsService);
    expect(await payments.reconcile(p.out_trade_no)).toBe(true);
    await t.sql.query(`update payments set expires_at = now() - interval '1 second' where out_trade_no = $1`, [p.out_trade_no]);
    await payments.check(p.out_trade_no);
    expect((await t.get(`/api/index/paymentState?out_trade_no=${p.out_trade_no}`, admin)).body.data.state).toBe('closed');
    expect((await sandbox.orderOf(p.out_trade_no))!.state).toBe('CLOSED');
  });

  it('a lost notify: polling asks the provider and ends in one credit', async () => {
    const p = await recharge(1000);
    const before = await money();
    // paid at the sandbox, but its notify goes nowhere
    await t.sql.query(`update wechatpay_sandbox_orders set notify_url = 'http://127.0.0.1:9/nowhere' where out_trade_no = $1`, [p.out_trade_no]);
    expect((await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: p.out_trade_no })).body.data.notify_status).toBeNull();
    const states = await Promise.all([1, 2, 3].map(() => t.get(`/api/index/paymentState?out_trade_no=${p.out_trade_no}`, admin)));
    expect(states.every((s) => s.body.data.state === 'paid')).toBe(true);
    expect(await money()).toMatchObject({ balance: before.balance + 1000, entries: before.entries + 1 });
  });

  it('refuses bad amounts, other roles, and another school’s payment', async () => {
    const before = await snapshot(t.sql);
    for (const amount_fen of [0, 99, 50_000_001, 12.5, '100', null]) {
      expect((await t.post('/api/index/recharge', admin).send({ amount_fen })).body.code).toBe(Code.Error);
    }
    expect((await t.post('/api/index/recharge', await t.login('teacher')).send({ amount_fen: 1000 })).body.code).toBe(Code.Error);
    expect(await snapshot(t.sql)).toMatchObject({ ...before, user_tokens: expect.any(Number), user_activity: expect.any(Number) });
    const p = await recharge(1100);
    const other = await t.otherSchool();
    expect((await t.get(`/api/index/paymentState?out_trade_no=${p.out_trade_no}`, other.adminToken)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该支付订单',
    });
  });

  it('the sandbox refuses a request not signed by the merchant', async () => {
    const res = await t
      .post('/api/dev/wechatpay/v3/pay/transactions/native')
      .set('authorization', 'WECHATPAY2-SHA256-RSA2048 mchid="1900000109",serial_no="X",timestamp="1",nonce_str="x",signature="x"')
      .send('{}');
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toMatchObject({ code: 'SIGN_ERROR' });
  });
});

describe('renewal by WeChat Pay', () => {
  it('the paid renewal extends the service from the later of now and the expiry, once', async () => {
    const expires = new Date(Date.now() + 10 * 86_400_000);
    await t.sql.query(`update schools set service_expires_at = $2 where id = $1`, [schoolId, expires]);
    const res = await t.post('/api/index/wechatPaySchool', admin).send({ period: 'term' });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { amount_fen: DEFAULT_PRICE_FEN.term, out_trade_no: expect.stringMatching(/^R/) } });
    const before = await money();
    await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: res.body.data.out_trade_no });
    await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: res.body.data.out_trade_no });
    const info = await eventually(async () => {
      const i = (await t.get('/api/index/schoolInfo', admin)).body.data;
      return new Date(i.service_expires_at).getTime() > expires.getTime() ? i : null;
    });
    const until = new Date(info.service_expires_at);
    expect(until.getUTCMonth()).toBe((expires.getUTCMonth() + 6) % 12);
    // a provider payment does not touch the balance
    expect(await money()).toEqual(before);
    expect((await t.post('/api/index/wechatPaySchool', admin).send({ period: 'decade' })).body.code).toBe(Code.Error);
  });

  it('counts the months on the school’s calendar: an expiry at 00:30 Beijing time on 31 August runs to the end of February', async () => {
    const year = new Date().getUTCFullYear() + 1;
    const expires = instantOf(`${year}-08-31`, '00:30', 'Asia/Shanghai'); // still 30 August in UTC
    await t.sql.query(`update schools set service_expires_at = $2, timezone = 'Asia/Shanghai' where id = $1`, [schoolId, expires]);
    const res = await t.post('/api/index/wechatPaySchool', admin).send({ period: 'term' });
    await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: res.body.data.out_trade_no });
    const info = await eventually(async () => {
      const i = (await t.get('/api/index/schoolInfo', admin)).body.data;
      return new Date(i.service_expires_at).getTime() > expires.getTime() ? i : null;
    });
    const febEnd = new Date(Date.UTC(year + 1, 2, 0)).getUTCDate();
    expect(localDateTime(info.service_expires_at, 'Asia/Shanghai')).toBe(`${year + 1}-02-${febEnd} 00:30`);
  });
});

it('the sandbox keys are made once, outside the repository', () => {
  expect(keys.privateKey).toMatch(/BEGIN PRIVATE KEY/);
  expect(createHash('sha256').update(keys.apiV3Key).digest('hex')).toHaveLength(64);
  expect(keys.apiV3Key).toHaveLength(32);
});

describe('refund notifies (REFUND.SUCCESS / ABNORMAL / CLOSED, issue 21)', () => {
  let operator: string;
  beforeAll(async () => {
    operator = await t.login('operator');
  });
  afterEach(async () => {
    await t.post('/api/dev/wechatpay/holdRefunds').send({ hold: false });
    await sandbox.settled();
  });

  /** A top-up paid through the sandbox and refunded by the operator while the sandbox holds refunds: PROCESSING. */
  async function processingRefund(amount_fen: number) {
    const p = await recharge(amount_fen);
    await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: p.out_trade_no });
    expect((await t.post('/api/dev/wechatpay/holdRefunds').send({ hold: true })).body.data).toEqual({ hold: true });
    const res = await t
      .post('/api/index/refundSchoolPayment', operator)
      .send({ school_id: schoolId, out_trade_no: p.out_trade_no, reason: '测试退款', request_id: `n-${randomBytes(6).toString('hex')}` });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { state: 'processing', refunded_fen: amount_fen } });
    return { outTradeNo: p.out_trade_no, outRefundNo: res.body.data.out_refund_no as string };
  }
  const refundRow = async (outRefundNo: string) =>
    (
      await t.sql.query(
        `select r.state, r.provider_refund_id is not null as has_id, r.meta->>'abnormal' as abnormal, p.state as payment_state, p.refunded_fen::float8 as refunded
         from payment_refunds r join payments p on p.id = r.payment_id where r.out_refund_no = $1`,
        [outRefundNo],
      )
    ).rows[0];
  /** a REFUND.* notify as the platform would send it, signed and encrypted with the given keys (the sandbox's unless told) */
  function refundNotify(
    r: { outTradeNo: string; outRefundNo: string; status: string; refund: number; event?: string; subMchid?: string },
    o: { platformKey?: string; apiV3Key?: string } = {},
  ) {
    const resource = {
      sp_mchid: keys.mchid,
      sub_mchid: r.subMchid ?? SANDBOX_PLATFORM_SUB_MCHID,
      out_trade_no: r.outTradeNo,
      out_refund_no: r.outRefundNo,
      refund_id: `5030${Date.now()}`,
      refund_status: r.status,
      amount: { total: r.refund, refund: r.refund },
    };
    return signedNotify(keys, r.event ?? `REFUND.${r.status}`, 'refund', resource, o);
  }

  it('the sandbox’s signed REFUND.SUCCESS is accepted (204) and marks the refund succeeded; repeated, it changes nothing', async () => {
    const r = await processingRefund(1_500);
    expect(await refundRow(r.outRefundNo)).toMatchObject({ state: 'processing', payment_state: 'refunded', refunded: 1_500 });
    const fin = await t.post('/api/dev/wechatpay/finishRefund').send({ out_refund_no: r.outRefundNo, result: 'SUCCESS' });
    expect(fin.body).toMatchObject({ code: Code.Ok, data: { refund_status: 'SUCCESS', notify_status: 204 } });
    expect(await refundRow(r.outRefundNo)).toMatchObject({ state: 'succeeded', has_id: true, payment_state: 'refunded', refunded: 1_500 });
    const before = await snapshot(t.sql);
    const m = await money();
    for (let i = 0; i < 3; i++)
      expect(
        (await t.post('/api/dev/wechatpay/finishRefund').send({ out_refund_no: r.outRefundNo, result: 'SUCCESS' })).body.data.notify_status,
      ).toBe(204);
    expect(await refundRow(r.outRefundNo)).toMatchObject({ state: 'succeeded', refunded: 1_500 });
    expect(await money()).toEqual(m);
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('a refund made at once is notified too, and the notify is acknowledged', async () => {
    const p = await recharge(600);
    await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: p.out_trade_no });
    const res = await t
      .post('/api/index/refundSchoolPayment', operator)
      .send({ school_id: schoolId, out_trade_no: p.out_trade_no, reason: '测试退款', request_id: `n-${randomBytes(6).toString('hex')}` });
    expect(res.body.data).toMatchObject({ state: 'succeeded' });
    await sandbox.settled();
    expect(sandbox.delivered.filter((d) => d.outRefundNo === res.body.data.out_refund_no)).toEqual([
      { outRefundNo: res.body.data.out_refund_no, status: 204 },
    ]);
  });

  it('REFUND.CLOSED fails the refund and corrects it (the wallet gets the money back, the payment is paid again), once', async () => {
    const r = await processingRefund(1_700);
    const m = await money();
    expect((await t.post('/api/dev/wechatpay/finishRefund').send({ out_refund_no: r.outRefundNo, result: 'CLOSED' })).body.data).toMatchObject({
      refund_status: 'CLOSED',
      notify_status: 204,
    });
    expect(await refundRow(r.outRefundNo)).toMatchObject({ state: 'failed', payment_state: 'paid', refunded: 0 });
    expect(await money()).toMatchObject({ balance: m.balance + 1_700, entries: m.entries + 1 });
    expect((await t.post('/api/dev/wechatpay/finishRefund').send({ out_refund_no: r.outRefundNo, result: 'CLOSED' })).body.data.notify_status).toBe(
      204,
    );
    expect(await money()).toMatchObject({ balance: m.balance + 1_700, entries: m.entries + 1 });
    expect(await sandbox.orderOf(r.outTradeNo)).toMatchObject({ state: 'SUCCESS', refunded_fen: 0 });
  });

  it('REFUND.ABNORMAL keeps the refund processing, marked abnormal for the merchant platform, never failed', async () => {
    const r = await processingRefund(1_900);
    expect((await t.post('/api/dev/wechatpay/finishRefund').send({ out_refund_no: r.outRefundNo, result: 'ABNORMAL' })).body.data).toMatchObject({
      refund_status: 'ABNORMAL',
      notify_status: 204,
    });
    expect(await refundRow(r.outRefundNo)).toMatchObject({ state: 'processing', abnormal: 'ABNORMAL', payment_state: 'refunded', refunded: 1_900 });
  });

  it.each([
    ['a bad signature', { platformKey: 'merchant' }, {}, 401],
    ['a resource that does not decrypt', { apiV3Key: 'x'.repeat(32) }, {}, 400],
    ['a refund_status other than its event', {}, { event: 'REFUND.SUCCESS', status: 'CLOSED' }, 400],
    ['another amount', {}, { refund: 1 }, 400],
    ['another order', {}, { outTradeNo: 'T20261123000000OTHERORDER12' }, 400],
    ['an unknown refund', {}, { outRefundNo: 'FUNKNOWN0000000000000000000000000' }, 404],
    ['another sub-merchant', {}, { subMchid: '1900000999' }, 400],
  ] as const)('a forged or wrong refund notify (%s) is refused and changes nothing', async (_, keysOf, over, status) => {
    const r = await processingRefund(2_100);
    const before = await snapshot(t.sql);
    const m = await money();
    const n = refundNotify(
      { outTradeNo: r.outTradeNo, outRefundNo: r.outRefundNo, status: 'SUCCESS', refund: 2_100, ...over },
      { ...keysOf, platformKey: 'platformKey' in keysOf ? keys.privateKey : undefined },
    );
    const res = await sendNotify(n);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code: 'FAIL', message: expect.any(String) });
    expect(await refundRow(r.outRefundNo)).toMatchObject({ state: 'processing', has_id: true, payment_state: 'refunded', refunded: 2_100 });
    expect(await money()).toEqual(m);
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('an unsigned refund notify is refused (401) and changes nothing; the same notify signed is accepted', async () => {
    const r = await processingRefund(2_300);
    const n = refundNotify({ outTradeNo: r.outTradeNo, outRefundNo: r.outRefundNo, status: 'SUCCESS', refund: 2_300 });
    const res = await t.post('/api/pay/wechat/notify').set('content-type', 'application/json').send(n.body);
    expect(res.status).toBe(401);
    expect(await refundRow(r.outRefundNo)).toMatchObject({ state: 'processing' });
    expect((await sendNotify(n)).status).toBe(204);
    expect(await refundRow(r.outRefundNo)).toMatchObject({ state: 'succeeded' });
  });

  describe('the refund status query (payments.refundQuery, a lost REFUND.* notify)', () => {
    const refunds = () => t.app.get(RefundsService);
    /** the provider finishes the held refund, but its notify never arrives */
    async function finishedUnheard(outRefundNo: string, result: 'SUCCESS' | 'CLOSED' | 'ABNORMAL') {
      await t.sql.query(`update wechatpay_sandbox_refunds set notify_url = 'http://127.0.0.1:9/nowhere' where out_refund_no = $1`, [outRefundNo]);
      expect((await t.post('/api/dev/wechatpay/finishRefund').send({ out_refund_no: outRefundNo, result })).body.data).toMatchObject({
        refund_status: result,
        notify_status: null,
      });
      expect(await refundRow(outRefundNo)).toMatchObject({ state: 'processing' });
    }
    const age = (outRefundNo: string, minutes: number) =>
      t.sql.query(`update payment_refunds set created_at = created_at - make_interval(mins => $2) where out_refund_no = $1`, [outRefundNo, minutes]);
    const polls = async (outRefundNo: string) =>
      (
        await t.sql.query(
          `select (meta->>'polls')::int as polls, extract(epoch from (meta->>'next_poll_at')::timestamptz - now())::int as next_in_s from payment_refunds where out_refund_no = $1`,
          [outRefundNo],
        )
      ).rows[0] as { polls: number | null; next_in_s: number | null };

    it('the sandbox answers the query signed, in the provider’s shape; an unknown number is 404 RESOURCE_NOT_EXISTS; unsigned is 401', async () => {
      const r = await processingRefund(1_100);
      const provider = t.app.get(PaymentProvider);
      expect(await provider.queryRefund(r.outRefundNo, await merchantOf(r.outTradeNo))).toEqual({
        outTradeNo: r.outTradeNo,
        outRefundNo: r.outRefundNo,
        refundId: expect.stringMatching(/^5030/),
        status: 'PROCESSING',
        refundFen: 1_100,
        successTime: null,
      });
      expect(await provider.queryRefund('FNOSUCHREFUND000000000000000000000', { subMchid: SANDBOX_PLATFORM_SUB_MCHID })).toBeNull();
      const unsigned = await t.get(`/api/dev/wechatpay/v3/refund/domestic/refunds/${r.outRefundNo}`);
      expect(unsigned.status).toBe(401);
      expect(JSON.parse(unsigned.text)).toMatchObject({ code: 'SIGN_ERROR' });
      expect(await sandbox.queryRefund('FNOSUCHREFUND000000000000000000000')).toMatchObject({
        status: 404,
        body: expect.stringContaining('RESOURCE_NOT_EXISTS'),
      });
      // a partner order's refund is found under its sub-merchant only
      expect((await sandbox.queryRefund(r.outRefundNo)).status).toBe(404);
      const known = await sandbox.queryRefund(r.outRefundNo, SANDBOX_PLATFORM_SUB_MCHID);
      expect(JSON.parse(known.body)).toMatchObject({
        out_refund_no: r.outRefundNo,
        out_trade_no: r.outTradeNo,
        refund_id: expect.any(String),
        channel: 'ORIGINAL',
        status: 'PROCESSING',
        create_time: expect.stringMatching(/\+08:00$/),
        amount: { refund: 1_100, total: 1_100, payer_refund: 1_100, payer_total: 1_100, currency: 'CNY' },
      });
      expect(known.headers).toMatchObject({ 'Wechatpay-Signature': expect.any(String), 'Wechatpay-Serial': keys.platformKeyId });
    });

    it('a held refund whose notify is never sent ends succeeded by the poll; a second poll changes nothing', async () => {
      const r = await processingRefund(2_500);
      await finishedUnheard(r.outRefundNo, 'SUCCESS');
      // younger than 5 minutes: the notify may still come, not polled yet
      expect(await refunds().pollDue()).toEqual({ polled: 0, changed: 0 });
      await age(r.outRefundNo, 6);
      expect(await refunds().pollDue()).toEqual({ polled: 1, changed: 1 });
      expect(await refundRow(r.outRefundNo)).toMatchObject({ state: 'succeeded', has_id: true, payment_state: 'refunded', refunded: 2_500 });
      const before = await snapshot(t.sql);
      const m = await money();
      expect(await refunds().pollDue()).toEqual({ polled: 0, changed: 0 });
      expect(await refunds().poll(r.outRefundNo)).toBe(false);
      expect(await refundRow(r.outRefundNo)).toMatchObject({ state: 'succeeded', refunded: 2_500 });
      expect(await money()).toEqual(m);
      expect(await snapshot(t.sql)).toEqual(before);
    });

    it('CLOSED found by the poll fails the refund and corrects it once; the late notify changes nothing', async () => {
      const r = await processingRefund(2_700);
      const m = await money();
      await finishedUnheard(r.outRefundNo, 'CLOSED');
      await age(r.outRefundNo, 6);
      expect(await refunds().pollDue()).toEqual({ polled: 1, changed: 1 });
      expect(await refundRow(r.outRefundNo)).toMatchObject({ state: 'failed', payment_state: 'paid', refunded: 0 });
      expect(await money()).toMatchObject({ balance: m.balance + 2_700, entries: m.entries + 1 });
      expect(await refunds().pollDue()).toEqual({ polled: 0, changed: 0 });
      expect(await refunds().poll(r.outRefundNo)).toBe(false);
      // the notify arrives after all
      await t.sql.query(`update wechatpay_sandbox_refunds set notify_url = $2 where out_refund_no = $1`, [
        r.outRefundNo,
        t.app.get(PaymentProvider).notifyUrl(),
      ]);
      expect((await t.post('/api/dev/wechatpay/finishRefund').send({ out_refund_no: r.outRefundNo, result: 'CLOSED' })).body.data.notify_status).toBe(
        204,
      );
      expect(await money()).toMatchObject({ balance: m.balance + 2_700, entries: m.entries + 1 });
      expect(await refundRow(r.outRefundNo)).toMatchObject({ state: 'failed', payment_state: 'paid', refunded: 0 });
    });

    it('ABNORMAL stays processing, flagged, and is polled again later with a doubling delay', async () => {
      const r = await processingRefund(2_900);
      await finishedUnheard(r.outRefundNo, 'ABNORMAL');
      await age(r.outRefundNo, 6);
      expect(await refunds().pollDue()).toEqual({ polled: 1, changed: 1 });
      expect(await refundRow(r.outRefundNo)).toMatchObject({ state: 'processing', abnormal: 'ABNORMAL', payment_state: 'refunded', refunded: 2_900 });
      expect(await polls(r.outRefundNo)).toEqual({ polls: 1, next_in_s: expect.any(Number) });
      expect(Math.abs((await polls(r.outRefundNo)).next_in_s! - 300)).toBeLessThanOrEqual(5);
      // not due yet
      expect(await refunds().pollDue()).toEqual({ polled: 0, changed: 0 });
      await t.sql.query(`update payment_refunds set meta = meta || '{"next_poll_at": "2000-01-01T00:00:00Z"}' where out_refund_no = $1`, [
        r.outRefundNo,
      ]);
      expect(await refunds().pollDue()).toEqual({ polled: 1, changed: 0 });
      expect(await polls(r.outRefundNo)).toEqual({ polls: 2, next_in_s: expect.any(Number) });
      expect(Math.abs((await polls(r.outRefundNo)).next_in_s! - 600)).toBeLessThanOrEqual(5);
      expect(await refundRow(r.outRefundNo)).toMatchObject({ state: 'processing', abnormal: 'ABNORMAL', refunded: 2_900 });
    });

    it('a refund left pending (the provider never received it) is asked for by the poll, with the same number, once', async () => {
      const p = await recharge(3_100);
      await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: p.out_trade_no });
      const provider = t.app.get(PaymentProvider);
      const spy = jest.spyOn(provider, 'refund').mockRejectedValueOnce(new Error('connect ECONNREFUSED'));
      const res = await t
        .post('/api/index/refundSchoolPayment', operator)
        .send({ school_id: schoolId, out_trade_no: p.out_trade_no, reason: '测试退款', request_id: `n-${randomBytes(6).toString('hex')}` });
      spy.mockRestore();
      expect(res.body).toMatchObject({ code: Code.Ok, data: { state: 'pending' } });
      const outRefundNo = res.body.data.out_refund_no as string;
      expect(await sandbox.queryRefund(outRefundNo)).toMatchObject({ status: 404 });
      await age(outRefundNo, 6);
      expect(await refunds().pollDue()).toEqual({ polled: 1, changed: 1 });
      expect(await refundRow(outRefundNo)).toMatchObject({ state: 'succeeded', payment_state: 'refunded', refunded: 3_100 });
      expect(await sandbox.orderOf(p.out_trade_no)).toMatchObject({ state: 'REFUND', refunded_fen: 3_100 });
      expect(await refunds().pollDue()).toEqual({ polled: 0, changed: 0 });
      expect(
        (await t.sql.query(`select count(*)::int as n from wechatpay_sandbox_refunds where out_trade_no = $1`, [p.out_trade_no])).rows[0].n,
      ).toBe(1);
    });
  });
});
