import { Code } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true });
});
afterAll(() => t.close());

describe('flowBoard', () => {
  it('the shuttle and tutoring teacher sees the 10 students of the running class, expected, with pick-up people', async () => {
    const res = await t.get('/api/index/flowBoard', await t.login('teacher'));
    expect(res.body.code).toBe(Code.Ok);
    const { day, position, students } = res.body.data;
    expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(position).toBe(0);
    expect(students).toHaveLength(10);
    expect(new Set(students.map((s: { care_class_name: string }) => s.care_class_name))).toEqual(new Set(['阳光一班']));
    expect(students[0]).toMatchObject({
      state: 'expected',
      on_leave: false,
      version: 0,
      pickup_people: expect.arrayContaining([expect.objectContaining({ id: expect.any(Number), relation: expect.any(String) })]),
    });
  });

  it('shows the projected state of the day', async () => {
    const { rows } = await t.sql.query(`select id, school_id from students where name = '陈小雨'`);
    await t.sql.query(
      `insert into student_days (school_id, student_id, day, state, entered_at, version, last_position)
       values ($1, $2, (now() at time zone 'Asia/Shanghai')::date, 'in_centre', now(), 1, 0)`,
      [rows[0].school_id, rows[0].id],
    );
    const res = await t.get('/api/index/flowBoard', await t.login('adviser'));
    expect(res.body.data.students.find((s: { name: string }) => s.name === '陈小雨')).toMatchObject({
      state: 'in_centre',
      version: 1,
      entered_at: expect.any(String),
    });
  });

  it('the admin sees every class, or one class', async () => {
    const token = await t.login('admin');
    expect((await t.get('/api/index/flowBoard', token)).body.data.students).toHaveLength(16);
    expect((await t.get(`/api/index/flowBoard?class_id=${t.demo.classes!.second}`, token)).body.data.students).toHaveLength(6);
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const token = await t.login('teacher');
    const before = await snapshot(t.sql);
    for (const q of ['date=today', 'class_id=x', 'class_id=-1', 'x=1', `date=${'1'.repeat(10_000)}`]) {
      expect((await t.get(`/api/index/flowBoard?${q}`, token)).body.code).toBe(Code.Error);
    }
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('parents and operators may not read it', async () => {
    for (const user of ['parent', 'operator'] as const) {
      expect((await t.get('/api/index/flowBoard', await t.login(user))).body).toMatchObject({ code: Code.Error, msg: '当前账号没有权限执行此操作' });
    }
  });

  it('another school’s class id shows nothing of this school', async () => {
    const { adminToken } = await t.otherSchool();
    const res = await t.get(`/api/index/flowBoard?class_id=${t.demo.classes!.running}`, adminToken);
    expect(res.body.data.students).toEqual([]);
  });
});
