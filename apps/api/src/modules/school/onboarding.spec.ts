import { ApplicationStatus, Code, TRIAL_DAYS } from '@wantuo/shared';
import { eventually, snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let operator: string;
beforeAll(async () => {
  t = await startTestApp({ runJobs: true, redis: false });
  operator = await t.login('operator');
});
afterAll(() => t.close());

/** The newest text of `template` to `mobile`, read at the phone (the dev outbox): the table keeps a sent code masked. */
const outbox = (mobile: string, template: string) =>
  eventually(async () => {
    const { list } = (await t.get(`/api/dev/sms-outbox?mobile=${mobile}`)).body.data as {
      list: Array<{ template: string; content: string; params: Record<string, string> }>;
    };
    return list.find((m) => m.template === template);
  });

async function apply(mobile: string, institution_name: string) {
  const res = await t.post('/api/index/applyAccount').send({ institution_name, contact_name: '周老师', mobile, city: '苏州' });
  expect(res.body.code).toBe(Code.Ok);
  return res.body.data.id as number;
}

it('approving an application creates the school with a trial and its admin on the applicant’s mobile, and tells them how to sign in', async () => {
  const mobile = '13700000011';
  const id = await apply(mobile, '星星晚托');
  const res = await t.post('/api/index/handleAccountApplication', operator).send({ id, version: 1, status: ApplicationStatus.Approved });
  expect(res.body).toMatchObject({ code: Code.Ok, data: { status: ApplicationStatus.Approved, school_id: expect.any(Number) } });
  const schoolId = res.body.data.school_id;
  const { rows } = await t.sql.query(
    `select s.name, s.city, s.timezone, s.contact_name, extract(epoch from s.service_expires_at - now()) / 86400 as days,
            u.role, u.mobile, u.password_hash, u.username
       from schools s join users u on u.school_id = s.id where s.id = $1`,
    [schoolId],
  );
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    name: '星星晚托',
    city: '苏州',
    timezone: 'Asia/Shanghai',
    contact_name: '周老师',
    role: 1,
    mobile,
    password_hash: null,
  });
  expect(Math.round(rows[0].days)).toBe(TRIAL_DAYS);
  const welcome = await outbox(mobile, 'school.welcome');
  expect(welcome.content).toContain('星星晚托');
  expect(welcome.content).toContain('短信登录');

  // the new admin signs in with an SMS code and sets a password through "forgot password"
  expect((await t.post('/api/sms/send').send({ mobile, event: 'login' })).body.code).toBe(Code.Ok);
  const login = await outbox(mobile, 'code.login');
  const signedIn = await t.post('/api/index/mobilelogin').send({ mobile, code: login.params.code });
  expect(signedIn.body).toMatchObject({ code: Code.Ok, data: { userinfo: { role: 1, school_id: schoolId } } });
  const info = await t.get('/api/index/schoolInfo', signedIn.body.data.userinfo.token);
  expect(info.body.data).toMatchObject({ name: '星星晚托', balance_fen: 0, service_state: 'expiring', has_deal_pwd: false });
});

it('a rejection creates nothing; a second approval of the same application is refused and creates nothing', async () => {
  const id = await apply('13700000012', '月亮晚托');
  const before = await snapshot(t.sql);
  const rejected = await t
    .post('/api/index/handleAccountApplication', operator)
    .send({ id, version: 1, status: ApplicationStatus.Rejected, note: '资料不全' });
  expect(rejected.body).toMatchObject({ code: Code.Ok, data: { school_id: null } });
  const after = await snapshot(t.sql);
  expect(after.schools).toBe(before.schools);
  expect(after.users).toBe(before.users);
  const again = await t.post('/api/index/handleAccountApplication', operator).send({ id, version: 2, status: ApplicationStatus.Approved });
  expect(again.body.code).toBe(Code.Error);
  expect((await snapshot(t.sql)).schools).toBe(before.schools);
});

