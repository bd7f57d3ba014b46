import { Code, GRACE_DAYS, localDay } from '@wantuo/shared';
import { JobRegistry } from '../../core/jobs/job-registry';
import { eventually, startTestApp, type TestApp } from '../../../test/harness';
import { ServiceReminders } from './service-reminders';

let t: TestApp;
let schoolId: number;
let reminders: ServiceReminders;
const ADMIN_MOBILE = '13800000001';
const DAY = 86_400_000;

beforeAll(async () => {
  t = await startTestApp({ runJobs: true, redis: false });
  schoolId = t.demo.schoolId;
  reminders = t.app.get(ServiceReminders);
  // an old school in China: reminders are never sent on the day a school is created (the welcome SMS says the trial)
  await t.sql.query(`update schools set created_at = '2020-01-01', timezone = 'Asia/Shanghai' where id = $1`, [schoolId]);
});
afterAll(() => t.close());

/** The job as the scheduler runs it, at a given time. */
const runJob = (at: Date) => t.app.get(JobRegistry).run('school.remind', { at: at.toISOString() });

const setExpiry = (at: Date, id = schoolId) => t.sql.query(`update schools set service_expires_at = $2 where id = $1`, [id, at]);

/** A Shanghai wall-clock time (UTC+8, no daylight saving) as an instant. */
const shanghai = (iso: string) => new Date(`${iso}+08:00`);

/** The expiry texts a mobile has received, oldest first (they land in the outbox through the in-process sms job). */
async function texts(mobile = ADMIN_MOBILE): Promise<Array<{ content: string; params: Record<string, string> }>> {
  const { rows } = await t.sql.query(`select content, params from sms_outbox where mobile = $1 and template = 'school.expiring' order by id`, [
    mobile,
  ]);
  return rows;
}

/** Waits until `mobile` has `n` expiry texts, then a little longer to be sure no more arrive. */
async function expectTexts(n: number, mobile = ADMIN_MOBILE) {
  await eventually(async () => ((await texts(mobile)).length >= n ? true : null));
  await new Promise((r) => setTimeout(r, 150));
  const all = await texts(mobile);
  expect(all).toHaveLength(n);
  return all;
}

it('texts the admin 30, 7 and 1 days before the expiry, once each, and on no other day', async () => {
  const before = (await texts()).length;
  const expiry = shanghai('2027-04-09T18:00:00');
  await setExpiry(expiry);
  // every day from 32 days before to the day after, each run twice (the job runs every hour)
  for (let d = 32; d >= -1; d--) {
    const at = shanghai(`2027-04-09T09:00:00`);
    at.setTime(at.getTime() - d * DAY);
    await runJob(at);
    await runJob(new Date(at.getTime() + 3_600_000));
  }
  const sent = (await expectTexts(before + 3)).slice(before);
  expect(sent.map((s) => s.params.days)).toEqual(['30', '7', '1']);
  for (const s of sent) {
    expect(s.params).toMatchObject({ school: expect.any(String), date: '2027年4月9日', grace: String(GRACE_DAYS) });
    expect(s.content).toContain(`“${s.params.school}”`);
    expect(s.content).toContain('2027年4月9日');
    expect(s.content).toContain(`还有 ${s.params.days} 天`);
    expect(s.content).toContain('/principal_user');
    expect(s.content).toContain('续费');
  }
  const { rows } = await t.sql.query(`select days_before from service_reminders where school_id = $1 and expires_at = $2 order by days_before desc`, [
    schoolId,
    expiry,
  ]);
  expect(rows.map((r) => r.days_before)).toEqual([30, 7, 1]);
});

it('runs at the same time, twice or concurrently, send each reminder once', async () => {
  const before = (await texts()).length;
  await setExpiry(shanghai('2027-05-20T08:00:00'));
  const at = shanghai('2027-05-13T07:00:00');
  const runs = await Promise.all(Array.from({ length: 8 }, () => reminders.run(at)));
  expect(runs.flat()).toHaveLength(1);
  expect(runs.flat()[0]).toMatchObject({ school_id: schoolId, days_before: 7, mobiles: [ADMIN_MOBILE] });
  await Promise.all([runJob(at), runJob(at)]);
  await expectTexts(before + 1);
});

