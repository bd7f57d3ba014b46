import { Code, DEFAULT_PRICE_FEN } from '@wantuo/shared';
import { JobRegistry } from '../../core/jobs/job-registry';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { WechatPaySandbox } from '../../sandboxes/wechatpay-sandbox/wechatpay-sandbox.service';
import { PaymentProvider } from '../payments/provider';
import { SANDBOX_PLATFORM_SUB_MCHID } from '../payments/wechatpay/credentials';

let t: TestApp;
let admin: string;
let operator: string;
let schoolId: number;
let sandbox: WechatPaySandbox;
const others: Record<string, string> = {};
beforeAll(async () => {
  t = await startTestApp({ runJobs: true, redis: false, listen: true });
  admin = await t.login('admin');
  operator = await t.login('operator');
  for (const who of ['teacher', 'adviser', 'parent'] as const) others[who] = await t.login(who);
  others.admin = admin;
  schoolId = t.demo.schoolId;
  sandbox = t.app.get(WechatPaySandbox);
});
afterAll(() => t.close());

let seq = 0;
const requestId = () => `refund-test-${++seq}-${Date.now()}`;
const refund = (body: Record<string, unknown>, token = operator) => t.post('/api/index/refundSchoolPayment', token).send(body);
const refundOf = (out_trade_no: string, more: Record<string, unknown> = {}) =>
  refund({ school_id: schoolId, out_trade_no, reason: '家长申请退款', request_id: requestId(), ...more });

/** The school's money: balance, the ledger's sum and entries, the lowest balance any entry left, the expiry. */
async function money(id = schoolId) {
  const { rows } = await t.sql.query(
    `select s.balance_fen::float8 as balance, coalesce(sum(e.amount_fen), 0)::float8 as ledger, count(e.id)::int as entries,
            coalesce(min(e.balance_after_fen), 0)::float8 as lowest, s.service_expires_at as expires
       from schools s left join ledger_entries e on e.school_id = s.id where s.id = $1 group by s.id`,
    [id],
  );
  return rows[0] as { balance: number; ledger: number; entries: number; lowest: number; expires: Date | null };
}

/** Row counts (harness) plus every money figure a refund could touch: a refused request must change none. */
async function everything() {
  const { rows } = await t.sql.query(
    `select (select count(*) from payments)::int as payments, (select count(*) from payment_refunds)::int as refunds,
            (select count(*) from ledger_entries)::int as entries, (select coalesce(sum(refunded_fen), 0)::float8 from payments) as refunded,
            (select string_agg(state, ',' order by id) from payments) as states,
            (select count(*) from wechatpay_sandbox_refunds)::int as sandbox_refunds,
            (select coalesce(sum(refunded_fen), 0)::float8 from wechatpay_sandbox_orders) as sandbox_refunded,
            (select sum(balance_fen)::float8 from schools) as balances, (select string_agg(coalesce(service_expires_at::text, '-'), ',' order by id) from schools) as expiries`,
  );
  return { ...(await snapshot(t.sql)), ...rows[0] };
}

/** A top-up paid through the sandbox (QR scanned, notify delivered): answers its out_trade_no. */
async function topUp(amount_fen: number, token = admin): Promise<string> {
  const res = await t.post('/api/index/recharge', token).send({ amount_fen });
  expect(res.body.code).toBe(Code.Ok);
  const no = res.body.data.out_trade_no as string;
  expect((await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: no })).body.data).toMatchObject({
    trade_state: 'SUCCESS',
    notify_status: 204,
  });
  return no;
}

async function paymentRow(no: string) {
  const { rows } = await t.sql.query(`select state, refunded_fen::float8 as refunded_fen, meta from payments where out_trade_no = $1`, [no]);
  return rows[0] as { state: string; refunded_fen: number; meta: Record<string, string> };
}

