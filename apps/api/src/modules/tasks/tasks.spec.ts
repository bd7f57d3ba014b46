import { Code, TODAY_TASK_LIST_MAX } from '@wantuo/shared';
import { DEMO_PASSWORD, snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let admin: string;
let teacher: string;
let adviser: string;
let parent: string;
let other: { schoolId: number; adminToken: string };
let otherStudentId: number;
let today: string;
const ids = new Map<string, number>();
beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true });
  [admin, teacher, adviser, parent] = await Promise.all([t.login('admin'), t.login('teacher'), t.login('adviser'), t.login('parent')]);
  other = await t.otherSchool();
  const { rows } = await t.sql.query(`select id, name from students where school_id = $1`, [t.demo.schoolId]);
  for (const r of rows) ids.set(r.name, r.id);
  const [o] = (
    await t.sql.query(
      `insert into students (school_id, name, gender, needs_shuttle, tutoring_type) values ($1, '外校学生', 1, true, '作业辅导') returning id`,
      [other.schoolId],
    )
  ).rows;
  otherStudentId = o.id;
  today = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as d`)).rows[0].d;
});
afterAll(() => t.close());

const P = '/api/index/';
const TODAY = `${P}teacherTodayTask`;
const SHUTTLE = `${P}shuttleTask`;
const TUTOR = `${P}tutorTask`;
const TUTOR_INFO = `${P}tutorTaskInfo`;
const FORBIDDEN = '当前账号没有权限执行此操作';
const LONG = 'x'.repeat(10_000);

const id = (name: string) => ids.get(name)!;

beforeEach(async () => {
  await t.sql.query(`delete from flow_events; delete from student_days; delete from leave_requests`);
});

/** Writes today's projection row of a student directly (the flow module's job; here only what the lists read). */
async function day(name: string, state: string, over: Record<string, unknown> = {}) {
  const cols: Record<string, unknown> = { state, on_leave: false, ...over };
  const keys = Object.keys(cols);
  await t.sql.query(
    `insert into student_days (school_id, student_id, day, class_id, version, last_position, ${keys.join(', ')})
     values ($1, $2, $3, $4, 1, 0, ${keys.map((_, i) => `$${i + 5}`).join(', ')})`,
    [t.demo.schoolId, id(name), today, t.demo.classes!.running, ...keys.map((k) => cols[k])],
  );
}

async function badQueries(path: string, token: string, queries: string[]) {
  for (const q of queries) {
    const before = await snapshot(t.sql);
    const res = await t.get(`${path}?${q}`, token);
    expect({ q, code: res.body.code }).toEqual({ q, code: Code.Error });
    expect(typeof res.body.msg).toBe('string');
    expect(await snapshot(t.sql)).toEqual(before);
  }
}

const NO_PARAMS = ['x=1', `q=${LONG}`, 'student_id=1', "day=1'%20or%20'1'%3D'1", 'x=%3Cscript%3Ealert(1)%3C%2Fscript%3E'];

describe('teacherTodayTask', () => {
  it("carries the caller's own clock-in and clock-out of the day (not another teacher's)", async () => {
    await t.sql.query(`delete from staff_attendance`);
    try {
      const clockIn = await t.post(`${P}teacherClockIn`, adviser).send({});
      expect(clockIn.body.code).toBe(Code.Ok);
      const mine = (await t.get(TODAY, adviser)).body.data.clock;
      expect(mine).toEqual({ id: clockIn.body.data.id, day: today, clock_in_at: clockIn.body.data.clock_in_at, clock_out_at: null });
      expect((await t.get(TODAY, teacher)).body.data.clock).toBeNull();
      const clockOut = await t.post(`${P}teacherClockOut`, adviser).send({});
      expect((await t.get(TODAY, adviser)).body.data.clock).toEqual(clockOut.body.data);
      expect(clockOut.body.data.clock_out_at).toEqual(expect.any(String));
    } finally {
      await t.sql.query(`delete from staff_attendance`);
    }
  });

  it("counts the caller's students per board state and what is left to do", async () => {
    const fresh = await t.get(TODAY, teacher);
    expect(fresh.body).toMatchObject({
      code: Code.Ok,
      data: {
        day: today,
        classes: [{ id: t.demo.classes!.running, name: '阳光一班', head_teacher: false }],
        total: 10,
        states: { expected: 10, picked_up: 0, in_centre: 0, left: 0, on_leave: 0 },
        to_pick_up: 7,
        to_feed: 0,
        to_tutor: 0,
        tutoring: 0,
        to_hand_over: 0,
        clock: null,
      },
    });
    await day('陈小雨', 'picked_up', { picked_up_at: new Date() });
    await day('陈小阳', 'in_centre', { entered_at: new Date(), dinner_at: new Date() });
    await day('王子涵', 'in_centre', { entered_at: new Date(), tutor_started_at: new Date() });
    await day('李欣怡', 'left', { entered_at: new Date(), left_at: new Date() });
    await day('张浩然', 'expected', { on_leave: true });
    // approved leave without a projection row yet still shows as on leave; a pending one does not
    await t.sql.query(
      `insert into leave_requests (school_id, student_id, requested_by, start_day, end_day, reason, status)
       values ($1, $2, $4, $5::date - 1, $5::date + 1, '发烧', 1), ($1, $3, $4, $5, $5, '家里有事', 0)`,
      [t.demo.schoolId, id('周梓萱'), id('黄俊熙'), t.demo.users.parent, today],
    );
    const res = await t.get(TODAY, adviser);
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: {
        classes: [{ id: t.demo.classes!.running, name: '阳光一班', head_teacher: true }],
        total: 10,
        states: { expected: 4, picked_up: 1, in_centre: 2, left: 1, on_leave: 2 },
        to_pick_up: 3,
        to_feed: 1,
        to_tutor: 1,
        tutoring: 1,
        to_hand_over: 2,
      },
    });
  });

  it('a teacher with no class has nothing to do; other schools do not count', async () => {
    await t.sql.query(`insert into student_days (school_id, student_id, day, state, version, last_position) values ($1, $2, $3, 'in_centre', 1, 0)`, [
      other.schoolId,
      otherStudentId,
      today,
    ]);
    const { rows } = await t.sql.query(`select id from users where username = 'demo_zhao'`);
    await t.sql.query(`delete from duty_assignments where teacher_id = $1`, [rows[0].id]);
    const zhao = await t.post('/api/index/login').send({ account: 'demo_zhao', password: 'Demo@2026' });
    const res = await t.get(TODAY, zhao.body.data.userinfo.token);
    expect(res.body).toMatchObject({ code: Code.Ok, data: { classes: [], total: 0, to_hand_over: 0 } });
    const mine = await t.get(TODAY, teacher);
    expect(mine.body.data.states.in_centre).toBe(0);
  });

  it('names the students behind each count (id, name, care class only); another school’s never', async () => {
    await day('陈小雨', 'picked_up', { picked_up_at: new Date() });
    await day('陈小阳', 'in_centre', { entered_at: new Date(), dinner_at: new Date() });
    await day('王子涵', 'in_centre', { entered_at: new Date(), tutor_started_at: new Date() });
    await day('李欣怡', 'left', { entered_at: new Date(), left_at: new Date() });
    await day('张浩然', 'expected', { on_leave: true });
    // a student of another school wrongly filed in this class, in the centre today: never listed nor counted
    await t.sql.query(`insert into care_class_students (school_id, class_id, student_id) values ($1, $2, $3)`, [
      other.schoolId,
      t.demo.classes!.running,
      otherStudentId,
    ]);
    await t.sql.query(`insert into student_days (school_id, student_id, day, state, version, last_position) values ($1, $2, $3, 'in_centre', 1, 0)`, [
      other.schoolId,
      otherStudentId,
      today,
    ]);
    try {
      const data = (await t.get(TODAY, adviser)).body.data;
      const names = (k: string) => data.students[k].map((s: { name: string }) => s.name);
      const count = (k: string) => (k in data.states ? data.states[k] : data[k]);
      expect(Object.keys(data.students).sort()).toEqual([
        'in_centre',
        'left',
        'on_leave',
        'picked_up',
        'to_feed',
        'to_pick_up',
        'to_tutor',
        'tutoring',
      ]);
      for (const k of Object.keys(data.students)) expect({ k, n: data.students[k].length }).toEqual({ k, n: count(k) });
      expect(names('picked_up')).toEqual(['陈小雨']);
      expect(names('in_centre').sort()).toEqual(['王子涵', '陈小阳'].sort());
      expect(names('to_feed')).toEqual(['王子涵']);
      expect(names('tutoring')).toEqual(['王子涵']);
      expect(names('left')).toEqual(['李欣怡']);
      expect(names('on_leave')).toEqual(['张浩然']);
      expect(names('to_pick_up')).not.toContain('陈小雨');
      expect(data.students.picked_up[0]).toEqual({ id: id('陈小雨'), name: '陈小雨', class_name: '阳光一班' });
      const all = Object.values(data.students).flat() as { id: number }[];
      expect(all.map((s) => s.id)).not.toContain(otherStudentId);
      expect(data.states.in_centre).toBe(2);
    } finally {
      await t.sql.query(`delete from care_class_students where student_id = $1`, [otherStudentId]);
    }
  });

  it('names at most TODAY_TASK_LIST_MAX students per count, the count staying complete', async () => {
    const added = (
      await t.sql.query(
        `with n as (
           insert into students (school_id, name, gender, needs_shuttle) select $1, '加' || g, 1, true from generate_series(1, $3::int) g returning id
         )
         insert into care_class_students (school_id, class_id, student_id) select $1, $2, id from n returning student_id`,
        [t.demo.schoolId, t.demo.classes!.running, TODAY_TASK_LIST_MAX + 5],
      )
    ).rows.map((r) => r.student_id);
    try {
      const data = (await t.get(TODAY, adviser)).body.data;
      expect(data.to_pick_up).toBe(7 + TODAY_TASK_LIST_MAX + 5);
      expect(data.students.to_pick_up).toHaveLength(TODAY_TASK_LIST_MAX);
    } finally {
      await t.sql.query(`delete from care_class_students where student_id = any($1)`, [added]);
      await t.sql.query(`delete from students where id = any($1)`, [added]);
    }
  });

  it('bad input answers code 100 and writes nothing', () => badQueries(TODAY, teacher, NO_PARAMS));

  it('admin and parents may not call it', async () => {
    for (const token of [admin, parent, other.adminToken]) {
      expect((await t.get(TODAY, token)).body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
    }
  });
});

describe('shuttleTask', () => {
  it("lists today's shuttle students grouped by dismissal time and day school, with who picked them up", async () => {
    await t.sql.query(`update class_times set weekdays = '{1,2,3,4,5,6,7}' where school_id = $1`, [t.demo.schoolId]);
    // 黄俊熙 has an own later slot today
    await t.sql.query(
      `insert into student_class_times (school_id, student_id, class_time_id)
       select $1, $2, id from class_times where school_id = $1 and start_time = '16:30'`,
      [t.demo.schoolId, id('黄俊熙')],
    );
    const at = new Date('2026-01-05T08:01:00Z');
    await day('陈小雨', 'picked_up', { picked_up_at: at, picked_up_by: t.demo.users.teacher });
    await day('张浩然', 'expected', { on_leave: true });
    const res = await t.get(SHUTTLE, teacher);
    expect(res.body.code).toBe(Code.Ok);
    const data = res.body.data;
    expect(data.day).toBe(today);
    expect(
      data.groups.map((g: { dismissal_time: string; day_school: string; students: { name: string }[] }) => [
        g.dismissal_time,
        g.day_school,
        g.students.map((s) => s.name).sort(),
      ]),
    ).toEqual([
      ['16:00', '实验小学', ['王子涵', '赵雨桐', '陈小阳', '陈小雨'].sort()],
      ['16:00', '第二小学', ['刘诗琪', '张浩然'].sort()],
      ['16:30', '第二小学', ['黄俊熙']],
    ]);
    const students = data.groups.flatMap((g: { students: unknown[] }) => g.students);
    const teacherName = (await t.sql.query(`select name from users where id = $1`, [t.demo.users.teacher])).rows[0].name;
    expect(students.find((s: { name: string }) => s.name === '陈小雨')).toEqual({
      id: id('陈小雨'),
      name: '陈小雨',
      grade: '三年级',
      class_name: '2班',
      care_class: { id: t.demo.classes!.running, name: '阳光一班' },
      state: 'picked_up',
      picked_up_at: at.toISOString(),
      picked_up_by: t.demo.users.teacher,
      picked_up_by_name: teacherName,
      handed_over_by_name: null,
    });
    expect(students.find((s: { name: string }) => s.name === '张浩然')).toMatchObject({ state: 'on_leave', picked_up_at: null });
    expect(students.find((s: { name: string }) => s.name === '刘诗琪')).toMatchObject({ state: 'expected', picked_up_by_name: null });
  });

  it('no slot running today gives no dismissal time; another class is not listed', async () => {
    await t.sql.query(`update class_times set weekdays = '{}' where school_id = $1`, [t.demo.schoolId]);
    const res = await t.get(SHUTTLE, teacher);
    expect(res.body.code).toBe(Code.Ok);
    expect(res.body.data.groups.every((g: { dismissal_time: string | null }) => g.dismissal_time === null)).toBe(true);
    const names = res.body.data.groups.flatMap((g: { students: { name: string }[] }) => g.students.map((s) => s.name));
    expect(names).toHaveLength(7);
    expect(names).not.toContain('徐若曦');
    expect(names).not.toContain('外校学生');
    await t.sql.query(`update class_times set weekdays = '{1,2,3,4,5}' where school_id = $1`, [t.demo.schoolId]);
  });

  it('bad input answers code 100 and writes nothing', () => badQueries(SHUTTLE, teacher, NO_PARAMS));

  it('admin and parents may not call it', async () => {
    for (const token of [admin, parent, other.adminToken]) {
      expect((await t.get(SHUTTLE, token)).body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
    }
  });
});

describe('tutorTask', () => {
  it("lists today's tutoring students with state and tutoring times", async () => {
    const started = new Date('2026-01-05T09:00:00Z');
    const ended = new Date('2026-01-05T10:00:00Z');
    await day('王子涵', 'in_centre', { entered_at: started, tutor_started_at: started, tutor_ended_at: ended });
    const res = await t.get(TUTOR, adviser);
    expect(res.body.code).toBe(Code.Ok);
    expect(res.body.data.day).toBe(today);
    const list = res.body.data.list as Array<{ name: string }>;
    expect(list.map((r) => r.name).sort()).toEqual(['周梓萱', '张浩然', '李欣怡', '杨宇航', '王子涵', '赵雨桐', '陈小阳', '陈小雨'].sort());
    expect(list.find((r) => r.name === '王子涵')).toEqual({
      id: id('王子涵'),
      name: '王子涵',
      grade: '三年级',
      care_class: { id: t.demo.classes!.running, name: '阳光一班' },
      tutoring_type: '作业辅导',
      state: 'in_centre',
      tutor_started_at: started.toISOString(),
      tutor_ended_at: ended.toISOString(),
      handed_over_by_name: null,
    });
    expect(list.find((r) => r.name === '赵雨桐')).toMatchObject({ tutoring_type: '一对一辅导', state: 'expected', tutor_started_at: null });
  });

  it('bad input answers code 100 and writes nothing', () => badQueries(TUTOR, teacher, NO_PARAMS));

  it('admin and parents may not call it; other schools are not listed', async () => {
    for (const token of [admin, parent, other.adminToken]) {
      expect((await t.get(TUTOR, token)).body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
    }
    const res = await t.get(TUTOR, teacher);
    expect(res.body.data.list.map((r: { id: number }) => r.id)).not.toContain(otherStudentId);
  });
});

describe('tutorTaskInfo', () => {
  it("one student's tutoring with who started and ended it, and the day's timeline", async () => {
    const started = new Date('2026-01-05T09:00:00Z');
    await day('陈小雨', 'in_centre', {
      entered_at: started,
      entered_by: t.demo.users.teacher,
      tutor_started_at: started,
      tutor_started_by: t.demo.users.teacher,
    });
    await t.sql.query(
      `insert into flow_events (event_id, school_id, student_id, day, version, type, payload, class_id, state_after, actor_id, occurred_at)
       values (gen_random_uuid(), $1, $2, $3, 1, 'student.entered', '{}', $4, 'in_centre', $5, $6),
              (gen_random_uuid(), $1, $2, $3, 2, 'student.tutoring_started', '{"note":"数学"}', $4, 'in_centre', $5, $6)`,
      [t.demo.schoolId, id('陈小雨'), today, t.demo.classes!.running, t.demo.users.teacher, started],
    );
    const res = await t.get(`${TUTOR_INFO}?student_id=${id('陈小雨')}`, teacher);
    const teacherName = (await t.sql.query(`select name from users where id = $1`, [t.demo.users.teacher])).rows[0].name;
    expect(res.body).toEqual({
      code: Code.Ok,
      msg: expect.any(String),
      data: {
        day: today,
        student: {
          id: id('陈小雨'),
          name: '陈小雨',
          grade: '三年级',
          class_name: '2班',
          care_class: { id: t.demo.classes!.running, name: '阳光一班' },
        },
        tutoring_type: '作业辅导',
        state: 'in_centre',
        tutor_started_at: started.toISOString(),
        tutor_started_by: t.demo.users.teacher,
        tutor_started_by_name: teacherName,
        tutor_ended_at: null,
        tutor_ended_by: null,
        tutor_ended_by_name: null,
        events: [
          { type: 'student.entered', at: started.toISOString(), actor: t.demo.users.teacher, actor_name: teacherName, payload: {} },
          {
            type: 'student.tutoring_started',
            at: started.toISOString(),
            actor: t.demo.users.teacher,
            actor_name: teacherName,
            payload: { note: '数学' },
          },
        ],
        homework: expect.any(Array),
      },
    });
    // no row today: expected, no events
    const quiet = await t.get(`${TUTOR_INFO}?student_id=${id('黄俊熙')}`, adviser);
    expect(quiet.body.data).toMatchObject({ tutoring_type: null, state: 'expected', tutor_started_at: null, events: [] });
  });

  it("carries the student's homework of the day (open today: set on or before, due on or after) with its state, earliest due first", async () => {
    const plus = async (n: number) =>
      (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date + $1::int, 'YYYY-MM-DD') as d`, [n])).rows[0].d as string;
    const key = `tti-${Date.now()}`;
    const issue = async (title: string, due: string) => {
      const res = await t.post(`${P}issueHomeWork`, teacher).send({
        kind: 'care',
        class_id: t.demo.classes!.running,
        title,
        content: `${title}的内容`,
        due_day: due,
        request_id: `${key}-${title.length}-${due}`,
      });
      expect(res.body).toMatchObject({ code: Code.Ok });
      return res.body.data.id as number;
    };
    const later = await issue('背古诗', await plus(3));
    const soon = await issue('口算一页', today);
    const sid = id('陈小雨');
    const marked = await t
      .post(`${P}markHomeWork`, teacher)
      .send({ homework_id: soon, student_ids: [sid], state: 'done', note: '写得认真', request_id: `${key}-mark` });
    expect(marked.body.code).toBe(Code.Ok);
    // a homework due yesterday is not open today
    const past = (
      await t.sql.query(
        `insert into homeworks (school_id, kind, class_id, title, content, set_day, due_day, teacher_id, request_key)
       values ($1, 'care', $2, '昨天的作业', '已过期', (now() at time zone 'Asia/Shanghai')::date - 3, (now() at time zone 'Asia/Shanghai')::date - 1, $3, $4) returning id`,
        [t.demo.schoolId, t.demo.classes!.running, t.demo.users.teacher, `${key}-past`],
      )
    ).rows[0].id as number;
    await t.sql.query(`insert into homework_submissions (homework_id, student_id, school_id) values ($1, $2, $3)`, [past, sid, t.demo.schoolId]);

    const res = await t.get(`${TUTOR_INFO}?student_id=${sid}`, teacher);
    expect(res.body.code).toBe(Code.Ok);
    const mine = (res.body.data.homework as Array<{ id: number }>).filter((h) => [later, soon, past].includes(h.id));
    expect(mine).toEqual([
      expect.objectContaining({
        id: soon,
        title: '口算一页',
        content: '口算一页的内容',
        due_day: today,
        state: 'done',
        note: '写得认真',
        class_name: '阳光一班',
        teacher_name: expect.any(String),
        version: expect.any(Number),
      }),
      expect.objectContaining({ id: later, title: '背古诗', state: 'todo', note: null }),
    ]);
    // the head teacher reads the same homework; another student of the class has their own state
    const other = await t.get(`${TUTOR_INFO}?student_id=${id('黄俊熙')}`, adviser);
    expect((other.body.data.homework as Array<{ id: number; state: string }>).filter((h) => h.id === soon)).toEqual([
      expect.objectContaining({ id: soon, state: 'todo' }),
    ]);
  });

  it('bad input answers code 100 and writes nothing', () =>
    badQueries(TUTOR_INFO, teacher, [
      '',
      'student_id=',
      'student_id=abc',
      'student_id=0',
      'student_id=-1',
      'student_id=1.5',
      'student_id=99999999999',
      `student_id=${'9'.repeat(10_000)}`,
      'student_id=1%20or%201%3D1',
      "student_id=1';drop%20table%20students;--",
      'student_id=%3Cscript%3E',
      `student_id=1&x=${LONG}`,
    ]));

  it('admin and parents may not call it', async () => {
    for (const token of [admin, parent, other.adminToken]) {
      expect((await t.get(`${TUTOR_INFO}?student_id=${id('陈小雨')}`, token)).body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
    }
  });

  it("another school's student, another class's student and an unknown id are not found", async () => {
    for (const sid of [otherStudentId, id('徐若曦'), 99_999_999]) {
      const res = await t.get(`${TUTOR_INFO}?student_id=${sid}`, teacher);
      expect(res.body).toMatchObject({ code: Code.Error, msg: '该学生不存在' });
    }
  });
});

