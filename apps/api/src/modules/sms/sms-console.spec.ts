import { Code, SMS_KIND_NAMES } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

/** The SMS consoles: smsOverview (operator), smsUsage and smsMessages (operator: every school; admin: their own). */
let t: TestApp;
let other: { schoolId: number; adminToken: string };
const DENIED = '当前账号没有权限执行此操作';

beforeAll(async () => {
  t = await startTestApp({ runJobs: false });
  other = await t.otherSchool();
  // texts of the demo school (two days), of the other school and of the platform (a sign-in code), in every state
  // "today" is the school's (Asia/Shanghai) date, never the database session's
  await t.sql.query(
    `with d as (select (now() at time zone 'Asia/Shanghai')::date as today)
     insert into sms_messages (school_id, day, mobile, kind, content, provider, state, units, provider_message_id, error_code, error_message)
     values ($1, (select today from d), '13900001001', 'notice.important', '通知', 'aliyun', 'delivered', 1, 'B1', null, null),
            ($1, (select today from d), '13900001002', 'notice.important', '通知', 'aliyun', 'failed', 1, 'B1', 'MK:0001', '空号'),
            ($1, (select today from d), '13900001003', 'alert.raised', '提醒', 'aliyun', 'failed', 0, null, 'isv.BUSINESS_LIMIT_CONTROL', '触发号码天级流控'),
            ($1, (select today from d) - 1, '13900001004', 'contract.expiring', '合同', 'tencent', 'sent', 2, 'S1', null, null),
            ($1, (select today from d), '13900001005', 'notice.remind', '提醒', 'aliyun', 'queued', 0, null, null, null),
            ($2, (select today from d), '13900002001', 'notice.important', '另一所', 'aliyun', 'delivered', 1, 'B2', null, null),
            (null, (select today from d), '13900003001', 'code.login', '验证码', 'aliyun', 'delivered', 1, 'B3', null, null)`,
    [t.demo.schoolId, other.schoolId],
  );
});
afterAll(() => t.close());

describe('smsUsage', () => {
  it("an admin sees their school's texts per day, with the totals of the range", async () => {
    const res = await t.get('/api/index/smsUsage', await t.login('admin'));
    expect(res.body.code).toBe(Code.Ok);
    const { list, total, totals } = res.body.data;
    expect(total).toBe(2);
    expect(list.every((r: { school_id: number }) => r.school_id === t.demo.schoolId)).toBe(true);
    expect(list[0]).toMatchObject({ total: 4, sent: 1, delivered: 1, failed: 2, waiting: 1, units: 2 });
    expect(list[1]).toMatchObject({ total: 1, sent: 1, delivered: 0, failed: 0, waiting: 0, units: 2 });
    expect(totals).toEqual({ total: 5, sent: 2, delivered: 1, failed: 2, waiting: 1, units: 4 });
  });

  it("asks for another school's id and still gets only their own", async () => {
    const res = await t.get(`/api/index/smsUsage?school_id=${other.schoolId}`, await t.login('admin'));
    expect(res.body.data.totals.total).toBe(5);
    const theirs = await t.get('/api/index/smsUsage', other.adminToken);
    expect(theirs.body.data).toMatchObject({ total: 1, totals: { total: 1, delivered: 1 } });
  });

  it('the operator sees every school and the platform (null school), or one school', async () => {
    const op = await t.login('operator');
    const all = await t.get('/api/index/smsUsage', op);
    expect(all.body.data.totals.total).toBe(7);
    expect(
      all.body.data.list.some((r: { school_id: number | null; school_name: string | null }) => r.school_id === null && r.school_name === null),
    ).toBe(true);
    const one = await t.get(`/api/index/smsUsage?school_id=${other.schoolId}`, op);
    expect(one.body.data.list).toEqual([expect.objectContaining({ school_id: other.schoolId, school_name: '另一所机构', total: 1 })]);
  });

  it('refuses bad ranges with code 100 and a clear message; teachers and parents may not read it', async () => {
    const admin = await t.login('admin');
    const before = await snapshot(t.sql);
    for (const [q, msg] of [
      ['from=2026-13-01', '日期格式需为 YYYY-MM-DD'],
      ['from=2026-11-10&to=2026-11-01', '结束日期不能早于开始日期'],
      ['from=2026-01-01&to=2026-11-01', '日期范围最多 92 天'],
      ['school_id=abc', '机构 ID 需为正整数'],
    ]) {
      const res = await t.get(`/api/index/smsUsage?${q}`, admin);
      expect({ q, code: res.body.code, msg: res.body.msg }).toEqual({ q, code: Code.Error, msg });
    }
    for (const user of ['teacher', 'adviser', 'parent'] as const) {
      expect((await t.get('/api/index/smsUsage', await t.login(user))).body).toMatchObject({ code: Code.Error, msg: DENIED });
    }
    const { user_tokens: _a, user_activity: _b, ...after } = await snapshot(t.sql);
    const { user_tokens: _c, user_activity: _d, ...was } = before;
    expect(after).toEqual(was);
  });
});