describe('refundSchoolPayment: a WeChat top-up', () => {
  it('refunds part through the sandbox and debits the wallet; then the rest, and the payment is refunded', async () => {
    const no = await topUp(10_000);
    const before = await money();
    const first = await refundOf(no, { amount_fen: 3_000 });
    expect(first.body).toMatchObject({
      code: Code.Ok,
      data: {
        out_trade_no: no,
        out_refund_no: expect.stringMatching(/^F[0-9A-F]{31}$/),
        amount_fen: 3_000,
        state: 'succeeded',
        payment_state: 'paid',
        refunded_fen: 3_000,
        remaining_fen: 7_000,
        balance_fen: before.balance - 3_000,
      },
    });
    expect(await sandbox.orderOf(no)).toMatchObject({ state: 'REFUND', refunded_fen: 3_000 });
    const log = await t.get('/api/index/consumeLog?type=refund', admin);
    expect(log.body.data.list[0]).toMatchObject({
      type: 'refund',
      amount_fen: -3_000,
      ref_kind: 'top_up',
      ref_id: no,
      note: '家长申请退款',
      balance_after_fen: before.balance - 3_000,
    });
    const { rows } = await t.sql.query(
      `select state, provider_refund_id, amount_fen::float8 as amount_fen from payment_refunds where out_refund_no = $1`,
      [first.body.data.out_refund_no],
    );
    expect(rows[0]).toMatchObject({ state: 'succeeded', provider_refund_id: expect.stringMatching(/^5030/), amount_fen: 3_000 });

    // amount omitted: what is left
    const rest = await refundOf(no);
    expect(rest.body).toMatchObject({
      code: Code.Ok,
      data: { amount_fen: 7_000, payment_state: 'refunded', refunded_fen: 10_000, remaining_fen: 0, balance_fen: before.balance - 10_000 },
    });
    expect(await sandbox.orderOf(no)).toMatchObject({ state: 'REFUND', refunded_fen: 10_000 });
    expect((await t.get(`/api/index/paymentState?out_trade_no=${no}`, admin)).body.data.state).toBe('refunded');
    const after = await money();
    expect(after).toMatchObject({ balance: before.balance - 10_000, ledger: before.balance - 10_000, entries: before.entries + 2 });

    const more = await refundOf(no, { amount_fen: 1 });
    expect(more.body).toMatchObject({ code: Code.Error, msg: '该订单已全额退款' });

    // the operator's list of the school's payments shows it
    const list = await t.get(`/api/index/schoolPayments?school_id=${schoolId}&state=refunded`, operator);
    expect(list.body).toMatchObject({
      code: Code.Ok,
      data: {
        total: 1,
        list: [
          {
            out_trade_no: no,
            kind: 'top_up',
            method: 'wechat',
            amount_fen: 10_000,
            refunded_fen: 10_000,
            state: 'refunded',
            created_by_name: '王园长',
          },
        ],
      },
    });
    const all = await t.get(`/api/index/schoolPayments?school_id=${schoolId}&limit=1`, operator);
    expect(all.body.data).toMatchObject({ page: 1, limit: 1, total: expect.any(Number) });
    expect(all.body.data.list).toHaveLength(1);
  });

  it('never takes the wallet below zero: a top-up already spent is refused and nothing is refunded', async () => {
    const no = await topUp(5_000);
    const { balance } = await money();
    // spend all but 10 yuan
    await t
      .post('/api/index/adjustSchoolBalance', operator)
      .send({ school_id: schoolId, amount_fen: -(balance - 1_000), reason: '模拟消费', request_id: requestId() });
    const before = await everything();
    const res = await refundOf(no);
    expect(res.body).toMatchObject({ code: Code.Error, msg: '机构余额不足以扣回这笔充值：当前余额 10 元，需扣回 50 元' });
    expect(await everything()).toEqual(before);
    expect(await sandbox.orderOf(no)).toMatchObject({ state: 'SUCCESS', refunded_fen: 0 });
    // what the balance still holds can be refunded, down to exactly zero
    const part = await refundOf(no, { amount_fen: 1_000 });
    expect(part.body).toMatchObject({ code: Code.Ok, data: { balance_fen: 0, remaining_fen: 4_000 } });
    expect(await money()).toMatchObject({ balance: 0, ledger: 0, lowest: 0 });
    await t
      .post('/api/index/adjustSchoolBalance', operator)
      .send({ school_id: schoolId, amount_fen: 1_000_000, reason: '恢复余额', request_id: requestId() });
  });
});