it('counts the school’s local dates, not UTC ones', async () => {
  const before = (await texts()).length;
  // 2027-06-02 00:30 in Shanghai is still June 1st in UTC
  await setExpiry(new Date('2027-06-01T16:30:00Z'));
  // May 25th 23:30 in Shanghai: 8 local days before (7 UTC days): nothing yet
  expect(await reminders.run(new Date('2027-05-25T15:30:00Z'))).toEqual([]);
  // an hour later it is May 26th in Shanghai: 7 days
  expect(await reminders.run(new Date('2027-05-25T16:30:00Z'))).toMatchObject([{ days_before: 7, date: '2027年6月2日' }]);
  // the same instant in a school whose day is still May 25th (UTC) is not due there
  await t.sql.query(`update schools set timezone = 'UTC' where id = $1`, [schoolId]);
  try {
    await setExpiry(new Date('2027-07-01T16:30:00Z'));
    expect(await reminders.run(new Date('2027-06-23T16:30:00Z'))).toEqual([]);
    expect(await reminders.run(new Date('2027-06-24T00:10:00Z'))).toMatchObject([{ days_before: 7, date: '2027年7月1日' }]);
  } finally {
    await t.sql.query(`update schools set timezone = 'Asia/Shanghai' where id = $1`, [schoolId]);
  }
  await expectTexts(before + 2);
});

it('a renewal moves the expiry and starts a new series; the old one is not sent any more', async () => {
  const admin = await t.login('admin');
  const expiry = shanghai('2027-08-31T12:00:00');
  await setExpiry(expiry);
  expect(await reminders.run(shanghai('2027-08-24T10:00:00'))).toMatchObject([{ days_before: 7 }]);
  // the admin renews a term from the balance: the service now ends 6 months after the old expiry
  expect((await t.post('/api/index/setDealPwd', admin).send({ deal_pwd: '246810', password: 'Demo@2026' })).body.code).toBe(Code.Ok);
  await t
    .post('/api/index/adjustSchoolBalance', await t.login('operator'))
    .send({ school_id: schoolId, amount_fen: 500_000, reason: '测试续费', request_id: 'remind-renewal-1' });
  const paid = await t.post('/api/index/balancePaySchool', admin).send({ period: 'term', deal_pwd: '246810' });
  expect(paid.body.code).toBe(Code.Ok);
  const renewed = new Date(paid.body.data.service_expires_at);
  expect(renewed.getTime()).toBeGreaterThan(expiry.getTime() + 150 * DAY);
  // the old expiry's 1-day reminder does not go out
  expect(await reminders.run(shanghai('2027-08-30T10:00:00'))).toEqual([]);
  // the new expiry's reminders do, the 7-day one included although the old series sent a 7-day one
  const dayBefore = (n: number) => shanghai(`${localDay(new Date(renewed.getTime() - n * DAY))}T10:00:00`);
  expect(await reminders.run(dayBefore(30))).toMatchObject([{ days_before: 30 }]);
  expect(await reminders.run(dayBefore(7))).toMatchObject([{ days_before: 7 }]);
  expect(await reminders.run(dayBefore(7))).toEqual([]);
  const { rows } = await t.sql.query(`select count(*)::int as n from service_reminders where school_id = $1 and expires_at = $2`, [
    schoolId,
    renewed,
  ]);
  expect(rows[0].n).toBe(2);
});

it('one run texts every due school, each to its own active admins only, and skips a school created that day', async () => {
  const other = await t.otherSchool();
  await t.sql.query(`update schools set created_at = '2020-01-01' where id = $1`, [other.schoolId]);
  // a second admin of the demo school; a deleted admin and a teacher, who get nothing
  await t.sql.query(
    `insert into users (school_id, role, username, name, nickname, mobile, deleted_at) values
       ($1, 1, 'second_admin', '副园长', '副园长', '13800000071', null),
       ($1, 1, 'gone_admin', '前园长', '前园长', '13800000072', now())`,
    [schoolId],
  );
  const young = (await t.sql.query(`insert into schools (name, created_at) values ('新机构', $1) returning id`, [shanghai('2027-10-01T09:00:00')]))
    .rows[0].id as number;
  await t.sql.query(
    `insert into users (school_id, role, username, name, nickname, mobile) values ($1, 1, 'young_admin', '新园长', '新园长', '13800000073')`,
    [young],
  );
  const expiry = shanghai('2027-10-31T20:00:00');
  for (const id of [schoolId, other.schoolId, young]) await setExpiry(expiry, id);
  const before = { admin: (await texts()).length, other: (await texts('13900000001')).length };

  const sent = await reminders.run(shanghai('2027-10-01T15:00:00'));
  expect(sent.map((s) => [s.school_id, s.days_before, s.mobiles]).sort()).toEqual(
    [
      [schoolId, 30, [ADMIN_MOBILE, '13800000071']],
      [other.schoolId, 30, ['13900000001']],
    ].sort(),
  );
  await expectTexts(before.admin + 1);
  await expectTexts(before.other + 1, '13900000001');
  expect((await texts('13800000071'))[0].params).toMatchObject({ days: '30', date: '2027年10月31日' });
  expect(await texts('13800000072')).toEqual([]);
  expect(await texts('13800000073')).toEqual([]);
  expect(await texts('13800000002')).toEqual([]);
});
