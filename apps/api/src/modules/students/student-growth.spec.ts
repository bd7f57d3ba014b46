import { addDays, Code, GROWTH_PERIODS, growthWindow, localDay, periodOf } from '@wantuo/shared';
import { Client } from 'pg';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

/**
 * teacherStudentGrowth (issue 21): the comments with the student's published scores and attendance over time, in a
 * constant number of statements, for the teacher's own students and the parent's own children of the caller's school.
 */
let t: TestApp;
let admin: string;
let teacher: string;
let adviser: string;
let parent: string;
let other: { schoolId: number; adminToken: string };
let otherStudentId: number;
let tz: string;
let classId: number;
let xiaoyang: number;
let mates: number[];

const P = '/api/index/';
const GROWTH = `${P}teacherStudentGrowth`;
const FORBIDDEN = '当前账号没有权限执行此操作';

async function studentId(name: string): Promise<number> {
  const { rows } = await t.sql.query(`select id from students where name = $1 and school_id = $2`, [name, t.demo.schoolId]);
  return rows[0].id;
}

let position = 0;
async function day(studentId: number, d: string, state: string, onLeave = false) {
  await t.sql.query(
    `insert into student_days (school_id, student_id, day, class_id, state, on_leave, version, last_position) values ($1, $2, $3, $4, $5, $6, 1, $7)`,
    [t.demo.schoolId, studentId, d, classId, state, onLeave, ++position],
  );
}

/** A published (or not) exam of the running class with scores in half-points (null: absent), by student id. */
async function exam(name: string, examDay: string, fullMark: number, scores: Array<[number, number | null]>, published = true) {
  const { rows } = await t.sql.query(
    `insert into exams (school_id, name, subject, exam_day, full_mark, published_at) values ($1, $2, '数学', $3, $4, $5) returning id`,
    [t.demo.schoolId, name, examDay, fullMark, published ? new Date() : null],
  );
  const id = rows[0].id as number;
  await t.sql.query(`insert into exam_classes (exam_id, class_id, school_id) values ($1, $2, $3)`, [id, classId, t.demo.schoolId]);
  for (const [student, score2] of scores) {
    await t.sql.query(`insert into exam_scores (exam_id, student_id, school_id, class_id, score2, absent) values ($1, $2, $3, $4, $5, $6)`, [
      id,
      student,
      t.demo.schoolId,
      classId,
      score2,
      score2 === null,
    ]);
  }
  return id;
}

/** Statements sent to PostgreSQL while `fn` runs. */
async function statements(fn: () => Promise<unknown>): Promise<number> {
  const spy = jest.spyOn(Client.prototype, 'query');
  try {
    await fn();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

let today: string;
beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true });
  [admin, teacher, adviser, parent] = await Promise.all([t.login('admin'), t.login('teacher'), t.login('adviser'), t.login('parent')]);
  other = await t.otherSchool();
  const { rows: o } = await t.sql.query(`insert into students (school_id, name, gender, status) values ($1, '外校学生', 1, 1) returning id`, [
    other.schoolId,
  ]);
  otherStudentId = o[0].id;
  tz = (await t.sql.query(`select timezone from schools where id = $1`, [t.demo.schoolId])).rows[0].timezone;
  classId = t.demo.classes!.running;
  xiaoyang = await studentId('陈小阳');
  mates = [await studentId('王子涵'), await studentId('李欣怡'), await studentId('张浩然')];
  today = localDay(new Date(), tz);
});
afterAll(() => t.close());