describe('refundSchoolPayment: renewals take back the refunded share of their period', () => {
  it('a balance renewal goes back to the wallet (a refund entry), half then all, and the expiry goes back exactly', async () => {
    expect((await t.post('/api/index/setDealPwd', admin).send({ deal_pwd: '135790', password: 'Demo@2026' })).body.code).toBe(Code.Ok);
    const e0 = new Date(Date.now() + 10 * 86_400_000);
    await t.sql.query(`update schools set service_expires_at = $2 where id = $1`, [schoolId, e0]);
    const paid = await t.post('/api/index/balancePaySchool', admin).send({ period: 'term', deal_pwd: '135790' });
    expect(paid.body.code).toBe(Code.Ok);
    const e1 = new Date(paid.body.data.service_expires_at);
    const { rows } = await t.sql.query(`select out_trade_no from payments where school_id = $1 and method = 'balance' order by id desc limit 1`, [
      schoolId,
    ]);
    const no = rows[0].out_trade_no as string;
    const before = await money();

    const half = DEFAULT_PRICE_FEN.term / 2;
    const first = await refundOf(no, { amount_fen: half });
    expect(first.body).toMatchObject({ code: Code.Ok, data: { state: 'succeeded', payment_state: 'paid', balance_fen: before.balance + half } });
    const mid = await money();
    expect(mid.expires!.getTime()).toBe(e1.getTime() - (e1.getTime() - e0.getTime()) / 2);
    const log = await t.get('/api/index/consumeLog?type=refund', admin);
    expect(log.body.data.list[0]).toMatchObject({ type: 'refund', amount_fen: half, ref_kind: 'school_renewal', ref_id: no });

    const rest = await refundOf(no);
    expect(rest.body).toMatchObject({
      code: Code.Ok,
      data: { amount_fen: DEFAULT_PRICE_FEN.term - half, payment_state: 'refunded', balance_fen: before.balance + DEFAULT_PRICE_FEN.term },
    });
    const after = await money();
    expect(after.expires!.getTime()).toBe(e0.getTime());
    expect(after).toMatchObject({ ledger: after.balance, entries: before.entries + 2 });
  });

  it('a WeChat renewal is refunded through the sandbox; the balance does not move and the period is taken back', async () => {
    const e0 = new Date(Date.now() + 20 * 86_400_000);
    await t.sql.query(`update schools set service_expires_at = $2 where id = $1`, [schoolId, e0]);
    const pay = await t.post('/api/index/wechatPaySchool', admin).send({ period: 'year' });
    const no = pay.body.data.out_trade_no as string;
    await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: no });
    const paid = await money();
    expect(paid.expires!.getTime()).toBeGreaterThan(e0.getTime() + 360 * 86_400_000);
    const res = await refundOf(no);
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: { amount_fen: DEFAULT_PRICE_FEN.year, payment_state: 'refunded', balance_fen: paid.balance },
    });
    expect(await sandbox.orderOf(no)).toMatchObject({ state: 'REFUND', refunded_fen: DEFAULT_PRICE_FEN.year });
    const after = await money();
    expect(after.expires!.getTime()).toBe(e0.getTime());
    expect(after).toMatchObject({ balance: paid.balance, entries: paid.entries });
  });
});

