import { Code } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let admin: string;
let teacher: string;
let adviser: string;
let parent: string;
let other: { schoolId: number; adminToken: string };
let today: string;
let yesterday: string;
beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true });
  [admin, teacher, adviser, parent] = await Promise.all([t.login('admin'), t.login('teacher'), t.login('adviser'), t.login('parent')]);
  other = await t.otherSchool();
  const { rows } = await t.sql.query(
    `select to_char(d, 'YYYY-MM-DD') as today, to_char(d - 1, 'YYYY-MM-DD') as yesterday from (select (now() at time zone 'Asia/Shanghai')::date as d) x`,
  );
  ({ today, yesterday } = rows[0]);
});
afterAll(() => t.close());

const P = '/api/index/';
const IN = `${P}teacherClockIn`;
const OUT = `${P}teacherClockOut`;
const COUNT = `${P}teacherClockingInCount`;
const FORBIDDEN = '当前账号没有权限执行此操作';
const LONG = 'x'.repeat(10_000);

const attendance = async (userId: number) =>
  (
    await t.sql.query(`select to_char(day, 'YYYY-MM-DD') as day, clock_in_at, clock_out_at from staff_attendance where user_id = $1 order by day`, [
      userId,
    ])
  ).rows;

async function badBodies(path: string, token: string, bodies: unknown[]) {
  for (const body of bodies) {
    const before = await snapshot(t.sql);
    const res = await t.post(path, token).send(body as object);
    expect({ body, code: res.body.code }).toEqual({ body, code: Code.Error });
    expect(await snapshot(t.sql)).toEqual(before);
  }
}

const BAD_BODIES = [
  { x: 1 },
  { note: LONG },
  { day: "2026-01-01'; drop table staff_attendance; --" },
  { user_id: 1 },
  { html: '<script>alert(1)</script>' },
];

describe('teacherClockIn and teacherClockOut', () => {
  it('a teacher clocks in once a day, then out once', async () => {
    const res = await t.post(IN, teacher).send({});
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: { id: expect.any(Number), day: today, clock_in_at: expect.any(String), clock_out_at: null },
    });
    const before = await snapshot(t.sql);
    expect((await t.post(IN, teacher).send({})).body).toMatchObject({ code: Code.Error, msg: '今天已签到' });
    expect(await snapshot(t.sql)).toEqual(before);
    const out = await t.post(OUT, teacher).send({});
    expect(out.body).toMatchObject({ code: Code.Ok, data: { id: res.body.data.id, day: today, clock_out_at: expect.any(String) } });
    expect((await t.post(OUT, teacher).send({})).body).toMatchObject({ code: Code.Error, msg: '今天已签退' });
    const rows = await attendance(t.demo.users.teacher);
    expect(rows).toHaveLength(1);
    expect(rows[0].clock_out_at.getTime()).toBeGreaterThanOrEqual(rows[0].clock_in_at.getTime());
  });

  it('clocking out before clocking in is refused; a head teacher clocks in too', async () => {
    const before = await snapshot(t.sql);
    expect((await t.post(OUT, adviser).send({})).body).toMatchObject({ code: Code.Error, msg: '今天还没有签到，不能签退' });
    expect(await snapshot(t.sql)).toEqual(before);
    expect((await t.post(IN, adviser).send({})).body.code).toBe(Code.Ok);
  });

  it('bad input answers code 100 and writes nothing', async () => {
    await badBodies(IN, teacher, BAD_BODIES);
    await badBodies(OUT, teacher, BAD_BODIES);
  });

  it('admins (of any school), parents and signed-out callers may not clock in or out', async () => {
    for (const path of [IN, OUT]) {
      for (const token of [admin, parent, other.adminToken]) {
        const before = await snapshot(t.sql);
        expect((await t.post(path, token).send({})).body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
        expect(await snapshot(t.sql)).toEqual(before);
      }
      expect((await t.post(path).send({})).body.code).not.toBe(Code.Ok);
    }
  });
});

