import { addDays, billDateOf, Code, instantOf, WECHAT_BILL_ZONE, type BillCheckRow, type BillDifferenceRow } from '@wantuo/shared';
import { startTestApp, type TestApp } from '../../../../test/harness';
import { parseSamples, sample } from '../../../../test/prometheus-text';
import { BillNotReady, PaymentProvider } from '../provider';
import { SANDBOX_PLATFORM_SUB_MCHID } from '../wechatpay/credentials';
import { compareBill, ReconciliationService } from './reconciliation.service';
import type { TradeBill } from './tradebill-csv';

/**
 * The daily reconciliation through the real API and the WeChat Pay sandbox: payments and refunds made the ordinary
 * way, moved to one past bill day in both our tables and the sandbox's, then the sandbox's trade bill compared.
 */

const SCHOOL_MCHID = '1900000311';
const OTHER_MCHID = '1900000312';
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };

let t: TestApp;
let admin: string;
let parent: string;
let operator: string;
let teacher: string;
let schoolId: number;
let other: { schoolId: number; adminToken: string };
let child: number;
let packageId: number;
let start: string;
let seq = 0;
const rid = () => `recon-${Date.now().toString(36)}-${seq++}`;

/** The bill day the payments are moved to: yesterday, China time (the sandbox has a bill of any day before today). */
let day: string;
/** a moment inside `day` */
const at = (time: string) => instantOf(day, time, WECHAT_BILL_ZONE);