describe('refundSchoolPayment: refusals write nothing', () => {
  it('bad input is code 100 and writes nothing', async () => {
    const no = await topUp(2_000);
    const ok = { school_id: schoolId, out_trade_no: no, reason: '家长申请退款', request_id: 'bad-input-0001' };
    const without = (k: string) => Object.fromEntries(Object.entries(ok).filter(([key]) => key !== k));
    const before = await everything();
    const bodies: Array<Record<string, unknown>> = [
      without('reason'),
      without('request_id'),
      without('out_trade_no'),
      without('school_id'),
      { ...ok, reason: '退' },
      { ...ok, reason: '<b>退款</b>' },
      { ...ok, reason: '退'.repeat(81) },
      { ...ok, reason: '退款\u0000' },
      { ...ok, amount_fen: 0 },
      { ...ok, amount_fen: -100 },
      { ...ok, amount_fen: 10.5 },
      { ...ok, amount_fen: '100' },
      { ...ok, amount_fen: 100_000_001 },
      { ...ok, request_id: 'short' },
      { ...ok, request_id: 'has space in it' },
      { ...ok, out_trade_no: 'T1' },
      { ...ok, out_trade_no: "T2026' or 1=1 --" },
      { ...ok, school_id: 0 },
      { ...ok, school_id: '1' },
      { ...ok, extra: 1 },
    ];
    for (const body of bodies) {
      const res = await refund(body);
      expect({ body, code: res.body.code }).toEqual({ body, code: Code.Error });
    }
    // valid, but more than was paid, or a payment not paid
    expect((await refund({ ...ok, amount_fen: 2_001 })).body.msg).toBe('退款金额超出可退金额：可退 20 元，申请退款 20.01 元');
    const pending = await t.post('/api/index/recharge', admin).send({ amount_fen: 3_000 });
    const afterPending = await everything();
    expect((await refund({ ...ok, out_trade_no: pending.body.data.out_trade_no })).body.msg).toBe('该订单尚未支付，不能退款');
    expect(await everything()).toEqual(afterPending);
    expect({ ...afterPending, payments: before.payments, states: before.states }).toEqual(before);
  });

  it.each(['admin', 'teacher', 'adviser', 'parent'])('%s may not refund nor list payments', async (who) => {
    const no = await topUp(1_500);
    const before = await everything();
    const res = await refund({ school_id: schoolId, out_trade_no: no, reason: '家长申请退款', request_id: requestId() }, others[who]);
    expect(res.body).toMatchObject({ code: Code.Error, msg: '当前账号没有权限执行此操作' });
    expect((await t.get(`/api/index/schoolPayments?school_id=${schoolId}`, others[who])).body.code).toBe(Code.Error);
    expect((await refund({ school_id: schoolId, out_trade_no: no, reason: '家长申请退款', request_id: requestId() }, '')).body.code).toBe(
      Code.Untoken,
    );
    expect(await everything()).toEqual(before);
  });

  it('an unknown order, or an order of another school, is not found and nothing is written', async () => {
    const other = await t.otherSchool();
    const mine = await topUp(1_200);
    const theirs = await topUp(1_300, other.adminToken);
    const before = await everything();
    for (const [school_id, out_trade_no] of [
      [schoolId, 'T20261123000000UNKNOWN12345'],
      [other.schoolId, mine],
      [schoolId, theirs],
      [2_000_000, mine],
    ] as const) {
      const res = await refund({ school_id, out_trade_no, reason: '家长申请退款', request_id: requestId() });
      expect({ school_id, res: res.body.msg }).toEqual({ school_id, res: '未找到该支付订单' });
    }
    expect(await everything()).toEqual(before);
    expect(
      (await t.get(`/api/index/schoolPayments?school_id=${other.schoolId}`, operator)).body.data.list.map(
        (p: { out_trade_no: string }) => p.out_trade_no,
      ),
    ).toEqual([theirs]);
  });
});

describe('refundSchoolPayment: idempotency and concurrency', () => {
  it('the same request_id, sent again and ten times at once, refunds once and answers the same refund', async () => {
    const no = await topUp(4_000);
    const before = await money();
    const body = { school_id: schoolId, out_trade_no: no, amount_fen: 1_000, reason: '重复提交', request_id: requestId() };
    const answers = await Promise.all(Array.from({ length: 10 }, () => refund(body)));
    expect(answers.map((a) => a.body.code)).toEqual(Array(10).fill(Code.Ok));
    expect(new Set(answers.map((a) => a.body.data.out_refund_no)).size).toBe(1);
    const again = await refund(body);
    expect(again.body.data).toMatchObject({ out_refund_no: answers[0].body.data.out_refund_no, amount_fen: 1_000, refunded_fen: 1_000 });
    expect(await paymentRow(no)).toMatchObject({ refunded_fen: 1_000, state: 'paid' });
    expect(await sandbox.orderOf(no)).toMatchObject({ refunded_fen: 1_000 });
    expect(await money()).toMatchObject({ balance: before.balance - 1_000, entries: before.entries + 1 });
    const { rows } = await t.sql.query(
      `select count(*)::int as n from payment_refunds r join payments p on p.id = r.payment_id where p.out_trade_no = $1`,
      [no],
    );
    expect(rows[0].n).toBe(1);
  });

  it('twelve different refunds of 10 yuan at once against 50 yuan paid: five go through, never more than paid', async () => {
    const no = await topUp(5_000);
    const before = await money();
    const answers = await Promise.all(Array.from({ length: 12 }, () => refundOf(no, { amount_fen: 1_000 })));
    const ok = answers.filter((a) => a.body.code === Code.Ok);
    expect(ok).toHaveLength(5);
    for (const a of answers.filter((x) => x.body.code !== Code.Ok)) expect(a.body.msg).toMatch(/^(退款金额超出可退金额|该订单已全额退款)/);
    expect(await paymentRow(no)).toMatchObject({ refunded_fen: 5_000, state: 'refunded' });
    expect(await sandbox.orderOf(no)).toMatchObject({ refunded_fen: 5_000 });
    const after = await money();
    expect(after).toMatchObject({ balance: before.balance - 5_000, ledger: before.balance - 5_000, entries: before.entries + 5 });
    expect(after.lowest).toBeGreaterThanOrEqual(0);
  });
});