describe('smsMessages', () => {
  it("an admin finds their school's failed texts with the provider's code and message", async () => {
    const res = await t.get('/api/index/smsMessages?state=failed', await t.login('admin'));
    expect(res.body.data.total).toBe(2);
    expect(res.body.data.list.map((m: { mobile: string; error_code: string }) => [m.mobile, m.error_code])).toEqual([
      ['13900001003', 'isv.BUSINESS_LIMIT_CONTROL'],
      ['13900001002', 'MK:0001'],
    ]);
    const byMobile = await t.get('/api/index/smsMessages?mobile=1004', await t.login('admin'));
    expect(byMobile.body.data.list).toEqual([expect.objectContaining({ mobile: '13900001004', kind: 'contract.expiring', provider: 'tencent' })]);
    const byKind = await t.get('/api/index/smsMessages?kind=alert.raised&provider=aliyun', await t.login('admin'));
    expect(byKind.body.data.total).toBe(1);
  });

  it("never shows another school's texts to an admin, whatever the query", async () => {
    const res = await t.get(`/api/index/smsMessages?school_id=${other.schoolId}&mobile=13900002001`, await t.login('admin'));
    expect(res.body.data).toMatchObject({ total: 0, list: [] });
  });

  it('the operator reads any school, or all', async () => {
    const op = await t.login('operator');
    expect((await t.get('/api/index/smsMessages', op)).body.data.total).toBe(7);
    expect((await t.get(`/api/index/smsMessages?school_id=${other.schoolId}`, op)).body.data.total).toBe(1);
  });

  it('refuses bad filters with code 100; teachers and parents may not read it', async () => {
    const admin = await t.login('admin');
    for (const [q, msg] of [
      ['state=lost', '状态只能是 queued、sending、sent、delivered 或 failed'],
      ['kind=spam', '未知的短信类型'],
      ['provider=sms.cn', '短信通道只能是 aliyun、tencent 或 outbox'],
      ['mobile=1a', '手机号筛选需为 3-11 位数字'],
      ['limit=1000', undefined],
    ] as const) {
      const res = await t.get(`/api/index/smsMessages?${q}`, admin);
      expect(res.body.code).toBe(Code.Error);
      if (msg) expect(res.body.msg).toBe(msg);
    }
    for (const user of ['teacher', 'parent'] as const) {
      expect((await t.get('/api/index/smsMessages', await t.login(user))).body).toMatchObject({ code: Code.Error, msg: DENIED });
    }
  });
});

describe('smsOverview', () => {
  it('the operator sees the provider, each gateway with its templates and what is missing, and today', async () => {
    const res = await t.get('/api/index/smsOverview', await t.login('operator'));
    expect(res.body.code).toBe(Code.Ok);
    expect(res.body.data).toMatchObject({ provider: 'outbox', fallback: null, gateways: [], report_paths: [] });
    expect(res.body.data.today.total).toBeGreaterThanOrEqual(5);
  });

  it('an admin may not read it', async () => {
    expect((await t.get('/api/index/smsOverview', await t.login('admin'))).body).toMatchObject({ code: Code.Error, msg: DENIED });
  });
});

describe('smsOverview with the gateways configured', () => {
  let g: TestApp;
  beforeAll(async () => {
    g = await startTestApp({
      runJobs: false,
      env: {
        SMS_PROVIDER: 'aliyun',
        SMS_FALLBACK_PROVIDER: 'tencent',
        SMS_TENCENT_SECRET_ID: 'AKIDexample',
        SMS_TENCENT_SECRET_KEY: 'secret',
        SMS_TENCENT_SDK_APP_ID: '1400000001',
        SMS_TENCENT_SIGN_NAME: '晚托平台',
        SMS_TENCENT_TEMPLATES: '{"code.login":"100001","alert.raised":"100002"}',
      },
    });
  });
  afterAll(() => g.close());

  it('lists the kinds each gateway has no template for', async () => {
    const res = await g.get('/api/index/smsOverview', await g.login('operator'));
    const { gateways, report_paths, provider, fallback } = res.body.data;
    expect({ provider, fallback }).toEqual({ provider: 'aliyun', fallback: 'tencent' });
    const aliyun = gateways.find((x: { provider: string }) => x.provider === 'aliyun');
    const tencent = gateways.find((x: { provider: string }) => x.provider === 'tencent');
    expect(aliyun).toMatchObject({ sandbox: true, missing: 0 });
    // every kind but the two configured
    expect(tencent).toMatchObject({ sandbox: false, missing: SMS_KIND_NAMES.length - 2 });
    expect(tencent.templates).toContainEqual({ kind: 'alert.raised', code: '100002' });
    expect(tencent.templates).toContainEqual({ kind: 'notice.important', code: null });
    expect(report_paths).toContainEqual({ provider: 'tencent', path: '/api/sms-report/tencent' });
  });
});