describe('teacherStudentGrowth', () => {
  it('answers the comments with the published scores (rank, class count and average) and attendance per week', async () => {
    const monday = periodOf(today, 'week');
    const w2 = addDays(monday, -14);
    const w1 = addDays(monday, -7);
    // 陈小阳 joined the class (weekdays 1-5) on the Monday two weeks ago, at noon of the school's day
    await t.sql.query(`update care_class_students set joined_at = ($1::date + time '12:00') at time zone $2 where student_id = $3`, [
      w2,
      tz,
      xiaoyang,
    ]);
    await day(xiaoyang, w2, 'left'); // present
    await day(xiaoyang, addDays(w2, 1), 'expected', true); // on leave; Wednesday to Friday nothing: absent
    await day(xiaoyang, addDays(w1, 5), 'left'); // a Saturday: present although not a class day; the weekdays absent
    await day(xiaoyang, today, 'in_centre');
    await day(xiaoyang, addDays(monday, -7 * GROWTH_PERIODS.week), 'left'); // before the window
    await day(mates[0], w2, 'left'); // another student
    const e1 = await exam('期中考试', addDays(today, -40), 100, [
      [xiaoyang, 171],
      [mates[0], 180],
      [mates[1], 160],
      [mates[2], null],
    ]);
    const e2 = await exam('单元测验', addDays(today, -10), 150, [
      [xiaoyang, null],
      [mates[0], 240],
    ]);
    await exam('未发布', addDays(today, -5), 100, [[xiaoyang, 200]], false);
    await t.post(`${P}overallComment`, adviser).send({ student_id: xiaoyang, period: '11 月', content: '进步明显。' }).expect(200);

    const res = await t.get(`${GROWTH}?student_id=${xiaoyang}&group=week`, teacher);
    expect(res.body.code).toBe(Code.Ok);
    const data = res.body.data;
    expect(data).toMatchObject({
      total: 1,
      page: 1,
      limit: expect.any(Number),
      group: 'week',
      list: [{ content: '进步明显。', author_name: '张班主任' }],
    });
    expect(data.scores).toEqual([
      {
        exam_id: e1,
        name: '期中考试',
        subject: '数学',
        exam_day: addDays(today, -40),
        full_mark: 100,
        pass_mark: 60,
        class_name: '阳光一班',
        score: 85.5,
        absent: false,
        class_rank: 2,
        class_count: 3,
        class_average: 85.2,
      },
      {
        exam_id: e2,
        name: '单元测验',
        subject: '数学',
        exam_day: addDays(today, -10),
        full_mark: 150,
        pass_mark: 90,
        class_name: '阳光一班',
        score: null,
        absent: true,
        class_rank: null,
        class_count: 1,
        class_average: 120,
      },
    ]);
    const periods = growthWindow(today, 'week').periods;
    expect(data.attendance.map((a: { period: string }) => a.period)).toEqual(periods);
    // this week: the weekdays before today are absent, today is present
    let weekdaysBefore = 0;
    for (let d = monday; d < today; d = addDays(d, 1)) if (new Date(`${d}T00:00:00Z`).getUTCDay() % 6 !== 0) weekdaysBefore++;
    const byPeriod = Object.fromEntries(data.attendance.map((a: { period: string }) => [a.period, a]));
    expect(byPeriod[w2]).toEqual({ period: w2, present: 1, absent: 3, on_leave: 1 });
    expect(byPeriod[w1]).toEqual({ period: w1, present: 1, absent: 5, on_leave: 0 });
    expect(byPeriod[monday]).toEqual({ period: monday, present: 1, absent: weekdaysBefore, on_leave: 0 });
    for (const p of periods.slice(0, -3)) expect(byPeriod[p]).toEqual({ period: p, present: 0, absent: 0, on_leave: 0 });

    // by month (the default): the same days in calendar months
    const monthly = (await t.get(`${GROWTH}?student_id=${xiaoyang}`, adviser)).body.data;
    expect(monthly.group).toBe('month');
    expect(monthly.attendance.map((a: { period: string }) => a.period)).toEqual(growthWindow(today, 'month').periods);
    const sum = (list: Array<{ present: number; absent: number; on_leave: number }>) =>
      list.reduce((s, a) => ({ present: s.present + a.present, absent: s.absent + a.absent, on_leave: s.on_leave + a.on_leave }), {
        present: 0,
        absent: 0,
        on_leave: 0,
      });
    // the day before the weekly window is within the year of months
    expect(sum(monthly.attendance)).toEqual({ present: 4, absent: 8 + weekdaysBefore, on_leave: 1 });
    expect(monthly.scores.map((s: { exam_id: number }) => s.exam_id)).toEqual([e1, e2]);

    // the parent sees the same record of own child; the admin's studentComments stays the comments only
    const forParent = (await t.get(`${GROWTH}?student_id=${xiaoyang}&group=week`, parent)).body;
    expect(forParent).toMatchObject({ code: Code.Ok, data: { total: 1, scores: data.scores, attendance: data.attendance } });
    const forAdmin = (await t.get(`${P}studentComments?student_id=${xiaoyang}`, admin)).body;
    expect(forAdmin).toMatchObject({ code: Code.Ok, data: { total: 1 } });
    expect(forAdmin.data.scores).toBeUndefined();
  });

  it('a student with nothing recorded has no scores and every period empty', async () => {
    const id = await studentId('刘诗琪');
    const res = await t.get(`${GROWTH}?student_id=${id}&group=month`, teacher);
    expect(res.body).toMatchObject({ code: Code.Ok, data: { total: 0, list: [], scores: [], group: 'month' } });
    expect(res.body.data.attendance).toHaveLength(GROWTH_PERIODS.month);
    // 刘诗琪 joined today: no past class day is absent
    expect(res.body.data.attendance.every((a: { absent: number }) => a.absent === 0)).toBe(true);
  });

  it('runs the same number of statements with more exams, days and comments', async () => {
    const id = await studentId('赵雨桐');
    const call = () => t.get(`${GROWTH}?student_id=${id}&group=week`, teacher).expect(200);
    await call(); // the session is looked up and cached alike on every call after the first
    const before = await statements(call);
    for (let i = 1; i <= 6; i++) {
      await exam(`测验${i}`, addDays(today, -i * 7), 100, [
        [id, 150 + i],
        [mates[0], 160],
        [mates[1], null],
      ]);
      await day(id, addDays(today, -i * 3), i % 2 ? 'left' : 'expected', i % 2 === 0);
      await t
        .post(`${P}overallComment`, teacher)
        .send({ student_id: id, period: `第${i}周`, content: '好' })
        .expect(200);
    }
    let answer: { scores: unknown[]; total: number } | undefined;
    const after = await statements(async () => {
      answer = (await call()).body.data;
    });
    expect(answer!.scores).toHaveLength(6);
    expect(answer!.total).toBe(6);
    expect(after).toBe(before);
    // visibility with the time zone, comments with total, scores, attendance (and the session's own statements)
    expect(before).toBeLessThanOrEqual(6);
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const inputs: Array<Record<string, string>> = [
      {},
      { student_id: 'x' },
      { student_id: '-1' },
      { student_id: String(xiaoyang), group: 'day' },
      { student_id: String(xiaoyang), group: 'year' },
      { student_id: String(xiaoyang), limit: '0' },
      { student_id: String(xiaoyang), from: '2026-01-01' },
    ];
    for (const input of inputs) {
      const before = await snapshot(t.sql);
      const res = await t.get(GROWTH, teacher).query(input);
      expect({ input, code: res.body.code }).toEqual({ input, code: Code.Error });
      expect(typeof res.body.msg).toBe('string');
      expect(await snapshot(t.sql)).toEqual(before);
    }
    const res = await t.get(GROWTH, teacher).query({ student_id: String(xiaoyang), group: 'day' });
    expect(res.body.msg).toContain('按周或按月');
  });

  it('a wrong role is refused', async () => {
    const before = await snapshot(t.sql);
    expect((await t.get(`${GROWTH}?student_id=${xiaoyang}`, admin)).body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
    expect((await t.get(`${GROWTH}?student_id=${xiaoyang}`, other.adminToken)).body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it("another school's student, a student not the teacher's and another family's child are not found", async () => {
    expect((await t.get(`${GROWTH}?student_id=${otherStudentId}`, teacher)).body).toMatchObject({ code: Code.Error, msg: '该学生不存在' });
    expect((await t.get(`${GROWTH}?student_id=${otherStudentId}`, parent)).body).toMatchObject({ code: Code.Error, msg: '该学生不存在' });
    expect((await t.get(`${GROWTH}?student_id=${await studentId('吴宇轩')}`, teacher)).body).toMatchObject({ code: Code.Error, msg: '该学生不存在' });
    expect((await t.get(`${GROWTH}?student_id=${mates[0]}`, parent)).body).toMatchObject({ code: Code.Error, msg: '该学生不存在' });
  });
});