describe('refundSchoolPayment: the provider', () => {
  it('a refusal fails the refund and corrects what it did: the wallet gets the money back, the payment is paid again', async () => {
    const no = await topUp(2_500);
    const before = await money();
    // the sandbox no longer sees the order as paid: it answers 400 INVALID_REQUEST
    await t.sql.query(`update wechatpay_sandbox_orders set state = 'NOTPAY' where out_trade_no = $1`, [no]);
    const body = { school_id: schoolId, out_trade_no: no, reason: '家长申请退款', request_id: requestId() };
    const res = await refund(body);
    expect(res.body).toMatchObject({ code: Code.Error, msg: expect.stringContaining('INVALID_REQUEST') });
    expect(await paymentRow(no)).toMatchObject({ state: 'paid', refunded_fen: 0 });
    const after = await money();
    expect(after).toMatchObject({ balance: before.balance, ledger: before.balance, entries: before.entries + 2 });
    const { rows } = await t.sql.query(`select r.state from payment_refunds r join payments p on p.id = r.payment_id where p.out_trade_no = $1`, [
      no,
    ]);
    expect(rows).toEqual([{ state: 'failed' }]);
    // the same request answers the same failure and writes nothing more
    const snap = await everything();
    expect((await refund(body)).body.msg).toBe(res.body.msg);
    expect(await everything()).toEqual(snap);
    // a new request once the provider accepts
    await t.sql.query(`update wechatpay_sandbox_orders set state = 'SUCCESS' where out_trade_no = $1`, [no]);
    expect((await refundOf(no)).body).toMatchObject({ code: Code.Ok, data: { amount_fen: 2_500, payment_state: 'refunded' } });
  });

  it('no answer: the refund stays pending, counted, and the payments.refund job asks again with the same number', async () => {
    const no = await topUp(3_300);
    const provider = t.app.get(PaymentProvider);
    const spy = jest.spyOn(provider, 'refund').mockRejectedValueOnce(new Error('socket hang up'));
    try {
      const res = await refundOf(no, { amount_fen: 3_000 });
      expect(res.body).toMatchObject({ code: Code.Ok, data: { state: 'pending', refunded_fen: 3_000, remaining_fen: 300 } });
      expect(await sandbox.orderOf(no)).toMatchObject({ refunded_fen: 0 });
      // what is pending counts: no more than what is left can be refunded meanwhile
      expect((await refundOf(no, { amount_fen: 301 })).body.msg).toMatch(/^退款金额超出可退金额/);
      await t.app.get(JobRegistry).run('payments.refund', { out_refund_no: res.body.data.out_refund_no });
      await t.app.get(JobRegistry).run('payments.refund', { out_refund_no: res.body.data.out_refund_no });
      const { rows } = await t.sql.query(`select state, provider_refund_id from payment_refunds where out_refund_no = $1`, [
        res.body.data.out_refund_no,
      ]);
      expect(rows[0]).toMatchObject({ state: 'succeeded', provider_refund_id: expect.stringMatching(/^5030/) });
      expect(await sandbox.orderOf(no)).toMatchObject({ refunded_fen: 3_000 });
      expect(spy.mock.calls.map((c) => c[0].outRefundNo)).toEqual([res.body.data.out_refund_no, res.body.data.out_refund_no]);
    } finally {
      spy.mockRestore();
    }
  });

  it('the sandbox answers the same out_refund_no with the refund it made, never refunding twice', async () => {
    const no = await topUp(900);
    const provider = t.app.get(PaymentProvider);
    const order = {
      merchant: { subMchid: SANDBOX_PLATFORM_SUB_MCHID },
      outTradeNo: no,
      outRefundNo: 'FSANDBOXTEST0001',
      refundFen: 400,
      totalFen: 900,
      reason: '测试',
    };
    const a = await provider.refund(order);
    const b = await provider.refund(order);
    expect(b).toEqual(a);
    expect(await sandbox.orderOf(no)).toMatchObject({ refunded_fen: 400 });
    await expect(provider.refund({ ...order, outRefundNo: 'FSANDBOXTEST0002', refundFen: 501 })).rejects.toMatchObject({ code: 'PARAM_ERROR' });
  });
});
