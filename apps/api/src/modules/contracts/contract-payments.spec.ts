import { Code, refundFigure, type ContractDetail } from '@wantuo/shared';
import { startTestApp, type TestApp } from '../../../test/harness';
import { PaymentKinds } from '../payments/payment-kinds';
import { WechatPaySandbox } from '../../sandboxes/wechatpay-sandbox/wechatpay-sandbox.service';

let t: TestApp;
let admin: string;
let parent: string;
let child: number;
let stranger: number;
let packageId: number;
let start: string;
let seq = 0;
const rid = () => `pay-${Date.now().toString(36)}-${seq++}`;

beforeAll(async () => {
  t = await startTestApp({ runJobs: true, redis: false, listen: true, demoPeople: true });
  admin = await t.login('admin');
  parent = await t.login('parent');
  const mine = await t.sql.query(
    `select s.id from students s join student_guardians g on g.student_id = s.id where g.user_id = $1 and s.status = 1 order by s.id`,
    [t.demo.users.parent],
  );
  child = mine.rows[0].id;
  const other = await t.sql.query(
    `select s.id, g.user_id from students s join student_guardians g on g.student_id = s.id where g.user_id <> $1 and s.status = 1 order by s.id limit 1`,
    [t.demo.users.parent],
  );
  stranger = other.rows[0].id;
  const k = await t
    .post('/api/index/addContractPackage', admin)
    .send({ name: '月托', kind: 'month', length: 1, price_fen: 158000, includes: ['care'] });
  packageId = k.body.data.id;
  const d = await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date + 7, 'YYYY-MM-DD') as day`);
  start = d.rows[0].day;
});
afterAll(() => t.close());

async function unpaid(studentId = child, guardianId = t.demo.users.parent): Promise<ContractDetail> {
  const res = await t
    .post('/api/index/addContract', admin)
    .send({ student_id: studentId, guardian_id: guardianId, package_id: packageId, start_day: start, request_id: rid() });
  expect(res.body).toMatchObject({ code: Code.Ok, data: { status: 'unpaid' } });
  return res.body.data;
}

const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };

describe('wechatPayContract', () => {
  it('the guardian pays an unpaid contract through the sandbox: active once, even when the notify repeats', async () => {
    const c = await unpaid();
    const pay = await t.post('/api/index/wechatPayContract', parent).send({ id: c.id });
    expect(pay.body).toMatchObject({
      code: Code.Ok,
      data: { out_trade_no: expect.any(String), code_url: expect.stringMatching(/^weixin:\/\//), amount_fen: 158000 },
    });
    const no = pay.body.data.out_trade_no as string;
    expect((await t.get(`/api/index/paymentState?out_trade_no=${no}`, parent)).body.data).toMatchObject({ state: 'pending', kind: 'contract' });

    for (let i = 0; i < 3; i++) {
      const sim = await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: no });
      expect(sim.body).toMatchObject({ code: Code.Ok, data: { trade_state: 'SUCCESS', notify_status: 204 } });
    }
    expect((await t.get(`/api/index/paymentState?out_trade_no=${no}`, parent)).body.data).toMatchObject({ state: 'paid' });
    const info = (await t.get(`/api/index/contractInfo?id=${c.id}`, admin)).body.data as ContractDetail;
    expect(info).toMatchObject({ status: 'active', paid_fen: 158000, pay_method: 'wechat' });
    expect(info.history.map((e) => e.type)).toEqual(['signed', 'paid']);
    expect(info.history[1].data).toMatchObject({ method: 'wechat', out_trade_no: no });

    // paid now: a second payment is refused
    expect((await t.post('/api/index/wechatPayContract', parent).send({ id: c.id })).body).toMatchObject({
      code: Code.Error,
      msg: '该合同不是待付款状态',
    });
  });

  it('another family’s contract, the admin and another school are refused; a parent sees only own payments', async () => {
    const theirs = await unpaid(
      stranger,
      (await t.sql.query(`select user_id from student_guardians where student_id = $1`, [stranger])).rows[0].user_id,
    );
    const before = (await t.sql.query(`select count(*)::int as n from payments`)).rows[0].n;
    expect((await t.post('/api/index/wechatPayContract', parent).send({ id: theirs.id })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该合同',
    });
    expect((await t.post('/api/index/wechatPayContract', admin).send({ id: theirs.id })).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/wechatPayContract', parent).send({ id: 'x' })).body.code).toBe(Code.Error);
    expect((await t.sql.query(`select count(*)::int as n from payments`)).rows[0].n).toBe(before);

    // the admin's own top-up is not the parent's to see
    const top = await t.post('/api/index/recharge', admin).send({ amount_fen: 100 });
    expect((await t.get(`/api/index/paymentState?out_trade_no=${top.body.data.out_trade_no}`, parent)).body).toMatchObject({ code: Code.Error });
    expect((await t.get(`/api/index/paymentState?out_trade_no=${top.body.data.out_trade_no}`, admin)).body).toMatchObject({ code: Code.Ok });
  });

  it('cancelling a WeChat-paid contract refunds the figure through the provider, once', async () => {
    const c = await unpaid();
    const no = (await t.post('/api/index/wechatPayContract', parent).send({ id: c.id })).body.data.out_trade_no as string;
    await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: no });
    const paid = (await t.get(`/api/index/contractInfo?id=${c.id}`, admin)).body.data as ContractDetail;
    const preview = (await t.get(`/api/index/contractRefundPreview?id=${c.id}`, admin)).body.data;
    const { rows } = await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as today`);
    const expected = refundFigure({ ...paid, list_price_fen: paid.list_price_fen, today: rows[0].today });
    expect(preview).toMatchObject({ via: 'wechat', refund_fen: expected.refund_fen });
    expect(expected.refund_fen).toBe(158000); // starts in the future: all unused

    const request_id = rid();
    const cancel = () =>
      t
        .post('/api/index/cancellationContract', admin)
        .send({ id: c.id, version: paid.version, reason: '家长退费', refund_fen: expected.refund_fen, request_id });
    const done = await cancel();
    expect(done.body.data).toMatchObject({ status: 'cancelled', refunded_fen: 158000 });
    expect(done.body.data.history.slice(-2)).toMatchObject([
      { type: 'cancelled', data: { via: 'wechat' } },
      { type: 'refunded', data: { method: 'wechat', out_trade_no: no } },
    ]);
    expect((await cancel()).body.code).toBe(Code.Ok);
    const refunds = await t.sql.query(
      `select r.amount_fen::float8 as amount, p.state from payment_refunds r join payments p on p.id = r.payment_id where p.out_trade_no = $1`,
      [no],
    );
    expect(refunds.rows).toEqual([{ amount: 158000, state: 'refunded' }]);
  });

  it('a payment that arrives after the contract was paid at the desk, or a second QR paid too, goes back in full, once', async () => {
    const c = await unpaid();
    const first = (await t.post('/api/index/wechatPayContract', parent).send({ id: c.id })).body.data.out_trade_no as string;
    const second = (await t.post('/api/index/wechatPayContract', parent).send({ id: c.id })).body.data.out_trade_no as string;
    // the desk records cash while both QR codes are open
    expect((await t.post('/api/index/payContractOffline', admin).send({ id: c.id, version: c.version, payment: { method: 'cash' } })).body.code).toBe(
      Code.Ok,
    );
    for (const no of [first, second, first]) await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: no });
    await t.app.get(PaymentKinds).settled();
    const info = (await t.get(`/api/index/contractInfo?id=${c.id}`, admin)).body.data as ContractDetail;
    expect(info).toMatchObject({ status: 'active', pay_method: 'cash', paid_fen: 158000 });
    expect(info.history.filter((e) => e.type === 'paid')).toHaveLength(1);
    const { rows } = await t.sql.query(
      `select p.out_trade_no, p.state, coalesce(sum(r.amount_fen), 0)::float8 as refunded, count(r.id)::int as refunds
         from payments p left join payment_refunds r on r.payment_id = p.id where p.out_trade_no = any($1::text[]) group by 1, 2 order by 1`,
      [[first, second]],
    );
    expect(rows).toEqual([first, second].sort().map((no) => ({ out_trade_no: no, state: 'refunded', refunded: 158000, refunds: 1 })));

    // a contract paid by the first QR: the second, paid too, is the surplus; the first stays
    const d = await unpaid();
    const a = (await t.post('/api/index/wechatPayContract', parent).send({ id: d.id })).body.data.out_trade_no as string;
    const b = (await t.post('/api/index/wechatPayContract', parent).send({ id: d.id })).body.data.out_trade_no as string;
    await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: a });
    await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: b });
    await t.app.get(PaymentKinds).settled();
    const states = await t.sql.query(`select out_trade_no, state from payments where out_trade_no = any($1::text[])`, [[a, b]]);
    expect(Object.fromEntries(states.rows.map((r) => [r.out_trade_no, r.state]))).toEqual({ [a]: 'paid', [b]: 'refunded' });
    // the operator or the school cannot refund the payment that paid the contract outside a cancellation
    expect((await t.sql.query(`select receipt_no from contracts where id = $1`, [d.id])).rows[0].receipt_no).toBe(a);
  });

  it('a payment for a contract cancelled while it was unpaid goes back in full, once (issue 21)', async () => {
    const c = await unpaid();
    const no = (await t.post('/api/index/wechatPayContract', parent).send({ id: c.id })).body.data.out_trade_no as string;
    // the admin cancels the unpaid contract while the guardian's QR is open: nothing was paid, nothing to refund
    expect((await t.get(`/api/index/contractRefundPreview?id=${c.id}`, admin)).body.data).toMatchObject({ via: 'none', refund_fen: 0 });
    const cancel = await t
      .post('/api/index/cancellationContract', admin)
      .send({ id: c.id, version: c.version, reason: '家长不来了', refund_fen: 0, request_id: rid() });
    expect(cancel.body).toMatchObject({ code: Code.Ok, data: { status: 'cancelled', refunded_fen: 0 } });
    // then the guardian pays anyway, and the notify comes three times
    for (let i = 0; i < 3; i++) {
      const sim = (await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: no })).body.data;
      expect(sim).toMatchObject({ trade_state: i === 0 ? 'SUCCESS' : 'REFUND', notify_status: 204 });
      await t.app.get(PaymentKinds).settled();
    }
    const info = (await t.get(`/api/index/contractInfo?id=${c.id}`, admin)).body.data as ContractDetail;
    expect(info).toMatchObject({ status: 'cancelled', paid_fen: 0, refunded_fen: 0, pay_method: null });
    const { rows } = await t.sql.query(
      `select p.state, p.refunded_fen::float8 as refunded, r.amount_fen::float8 as amount, r.request_key, r.state as refund_state
         from payments p join payment_refunds r on r.payment_id = p.id where p.out_trade_no = $1`,
      [no],
    );
    expect(rows).toEqual([{ state: 'refunded', refunded: 158000, amount: 158000, request_key: 'surplus', refund_state: 'succeeded' }]);
    expect(await t.app.get(WechatPaySandbox).orderOf(no)).toMatchObject({ state: 'REFUND', refunded_fen: 158000 });
  });
});
