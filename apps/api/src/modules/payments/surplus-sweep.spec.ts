import { Code, type ContractDetail } from '@wantuo/shared';
import { startTestApp, type TestApp } from '../../../test/harness';
import { DomainEvents } from '../../core/events/domain-events';
import { JobRegistry } from '../../core/jobs/job-registry';
import { WechatPaySandbox } from '../../sandboxes/wechatpay-sandbox/wechatpay-sandbox.service';
import { PaymentKinds } from './payment-kinds';

/**
 * The surplus rule made durable (issue 21): a surplus payment is refunded after the mark-paid commit from an in-process
 * event; a crash between the two (here: the event never delivered) must not leave it paid for good. The
 * `payments.surplus` sweep finds it and refunds it once; a payment that paid its object is never touched.
 */
let t: TestApp;
let admin: string;
let parent: string;
let child: number;
let packageId: number;
let start: string;
let seq = 0;
const rid = () => `sweep-${Date.now().toString(36)}-${seq++}`;

beforeAll(async () => {
  t = await startTestApp({ runJobs: true, redis: false, listen: true, demoPeople: true });
  admin = await t.login('admin');
  parent = await t.login('parent');
  const mine = await t.sql.query(
    `select s.id from students s join student_guardians g on g.student_id = s.id where g.user_id = $1 and s.status = 1 order by s.id`,
    [t.demo.users.parent],
  );
  child = mine.rows[0].id;
  const k = await t
    .post('/api/index/addContractPackage', admin)
    .send({ name: '月托-补退', kind: 'month', length: 1, price_fen: 88000, includes: ['care'] });
  packageId = k.body.data.id;
  const d = await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date + 7, 'YYYY-MM-DD') as day`);
  start = d.rows[0].day;
});
afterAll(() => t.close());

async function unpaid(): Promise<ContractDetail> {
  const res = await t
    .post('/api/index/addContract', admin)
    .send({ student_id: child, guardian_id: t.demo.users.parent, package_id: packageId, start_day: start, request_id: rid() });
  expect(res.body).toMatchObject({ code: Code.Ok, data: { status: 'unpaid' } });
  return res.body.data;
}

/** Pays an order at the sandbox while this process "crashes" after the mark-paid commit: payment.paid is never delivered. */
async function payWithoutTheEvent(outTradeNo: string): Promise<void> {
  const events = t.app.get(DomainEvents);
  const emit = events.emit.bind(events) as (name: string, payload: unknown) => void;
  const spy = jest.spyOn(events, 'emit').mockImplementation((name, payload) => {
    if (name !== 'payment.paid') emit(name, payload);
  });
  try {
    const sim = await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: outTradeNo });
    expect(sim.body).toMatchObject({ code: Code.Ok, data: { trade_state: 'SUCCESS', notify_status: 204 } });
  } finally {
    spy.mockRestore();
  }
  await t.app.get(PaymentKinds).settled();
}

const state = async (nos: string[]) =>
  (
    await t.sql.query(
      `select p.out_trade_no, p.state, p.refunded_fen::float8 as refunded, p.version,
              coalesce(json_agg(json_build_object('key', r.request_key, 'amount', r.amount_fen::float8, 'state', r.state) order by r.id) filter (where r.id is not null), '[]') as refunds
         from payments p left join payment_refunds r on r.payment_id = p.id where p.out_trade_no = any($1::text[]) group by p.id order by p.out_trade_no`,
      [nos],
    )
  ).rows as Array<{
    out_trade_no: string;
    state: string;
    refunded: number;
    version: number;
    refunds: Array<{ key: string; amount: number; state: string }>;
  }>;

const agePaid = (nos: string[], seconds: number) =>
  t.sql.query(`update payments set paid_at = paid_at - make_interval(secs => $2) where out_trade_no = any($1::text[])`, [nos, seconds]);

describe('payments.surplus: the sweep refunds a surplus the after-commit refund never reached', () => {
  it('a payment for a contract cancelled while unpaid, paid while the process "crashed": refunded once by the sweep; the contract paid by its QR is never touched', async () => {
    const kinds = t.app.get(PaymentKinds);
    // the surplus: the contract is cancelled while its QR is open, then paid anyway
    const c = await unpaid();
    const surplus = (await t.post('/api/index/wechatPayContract', parent).send({ id: c.id })).body.data.out_trade_no as string;
    expect(
      (
        await t
          .post('/api/index/cancellationContract', admin)
          .send({ id: c.id, version: c.version, reason: '家长不来了', refund_fen: 0, request_id: rid() })
      ).body.code,
    ).toBe(Code.Ok);
    // the normal one: a contract paid by its QR
    const d = await unpaid();
    const normal = (await t.post('/api/index/wechatPayContract', parent).send({ id: d.id })).body.data.out_trade_no as string;

    await payWithoutTheEvent(surplus);
    await payWithoutTheEvent(normal);
    // the defect: nothing refunds the surplus (the event was lost with the process)
    expect(await state([surplus, normal])).toEqual(
      [
        { out_trade_no: surplus, state: 'paid', refunded: 0, version: 2, refunds: [] },
        { out_trade_no: normal, state: 'paid', refunded: 0, version: 2, refunds: [] },
      ].sort((a, b) => a.out_trade_no.localeCompare(b.out_trade_no)),
    );
    expect((await t.get(`/api/index/contractInfo?id=${d.id}`, admin)).body.data).toMatchObject({ status: 'active', pay_method: 'wechat' });

    // paid less than a minute ago: the after-commit refund may still be on its way, the sweep leaves them
    expect(await kinds.sweepSurplus()).toBe(0);
    expect((await state([surplus])).map((s) => s.refunds)).toEqual([[]]);

    await agePaid([surplus, normal], 120);
    // the job itself (as the scheduler runs it), twice at once: one refund
    const registry = t.app.get(JobRegistry);
    await Promise.all([registry.run('payments.surplus', {}), registry.run('payments.surplus', {})]);
    const after = Object.fromEntries((await state([surplus, normal])).map((s) => [s.out_trade_no, s]));
    expect(after[surplus]).toMatchObject({ state: 'refunded', refunded: 88000, refunds: [{ key: 'surplus', amount: 88000, state: 'succeeded' }] });
    expect(after[normal]).toEqual({ out_trade_no: normal, state: 'paid', refunded: 0, version: 2, refunds: [] });
    expect(await t.app.get(WechatPaySandbox).orderOf(surplus)).toMatchObject({ state: 'REFUND', refunded_fen: 88000 });
    expect(await t.app.get(WechatPaySandbox).orderOf(normal)).toMatchObject({ state: 'SUCCESS', refunded_fen: 0 });
    expect((await t.get(`/api/index/contractInfo?id=${c.id}`, admin)).body.data).toMatchObject({ status: 'cancelled', paid_fen: 0, refunded_fen: 0 });

    // run again, and the late event arriving after all: nothing more
    const before = await state([surplus, normal]);
    expect(await kinds.sweepSurplus()).toBe(0);
    t.app
      .get(DomainEvents)
      .emit('payment.paid', { school_id: t.demo.schoolId, out_trade_no: surplus, kind: 'contract', ref_id: String(c.id), amount_fen: 88000 });
    await kinds.settled();
    expect(await state([surplus, normal])).toEqual(before);
    expect(await t.app.get(WechatPaySandbox).orderOf(surplus)).toMatchObject({ state: 'REFUND', refunded_fen: 88000 });
  });

  it('a surplus the after-commit path already refunded, and a payment with any refund, are left alone', async () => {
    const c = await unpaid();
    const a = (await t.post('/api/index/wechatPayContract', parent).send({ id: c.id })).body.data.out_trade_no as string;
    const b = (await t.post('/api/index/wechatPayContract', parent).send({ id: c.id })).body.data.out_trade_no as string;
    // both QRs paid, the events delivered: b is the surplus, refunded after the commit
    for (const no of [a, b]) await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: no });
    await t.app.get(PaymentKinds).settled();
    await agePaid([a, b], 120);
    const before = await state([a, b]);
    expect(Object.fromEntries(before.map((s) => [s.out_trade_no, s.state]))).toEqual({ [a]: 'paid', [b]: 'refunded' });
    expect(await t.app.get(PaymentKinds).sweepSurplus()).toBe(0);
    expect(await state([a, b])).toEqual(before);
  });
});
