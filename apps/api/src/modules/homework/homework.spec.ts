import { Code, type Homework } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let admin: string;
let teacher: string;
let adviser: string;
let parent: string;
let other: { schoolId: number; adminToken: string };
let today: string;
let running: number;
let second: number;
/** the demo parent's children (in the running class), a classmate of another family, a student of the second class */
let child: number;
let sibling: number;
let classmate: number;
let outsider: number;
/** the second class's head teacher (not a demo sign-in) */
let liu: number;
/** another school's care class, teaching class, student and homework */
let foreign: { careClass: number; teachingClass: number; student: number; homework: number };
let seq = 0;
const rid = () => `hw-${Date.now().toString(36)}-${seq++}`;
const api = (a: string) => `/api/index/${a}`;
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };
const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, redis: false, demoPeople: true });
  [admin, teacher, adviser, parent] = await Promise.all([t.login('admin'), t.login('teacher'), t.login('adviser'), t.login('parent')]);
  other = await t.otherSchool();
  running = t.demo.classes!.running;
  second = t.demo.classes!.second;
  today = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as d`)).rows[0].d;
  const mine = await t.sql.query(
    `select s.id from students s join student_guardians g on g.student_id = s.id where g.user_id = $1 and s.status = 1 order by s.id`,
    [t.demo.users.parent],
  );
  [child, sibling] = mine.rows.map((r) => r.id as number);
  classmate = (
    await t.sql.query(
      `select c.student_id from care_class_students c join students s on s.id = c.student_id where c.class_id = $1 and s.status = 1 and c.student_id <> all($2::int[]) order by 1 limit 1`,
      [running, [child, sibling]],
    )
  ).rows[0].student_id;
  outsider = (
    await t.sql.query(
      `select c.student_id from care_class_students c join students s on s.id = c.student_id where c.class_id = $1 and s.status = 1 order by 1 limit 1`,
      [second],
    )
  ).rows[0].student_id;
  liu = (await t.sql.query(`select head_teacher_id from care_classes where id = $1`, [second])).rows[0].head_teacher_id;
  // another school: a care class with a student and a homework, a teaching class
  const o = other.schoolId;
  const oUser = (await t.sql.query(`select id from users where school_id = $1 limit 1`, [o])).rows[0].id;
  const careClass = (await t.sql.query(`insert into care_classes (school_id, name, capacity) values ($1, '外校一班', 10) returning id`, [o])).rows[0]
    .id;
  const student = (await t.sql.query(`insert into students (school_id, name) values ($1, '外校学生') returning id`, [o])).rows[0].id;
  await t.sql.query(`insert into care_class_students (school_id, class_id, student_id) values ($1, $2, $3)`, [o, careClass, student]);
  const teachingClass = (
    await t.sql.query(
      `insert into teaching_classes (school_id, name, subject, teacher_id, capacity, sessions_count) values ($1, '外校书法', '书法', $2, 10, 10) returning id`,
      [o, oUser],
    )
  ).rows[0].id;
  const homework = (
    await t.sql.query(
      `insert into homeworks (school_id, kind, class_id, title, content, set_day, due_day, teacher_id, request_key) values ($1, 'care', $2, '外校作业', '内容', $3, $3, $4, 'x') returning id`,
      [o, careClass, today, oUser],
    )
  ).rows[0].id;
  await t.sql.query(`insert into homework_submissions (homework_id, student_id, school_id) values ($1, $2, $3)`, [homework, student, o]);
  foreign = { careClass, teachingClass, student, homework };
});
afterAll(() => t.close());

/** Row counts and versions of everything this module writes, with the harness's tables. */
async function snap() {
  const { rows } = await t.sql.query(
    `select (select count(*) from homeworks)::int as homeworks, (select count(*) from homework_submissions)::int as submissions,
            (select coalesce(sum(version), 0) from homework_submissions)::int as submission_versions, (select count(*) from homework_events)::int as events`,
  );
  const { schools: _s, users: _u, user_tokens: _t, user_activity: _a, user_versions: _v, ...rest } = await snapshot(t.sql);
  return { ...rest, ...rows[0] };
}

const homeworkBody = (over: Record<string, unknown> = {}) => ({
  kind: 'care',
  class_id: running,
  title: '数学练习册',
  content: '完成练习册第 12 页\n背诵乘法口诀',
  attachments: [{ url: '/uploads/2026/11/a.jpg', name: '第12页.jpg' }],
  due_day: addDays(today, 1),
  request_id: rid(),
  ...over,
});

async function issue(over: Record<string, unknown> = {}, token = teacher): Promise<Homework> {
  const res = await t.post(api('issueHomeWork'), token).send(homeworkBody(over));
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data;
}

/** A homework of the second class (not the demo teacher's), written directly. */
async function secondClassHomework(): Promise<number> {
  const id = (
    await t.sql.query(
      `insert into homeworks (school_id, kind, class_id, title, content, set_day, due_day, teacher_id, request_key) values ($1, 'care', $2, '二班作业', '内容', $3, $3, $4, $5) returning id`,
      [t.demo.schoolId, second, today, liu, rid()],
    )
  ).rows[0].id;
  await t.sql.query(`insert into homework_submissions (homework_id, student_id, school_id) values ($1, $2, $3)`, [id, outsider, t.demo.schoolId]);
  return id;
}

const mark = (homework_id: number, student_ids: number[], state: string, token = teacher, over: Record<string, unknown> = {}) =>
  t.post(api('markHomeWork'), token).send({ homework_id, student_ids, state, request_id: rid(), ...over });

const stateOf = async (homework: number, student: number) =>
  (await t.sql.query(`select state from homework_submissions where homework_id = $1 and student_id = $2`, [homework, student])).rows[0]?.state;

describe('issueHomeWork', () => {
  it('sets homework for an own care class: a "not done" row for every active student; a repeated request sets it once', async () => {
    const students = (
      await t.sql.query(
        `select count(*)::int as n from care_class_students c join students s on s.id = c.student_id where c.class_id = $1 and s.status = 1`,
        [running],
      )
    ).rows[0].n;
    const body = homeworkBody();
    const res = await t.post(api('issueHomeWork'), teacher).send(body);
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: {
        kind: 'care',
        class_id: running,
        class_name: '阳光一班',
        title: '数学练习册',
        set_day: today,
        due_day: body.due_day,
        students,
        todo: students,
        done: 0,
        checked: 0,
      },
    });
    expect(res.body.data.attachments).toEqual(body.attachments);
    const before = await snap();
    const again = await t.post(api('issueHomeWork'), teacher).send(body);
    expect(again.body.data.id).toBe(res.body.data.id);
    expect(await snap()).toEqual(before);
    // the head teacher sets homework for the class too
    expect((await issue({}, adviser)).students).toBe(students);
  });

  it('sets homework for an own teaching class and one of its sessions', async () => {
    const c = await t
      .post(api('addTeachingClass'), admin)
      .send({ name: `作业书法${seq++}`, subject: '书法', teacher_id: t.demo.users.teacher, capacity: 10, sessions_count: 10, fee_fen: 0 });
    expect(c.body.code).toBe(Code.Ok);
    await t.post(api('addTeachingClassStudent'), admin).send({ class_id: c.body.data.id, student_ids: [child, classmate] });
    const s = (
      await t.sql.query(
        `insert into class_sessions (school_id, kind, class_id, day, start_min, end_min, teacher_id) values ($1, 'teaching', $2, $3, 60, 120, $4) returning id`,
        [t.demo.schoolId, c.body.data.id, today, t.demo.users.teacher],
      )
    ).rows[0].id;
    const hw = await issue({ kind: 'teaching', class_id: c.body.data.id, session_id: s });
    expect(hw).toMatchObject({ kind: 'teaching', session_id: s, session_day: today, students: 2 });
    const list = await t.get(`${api('teachingTaskHomeWorks')}?class_id=${c.body.data.id}`, teacher);
    expect(list.body).toMatchObject({ code: Code.Ok, data: { total: 1, list: [{ id: hw.id }] } });
    // a session of another class
    const before = await snap();
    const wrong = await t
      .post(api('issueHomeWork'), teacher)
      .send(homeworkBody({ kind: 'teaching', class_id: c.body.data.id, session_id: s + 100000 }));
    expect(wrong.body).toMatchObject({ code: Code.Error, msg: '未找到该课次，或不属于这个兴趣班' });
    expect(await snap()).toEqual(before);
  });

  it('refuses bad input and writes nothing', async () => {
    const before = await snap();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: '' }, '请填写作业标题'],
      [{ content: '' }, '请填写作业内容'],
      [{ due_day: '2026-13-40' }, '日期格式'],
      [{ due_day: '2026-02-30' }, '日期格式'],
      [{ due_day: addDays(today, -1) }, '截止日期不能早于今天'],
      [{ due_day: addDays(today, 61) }, '最多 60 天后'],
      [{ kind: 'school' }, '班级类型'],
      [{ class_id: 'x' }, '请选择班级'],
      [{ session_id: 5 }, '晚托班作业不能指定课次'],
      [{ attachments: [{ url: 'javascript:alert(1)', name: 'x' }] }, '附件无效'],
      [{ attachments: Array.from({ length: 10 }, (_, i) => ({ url: `/uploads/${i}.jpg`, name: `${i}` })) }, '附件最多 9 个'],
      [{ title: '<b>x</b>' }, ''],
      [{ request_id: 'short' }, '请求编号无效'],
    ];
    for (const [over, msg] of cases) {
      const res = await t.post(api('issueHomeWork'), teacher).send(homeworkBody(over));
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(Code.Error);
      expect(res.body.msg).toContain(msg);
    }
    expect(await snap()).toEqual(before);
  });

  it('answers the wrong role, another class and another school’s class as unknown, writing nothing', async () => {
    const before = await snap();
    expect((await t.post(api('issueHomeWork'), admin).send(homeworkBody())).body).toMatchObject(DENIED);
    expect((await t.post(api('issueHomeWork'), parent).send(homeworkBody())).body).toMatchObject(DENIED);
    const notMine = { code: Code.Error, msg: '未找到该班级，或不是你负责的班级' };
    expect((await t.post(api('issueHomeWork'), teacher).send(homeworkBody({ class_id: second }))).body).toMatchObject(notMine);
    expect((await t.post(api('issueHomeWork'), teacher).send(homeworkBody({ class_id: foreign.careClass }))).body).toMatchObject(notMine);
    expect(
      (await t.post(api('issueHomeWork'), teacher).send(homeworkBody({ kind: 'teaching', class_id: foreign.teachingClass }))).body,
    ).toMatchObject(notMine);
    expect(await snap()).toEqual(before);
  });
});

describe('markHomeWork and parentDoneHomeWork', () => {
  it('the teacher marks several students at once with a note; the history is appended; a repeat changes nothing', async () => {
    const hw = await issue();
    const res = await mark(hw.id, [child, classmate], 'done', teacher, { note: '订正两道题' });
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: {
        homework_id: hw.id,
        state: 'done',
        changed: 2,
        results: [
          { student_id: child, state: 'done', version: 2 },
          { student_id: classmate, state: 'done' },
        ],
      },
    });
    const checked = await mark(hw.id, [child], 'checked', adviser, { request_id: 'hw-fixed-check-1' });
    expect(checked.body.data).toMatchObject({ changed: 1, results: [{ student_id: child, state: 'checked', version: 3 }] });
    const before = await snap();
    const repeat = await mark(hw.id, [child], 'checked', adviser, { request_id: 'hw-fixed-check-1' });
    expect(repeat.body.data).toMatchObject({ changed: 0, results: [{ student_id: child, state: 'checked', version: 3 }] });
    expect((await mark(hw.id, [classmate], 'done')).body.data.changed).toBe(0);
    expect(await snap()).toEqual(before);
    const events = await t.sql.query(
      `select from_state, to_state, note, actor from homework_events where homework_id = $1 and student_id = $2 order by id`,
      [hw.id, child],
    );
    expect(events.rows).toEqual([
      { from_state: 'todo', to_state: 'done', note: '订正两道题', actor: 'teacher' },
      { from_state: 'done', to_state: 'checked', note: null, actor: 'teacher' },
    ]);
    // the teacher's own reading of it
    const info = await t.get(`${api('teachingTaskWorkInfo')}?id=${hw.id}&limit=100`, teacher);
    expect(info.body.data.homework).toMatchObject({ done: 1, checked: 1 });
    expect(info.body.data.list.find((s: { student_id: number }) => s.student_id === child)).toMatchObject({ state: 'checked', note: '订正两道题' });
  });

  it('refuses a checked homework marked done again, and bad input, all or none, writing nothing', async () => {
    const hw = await issue();
    await mark(hw.id, [child], 'checked');
    const before = await snap();
    expect((await mark(hw.id, [classmate, child], 'done')).body).toMatchObject({ code: Code.Error, msg: '作业已由老师检查，不能再标记为已完成' });
    expect(await stateOf(hw.id, classmate)).toBe('todo');
    for (const [ids, state, over] of [
      [[], 'done', {}],
      [[child, child], 'done', {}],
      [[child], 'finished', {}],
      [[child], 'done', { note: 'x'.repeat(201) }],
      [['a'], 'done', {}],
      [[child], 'done', { request_id: '' }],
    ] as Array<[unknown[], string, Record<string, unknown>]>) {
      const res = await t.post(api('markHomeWork'), teacher).send({ homework_id: hw.id, student_ids: ids, state, request_id: rid(), ...over });
      expect(res.body.code).toBe(Code.Error);
    }
    expect((await mark(hw.id, [outsider], 'done')).body).toMatchObject({ code: Code.Error, msg: `以下学生不在这次作业的名单里：${outsider}` });
    expect(await snap()).toEqual(before);
  });

  it('a teacher cannot touch another class’s homework; the wrong role and another school’s homework are refused', async () => {
    const theirs = await secondClassHomework();
    const hw = await issue();
    const before = await snap();
    const notFound = { code: Code.Error, msg: '未找到该作业，或不是你负责的班级的作业' };
    expect((await mark(theirs, [outsider], 'done')).body).toMatchObject(notFound);
    expect((await mark(theirs, [outsider], 'done', adviser)).body).toMatchObject(notFound);
    expect((await t.get(`${api('teachingTaskWorkInfo')}?id=${theirs}`, teacher)).body).toMatchObject(notFound);
    expect((await t.get(`${api('homeWorkInfo')}?id=${theirs}`, adviser)).body).toMatchObject(notFound);
    expect((await mark(foreign.homework, [foreign.student], 'done')).body).toMatchObject(notFound);
    expect((await mark(hw.id, [child], 'done', admin)).body).toMatchObject(DENIED);
    expect((await mark(hw.id, [child], 'done', parent)).body).toMatchObject(DENIED);
    expect(await stateOf(theirs, outsider)).toBe('todo');
    expect(await snap()).toEqual(before);
  });

  it('the guardian marks an own child’s homework done at home with a photo; a checked one stays checked', async () => {
    const hw = await issue();
    const body = { homework_id: hw.id, student_id: sibling, photo_url: '/uploads/2026/11/home.jpg', note: '在家完成', request_id: rid() };
    const res = await t.post(api('parentDoneHomeWork'), parent).send(body);
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: { state: 'done', changed: 1, results: [{ student_id: sibling, state: 'done', version: 2 }] },
    });
    const row = (
      await t.sql.query(`select photo_url, home_note from homework_submissions where homework_id = $1 and student_id = $2`, [hw.id, sibling])
    ).rows[0];
    expect(row).toEqual({ photo_url: '/uploads/2026/11/home.jpg', home_note: '在家完成' });
    let before = await snap();
    expect((await t.post(api('parentDoneHomeWork'), parent).send(body)).body.data.changed).toBe(0);
    expect(await snap()).toEqual(before);
    await mark(hw.id, [child], 'checked');
    before = await snap();
    expect((await t.post(api('parentDoneHomeWork'), parent).send({ ...body, student_id: child, request_id: rid() })).body).toMatchObject({
      code: Code.Error,
      msg: '作业已由老师检查，不能再标记为已完成',
    });
    // bad input
    for (const over of [{ photo_url: '' }, { photo_url: 'file:///etc/passwd' }, { student_id: 'x' }, { note: '<script>' }, { request_id: '1' }]) {
      expect((await t.post(api('parentDoneHomeWork'), parent).send({ ...body, request_id: rid(), ...over })).body.code).toBe(Code.Error);
    }
    // not an own child, another school's homework, the wrong role
    const notFound = { code: Code.Error, msg: '未找到该作业，或不是你负责的班级的作业' };
    expect((await t.post(api('parentDoneHomeWork'), parent).send({ ...body, student_id: classmate, request_id: rid() })).body).toMatchObject(
      notFound,
    );
    expect(
      (
        await t
          .post(api('parentDoneHomeWork'), parent)
          .send({ ...body, homework_id: foreign.homework, student_id: foreign.student, request_id: rid() })
      ).body,
    ).toMatchObject(notFound);
    expect((await t.post(api('parentDoneHomeWork'), teacher).send({ ...body, request_id: rid() })).body).toMatchObject(DENIED);
    expect(await snap()).toEqual(before);
  });
});

describe('reading homework', () => {
  it('a student’s day: the teacher, the head teacher and the guardian; the detail with the history and notes', async () => {
    const hw = await issue({ title: '语文阅读', due_day: addDays(today, 2) });
    await mark(hw.id, [child], 'done', teacher, { note: '阅读理解第三题需订正' });
    for (const token of [teacher, adviser, parent]) {
      const res = await t.get(`${api('wantuoStudentHomeWork')}?student_id=${child}`, token);
      expect(res.body).toMatchObject({ code: Code.Ok, data: { student_id: child, day: today } });
      expect(res.body.data.list.find((h: { id: number }) => h.id === hw.id)).toMatchObject({
        title: '语文阅读',
        state: 'done',
        note: '阅读理解第三题需订正',
        version: 2,
      });
    }
    // open on a later day until it is due, not after
    const later = await t.get(`${api('wantuoStudentHomeWork')}?student_id=${child}&day=${addDays(today, 3)}`, teacher);
    expect(later.body.data.list.find((h: { id: number }) => h.id === hw.id)).toBeUndefined();
    const detail = await t.get(`${api('wantuoStudentWorkInfo')}?student_id=${child}&homework_id=${hw.id}`, teacher);
    expect(detail.body).toMatchObject({
      code: Code.Ok,
      data: {
        student_id: child,
        homework: { id: hw.id, state: 'done' },
        history: [{ from_state: 'todo', to_state: 'done', note: '阅读理解第三题需订正', actor: 'teacher' }],
      },
    });
    // bad input, the wrong role, not an own student, another school
    expect((await t.get(`${api('wantuoStudentHomeWork')}?student_id=${child}&day=tomorrow`, teacher)).body.code).toBe(Code.Error);
    expect((await t.get(`${api('wantuoStudentHomeWork')}?student_id=${child}&day=2026-04-31`, teacher)).body.code).toBe(Code.Error);
    expect((await t.get(`${api('wantuoStudentHomeWork')}?student_id=x`, teacher)).body.code).toBe(Code.Error);
    expect((await t.get(`${api('wantuoStudentWorkInfo')}?student_id=${child}`, teacher)).body.code).toBe(Code.Error);
    expect((await t.get(`${api('wantuoStudentHomeWork')}?student_id=${child}`, admin)).body).toMatchObject(DENIED);
    expect((await t.get(`${api('wantuoStudentWorkInfo')}?student_id=${child}&homework_id=${hw.id}`, parent)).body).toMatchObject(DENIED);
    const noStudent = { code: Code.Error, msg: '未找到该学生，或不是你负责的学生' };
    expect((await t.get(`${api('wantuoStudentHomeWork')}?student_id=${classmate}`, parent)).body).toMatchObject(noStudent);
    expect((await t.get(`${api('wantuoStudentHomeWork')}?student_id=${outsider}`, teacher)).body).toMatchObject(noStudent);
    expect((await t.get(`${api('wantuoStudentHomeWork')}?student_id=${foreign.student}`, teacher)).body).toMatchObject(noStudent);
    expect(
      (await t.get(`${api('wantuoStudentWorkInfo')}?student_id=${foreign.student}&homework_id=${foreign.homework}`, teacher)).body,
    ).toMatchObject({ code: Code.Error });
  });

  it('the class lists: the admin the whole school, a teacher the own classes; one homework with its students', async () => {
    const mine = await issue({ title: `口算${seq++}` });
    const theirs = await secondClassHomework();
    const all = await t.get(`${api('classHomeWorks')}?limit=100`, admin);
    const ids = all.body.data.list.map((h: Homework) => h.id);
    expect(ids).toEqual(expect.arrayContaining([mine.id, theirs]));
    expect(ids).not.toContain(foreign.homework);
    const own = await t.get(`${api('classHomeWorks')}?limit=100`, teacher);
    expect(own.body.data.list.map((h: Homework) => h.id)).toContain(mine.id);
    expect(own.body.data.list.map((h: Homework) => h.id)).not.toContain(theirs);
    const filtered = await t.get(`${api('classHomeWorks')}?kind=care&class_id=${second}&day=${today}`, admin);
    expect(filtered.body.data.list.every((h: Homework) => h.class_id === second && h.set_day <= today && h.due_day >= today)).toBe(true);
    expect(filtered.body.data.list.find((h: Homework) => h.id === theirs)).toMatchObject({
      class_name: '阳光二班',
      teacher_name: '刘老师',
      students: 1,
      todo: 1,
    });
    expect((await t.get(`${api('classHomeWorks')}?keyword=${encodeURIComponent(mine.title)}`, admin)).body.data).toMatchObject({
      total: 1,
      list: [{ id: mine.id }],
    });
    const info = await t.get(`${api('homeWorkInfo')}?id=${mine.id}&state=todo&limit=2`, admin);
    expect(info.body).toMatchObject({ code: Code.Ok, data: { homework: { id: mine.id }, total: mine.students, limit: 2 } });
    expect(info.body.data.list).toHaveLength(2);
    // bad input, the wrong role, another school
    expect((await t.get(`${api('classHomeWorks')}?kind=school`, admin)).body.code).toBe(Code.Error);
    expect((await t.get(`${api('homeWorkInfo')}?id=0`, admin)).body.code).toBe(Code.Error);
    expect((await t.get(`${api('homeWorkInfo')}?id=${mine.id}&state=lost`, admin)).body.code).toBe(Code.Error);
    expect((await t.get(`${api('teachingTaskHomeWorks')}?class_id=x`, teacher)).body.code).toBe(Code.Error);
    expect((await t.get(api('classHomeWorks'), parent)).body).toMatchObject(DENIED);
    expect((await t.get(`${api('homeWorkInfo')}?id=${mine.id}`, parent)).body).toMatchObject(DENIED);
    expect((await t.get(`${api('teachingTaskHomeWorks')}?class_id=1`, adviser)).body).toMatchObject(DENIED);
    expect((await t.get(`${api('teachingTaskWorkInfo')}?id=${mine.id}`, admin)).body).toMatchObject(DENIED);
    expect((await t.get(`${api('classHomeWorks')}?limit=100`, other.adminToken)).body.data.list.map((h: Homework) => h.id)).toEqual([
      foreign.homework,
    ]);
    expect((await t.get(`${api('homeWorkInfo')}?id=${mine.id}`, other.adminToken)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该作业，或不是你负责的班级的作业',
    });
    expect((await t.get(`${api('homeWorkInfo')}?id=${foreign.homework}`, admin)).body).toMatchObject({ code: Code.Error });
    expect((await t.get(`${api('teachingTaskHomeWorks')}?class_id=${foreign.teachingClass}`, teacher)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该班级，或不是你负责的班级',
    });
    expect((await t.get(`${api('teachingTaskWorkInfo')}?id=${foreign.homework}`, teacher)).body).toMatchObject({ code: Code.Error });
  });
});