describe('teacherHandOverStudent', () => {
  const HAND = `${P}teacherHandOverStudent`;
  let qian: { id: number; token: string };
  let zhao: { id: number; token: string };
  let otherTeacher: number;
  const staffToken = async (username: string) =>
    (await t.post(`${P}login`).send({ account: username, password: DEMO_PASSWORD })).body.data.userinfo.token as string;
  const handovers = async () => Number((await t.sql.query(`select count(*)::int as n from task_handovers`)).rows[0].n);
  const studentIdsOf = async (path: string, token: string) => {
    const data = (await t.get(path, token)).body.data;
    const rows: Array<{ id: number; handed_over_by_name: string | null }> = data.groups
      ? data.groups.flatMap((g: { students: unknown[] }) => g.students)
      : data.list;
    return rows;
  };

  beforeAll(async () => {
    const add = async (school: number, username: string, name: string, duties: string) =>
      (
        await t.sql.query(
          `insert into users (school_id, role, username, name, nickname, mobile, password_hash, duties)
           select $1, 2, $2, $3, $3, null, password_hash, $4::varchar[] from users where username = 'teacher' returning id`,
          [school, username, name, duties],
        )
      ).rows[0].id as number;
    const qianId = await add(t.demo.schoolId, 'ho_qian', '钱老师', '{shuttle,tutor}');
    qian = { id: qianId, token: await staffToken('ho_qian') };
    const zhaoId = (await t.sql.query(`select id from users where username = 'demo_zhao'`)).rows[0].id as number;
    zhao = { id: zhaoId, token: await staffToken('demo_zhao') };
    otherTeacher = await add(other.schoolId, 'ho_other', '外校老师', '{shuttle,tutor}');
  });
  beforeEach(async () => {
    await t.sql.query(`delete from task_handovers`);
  });

  it("hands today's pick-up to another shuttle teacher: it leaves the caller's list, joins theirs, and they record it", async () => {
    const sid = id('陈小雨');
    const res = await t.post(HAND, teacher).send({ student_id: sid, duty: 'shuttle', teacher_id: qian.id });
    expect(res.body).toEqual({
      code: Code.Ok,
      msg: expect.any(String),
      data: { student_id: sid, duty: 'shuttle', day: today, teacher_id: qian.id, teacher_name: '钱老师' },
    });
    expect((await studentIdsOf(SHUTTLE, teacher)).map((s) => s.id)).not.toContain(sid);
    expect(await studentIdsOf(SHUTTLE, qian.token)).toEqual([expect.objectContaining({ id: sid, handed_over_by_name: '李老师' })]);
    // the tutoring of the same student stays with the teacher
    expect((await studentIdsOf(TUTOR, teacher)).map((s) => s.id)).toContain(sid);
    expect(await studentIdsOf(TUTOR, qian.token)).toEqual([]);
    // the new shuttle teacher records the pick-up (the flow lets them), then it can no longer be handed over
    const picked = await t.post(`${P}shuttleStudent`, qian.token).send({ student_ids: [sid] });
    expect(picked.body.data.results).toEqual([expect.objectContaining({ student_id: sid, ok: true })]);
    const late = await t.post(HAND, qian.token).send({ student_id: sid, duty: 'shuttle', teacher_id: t.demo.users.teacher });
    expect(late.body).toMatchObject({ code: Code.Error, msg: '该学生今天的这项任务已完成或已不能转交' });
    // the teacher, no longer holding it, cannot hand it again
    const gone = await t.post(HAND, teacher).send({ student_id: sid, duty: 'shuttle', teacher_id: qian.id });
    expect(gone.body).toMatchObject({ code: Code.Error, msg: '该学生不在您今天的接送或辅导名单中' });
  });

  it('hands tutoring over and back: the latest hand-over holds, with who handed it', async () => {
    const sid = id('王子涵');
    expect((await t.post(`${P}studentEnter`, teacher).send({ student_ids: [sid] })).body.data.results).toEqual([
      expect.objectContaining({ ok: true }),
    ]);
    expect((await t.post(HAND, teacher).send({ student_id: sid, duty: 'tutor', teacher_id: zhao.id })).body.code).toBe(Code.Ok);
    expect((await studentIdsOf(TUTOR, teacher)).map((s) => s.id)).not.toContain(sid);
    expect(await studentIdsOf(TUTOR, zhao.token)).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: sid, handed_over_by_name: '李老师' })]),
    );
    expect((await t.get(`${TUTOR_INFO}?student_id=${sid}`, zhao.token)).body.data.student.id).toBe(sid);
    const started = await t.post(`${P}teacherStudentStartTutor`, zhao.token).send({ student_ids: [sid] });
    expect(started.body.data.results).toEqual([expect.objectContaining({ student_id: sid, ok: true })]);
    // back to the teacher while it runs
    expect((await t.post(HAND, zhao.token).send({ student_id: sid, duty: 'tutor', teacher_id: t.demo.users.teacher })).body.code).toBe(Code.Ok);
    expect(await studentIdsOf(TUTOR, teacher)).toEqual(expect.arrayContaining([expect.objectContaining({ id: sid, handed_over_by_name: '赵老师' })]));
    expect((await studentIdsOf(TUTOR, zhao.token)).map((s) => s.id)).not.toContain(sid);
    expect((await t.get(`${TUTOR_INFO}?student_id=${sid}`, zhao.token)).body).toMatchObject({ code: Code.Error });
    expect(await handovers()).toBe(1);
  });

  it('teacherTodayTask counts a handed-over task for the new teacher only, as shuttleTask and tutorTask list it', async () => {
    type Today = {
      total: number;
      states: Record<string, number>;
      to_pick_up: number;
      to_tutor: number;
      tutoring: number;
      to_feed: number;
      to_hand_over: number;
      students: Record<'to_pick_up' | 'to_tutor', Array<{ id: number }>>;
    };
    const todayOf = async (token: string) => (await t.get(TODAY, token)).body.data as Today;
    /** the counts a teacher's home shows must be those of the teacher's own lists */
    const agrees = async (token: string) => {
      const shuttle = (await studentIdsOf(SHUTTLE, token)) as unknown as Array<{ id: number; state: string }>;
      const tutor = (await studentIdsOf(TUTOR, token)) as unknown as Array<{
        id: number;
        state: string;
        tutor_started_at: string | null;
        tutor_ended_at: string | null;
      }>;
      const d = await todayOf(token);
      // and the students it names are those of the lists
      const named = (k: 'to_pick_up' | 'to_tutor') => d.students[k].map((s) => s.id).sort();
      expect(named('to_pick_up')).toEqual(
        shuttle
          .filter((s) => s.state === 'expected')
          .map((s) => s.id)
          .sort(),
      );
      expect(named('to_tutor')).toEqual(
        tutor
          .filter((s) => s.state === 'in_centre' && !s.tutor_started_at)
          .map((s) => s.id)
          .sort(),
      );
      expect(d.to_pick_up).toBe(shuttle.filter((s) => s.state === 'expected').length);
      expect(d.to_tutor).toBe(tutor.filter((s) => s.state === 'in_centre' && !s.tutor_started_at).length);
      expect(d.tutoring).toBe(tutor.filter((s) => s.state === 'in_centre' && s.tutor_started_at && !s.tutor_ended_at).length);
      return d;
    };
    expect((await t.post(`${P}studentEnter`, teacher).send({ student_ids: [id('王子涵')] })).body.data.results).toEqual([
      expect.objectContaining({ ok: true }),
    ]);
    expect(await agrees(teacher)).toMatchObject({ total: 10, to_pick_up: 6, to_tutor: 1, tutoring: 0 });
    expect(await agrees(qian.token)).toMatchObject({ total: 0, to_pick_up: 0, to_tutor: 0 });
    // a hand-over of another day counts for nobody today
    await t.sql.query(
      `insert into task_handovers (school_id, student_id, day, duty, from_teacher_id, to_teacher_id) values ($1, $2, $3::date - 1, 'shuttle', $4, $5)`,
      [t.demo.schoolId, id('陈小阳'), today, t.demo.users.teacher, qian.id],
    );
    expect((await t.post(HAND, teacher).send({ student_id: id('陈小雨'), duty: 'shuttle', teacher_id: qian.id })).body.code).toBe(Code.Ok);
    expect((await t.post(HAND, teacher).send({ student_id: id('王子涵'), duty: 'tutor', teacher_id: qian.id })).body.code).toBe(Code.Ok);
    // the pick-up and the tutoring leave the teacher's counts; the students stay the teacher's (total, states)
    expect(await agrees(teacher)).toMatchObject({ total: 10, states: { expected: 9, in_centre: 1 }, to_pick_up: 5, to_tutor: 0, tutoring: 0 });
    // and join the new teacher's: the two students handed to them, with their states
    expect(await agrees(qian.token)).toMatchObject({
      total: 2,
      states: { expected: 1, picked_up: 0, in_centre: 1, left: 0, on_leave: 0 },
      to_pick_up: 1,
      to_tutor: 1,
      tutoring: 0,
      to_hand_over: 1,
    });
    // the new teacher starts the tutoring: it runs on their home, not the teacher's
    expect((await t.post(`${P}teacherStudentStartTutor`, qian.token).send({ student_ids: [id('王子涵')] })).body.data.results).toEqual([
      expect.objectContaining({ ok: true }),
    ]);
    expect(await agrees(qian.token)).toMatchObject({ to_tutor: 0, tutoring: 1 });
    expect(await agrees(teacher)).toMatchObject({ to_tutor: 0, tutoring: 0 });
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const sid = id('陈小雨');
    const bodies: unknown[] = [
      {},
      { student_id: sid, duty: 'shuttle' },
      { student_id: sid, teacher_id: qian.id },
      { duty: 'shuttle', teacher_id: qian.id },
      { student_id: sid, duty: 'dinner', teacher_id: qian.id },
      { student_id: sid, duty: 'head', teacher_id: qian.id },
      { student_id: 0, duty: 'shuttle', teacher_id: qian.id },
      { student_id: -1, duty: 'shuttle', teacher_id: qian.id },
      { student_id: '1 or 1=1', duty: 'shuttle', teacher_id: qian.id },
      { student_id: sid, duty: 'shuttle', teacher_id: 1.5 },
      { student_id: sid, duty: 'shuttle', teacher_id: 99_999_999_999 },
      { student_id: sid, duty: LONG, teacher_id: qian.id },
      { student_id: sid, duty: 'shuttle', teacher_id: qian.id, day: '2026-01-01' },
      { student_id: [sid], duty: 'shuttle', teacher_id: qian.id },
    ];
    for (const body of bodies) {
      const before = await snapshot(t.sql);
      const res = await t.post(HAND, teacher).send(body as object);
      expect({ body, code: res.body.code }).toEqual({ body, code: Code.Error });
      expect(typeof res.body.msg).toBe('string');
      expect(await snapshot(t.sql)).toEqual(before);
      expect(await handovers()).toBe(0);
    }
  });

  it('refuses what is not the caller’s to hand, or a teacher who cannot take it; nothing written', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['another school’s student', { student_id: otherStudentId, duty: 'shuttle', teacher_id: qian.id }, '该学生不在您今天的接送或辅导名单中'],
      ['another class’s student', { student_id: id('徐若曦'), duty: 'shuttle', teacher_id: qian.id }, '该学生不在您今天的接送或辅导名单中'],
      ['a student who walks', { student_id: id('李欣怡'), duty: 'shuttle', teacher_id: qian.id }, '该学生不在您今天的接送或辅导名单中'],
      ['a student without tutoring', { student_id: id('黄俊熙'), duty: 'tutor', teacher_id: qian.id }, '该学生不在您今天的接送或辅导名单中'],
      ['another school’s teacher', { student_id: id('陈小雨'), duty: 'shuttle', teacher_id: otherTeacher }, '请选择一位在职、负责该项任务的其他老师'],
      ['a teacher without the duty', { student_id: id('陈小雨'), duty: 'shuttle', teacher_id: zhao.id }, '请选择一位在职、负责该项任务的其他老师'],
      ['a left-job teacher', { student_id: id('陈小雨'), duty: 'shuttle', teacher_id: 0 }, '请选择一位在职、负责该项任务的其他老师'],
      ['the caller', { student_id: id('陈小雨'), duty: 'shuttle', teacher_id: t.demo.users.teacher }, '请选择一位在职、负责该项任务的其他老师'],
      ['the admin', { student_id: id('陈小雨'), duty: 'shuttle', teacher_id: t.demo.users.admin }, '请选择一位在职、负责该项任务的其他老师'],
    ];
    const leftJob = (await t.sql.query(`select id from users where username = 'demo_sun'`)).rows[0].id as number;
    for (const [label, body, msg] of cases) {
      if (label === 'a left-job teacher') body.teacher_id = leftJob;
      const res = await t.post(HAND, teacher).send(body);
      expect({ label, body: res.body }).toMatchObject({ label, body: { code: Code.Error, msg } });
    }
    // a student already on leave or gone home
    await day('王子涵', 'left');
    expect((await t.post(HAND, teacher).send({ student_id: id('王子涵'), duty: 'tutor', teacher_id: zhao.id })).body).toMatchObject({
      msg: '该学生今天的这项任务已完成或已不能转交',
    });
    expect(await handovers()).toBe(0);
  });

  it('admin, parents and another school may not call it', async () => {
    for (const token of [admin, parent, other.adminToken]) {
      expect((await t.post(HAND, token).send({ student_id: id('陈小雨'), duty: 'shuttle', teacher_id: qian.id })).body).toMatchObject({
        code: Code.Error,
        msg: FORBIDDEN,
      });
    }
    expect(await handovers()).toBe(0);
  });
});
