import { ApplicationStatus, Code, TRIAL_DAYS } from '@wantuo/shared';
import { eventually, snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let operator: string;
beforeAll(async () => {
  t = await startTestApp({ runJobs: true, redis: false });
  operator = await t.login('operator');
});
afterAll(() => t.close());

const outbox = (mobile: string, template: string) =>
  eventually(async () => {
    const r = await t.sql.query(`select content, params from sms_outbox where mobile = $1 and template = $2 order by id desc limit 1`, [mobile, template]);
    return r.rows[0] as { content: string; params: Record<string, string> } | undefined;
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
  expect(rows[0]).toMatchObject({ name: '星星晚托', city: '苏州', timezone: 'Asia/Shanghai', contact_name: '周老师', role: 1, mobile, password_hash: null });
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
  const rejected = await t.post('/api/index/handleAccountApplication', operator).send({ id, version: 1, status: ApplicationStatus.Rejected, note: '资料不全' });
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
  const results = await Promise.all([1, 2, 3].map(() => t.post('/api/index/handleAccountApplication', operator).send({ id, version: 1, status: ApplicationStatus.Approved })));
  expect(results.filter((r) => r.body.code === Code.Ok)).toHaveLength(1);
  expect((await snapshot(t.sql)).schools).toBe(before.schools + 1);
});