describe('teacherClockingInCount', () => {
  it('per day: staff on the job, clocked in and out, and who clocked in when, paged', async () => {
    const { rows: staff } = await t.sql.query(`select id, username from users where username in ('demo_liu', 'demo_zhao', 'demo_sun')`);
    const liu = staff.find((s) => s.username === 'demo_liu').id;
    // yesterday liu clocked in and out; the teachers' accounts existed then
    await t.sql.query(`update users set created_at = created_at - interval '3 days' where school_id = $1`, [t.demo.schoolId]);
    await t.sql.query(
      `insert into staff_attendance (school_id, user_id, day, clock_in_at, clock_out_at) values ($1, $2, $3, now() - interval '1 day', now() - interval '20 hours')`,
      [t.demo.schoolId, liu, yesterday],
    );
    // another school's clock-ins are not counted
    const { rows: o } = await t.sql.query(
      `insert into users (school_id, role, username, name, nickname) values ($1, 2, 'other_teacher_c', '外校老师', '外校老师') returning id`,
      [other.schoolId],
    );
    await t.sql.query(`insert into staff_attendance (school_id, user_id, day, clock_in_at) values ($1, $2, $3, now())`, [
      other.schoolId,
      o[0].id,
      today,
    ]);

    const res = await t.get(`${COUNT}?date_from=${yesterday}&date_to=${today}`, admin);
    expect(res.body.code).toBe(Code.Ok);
    const { days } = res.body.data;
    expect(res.body.data).toMatchObject({ date_from: yesterday, date_to: today, page: 1, limit: 20 });
    // on the job: teacher, adviser, 刘老师, 赵老师 (孙老师 left a month ago)
    expect(days).toEqual([
      {
        day: yesterday,
        on_job: 4,
        clocked_in: 1,
        clocked_out: 1,
        total: 1,
        list: [{ user_id: liu, name: '刘老师', role: 5, clock_in_at: expect.any(String), clock_out_at: expect.any(String) }],
      },
      {
        day: today,
        on_job: 4,
        clocked_in: 2,
        clocked_out: 1,
        total: 2,
        list: [
          { user_id: t.demo.users.teacher, name: expect.any(String), role: 2, clock_in_at: expect.any(String), clock_out_at: expect.any(String) },
          { user_id: t.demo.users.adviser, name: expect.any(String), role: 5, clock_in_at: expect.any(String), clock_out_at: null },
        ],
      },
    ]);
    const page2 = await t.get(`${COUNT}?date_from=${today}&date_to=${today}&page=2&limit=1`, admin);
    expect(page2.body.data.days).toEqual([
      expect.objectContaining({ day: today, total: 2, list: [expect.objectContaining({ user_id: t.demo.users.adviser })] }),
    ]);
    // a day with nobody: zeros and an empty list
    const early = await t.get(`${COUNT}?date_from=2026-01-01&date_to=2026-01-02`, admin);
    expect(early.body.data.days).toEqual([
      { day: '2026-01-01', on_job: 0, clocked_in: 0, clocked_out: 0, total: 0, list: [] },
      { day: '2026-01-02', on_job: 0, clocked_in: 0, clocked_out: 0, total: 0, list: [] },
    ]);
    // the other school's admin sees only its own
    const theirs = await t.get(`${COUNT}?date_from=${today}&date_to=${today}`, other.adminToken);
    expect(theirs.body.data.days).toEqual([
      { day: today, on_job: 1, clocked_in: 1, clocked_out: 0, total: 1, list: [expect.objectContaining({ user_id: o[0].id, name: '外校老师' })] },
    ]);
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const queries = [
      '',
      'date_from=2026-01-01',
      'date_to=2026-01-01',
      'date_from=2026-01-05&date_to=2026-01-04',
      'date_from=2026-01-01&date_to=2026-02-01',
      'date_from=2026-02-30&date_to=2026-03-01',
      'date_from=20260101&date_to=2026-01-02',
      'date_from=abc&date_to=2026-01-02',
      `date_from=${LONG}&date_to=2026-01-02`,
      "date_from=2026-01-01'%20or%20'1'%3D'1&date_to=2026-01-02",
      'date_from=%3Cscript%3E&date_to=2026-01-02',
      'date_from=2026-01-01&date_to=2026-01-02&page=0',
      'date_from=2026-01-01&date_to=2026-01-02&limit=1000',
      'date_from=2026-01-01&date_to=2026-01-02&x=1',
    ];
    for (const q of queries) {
      const before = await snapshot(t.sql);
      const res = await t.get(`${COUNT}?${q}`, admin);
      expect({ q, code: res.body.code }).toEqual({ q, code: Code.Error });
      expect(await snapshot(t.sql)).toEqual(before);
    }
    const long = await t.get(`${COUNT}?date_from=2026-01-01&date_to=2026-03-01`, admin);
    expect(long.body.msg).toBe('日期范围最多 31 天');
  });

  it('teachers and parents may not read it', async () => {
    for (const token of [teacher, adviser, parent]) {
      expect((await t.get(`${COUNT}?date_from=${today}&date_to=${today}`, token)).body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
    }
  });
});