beforeAll(async () => {
  t = await startTestApp({ runJobs: true, redis: false, listen: true, demoPeople: true });
  admin = await t.login('admin');
  parent = await t.login('parent');
  operator = await t.login('operator');
  teacher = await t.login('teacher');
  schoolId = t.demo.schoolId;
  other = await t.otherSchool();
  day = addDays(billDateOf(new Date()), -1);

  const mine = await t.sql.query(
    `select s.id from students s join student_guardians g on g.student_id = s.id where g.user_id = $1 and s.status = 1 order by s.id`,
    [t.demo.users.parent],
  );
  child = mine.rows[0].id;
  const k = await t
    .post('/api/index/addContractPackage', admin)
    .send({ name: '月托', kind: 'month', length: 1, price_fen: 12_000, includes: ['care'] });
  packageId = k.body.data.id;
  const d = await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date + 7, 'YYYY-MM-DD') as day`);
  start = d.rows[0].day;

  // each school's sub-merchant, onboarded in the sandbox (bound to its service provider) and recorded by the operator:
  // the demo school changes from the demo's own, the other school has its first
  for (const [sub_mchid, name, school] of [
    [SCHOOL_MCHID, '阳光晚托', schoolId],
    [OTHER_MCHID, '另一家', other.schoolId],
  ] as const) {
    expect((await t.post('/api/dev/wechatpay/subMerchants').send({ sub_mchid, name })).body.code).toBe(Code.Ok);
    const now = await t.get(`/api/index/schoolSubMerchant?school_id=${school}`, operator);
    const set = await t
      .post('/api/index/setSchoolSubMerchant', operator)
      .send({ school_id: school, expected_id: now.body.data.current?.id ?? null, sub_mchid, note: '进件完成' });
    expect(set.body).toMatchObject({ code: Code.Ok, data: { state: 'active', current: { sub_mchid } } });
  }
  // recorded before the bill day: each was its school's that whole day
  await t.sql.query(`update school_sub_merchants set recorded_at = $1 where sub_mchid = any($2)`, [
    instantOf(addDays(day, -3), '09:00', WECHAT_BILL_ZONE),
    [SCHOOL_MCHID, OTHER_MCHID],
  ]);
});
afterAll(() => t.close());

/** A top-up the admin pays (the platform's own sub-merchant): its out_trade_no. */
async function topUp(amount_fen: number): Promise<string> {
  const res = await t.post('/api/index/recharge', admin).send({ amount_fen });
  expect(res.body.code).toBe(Code.Ok);
  const no = res.body.data.out_trade_no as string;
  expect((await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: no })).body.data).toMatchObject({
    trade_state: 'SUCCESS',
    notify_status: 204,
  });
  return no;
}

/** A contract the guardian pays (the school's sub-merchant): the contract and the payment's out_trade_no. */
async function contractPaid(): Promise<{ id: number; version: number; no: string }> {
  const c = await t
    .post('/api/index/addContract', admin)
    .send({ student_id: child, guardian_id: t.demo.users.parent, package_id: packageId, start_day: start, request_id: rid() });
  expect(c.body).toMatchObject({ code: Code.Ok, data: { status: 'unpaid' } });
  const pay = await t.post('/api/index/wechatPayContract', parent).send({ id: c.body.data.id });
  expect(pay.body.code).toBe(Code.Ok);
  const no = pay.body.data.out_trade_no as string;
  expect((await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: no })).body.data).toMatchObject({
    trade_state: 'SUCCESS',
    notify_status: 204,
  });
  const info = await t.get(`/api/index/contractInfo?id=${c.body.data.id}`, admin);
  return { id: c.body.data.id, version: info.body.data.version, no };
}

/** Moves a payment (ours and the sandbox's order) and its refunds to `when` within the bill day. */
async function moveToDay(no: string, when: Date) {
  await t.sql.query(`update payments set paid_at = $2 where out_trade_no = $1`, [no, when]);
  await t.sql.query(`update wechatpay_sandbox_orders set paid_at = $2 where out_trade_no = $1`, [no, when]);
  const later = new Date(when.getTime() + 3_600_000);
  await t.sql.query(`update payment_refunds set succeeded_at = $2 where payment_id = (select id from payments where out_trade_no = $1)`, [no, later]);
  await t.sql.query(`update wechatpay_sandbox_refunds set succeeded_at = $2 where out_trade_no = $1`, [no, later]);
}

async function counts() {
  const { rows } = await t.sql.query(
    `select (select count(*) from payment_bill_checks)::int as checks, (select count(*) from payment_bill_differences)::int as differences,
            (select count(*) from payment_bill_differences where state = 'resolved')::int as resolved,
            (select coalesce(max(checked_at)::text, '') from payment_bill_checks) as last_checked`,
  );
  return rows[0] as { checks: number; differences: number; resolved: number; last_checked: string };
}

const checkBill = (body: Record<string, unknown>, token = operator) => t.post('/api/index/checkBill', token).send(body);
const differencesOf = async (q: string): Promise<BillDifferenceRow[]> => {
  const res = await t.get(`/api/index/billDifferences?limit=100&${q}`, operator);
  expect(res.body.code).toBe(Code.Ok);
  return res.body.data.list;
};

const pay: Record<string, string> = {};
const refunds: Record<string, string> = {};

describe('compareBill (the rule, line by line)', () => {
  const bill = (payments: Array<[string, number]>, refundLines: Array<[string, string, number]> = []): TradeBill => ({
    payments: payments.map(([outTradeNo, amountFen]) => ({ outTradeNo, amountFen, transactionId: 'x', subMchid: SCHOOL_MCHID, at: new Date() })),
    refunds: refundLines.map(([outTradeNo, outRefundNo, amountFen]) => ({
      outTradeNo,
      outRefundNo,
      amountFen,
      refundId: 'y',
      subMchid: SCHOOL_MCHID,
      at: new Date(),
    })),
    summary: { lines: 0, settlementFen: 0, refundFen: 0, couponRefundFen: 0, feeMicroYuan: 0, orderFen: 0, appliedRefundFen: 0 },
  });
  const none = { paymentsInDay: [], paymentsListed: [], refundsInDay: [], refundsListed: [] };

  it.each([
    [
      'all equal',
      bill([['A', 100]], [['A', 'RA', 30]]),
      {
        paymentsInDay: [{ out_trade_no: 'A', amount_fen: 100 }],
        paymentsListed: [{ out_trade_no: 'A', sub_mchid: SCHOOL_MCHID, amount_fen: 100 }],
        refundsInDay: [{ out_refund_no: 'RA', out_trade_no: 'A', amount_fen: 30 }],
        refundsListed: [{ out_refund_no: 'RA', out_trade_no: 'A', sub_mchid: SCHOOL_MCHID, amount_fen: 30 }],
      },
      [],
    ],
    [
      'a line recorded on another day is matched (not missing here)',
      bill([['A', 100]]),
      {
        ...none,
        paymentsListed: [{ out_trade_no: 'A', sub_mchid: SCHOOL_MCHID, amount_fen: 100 }],
      },
      [],
    ],
    [
      'a line we do not have',
      bill([['A', 100]], [['B', 'RB', 5]]),
      none,
      [
        { kind: 'missing_here', line: 'payment', out_trade_no: 'A', out_refund_no: null, ours_fen: null, theirs_fen: 100 },
        { kind: 'missing_here', line: 'refund', out_trade_no: 'B', out_refund_no: 'RB', ours_fen: null, theirs_fen: 5 },
      ],
    ],
    [
      'a line we recorded with another merchant',
      bill([['A', 100]]),
      {
        ...none,
        paymentsListed: [{ out_trade_no: 'A', sub_mchid: '1900000201', amount_fen: 100 }],
      },
      [{ kind: 'missing_here', line: 'payment', out_trade_no: 'A', out_refund_no: null, ours_fen: null, theirs_fen: 100 }],
    ],
    [
      'ours the bill does not list',
      bill([]),
      {
        ...none,
        paymentsInDay: [{ out_trade_no: 'A', amount_fen: 100 }],
        refundsInDay: [{ out_refund_no: 'RA', out_trade_no: 'A', amount_fen: 30 }],
      },
      [
        { kind: 'missing_there', line: 'payment', out_trade_no: 'A', out_refund_no: null, ours_fen: 100, theirs_fen: null },
        { kind: 'missing_there', line: 'refund', out_trade_no: 'A', out_refund_no: 'RA', ours_fen: 30, theirs_fen: null },
      ],
    ],
    [
      'amounts that differ',
      bill([['A', 101]], [['A', 'RA', 29]]),
      {
        paymentsInDay: [{ out_trade_no: 'A', amount_fen: 100 }],
        paymentsListed: [{ out_trade_no: 'A', sub_mchid: SCHOOL_MCHID, amount_fen: 100 }],
        refundsInDay: [{ out_refund_no: 'RA', out_trade_no: 'A', amount_fen: 30 }],
        refundsListed: [{ out_refund_no: 'RA', out_trade_no: 'A', sub_mchid: SCHOOL_MCHID, amount_fen: 30 }],
      },
      [
        { kind: 'amount_differs', line: 'payment', out_trade_no: 'A', out_refund_no: null, ours_fen: 100, theirs_fen: 101 },
        { kind: 'amount_differs', line: 'refund', out_trade_no: 'A', out_refund_no: 'RA', ours_fen: 30, theirs_fen: 29 },
      ],
    ],
  ])('%s', (_, b, ours, expected) => {
    expect(compareBill(SCHOOL_MCHID, b, ours)).toEqual(expected);
  });
});

describe('reconciling through the sandbox', () => {
  it('payments and a refund of each merchant, moved to the bill day: matched, no differences', async () => {
    pay.t1 = await topUp(10_000);
    pay.t2 = await topUp(5_000);
    const r = await t
      .post('/api/index/refundSchoolPayment', operator)
      .send({ school_id: schoolId, out_trade_no: pay.t1, amount_fen: 3_000, reason: '多充了', request_id: rid() });
    expect(r.body.code).toBe(Code.Ok);
    for (const k of ['c1', 'c2', 'c3', 'c4']) pay[k] = (await contractPaid()).no;
    // the guardian cancels c2: the school refunds it in full through its sub-merchant
    const c2 = await t.sql.query(`select ref_id from payments where out_trade_no = $1`, [pay.c2]);
    const info = (await t.get(`/api/index/contractInfo?id=${c2.rows[0].ref_id}`, admin)).body.data;
    const cancel = await t
      .post('/api/index/cancellationContract', admin)
      .send({ id: info.id, version: info.version, reason: '家长退费', refund_fen: 12_000, request_id: rid() });
    expect(cancel.body).toMatchObject({ code: Code.Ok, data: { status: 'cancelled', refunded_fen: 12_000 } });
    const { rows } = await t.sql.query(
      `select p.out_trade_no, r.out_refund_no, r.state, p.sub_mchid, p.payee from payment_refunds r join payments p on p.id = r.payment_id`,
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        { out_trade_no: pay.t1, out_refund_no: expect.any(String), state: 'succeeded', sub_mchid: SANDBOX_PLATFORM_SUB_MCHID, payee: 'platform' },
        { out_trade_no: pay.c2, out_refund_no: expect.any(String), state: 'succeeded', sub_mchid: SCHOOL_MCHID, payee: 'school' },
      ]),
    );
    for (const r of rows) refunds[r.out_trade_no] = r.out_refund_no;

    let minute = 0;
    for (const no of Object.values(pay)) await moveToDay(no, at(`12:${String(minute++).padStart(2, '0')}`));

    const school = await checkBill({ school_id: schoolId, bill_date: day });
    expect(school.body).toMatchObject({
      code: Code.Ok,
      data: {
        bill_date: day,
        sub_mchid: SCHOOL_MCHID,
        school_id: schoolId,
        school_name: '阳光晚托中心（演示）',
        state: 'matched',
        bill_lines: 5,
        payments_fen: 48_000,
        refunds_fen: 12_000,
        differences: 0,
        error: null,
      },
    });
    const platform = await checkBill({ bill_date: day });
    expect(platform.body).toMatchObject({
      code: Code.Ok,
      data: {
        sub_mchid: SANDBOX_PLATFORM_SUB_MCHID,
        school_id: null,
        school_name: null,
        state: 'matched',
        bill_lines: 3,
        payments_fen: 15_000,
        refunds_fen: 3_000,
      },
    });
    expect(await differencesOf('')).toEqual([]);
  });

  it('a difference of each kind is listed once with its line and amounts; one gone stays as it was', async () => {
    // c3: our record lost its payment (a notify never applied)
    await t.sql.query(`update payments set state = 'pending', paid_at = null where out_trade_no = $1`, [pay.c3]);
    // c4: WeChat's order says another amount
    await t.sql.query(`update wechatpay_sandbox_orders set amount_fen = amount_fen + 1 where out_trade_no = $1`, [pay.c4]);
    // an order the sandbox has paid that we never made
    const stranger = 'P20261206000000STRANGER0001';
    await t.sql.query(
      `insert into wechatpay_sandbox_orders (out_trade_no, mchid, appid, description, amount_fen, notify_url, state, transaction_id, paid_at, sp_mchid, sub_mchid)
       select $1, mchid, appid, '陌生订单', 777, notify_url, 'SUCCESS', '4200000000000000000000777', $2, sp_mchid, sub_mchid from wechatpay_sandbox_orders where out_trade_no = $3`,
      [stranger, at('13:00'), pay.c1],
    );
    // c1: our amount differs
    await t.sql.query(`update payments set amount_fen = 11999 where out_trade_no = $1`, [pay.c1]);
    // c2's refund: WeChat finished it on another day
    await t.sql.query(`update wechatpay_sandbox_refunds set succeeded_at = $2 where out_refund_no = $1`, [
      refunds[pay.c2],
      new Date(at('23:59:59').getTime() + 2000),
    ]);
    // t2: WeChat has it on another day; t1's refund: our amount differs
    await t.sql.query(`update wechatpay_sandbox_orders set paid_at = $2 where out_trade_no = $1`, [pay.t2, new Date(at('00:00').getTime() - 1000)]);
    await t.sql.query(`update payment_refunds set amount_fen = 2999 where out_refund_no = $1`, [refunds[pay.t1]]);

    const school = (await checkBill({ school_id: schoolId, bill_date: day })).body.data as BillCheckRow;
    expect(school).toMatchObject({ state: 'differences', differences: 5, bill_lines: 5, payments_fen: 12_000 * 4 + 1 + 777 });
    const platform = (await checkBill({ bill_date: day })).body.data as BillCheckRow;
    expect(platform).toMatchObject({ state: 'differences', differences: 2, bill_lines: 2 });

    const key = (d: BillDifferenceRow) => `${d.line} ${d.kind} ${d.out_trade_no}`;
    const expected = [
      { check_id: school.id, line: 'payment', kind: 'missing_here', out_trade_no: pay.c3, out_refund_no: null, ours_fen: null, theirs_fen: 12_000 },
      {
        check_id: school.id,
        line: 'payment',
        kind: 'amount_differs',
        out_trade_no: pay.c4,
        out_refund_no: null,
        ours_fen: 12_000,
        theirs_fen: 12_001,
      },
      { check_id: school.id, line: 'payment', kind: 'missing_here', out_trade_no: stranger, out_refund_no: null, ours_fen: null, theirs_fen: 777 },
      {
        check_id: school.id,
        line: 'payment',
        kind: 'amount_differs',
        out_trade_no: pay.c1,
        out_refund_no: null,
        ours_fen: 11_999,
        theirs_fen: 12_000,
      },
      {
        check_id: school.id,
        line: 'refund',
        kind: 'missing_there',
        out_trade_no: pay.c2,
        out_refund_no: refunds[pay.c2],
        ours_fen: 12_000,
        theirs_fen: null,
      },
      { check_id: platform.id, line: 'payment', kind: 'missing_there', out_trade_no: pay.t2, out_refund_no: null, ours_fen: 5_000, theirs_fen: null },
      {
        check_id: platform.id,
        line: 'refund',
        kind: 'amount_differs',
        out_trade_no: pay.t1,
        out_refund_no: refunds[pay.t1],
        ours_fen: 2_999,
        theirs_fen: 3_000,
      },
    ];
    const listed = await differencesOf('');
    expect([...listed].sort((a, b) => key(a).localeCompare(key(b)))).toEqual(
      expected
        .map((e) => ({
          ...e,
          id: expect.any(Number),
          bill_date: day,
          sub_mchid: e.check_id === school.id ? SCHOOL_MCHID : SANDBOX_PLATFORM_SUB_MCHID,
          school_id: e.check_id === school.id ? schoolId : null,
          school_name: e.check_id === school.id ? '阳光晚托中心（演示）' : null,
          state: 'open',
          resolution: null,
          resolved_at: null,
          resolved_by_name: null,
          created_at: expect.any(String),
        }))
        .sort((a, b) => key(a as never).localeCompare(key(b as never))),
    );
    expect((await differencesOf(`school_id=${schoolId}`)).length).toBe(5);
    expect((await differencesOf(`check_id=${platform.id}`)).length).toBe(2);

    // checked again: nothing listed twice, the counts replaced
    const before = await counts();
    const again = (await checkBill({ school_id: schoolId, bill_date: day })).body.data as BillCheckRow;
    expect(again).toMatchObject({ id: school.id, state: 'differences', differences: 5 });
    expect(await counts()).toMatchObject({ checks: before.checks, differences: before.differences });

    // c1 fixed: the check counts 4, its difference stays for the operator to resolve
    await t.sql.query(`update payments set amount_fen = 12000 where out_trade_no = $1`, [pay.c1]);
    expect((await checkBill({ school_id: schoolId, bill_date: day })).body.data).toMatchObject({ id: school.id, differences: 4 });
    expect((await differencesOf(`school_id=${schoolId}&state=open`)).map((d) => d.out_trade_no)).toContain(pay.c1);
    expect((await t.get('/api/index/billChecks?state=differences', operator)).body.data).toMatchObject({ total: 2 });

    // a new difference, checked three times at once: listed once (the check's row lock orders them)
    await t.sql.query(`update payments set amount_fen = 11998 where out_trade_no = $1`, [pay.c1]);
    const concurrent = await Promise.all([1, 2, 3].map(() => checkBill({ school_id: schoolId, bill_date: day })));
    expect(concurrent.map((r) => r.body.data.differences)).toEqual([5, 5, 5]);
    expect((await counts()).differences).toBe(before.differences);
    await t.sql.query(`update payments set amount_fen = 12000 where out_trade_no = $1`, [pay.c1]);
    expect((await checkBill({ school_id: schoolId, bill_date: day })).body.data).toMatchObject({ differences: 4 });
  });

  it('the operator resolves a difference once: who and when kept, open ones listed first', async () => {
    const [c1] = (await differencesOf(`school_id=${schoolId}`)).filter((d) => d.out_trade_no === pay.c1);
    const res = await t.post('/api/index/resolveBillDifference', operator).send({ id: c1.id, resolution: '我方金额录入错误，已更正' });
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: {
        id: c1.id,
        state: 'resolved',
        resolution: '我方金额录入错误，已更正',
        resolved_by_name: expect.any(String),
        resolved_at: expect.any(String),
      },
    });
    const before = await counts();
    expect((await t.post('/api/index/resolveBillDifference', operator).send({ id: c1.id, resolution: '再来一次' })).body).toMatchObject({
      code: Code.Error,
      msg: '该差异已处理',
    });
    expect((await t.post('/api/index/resolveBillDifference', operator).send({ id: 999_999, resolution: '没有这条' })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该对账差异',
    });
    expect(await counts()).toEqual(before);
    const listed = await differencesOf('');
    expect(listed.at(-1)).toMatchObject({ id: c1.id, state: 'resolved' });
    expect(listed.slice(0, -1).every((d) => d.state === 'open')).toBe(true);
    expect((await differencesOf('state=resolved')).map((d) => d.id)).toEqual([c1.id]);
  });

  it('the open differences are exported by payee', async () => {
    const samples = parseSamples((await t.get('/metrics')).text);
    expect(sample(samples, 'payment_bill_differences_open', { payee: 'school' })).toBe(4);
    expect(sample(samples, 'payment_bill_differences_open', { payee: 'platform' })).toBe(2);
  });

  it('the hourly run: nothing before 10:00 China time; then every merchant not reconciled yet, once', async () => {
    const service = t.app.get(ReconciliationService);
    const fetch = jest.spyOn(t.app.get(PaymentProvider), 'tradeBill');
    try {
      const next = addDays(day, 1);
      // a failed check is tried again; the school's (differences) is not
      await t.sql.query(`update payment_bill_checks set state = 'failed', error = 'test' where sub_mchid = $1`, [SANDBOX_PLATFORM_SUB_MCHID]);
      const before = await counts();
      expect(await service.runDaily(instantOf(next, '09:00', WECHAT_BILL_ZONE))).toBeNull();
      expect(fetch).not.toHaveBeenCalled();
      expect(await counts()).toEqual(before);

      expect(await service.runDaily(instantOf(next, '10:30', WECHAT_BILL_ZONE))).toEqual({ bill_date: day, checked: 2, not_ready: 0 });
      expect(fetch.mock.calls.map((c) => c[0]).sort()).toEqual([SANDBOX_PLATFORM_SUB_MCHID, OTHER_MCHID].sort());
      const { rows } = await t.sql.query(
        `select sub_mchid, school_id, state, bill_lines, differences from payment_bill_checks where bill_date = $1 order by sub_mchid`,
        [day],
      );
      expect(rows).toEqual([
        { sub_mchid: SANDBOX_PLATFORM_SUB_MCHID, school_id: null, state: 'differences', bill_lines: 2, differences: 2 },
        { sub_mchid: SCHOOL_MCHID, school_id: schoolId, state: 'differences', bill_lines: 5, differences: 4 },
        // the other school had no trade that day: WeChat has no bill, which matches nothing recorded
        { sub_mchid: OTHER_MCHID, school_id: other.schoolId, state: 'matched', bill_lines: 0, differences: 0 },
      ]);

      fetch.mockClear();
      const done = await counts();
      expect(await service.runDaily(instantOf(next, '11:30', WECHAT_BILL_ZONE))).toEqual({ bill_date: day, checked: 0, not_ready: 0 });
      expect(fetch).not.toHaveBeenCalled();
      expect(await counts()).toEqual(done);
    } finally {
      fetch.mockRestore();
    }
  });

  it('a bill that cannot be read is a failed check with its error, nothing compared', async () => {
    const fetch = jest.spyOn(t.app.get(PaymentProvider), 'tradeBill').mockResolvedValueOnce('交易时间,公众账号ID\n`2026');
    try {
      const before = await counts();
      const res = await checkBill({ school_id: other.schoolId, bill_date: day });
      expect(res.body).toMatchObject({
        code: Code.Ok,
        data: {
          sub_mchid: OTHER_MCHID,
          state: 'failed',
          bill_lines: 0,
          differences: 0,
          error: expect.stringContaining("not the trade bill's header"),
        },
      });
      expect(await counts()).toMatchObject({ checks: before.checks, differences: before.differences });
    } finally {
      fetch.mockRestore();
    }
  });

  it('a bill WeChat is still making: the operator is told to wait, the hourly run leaves no row and asks next hour', async () => {
    const provider = t.app.get(PaymentProvider);
    const fetch = jest.spyOn(provider, 'tradeBill').mockRejectedValue(new BillNotReady('STATEMENT_CREATING'));
    try {
      const before = await counts();
      expect((await checkBill({ bill_date: addDays(day, -1) })).body).toMatchObject({
        code: Code.Error,
        msg: '微信支付尚未生成该日账单（次日 10 点后可下载），请稍后再对账',
      });
      const run = await t.app.get(ReconciliationService).runDaily(instantOf(day, '10:05', WECHAT_BILL_ZONE));
      // the day before's merchants: the platform's own and both schools' (recorded three days before)
      expect(run).toEqual({ bill_date: addDays(day, -1), checked: 0, not_ready: 3 });
      expect(await counts()).toEqual(before);
    } finally {
      fetch.mockRestore();
    }
  });

  it('refuses a day not over, a school without a merchant, other roles, and bad input — writing nothing', async () => {
    const before = await counts();
    expect((await checkBill({ bill_date: billDateOf(new Date()) })).body).toMatchObject({ code: Code.Error, msg: '只能对已结束的日期对账' });
    expect((await checkBill({ bill_date: addDays(billDateOf(new Date()), 3) })).body).toMatchObject({
      code: Code.Error,
      msg: '只能对已结束的日期对账',
    });
    const third = await t.otherSchool();
    expect((await checkBill({ school_id: third.schoolId, bill_date: day })).body).toMatchObject({
      code: Code.Error,
      msg: '本校尚未开通微信在线缴费，请到学校前台缴费',
    });
    const [open] = await differencesOf('state=open');
    for (const token of [teacher, admin]) {
      expect((await t.get('/api/index/billChecks', token)).body).toMatchObject(DENIED);
      expect((await t.get('/api/index/billDifferences', token)).body).toMatchObject(DENIED);
      expect((await t.post('/api/index/resolveBillDifference', token).send({ id: open.id, resolution: '不该能改' })).body).toMatchObject(DENIED);
      expect((await checkBill({ bill_date: day }, token)).body).toMatchObject(DENIED);
    }
    expect((await t.get('/api/index/billChecks')).body.code).toBe(Code.Untoken);
    for (const bad of [{ bill_date: '2026-13-01' }, { bill_date: day, school_id: 'x' }, {}, { bill_date: day, extra: 1 }]) {
      expect((await checkBill(bad)).body.code).toBe(Code.Error);
    }
    for (const bad of [{ id: open.id, resolution: '' }, { id: 'x', resolution: '已处理' }, { resolution: '已处理' }]) {
      expect((await t.post('/api/index/resolveBillDifference', operator).send(bad)).body.code).toBe(Code.Error);
    }
    expect((await t.get('/api/index/billChecks?state=bogus', operator)).body).toMatchObject({ code: Code.Error, msg: '状态无效' });
    expect((await t.get('/api/index/billDifferences?check_id=abc', operator)).body.code).toBe(Code.Error);
    expect(await counts()).toEqual(before);
    expect((await differencesOf(`check_id=${open.check_id}`)).find((d) => d.id === open.id)).toMatchObject({ state: 'open' });
  });

  it('the lists are paged on the server', async () => {
    const first = (await t.get('/api/index/billChecks?limit=2&page=1', operator)).body.data;
    const second = (await t.get('/api/index/billChecks?limit=2&page=2', operator)).body.data;
    expect(first).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(first.list).toHaveLength(2);
    expect(second.list).toHaveLength(1);
    expect(new Set([...first.list, ...second.list].map((c: BillCheckRow) => c.sub_mchid)).size).toBe(3);
    const d = (await t.get('/api/index/billDifferences?limit=3&page=3', operator)).body.data;
    expect(d).toMatchObject({ total: 7, page: 3, limit: 3 });
    expect(d.list).toHaveLength(1);
    expect(d.list[0].state).toBe('resolved');
  });

  it('a school that changed its merchant during the day: each of its merchants of that day is reconciled, the last answered', async () => {
    // the demo's own sub-merchant was the school's until 08:00 of the bill day (it had no trade: no bill)
    await t.sql.query(`update school_sub_merchants set recorded_at = $2, ended_at = $3 where sub_mchid = $1`, [
      '1900000301',
      instantOf(addDays(day, -10), '09:00', WECHAT_BILL_ZONE),
      at('08:00'),
    ]);
    await t.sql.query(`update school_sub_merchants set recorded_at = $2 where sub_mchid = $1`, [SCHOOL_MCHID, at('08:00')]);
    const res = await checkBill({ school_id: schoolId, bill_date: day });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { sub_mchid: SCHOOL_MCHID, school_id: schoolId, state: 'differences' } });
    const { rows } = await t.sql.query(
      `select school_id, state, bill_lines from payment_bill_checks where sub_mchid = '1900000301' and bill_date = $1`,
      [day],
    );
    expect(rows).toEqual([{ school_id: schoolId, state: 'matched', bill_lines: 0 }]);
  });
});