it('two operators approving the same application at once create one school', async () => {
  const id = await apply('13700000013', '太阳晚托');
  const before = await snapshot(t.sql);
  const results = await Promise.all(
    [1, 2, 3].map(() => t.post('/api/index/handleAccountApplication', operator).send({ id, version: 1, status: ApplicationStatus.Approved })),
  );
  expect(results.filter((r) => r.body.code === Code.Ok)).toHaveLength(1);
  expect((await snapshot(t.sql)).schools).toBe(before.schools + 1);
});

describe('the operator’s schools', () => {
  it('lists schools with balance, expiry, price and head counts; only the operator may', async () => {
    const res = await t.get('/api/index/schoolList?keyword=星星&limit=10', operator);
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: { total: 1, list: [{ name: '星星晚托', balance_fen: 0, staff: 1, students: 0, price: { term_fen: expect.any(Number) } }] },
    });
    const all = await t.get('/api/index/schoolList', operator);
    expect(all.body.data.total).toBeGreaterThanOrEqual(3);
    for (const who of ['admin', 'teacher', 'parent'] as const) {
      expect((await t.get('/api/index/schoolList', await t.login(who))).body.code).toBe(Code.Error);
    }
  });

  it('sets a school’s price, which the school then pays; bad input and unknown schools write nothing', async () => {
    const id = t.demo.schoolId;
    const admin = await t.login('admin');
    const before = await snapshot(t.sql);
    for (const body of [
      { school_id: id, term_fen: 0, year_fen: 1 },
      { school_id: id, term_fen: 1.5, year_fen: 1 },
      { school_id: id, term_fen: 1 },
    ]) {
      expect((await t.post('/api/index/setSchoolPrice', operator).send(body)).body.code).toBe(Code.Error);
    }
    expect((await t.post('/api/index/setSchoolPrice', operator).send({ school_id: 999999, term_fen: 1, year_fen: 1 })).body.msg).toBe('未找到机构');
    expect((await t.post('/api/index/setSchoolPrice', admin).send({ school_id: id, term_fen: 1, year_fen: 1 })).body.code).toBe(Code.Error);
    expect(await snapshot(t.sql)).toEqual(before);
    const ok = await t.post('/api/index/setSchoolPrice', operator).send({ school_id: id, term_fen: 150000, year_fen: 280000 });
    expect(ok.body.data).toEqual({ term_fen: 150000, year_fen: 280000 });
    expect((await t.get('/api/index/getSchoolPrice', admin)).body.data).toEqual({ term_fen: 150000, year_fen: 280000 });
  });

  it('adjusts a balance with a reason, once per request_id, never below zero', async () => {
    const id = t.demo.schoolId;
    const body = { school_id: id, amount_fen: 50000, reason: '线下转账补录', request_id: 'adjust-0001' };
    const credit = await t.post('/api/index/adjustSchoolBalance', operator).send(body);
    expect(credit.body).toMatchObject({ code: Code.Ok, data: { balance_fen: 50000 } });
    expect((await t.post('/api/index/adjustSchoolBalance', operator).send(body)).body.data).toEqual(credit.body.data);
    const before = await snapshot(t.sql);
    const over = await t.post('/api/index/adjustSchoolBalance', operator).send({ ...body, amount_fen: -50001, request_id: 'adjust-0002' });
    expect(over.body.msg).toContain('余额不足');
    expect((await t.post('/api/index/adjustSchoolBalance', operator).send({ ...body, reason: '', request_id: 'adjust-0003' })).body.code).toBe(
      Code.Error,
    );
    expect(await snapshot(t.sql)).toEqual(before);
    const ledger = await t.get(`/api/index/schoolLedger?school_id=${id}`, operator);
    expect(ledger.body.data).toMatchObject({
      total: 1,
      list: [{ type: 'adjustment', amount_fen: 50000, balance_after_fen: 50000, note: '线下转账补录', actor_name: expect.any(String) }],
    });
  });
});
