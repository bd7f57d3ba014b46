import { addDays, Code, mondayOf, type Clash, type CourseSchedulingAnswer, type TeachingClass, type TeachingSession } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let admin: string;
let teacher: string;
let adviser: string;
let parent: string;
let teacherId: number;
let adviserId: number;
let other: { schoolId: number; adminToken: string };
let today: string;
/** a Monday two weeks ahead: the term tests generate from it */
let term: string;
/** students in no care class, the demo parent's child (in the care class 16:00-19:30 on weekdays) and its sibling */
let free: number[];
let child: number;
let sibling: number;
let careStudent: number;

const api = (action: string) => `/api/index/${action}`;
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };
let seq = 0;
const uniq = (p: string) => `${p}${++seq}`;

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, redis: false, demoPeople: true });
  [admin, teacher, adviser, parent] = await Promise.all([t.login('admin'), t.login('teacher'), t.login('adviser'), t.login('parent')]);
  teacherId = t.demo.users.teacher;
  adviserId = t.demo.users.adviser;
  other = await t.otherSchool();
  today = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as d`)).rows[0].d;
  term = addDays(mondayOf(today), 14);
  const schoolId = t.demo.schoolId;
  free = [];
  for (let i = 0; i < 8; i++)
    free.push((await t.sql.query(`insert into students (school_id, name) values ($1, $2) returning id`, [schoolId, `学员${i}`])).rows[0].id);
  const mine = await t.sql.query(`select s.id from students s join student_guardians g on g.student_id = s.id where g.user_id = $1 order by s.id`, [
    t.demo.users.parent,
  ]);
  [child, sibling] = mine.rows.map((r) => r.id as number);
  careStudent = (
    await t.sql.query(`select student_id from care_class_students where class_id = $1 and student_id <> all($2::int[]) order by student_id limit 1`, [
      t.demo.classes!.running,
      [child, sibling],
    ])
  ).rows[0].student_id;
});
afterAll(() => t.close());

/** Row counts and versions of everything this module writes, with the harness's tables. */
async function snap() {
  const { rows } = await t.sql.query(
    `select (select count(*) from rooms)::int as rooms, (select count(*) from school_calendar_days)::int as calendar,
            (select count(*) from teaching_classes)::int as classes, (select coalesce(sum(version), 0) from teaching_classes)::int as class_versions,
            (select count(*) from teaching_class_students)::int as members, (select count(*) from class_sessions)::int as sessions,
            (select coalesce(sum(version), 0) from class_sessions)::int as session_versions, (select count(*) from session_roll_calls)::int as roll_calls`,
  );
  const { schools: _s, users: _u, user_tokens: _t, user_activity: _a, user_versions: _v, ...rest } = await snapshot(t.sql);
  return { ...rest, ...rows[0] };
}

async function room(name = uniq('教室')) {
  const res = await t.post(api('addRoom'), admin).send({ name });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data.id as number;
}

async function addClass(over: Record<string, unknown> = {}) {
  const res = await t
    .post(api('addTeachingClass'), admin)
    .send({ name: uniq('班'), subject: '数学', teacher_id: teacherId, capacity: 10, sessions_count: 40, fee_fen: 120000, ...over });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data as TeachingClass;
}

async function join(classId: number, ids: number[]) {
  const res = await t.post(api('addTeachingClassStudent'), admin).send({ class_id: classId, student_ids: ids });
  expect(res.body).toMatchObject({ code: Code.Ok });
}

const slot = (weekday: number, start_time: string, end_time: string) => ({ weekday, start_time, end_time });

function generate(
  classId: number,
  pattern: ReturnType<typeof slot>[],
  from = term,
  to = addDays(term, 13),
  extra: Record<string, unknown> = {},
  token = admin,
) {
  return t.post(api('teachingClassCourseScheduling'), token).send({ class_id: classId, from, to, pattern, ...extra });
}

/** A teacher of their own (tests sharing the demo teacher's term would clash with each other). */
async function newTeacher(): Promise<number> {
  const { rows } = await t.sql.query(
    `insert into users (school_id, role, username, name, nickname, mobile, password_hash) select school_id, 2, $2, $3, $3, null, password_hash from users where id = $1 returning id`,
    [teacherId, uniq('tt_'), uniq('老师')],
  );
  return rows[0].id;
}

async function generated(classId: number, pattern: ReturnType<typeof slot>[], from?: string, to?: string) {
  const res = await generate(classId, pattern, from, to);
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data as CourseSchedulingAnswer;
}

async function sessionsOf(classId: number, token = admin) {
  const res = await t.get(`${api('teachingClassScheduling')}?class_id=${classId}&limit=100`, token);
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data.list as TeachingSession[];
}

describe('rooms and the school calendar', () => {
  it('adds and lists rooms, names unique per school', async () => {
    const id = await room('301 教室');
    const list = await t.get(`${api('roomList')}?name=301`, admin);
    expect(list.body.data).toMatchObject({ total: 1, list: [{ id, name: '301 教室', classes: 0 }] });
    const before = await snap();
    expect((await t.post(api('addRoom'), admin).send({ name: '301 教室' })).body).toMatchObject({ code: Code.Error, msg: '已有同名教室' });
    expect((await t.post(api('addRoom'), admin).send({ name: '' })).body.code).toBe(Code.Error);
    expect(await snap()).toEqual(before);
    // another school may use the name, and does not see this school's rooms
    expect((await t.post(api('addRoom'), other.adminToken).send({ name: '301 教室' })).body.code).toBe(Code.Ok);
    expect((await t.get(`${api('roomList')}?name=301`, other.adminToken)).body.data.list.map((r: { id: number }) => r.id)).not.toContain(id);
  });

  it('sets holidays and make-up days, lists and removes them; a make-up day is a weekend day running Monday..Friday', async () => {
    const day = addDays(term, 100);
    const sat = addDays(mondayOf(day), 5);
    const hol = await t.post(api('setSchoolCalendarDay'), admin).send({ day, kind: 'holiday', note: '国庆' });
    expect(hol.body.data).toMatchObject({ day, kind: 'holiday', works_as: null, note: '国庆', sessions_on_day: 0 });
    const mk = await t.post(api('setSchoolCalendarDay'), admin).send({ day: sat, kind: 'makeup', works_as: 3 });
    expect(mk.body.data).toMatchObject({ day: sat, kind: 'makeup', works_as: 3 });
    const list = await t.get(`${api('schoolCalendar')}?from=${mondayOf(day)}&to=${addDays(mondayOf(day), 6)}`, teacher);
    expect(list.body.data.list).toEqual(
      expect.arrayContaining([expect.objectContaining({ day, kind: 'holiday' }), expect.objectContaining({ day: sat, kind: 'makeup', works_as: 3 })]),
    );

    const before = await snap();
    const weekdayMakeup = await t.post(api('setSchoolCalendarDay'), admin).send({ day: mondayOf(day), kind: 'makeup', works_as: 1 });
    expect(weekdayMakeup.body).toMatchObject({ code: Code.Error, msg: '调休上课日须是周六或周日' });
    for (const body of [
      { day: sat, kind: 'makeup' },
      { day: sat, kind: 'makeup', works_as: 6 },
      { day, kind: 'holiday', works_as: 2 },
      { day: '2026-02-30', kind: 'holiday' },
      { day, kind: 'vacation' },
    ]) {
      expect((await t.post(api('setSchoolCalendarDay'), admin).send(body)).body.code).toBe(Code.Error);
    }
    expect((await t.get(`${api('schoolCalendar')}?from=${day}&to=${addDays(day, 500)}`, admin)).body.code).toBe(Code.Error);
    // another school's admin cannot remove this school's day
    expect((await t.post(api('delSchoolCalendarDay'), other.adminToken).send({ day })).body).toMatchObject({
      code: Code.Error,
      msg: '该日期不在校历中',
    });
    expect(await snap()).toEqual(before);

    expect((await t.post(api('delSchoolCalendarDay'), admin).send({ day: sat })).body).toMatchObject({ code: Code.Ok, data: { day: sat } });
    expect((await t.post(api('delSchoolCalendarDay'), admin).send({ day: sat })).body.code).toBe(Code.Error);
  });

  it.each(['teacher', 'adviser', 'parent', 'operator'] as const)('%s may not set the calendar or add rooms', async (who) => {
    const token = await t.login(who);
    expect((await t.post(api('setSchoolCalendarDay'), token).send({ day: term, kind: 'holiday' })).body).toMatchObject(DENIED);
    expect((await t.post(api('delSchoolCalendarDay'), token).send({ day: term })).body).toMatchObject(DENIED);
    expect((await t.post(api('addRoom'), token).send({ name: 'x' })).body).toMatchObject(DENIED);
    expect((await t.get(api('roomList'), token)).body).toMatchObject(DENIED);
  });
});

describe('teaching classes and their students', () => {
  it('adds a class, answers it to the admin and its teacher, lists it', async () => {
    const r = await room();
    const c = await addClass({ name: '奥数提高班', subject: '数学', room_id: r, capacity: 3, sessions_count: 20, fee_fen: 288000 });
    expect(c).toMatchObject({
      name: '奥数提高班',
      subject: '数学',
      teacher_id: teacherId,
      room_id: r,
      capacity: 3,
      students: 0,
      sessions_count: 20,
      sessions_scheduled: 0,
      fee_fen: 288000,
      status: 1,
      version: 1,
    });
    expect((await t.get(`${api('teachingClassInfo')}?id=${c.id}`, teacher)).body.data).toMatchObject({ id: c.id, teacher_name: expect.any(String) });
    expect((await t.get(`${api('teachingClassList')}?name=奥数`, admin)).body.data.list.map((x: { id: number }) => x.id)).toContain(c.id);
    expect((await t.get(api('teachingClassList'), teacher)).body.data.list.every((x: { teacher_id: number }) => x.teacher_id === teacherId)).toBe(
      true,
    );
    // a class of another teacher is unknown to this teacher
    const theirs = await addClass({ teacher_id: adviserId });
    expect((await t.get(`${api('teachingClassInfo')}?id=${theirs.id}`, teacher)).body).toMatchObject({ code: Code.Error, msg: '未找到该教学班' });
    expect((await t.get(`${api('teachingClassSection')}?class_id=${theirs.id}`, teacher)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该教学班',
    });
  });

  it('bad input writes nothing', async () => {
    const before = await snap();
    const base = { name: 'x', subject: '数学', teacher_id: teacherId, capacity: 10, sessions_count: 10, fee_fen: 0 };
    for (const body of [
      { ...base, name: '' },
      { ...base, capacity: 0 },
      { ...base, sessions_count: 401 },
      { ...base, fee_fen: -1 },
      { ...base, teacher_id: t.demo.users.parent },
      { ...base, room_id: 999999 },
      { ...base, extra: 1 },
    ]) {
      const res = await t.post(api('addTeachingClass'), admin).send(body);
      expect({ body, code: res.body.code }).toEqual({ body, code: Code.Error });
    }
    const c = await addClass({ name: 'Dup 班' });
    const after = await snap();
    expect((await t.post(api('addTeachingClass'), admin).send({ ...base, name: 'dup 班' })).body).toMatchObject({
      code: Code.Error,
      msg: '已有同名教学班',
    });
    for (const body of [
      { class_id: c.id, student_ids: [] },
      { class_id: c.id, student_ids: [free[0], free[0]] },
      { class_id: c.id, student_ids: [999999] },
      { class_id: 'x', student_ids: [free[0]] },
    ]) {
      expect((await t.post(api('addTeachingClassStudent'), admin).send(body)).body.code).toBe(Code.Error);
    }
    expect((await t.post(api('delTeachingClassStudent'), admin).send({ class_id: c.id, student_id: free[0] })).body).toMatchObject({
      code: Code.Error,
      msg: '该学生不在此班中',
    });
    expect(await snap()).toEqual(after);
    expect(after.classes).toBe(before.classes + 1);
  });

  it('adds students up to the capacity, refused whole with the numbers past it; lists, selects and removes them', async () => {
    const c = await addClass({ capacity: 3 });
    await join(c.id, [free[0], free[1]]);
    const before = await snap();
    const over = await t.post(api('addTeachingClassStudent'), admin).send({ class_id: c.id, student_ids: [free[2], free[3]] });
    expect(over.body).toMatchObject({ code: Code.Error, msg: '超出班级容量：容量 3 人，已有 2 人，本次添加 2 人' });
    const again = await t.post(api('addTeachingClassStudent'), admin).send({ class_id: c.id, student_ids: [free[1]] });
    expect(again.body).toMatchObject({ code: Code.Error, msg: '以下学生已在班中：学员1' });
    expect(await snap()).toEqual(before);

    const members = await t.get(`${api('teachingClassStudent')}?class_id=${c.id}`, teacher);
    expect(members.body.data).toMatchObject({ total: 2 });
    const selectable = await t.get(`${api('selectTeachingClassStudent')}?class_id=${c.id}&name=学员&limit=100`, admin);
    const ids = selectable.body.data.list.map((s: { id: number }) => s.id);
    expect(ids).toContain(free[2]);
    expect(ids).not.toContain(free[0]);
    const del = await t.post(api('delTeachingClassStudent'), admin).send({ class_id: c.id, student_id: free[0] });
    expect(del.body.data).toMatchObject({ students: 1 });
  });

  it('a student’s classes: the admin any, a teacher the ones they teach, a guardian an own child’s', async () => {
    const mine = await addClass();
    const theirs = await addClass({ teacher_id: adviserId });
    await join(mine.id, [child]);
    await join(theirs.id, [child]);
    const ids = async (token: string, student = child) => {
      const res = await t.get(`${api('studentTeachingClassList')}?student_id=${student}`, token);
      return res.body.code === Code.Ok ? (res.body.data.list as Array<{ id: number }>).map((x) => x.id) : res.body.msg;
    };
    expect(await ids(admin)).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    expect(await ids(teacher)).toEqual([mine.id]);
    expect(await ids(parent)).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    expect(await ids(parent, free[5])).toBe('未找到该学生');
    expect(await ids(other.adminToken)).toBe('未找到该学生');
    expect((await t.get(`${api('studentTeachingClassList')}?student_id=${child}`, adviser)).body).toMatchObject(DENIED);
  });

  it('the teacher’s overview: own classes and the next planned sessions', async () => {
    const c = await addClass({ name: uniq('书法班') });
    await generated(c.id, [slot(6, '08:00', '09:00')], today, addDays(today, 30));
    const res = await t.get(api('teachManage'), teacher);
    expect(res.body.code).toBe(Code.Ok);
    expect(res.body.data.classes.map((x: { id: number }) => x.id)).toContain(c.id);
    expect(res.body.data.next_sessions.length).toBeGreaterThan(0);
    expect(res.body.data.next_sessions[0]).toMatchObject({ day: expect.any(String), start_time: expect.any(String), state: 'planned' });
    const before = res.body.data.homework_to_mark as number;
    expect(before).toEqual(expect.any(Number));
    expect((await t.get(api('teachManage'), admin)).body).toMatchObject(DENIED);
    // homework of the class: submissions marked done count until they are checked
    const pair: number[] = [];
    for (const name of ['作业甲', '作业乙'])
      pair.push((await t.sql.query(`insert into students (school_id, name) values ($1, $2) returning id`, [t.demo.schoolId, name])).rows[0].id);
    await join(c.id, pair);
    const due = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date + 3, 'YYYY-MM-DD') as d`)).rows[0].d;
    const hw = await t
      .post(api('issueHomeWork'), teacher)
      .send({ kind: 'teaching', class_id: c.id, title: '练字一页', content: '临摹“永”字十遍', due_day: due, request_id: `hw-${c.id}-manage` });
    expect(hw.body).toMatchObject({ code: Code.Ok, data: { students: 2, todo: 2 } });
    const mark = (state: string, ids: number[], n: number) =>
      t.post(api('markHomeWork'), teacher).send({ homework_id: hw.body.data.id, student_ids: ids, state, request_id: `hw-${c.id}-mark-${n}` });
    expect((await mark('done', pair, 1)).body.code).toBe(Code.Ok);
    expect((await t.get(api('teachManage'), teacher)).body.data.homework_to_mark).toBe(before + 2);
    expect((await mark('checked', [pair[0]], 2)).body.code).toBe(Code.Ok);
    expect((await t.get(api('teachManage'), teacher)).body.data.homework_to_mark).toBe(before + 1);
  });

  it('teachManage takes no input: an unknown field is refused with code 100 (nothing written); admins, parents and another school are refused', async () => {
    const before = await snap();
    for (const q of ['x=1', 'class_id=1', 'page=2', 'teacher_id=%27%20or%201%3D1']) {
      const res = await t.get(`${api('teachManage')}?${q}`, teacher);
      expect(res.body).toMatchObject({ code: Code.Error });
      expect(res.body.msg).toContain('不支持的参数');
    }
    expect(await snap()).toEqual(before);
    for (const token of [admin, parent, other.adminToken]) expect((await t.get(api('teachManage'), token)).body).toMatchObject(DENIED);
  });

  it('stops and starts a class on the version read: a stopped class takes no students, no generation and no moves', async () => {
    const added = await addClass({ teacher_id: await newTeacher() });
    await generated(added.id, [slot(2, '08:00', '09:00')], addDays(term, 21), addDays(term, 27));
    const [ses] = await sessionsOf(added.id);
    // the generation moved the class's version on
    const c = { ...added, version: (await t.sql.query(`select version from teaching_classes where id = $1`, [added.id])).rows[0].version as number };
    const stopped = await t.post(api('startAndEndTeachingClass'), admin).send({ id: c.id, version: c.version, status: 0 });
    expect(stopped.body.data).toMatchObject({ status: 0, version: c.version + 1 });
    const before = await snap();
    expect((await t.post(api('startAndEndTeachingClass'), admin).send({ id: c.id, version: c.version, status: 1 })).body).toMatchObject({
      code: Code.Error,
      msg: '教学班已被他人修改，请刷新后重试',
    });
    expect((await t.post(api('startAndEndTeachingClass'), admin).send({ id: c.id, version: c.version + 1, status: 0 })).body).toMatchObject({
      code: Code.Error,
      msg: '教学班已是该状态',
    });
    expect((await t.post(api('startAndEndTeachingClass'), admin).send({ id: c.id, version: c.version + 1, status: 2 })).body.code).toBe(Code.Error);
    expect((await t.post(api('addTeachingClassStudent'), admin).send({ class_id: c.id, student_ids: [free[0]] })).body).toMatchObject({
      code: Code.Error,
      msg: '该教学班已停课',
    });
    expect((await generate(c.id, [slot(7, '20:00', '21:00')])).body).toMatchObject({ code: Code.Error, msg: '该教学班已停课' });
    const move = { id: ses.id, version: ses.version, day: ses.day, start_time: '09:00', end_time: '10:00' };
    expect((await t.post(api('moveTeachingSession'), admin).send(move)).body).toMatchObject({ code: Code.Error, msg: '该教学班已停课' });
    expect((await t.post(api('startAndEndTeachingClass'), teacher).send({ id: c.id, version: c.version + 1, status: 1 })).body).toMatchObject(DENIED);
    expect(
      (await t.post(api('startAndEndTeachingClass'), other.adminToken).send({ id: c.id, version: c.version + 1, status: 1 })).body,
    ).toMatchObject({ code: Code.Error, msg: '未找到该教学班' });
    expect(await snap()).toEqual(before);
    expect((await t.post(api('startAndEndTeachingClass'), admin).send({ id: c.id, version: c.version + 1, status: 1 })).body.data).toMatchObject({
      status: 1,
    });
    expect((await t.post(api('moveTeachingSession'), admin).send(move)).body.data).toMatchObject({ start_time: '09:00', version: ses.version + 1 });
  });

  it.each(['adviser', 'parent', 'operator'] as const)('%s may not manage teaching classes', async (who) => {
    const token = await t.login(who);
    const c = await addClass();
    expect(
      (
        await t
          .post(api('addTeachingClass'), token)
          .send({ name: 'x', subject: 'y', teacher_id: teacherId, capacity: 1, sessions_count: 1, fee_fen: 0 })
      ).body,
    ).toMatchObject(DENIED);
    expect((await t.get(`${api('teachingClassInfo')}?id=${c.id}`, token)).body).toMatchObject(DENIED);
    expect((await t.get(`${api('teachingClassStudent')}?class_id=${c.id}`, token)).body).toMatchObject(DENIED);
    expect((await t.get(`${api('selectTeachingClassStudent')}?class_id=${c.id}`, token)).body).toMatchObject(DENIED);
    expect((await t.post(api('addTeachingClassStudent'), token).send({ class_id: c.id, student_ids: [free[0]] })).body).toMatchObject(DENIED);
    expect((await t.post(api('delTeachingClassStudent'), token).send({ class_id: c.id, student_id: free[0] })).body).toMatchObject(DENIED);
    expect(
      (await t.post(api('teachingClassCourseScheduling'), token).send({ class_id: c.id, from: term, to: term, pattern: [slot(1, '10:00', '11:00')] }))
        .body,
    ).toMatchObject(DENIED);
    expect((await t.get(`${api('teachingClassScheduling')}?class_id=${c.id}`, token)).body).toMatchObject(DENIED);
    expect((await t.get(`${api('teachingClassSection')}?class_id=${c.id}`, token)).body).toMatchObject(DENIED);
    expect((await t.get(`${api('teachingClassChangeScheduling')}?id=1`, token)).body).toMatchObject(DENIED);
    expect(
      (await t.post(api('moveTeachingSession'), token).send({ id: 1, version: 1, day: term, start_time: '10:00', end_time: '11:00' })).body,
    ).toMatchObject(DENIED);
    expect((await t.post(api('cancelTeachingSession'), token).send({ id: 1, version: 1, reason: '下雨' })).body).toMatchObject(DENIED);
  });

  it('the teacher may not add, fill or schedule classes (admin only)', async () => {
    const c = await addClass();
    expect((await t.post(api('addTeachingClassStudent'), teacher).send({ class_id: c.id, student_ids: [free[0]] })).body).toMatchObject(DENIED);
    expect(
      (
        await t
          .post(api('teachingClassCourseScheduling'), teacher)
          .send({ class_id: c.id, from: term, to: term, pattern: [slot(1, '10:00', '11:00')] })
      ).body,
    ).toMatchObject(DENIED);
    expect((await t.get(`${api('teachingClassScheduling')}?class_id=${c.id}`, teacher)).body).toMatchObject(DENIED);
  });

  it('another school’s classes, students and sessions are unknown', async () => {
    const c = await addClass();
    await join(c.id, [free[6]]);
    const g = await generated(c.id, [slot(6, '11:00', '12:00')]);
    expect(g.written).toBeGreaterThan(0);
    const [s] = await sessionsOf(c.id);
    const o = other.adminToken;
    const before = await snap();
    const notFound = { code: Code.Error, msg: '未找到该教学班' };
    expect((await t.get(`${api('teachingClassInfo')}?id=${c.id}`, o)).body).toMatchObject(notFound);
    expect((await t.get(`${api('teachingClassStudent')}?class_id=${c.id}`, o)).body).toMatchObject(notFound);
    expect((await t.get(`${api('selectTeachingClassStudent')}?class_id=${c.id}`, o)).body).toMatchObject(notFound);
    expect((await t.post(api('addTeachingClassStudent'), o).send({ class_id: c.id, student_ids: [free[7]] })).body).toMatchObject(notFound);
    expect((await t.post(api('delTeachingClassStudent'), o).send({ class_id: c.id, student_id: free[6] })).body).toMatchObject(notFound);
    expect((await generate(c.id, [slot(1, '10:00', '11:00')], term, term, {}, o)).body).toMatchObject(notFound);
    expect((await t.get(`${api('teachingClassScheduling')}?class_id=${c.id}`, o)).body).toMatchObject(notFound);
    expect((await t.get(`${api('teachingClassSection')}?class_id=${c.id}`, o)).body).toMatchObject(notFound);
    const noSession = { code: Code.Error, msg: '未找到该课次' };
    expect((await t.get(`${api('teachingClassChangeScheduling')}?id=${s.id}`, o)).body).toMatchObject(noSession);
    expect(
      (await t.post(api('moveTeachingSession'), o).send({ id: s.id, version: s.version, day: term, start_time: '10:00', end_time: '11:00' })).body,
    ).toMatchObject(noSession);
    expect((await t.post(api('cancelTeachingSession'), o).send({ id: s.id, version: s.version, reason: '外校' })).body).toMatchObject(noSession);
    expect((await t.get(`${api('rollCall')}?session_id=${s.id}`, o)).body).toMatchObject(noSession);
    expect((await t.post(api('rollCall'), o).send({ session_id: s.id, entries: [{ student_id: free[6], status: 'present' }] })).body).toMatchObject(
      noSession,
    );
    // a teacher of another school cannot be given to a class, nor its room
    const otherRoom = (await t.post(api('addRoom'), o).send({ name: uniq('外校教室') })).body.data.id;
    const snapAfterRoom = await snap();
    expect(
      (
        await t
          .post(api('addTeachingClass'), admin)
          .send({ name: 'x', subject: 'y', teacher_id: teacherId, room_id: otherRoom, capacity: 1, sessions_count: 1, fee_fen: 0 })
      ).body,
    ).toMatchObject({ code: Code.Error, msg: '未找到该教室' });
    expect((await t.post(api('addTeachingClassStudent'), o).send({ class_id: c.id, student_ids: [free[7]] })).body.code).toBe(Code.Error);
    expect(await snap()).toEqual(snapAfterRoom);
    expect(snapAfterRoom.rooms).toBe(before.rooms + 1);
  });
});

describe('generating a term', () => {
  it('previews without writing, then writes: a holiday skipped and a make-up Saturday running as Wednesday', async () => {
    const wed = addDays(term, 2);
    const sat = addDays(term, 5);
    await t.post(api('setSchoolCalendarDay'), admin).send({ day: wed, kind: 'holiday', note: '校庆' });
    await t.post(api('setSchoolCalendarDay'), admin).send({ day: sat, kind: 'makeup', works_as: 3, note: '调休' });
    const r = await room();
    const c = await addClass({ room_id: r, teacher_id: await newTeacher() });
    await join(c.id, [free[0]]);
    const pattern = [slot(1, '10:00', '11:00'), slot(3, '10:00', '11:00')];
    const before = await snap();
    const preview = await generate(c.id, pattern, term, addDays(term, 13), { preview: true });
    expect(preview.body.data).toMatchObject({ preview: true, written: 0, clashes: [], limit_reached: false });
    expect(preview.body.data.sessions.map((s: { day: string }) => s.day)).toEqual([term, sat, addDays(term, 7), addDays(term, 9)]);
    expect(preview.body.data.sessions[1]).toMatchObject({ makeup: true, weekday: 3, start_time: '10:00', end_time: '11:00' });
    expect(preview.body.data.skipped).toEqual([{ day: wed, weekday: 3, start_time: '10:00', end_time: '11:00', reason: 'holiday', note: '校庆' }]);
    expect(await snap()).toEqual(before);

    const g = await generated(c.id, pattern);
    expect(g).toMatchObject({ preview: false, written: 4, replaced: 0 });
    const list = await sessionsOf(c.id);
    expect(list.map((s) => [s.lesson_no, s.day, s.start_time, s.end_time, s.state, s.room_id])).toEqual([
      [1, term, '10:00', '11:00', 'planned', r],
      [2, sat, '10:00', '11:00', 'planned', r],
      [3, addDays(term, 7), '10:00', '11:00', 'planned', r],
      [4, addDays(term, 9), '10:00', '11:00', 'planned', r],
    ]);
    expect(list.map((s) => s.weekday)).toEqual([1, 3, 1, 3]);
    expect((await t.get(`${api('teachingClassInfo')}?id=${c.id}`, admin)).body.data).toMatchObject({ sessions_scheduled: 4, version: 3 });
    // the holiday's setter is told of sessions already on a day
    expect((await t.post(api('setSchoolCalendarDay'), admin).send({ day: term, kind: 'holiday' })).body.data.sessions_on_day).toBe(1);
    await t.post(api('delSchoolCalendarDay'), admin).send({ day: term });

    // generating again replaces the planned sessions of the range, within the class's number of sessions
    const again = await generated(c.id, [slot(2, '10:00', '11:00')], term, addDays(term, 60));
    expect(again).toMatchObject({ replaced: 4, written: again.sessions.length });
    const small = await addClass({ sessions_count: 3, teacher_id: await newTeacher() });
    const capped = await generated(small.id, [slot(2, '13:00', '14:00')], term, addDays(term, 60));
    expect(capped).toMatchObject({ written: 3, limit_reached: true });
    // held sessions stay and count: section lists lessons with their state
    const section = await t.get(`${api('teachingClassSection')}?class_id=${small.id}&state=planned`, admin);
    expect(section.body.data.total).toBe(3);
  });

  it('bad input writes nothing', async () => {
    const c = await addClass();
    const before = await snap();
    for (const body of [
      { class_id: c.id, from: term, to: addDays(term, -1), pattern: [slot(1, '10:00', '11:00')] },
      { class_id: c.id, from: term, to: addDays(term, 500), pattern: [slot(1, '10:00', '11:00')] },
      { class_id: c.id, from: term, to: term, pattern: [] },
      { class_id: c.id, from: term, to: term, pattern: [slot(8, '10:00', '11:00')] },
      { class_id: c.id, from: term, to: term, pattern: [slot(1, '11:00', '10:00')] },
      { class_id: c.id, from: term, to: term, pattern: [slot(1, '25:00', '26:00')] },
      { class_id: c.id, from: '2026-13-01', to: term, pattern: [slot(1, '10:00', '11:00')] },
      { class_id: 0, from: term, to: term, pattern: [slot(1, '10:00', '11:00')] },
    ]) {
      const res = await t.post(api('teachingClassCourseScheduling'), admin).send(body);
      expect({ body, code: res.body.code }).toEqual({ body, code: Code.Error });
    }
    expect(await snap()).toEqual(before);
  });
});

describe('generating a term of several classes at once (teachingTermScheduling)', () => {
  /** a term far from the other tests' weeks */
  const from = () => addDays(term, 21 * 7);
  const to = () => addDays(term, 21 * 7 + 13);
  const student = async () =>
    (await t.sql.query(`insert into students (school_id, name) values ($1, $2) returning id`, [t.demo.schoolId, uniq('学期生')])).rows[0]
      .id as number;
  const termOf = (classes: Array<{ id: number; pattern: ReturnType<typeof slot>[] }>, extra: Record<string, unknown> = {}) => ({
    classes: classes.map((c) => ({ class_id: c.id, from: from(), to: to(), pattern: c.pattern })),
    ...extra,
  });

  it('previews, then writes every class or none; each class is checked against the classes before it', async () => {
    const shared = await student();
    const a = await addClass({ name: uniq('学期A'), teacher_id: await newTeacher() });
    const b = await addClass({ name: uniq('学期B'), teacher_id: await newTeacher() });
    await join(a.id, [shared]);
    await join(b.id, [shared]);
    const before = await snap();
    // b at the same time as a: their student is in both
    const clashing = termOf([
      { id: a.id, pattern: [slot(1, '10:00', '11:00')] },
      { id: b.id, pattern: [slot(1, '10:30', '11:30')] },
    ]);
    const preview = await t.post(api('teachingTermScheduling'), admin).send({ ...clashing, preview: true });
    expect(preview.body).toMatchObject({ code: Code.Ok, data: { preview: true, written: 0 } });
    expect(
      preview.body.data.classes.map((c: { class_id: number; sessions: unknown[]; clashes: unknown[] }) => [
        c.class_id,
        c.sessions.length,
        c.clashes.length,
      ]),
    ).toEqual([
      [a.id, 2, 0],
      [b.id, 2, 2],
    ]);
    expect(preview.body.data.clashes[0]).toMatchObject({
      class_id: b.id,
      kind: 'student',
      who: shared,
      with: { class_id: a.id, label: a.name, session_id: null },
    });
    const refused = await t.post(api('teachingTermScheduling'), admin).send(clashing);
    expect(refused.body).toMatchObject({
      code: Code.Error,
      data: { clashes: [expect.objectContaining({ class_id: b.id, kind: 'student' }), expect.anything()] },
    });
    expect(refused.body.msg).toMatch(/^排课冲突 2 处：学生 /);
    expect(await snap()).toEqual(before);

    const ok = await t.post(api('teachingTermScheduling'), admin).send(
      termOf([
        { id: a.id, pattern: [slot(1, '10:00', '11:00')] },
        { id: b.id, pattern: [slot(1, '11:00', '12:00'), slot(3, '11:00', '12:00')] },
      ]),
    );
    expect(ok.body).toMatchObject({ code: Code.Ok, data: { preview: false, written: 6, clashes: [] } });
    expect(ok.body.data.classes.map((c: { written: number; replaced: number }) => [c.written, c.replaced])).toEqual([
      [2, 0],
      [4, 0],
    ]);
    expect((await sessionsOf(a.id)).map((s) => [s.day, s.start_time])).toEqual([
      [from(), '10:00'],
      [addDays(from(), 7), '10:00'],
    ]);
    expect(await sessionsOf(b.id)).toHaveLength(4);
    // again: each class's planned sessions replaced, a's moved onto b's old time (b's old sessions are replaced too)
    const again = await t.post(api('teachingTermScheduling'), admin).send(
      termOf([
        { id: a.id, pattern: [slot(1, '11:00', '12:00')] },
        { id: b.id, pattern: [slot(1, '10:00', '11:00')] },
      ]),
    );
    expect(again.body).toMatchObject({ code: Code.Ok, data: { written: 4 } });
    expect(again.body.data.classes.map((c: { replaced: number }) => c.replaced)).toEqual([2, 4]);
    expect((await sessionsOf(b.id)).map((s) => s.start_time)).toEqual(['10:00', '10:00']);
    // a stored session still counts: a third class on a's teacher's time is refused
    const c = await addClass({ name: uniq('学期C'), teacher_id: a.teacher_id });
    const teacherClash = await t.post(api('teachingTermScheduling'), admin).send(termOf([{ id: c.id, pattern: [slot(1, '11:30', '12:30')] }]));
    expect(teacherClash.body).toMatchObject({
      code: Code.Error,
      data: {
        clashes: [expect.objectContaining({ class_id: c.id, kind: 'teacher', with: expect.objectContaining({ class_id: a.id }) }), expect.anything()],
      },
    });
  });

  it('bad input writes nothing', async () => {
    const c = await addClass();
    const before = await snap();
    const one = { class_id: c.id, from: term, to: term, pattern: [slot(1, '10:00', '11:00')] };
    for (const body of [
      {},
      { classes: [] },
      { classes: [one, one] },
      { classes: [{ ...one, to: addDays(term, -1) }] },
      { classes: [{ ...one, pattern: [] }] },
      { classes: [{ ...one, preview: true }] },
      { classes: Array.from({ length: 301 }, (_, i) => ({ ...one, class_id: i + 1 })) },
    ]) {
      const res = await t.post(api('teachingTermScheduling'), admin).send(body);
      expect({ body: JSON.stringify(body).slice(0, 80), code: res.body.code }).toEqual({ body: JSON.stringify(body).slice(0, 80), code: Code.Error });
    }
    expect(await snap()).toEqual(before);
  });

  it.each(['teacher', 'adviser', 'parent', 'operator'] as const)('%s may not generate a term', async (who) => {
    const c = await addClass();
    const token = await t.login(who);
    const res = await t
      .post(api('teachingTermScheduling'), token)
      .send({ classes: [{ class_id: c.id, from: term, to: term, pattern: [slot(1, '10:00', '11:00')] }] });
    expect(res.body).toMatchObject(DENIED);
  });

  it("another school's class is not found, and nothing of the term is written", async () => {
    const mine = await addClass({ teacher_id: await newTeacher() });
    const before = await snap();
    const theirs = await t
      .post(api('teachingTermScheduling'), other.adminToken)
      .send({ classes: [{ class_id: mine.id, from: from(), to: to(), pattern: [slot(2, '10:00', '11:00')] }] });
    expect(theirs.body).toMatchObject({ code: Code.Error, msg: '未找到该教学班' });
    const mixed = await t.post(api('teachingTermScheduling'), admin).send({
      classes: [
        { class_id: mine.id, from: from(), to: to(), pattern: [slot(2, '10:00', '11:00')] },
        { class_id: 2_000_000_000, from: from(), to: to(), pattern: [slot(2, '10:00', '11:00')] },
      ],
    });
    expect(mixed.body).toMatchObject({ code: Code.Error, msg: '未找到该教学班' });
    expect(await snap()).toEqual(before);
  });
});

describe('clashes', () => {
  const refused = async (res: { body: { code: number; msg: string; data: { clashes: Clash[] } } }, kind: Clash['kind'], label: string) => {
    expect(res.body.code).toBe(Code.Error);
    expect(res.body.msg).toMatch(/^排课冲突 \d+ 处：/);
    expect(res.body.data.clashes.length).toBeGreaterThan(0);
    expect(res.body.data.clashes.every((c) => c.kind === kind)).toBe(true);
    expect(res.body.data.clashes[0].with.label).toContain(label);
    return res.body.data.clashes;
  };

  it('the same teacher at once: refused with the clashing session named, nothing written', async () => {
    const a = await addClass({ name: uniq('钢琴A') });
    await generated(a.id, [slot(2, '14:00', '15:00')]);
    const b = await addClass({ name: uniq('钢琴B') });
    const before = await snap();
    const clashes = await refused(await generate(b.id, [slot(2, '14:30', '15:30')]), 'teacher', a.name);
    expect(clashes).toHaveLength(2);
    const msg = await generate(b.id, [slot(2, '14:30', '15:30')]);
    expect(msg.body.msg).toBe(`排课冲突 2 处：教师 ${clashes[0].who_name} ${addDays(term, 1)} 14:30-15:30 与 ${a.name} 14:00-15:00 冲突`);
    const en = await generate(b.id, [slot(2, '14:30', '15:30')]).set('lang', 'en');
    expect(en.body.msg).toBe(
      `2 schedule clash(es): teacher ${clashes[0].who_name} on ${addDays(term, 1)} 14:30-15:30 clashes with ${a.name} 14:00-15:00`,
    );
    expect(clashes[0]).toMatchObject({
      who: teacherId,
      day: addDays(term, 1),
      start_time: '14:30',
      end_time: '15:30',
      with: { source: 'teaching', class_id: a.id, start_time: '14:00', end_time: '15:00', session_id: expect.any(Number) },
    });
    expect(await snap()).toEqual(before);
    // the preview answers the same clashes without refusing
    const preview = await generate(b.id, [slot(2, '14:30', '15:30')], term, addDays(term, 13), { preview: true });
    expect(preview.body.data.clashes).toHaveLength(2);
    // touching times do not clash
    expect((await generate(b.id, [slot(2, '15:00', '16:00')])).body.code).toBe(Code.Ok);
  });

  it('the same room at once', async () => {
    const r = await room();
    const a = await addClass({ name: uniq('美术A'), room_id: r });
    await generated(a.id, [slot(4, '09:00', '10:00')]);
    const b = await addClass({ name: uniq('美术B'), room_id: r, teacher_id: adviserId });
    const clashes = await refused(await generate(b.id, [slot(4, '09:30', '10:30')]), 'room', a.name);
    expect(clashes[0]).toMatchObject({ who: r, with: { class_id: a.id } });
  });

  it('a student in another class at once, and when joining a scheduled class', async () => {
    const a = await addClass({ name: uniq('英语A') });
    await join(a.id, [free[2]]);
    await generated(a.id, [slot(5, '13:00', '14:00')]);
    const b = await addClass({ name: uniq('英语B'), teacher_id: adviserId });
    await join(b.id, [free[2], free[3]]);
    const clashes = await refused(await generate(b.id, [slot(5, '13:30', '14:30')]), 'student', a.name);
    expect(clashes[0]).toMatchObject({ who: free[2], who_name: '学员2' });

    const c = await addClass({ name: uniq('英语C'), teacher_id: adviserId });
    await generated(c.id, [slot(5, '13:45', '14:15')]);
    const before = await snap();
    await refused(await t.post(api('addTeachingClassStudent'), admin).send({ class_id: c.id, student_ids: [free[4], free[2]] }), 'student', a.name);
    expect(await snap()).toEqual(before);
  });

  it('a student’s care time slot (the care class’s 16:00-19:30 on weekdays)', async () => {
    const a = await addClass({ name: uniq('围棋') });
    await join(a.id, [careStudent]);
    const clashes = await refused(await generate(a.id, [slot(1, '18:00', '19:00')]), 'student', '放学晚托');
    expect(clashes[0]).toMatchObject({ who: careStudent, with: { source: 'care', start_time: '16:00', end_time: '19:30' } });
    // the weekend is free of care
    expect((await generate(a.id, [slot(6, '18:00', '19:00')])).body.code).toBe(Code.Ok);
  });
});

describe('moving, cancelling and roll call', () => {
  it('what a move needs: the week’s busy times and the free windows of the teacher and the room', async () => {
    const r = await room();
    const c = await addClass({ room_id: r, name: uniq('物理'), teacher_id: await newTeacher() });
    // a week of no calendar entries (the term's first week has a holiday)
    const week = addDays(term, 21);
    await generated(c.id, [slot(1, '10:00', '11:00'), slot(3, '12:00', '13:30')], week, addDays(week, 6));
    const [s] = await sessionsOf(c.id);
    const res = await t.get(`${api('teachingClassChangeScheduling')}?id=${s.id}`, admin);
    expect(res.body.code).toBe(Code.Ok);
    expect(res.body.data).toMatchObject({ week, length: 60, session: { id: s.id } });
    const wed = res.body.data.days[2];
    expect(wed.room_busy).toEqual([{ start_time: '12:00', end_time: '13:30', label: c.name }]);
    expect(wed.free).toEqual(
      expect.arrayContaining([
        { start_time: '08:00', end_time: '12:00' },
        { start_time: '13:30', end_time: '21:00' },
      ]),
    );
    // no availability saved: every free window is suggested
    expect(wed).toMatchObject({ offered: null, suggested: wed.free });
    expect(res.body.data.availability_note).toBeNull();

    // the teacher offers Wednesday 11:00-15:00 and Thursday mornings (teacherSchedule POST): the suggestions are the
    // free parts of those windows at least an hour long
    await t.sql.query(`insert into teacher_availability (user_id, school_id, windows, note) values ($1, $2, $3::jsonb, '周五不排课')`, [
      s.teacher_id,
      t.demo.schoolId,
      JSON.stringify([
        { weekday: 3, start_time: '11:00', end_time: '15:00' },
        { weekday: 4, start_time: '08:00', end_time: '08:30' },
      ]),
    ]);
    const offered = (await t.get(`${api('teachingClassChangeScheduling')}?id=${s.id}`, admin)).body.data;
    expect(offered.availability_note).toBe('周五不排课');
    expect(offered.days[2]).toMatchObject({
      offered: [{ start_time: '11:00', end_time: '15:00' }],
      suggested: [
        { start_time: '11:00', end_time: '12:00' },
        { start_time: '13:30', end_time: '15:00' },
      ],
    });
    // Thursday's half hour is shorter than the session; Tuesday is not offered at all
    expect(offered.days[3]).toMatchObject({ offered: [{ start_time: '08:00', end_time: '08:30' }], suggested: [] });
    expect(offered.days[1]).toMatchObject({ offered: [], suggested: [] });
    expect(offered.days[1].free.length).toBeGreaterThan(0);
  });

  it('moves on the version read; a move into a clash or onto a holiday is refused; cancels with a reason', async () => {
    const a = await addClass({ name: uniq('化学A') });
    await generated(a.id, [slot(1, '08:00', '09:00')], term, addDays(term, 6));
    const b = await addClass({ name: uniq('化学B') });
    await generated(b.id, [slot(2, '08:00', '09:00')], term, addDays(term, 6));
    const [sa] = await sessionsOf(a.id);
    const [sb] = await sessionsOf(b.id);

    const before = await snap();
    const clash = await t
      .post(api('moveTeachingSession'), admin)
      .send({ id: sb.id, version: sb.version, day: term, start_time: '08:30', end_time: '09:30' });
    expect(clash.body).toMatchObject({ code: Code.Error, data: { clashes: [{ kind: 'teacher', with: { session_id: sa.id, label: a.name } }] } });
    const hol = addDays(term, 3);
    await t.post(api('setSchoolCalendarDay'), admin).send({ day: hol, kind: 'holiday' });
    const snapHol = await snap();
    expect(
      (await t.post(api('moveTeachingSession'), admin).send({ id: sb.id, version: sb.version, day: hol, start_time: '08:00', end_time: '09:00' }))
        .body,
    ).toMatchObject({ code: Code.Error, msg: `${hol} 是放假日，不能排课` });
    expect(
      (await t.post(api('moveTeachingSession'), admin).send({ id: sb.id, version: sb.version, day: term, start_time: '09:00', end_time: '08:00' }))
        .body.code,
    ).toBe(Code.Error);
    expect(await snap()).toEqual(snapHol);
    expect(snapHol.calendar).toBe(before.calendar + 1);

    const moved = await t
      .post(api('moveTeachingSession'), admin)
      .send({ id: sb.id, version: sb.version, day: term, start_time: '09:00', end_time: '10:00' });
    expect(moved.body.data).toMatchObject({
      id: sb.id,
      day: term,
      start_time: '09:00',
      end_time: '10:00',
      version: sb.version + 1,
      state: 'planned',
    });
    const stale = await t
      .post(api('moveTeachingSession'), admin)
      .send({ id: sb.id, version: sb.version, day: term, start_time: '11:00', end_time: '12:00' });
    expect(stale.body).toMatchObject({ code: Code.Error, msg: '该课次已被他人修改，请刷新后重试' });

    const cancelled = await t.post(api('cancelTeachingSession'), admin).send({ id: sb.id, version: sb.version + 1, reason: '老师请假' });
    expect(cancelled.body.data).toMatchObject({ state: 'cancelled', cancel_reason: '老师请假', lesson_no: null });
    // a cancelled session frees the slot and cannot be moved
    expect(
      (
        await t
          .post(api('moveTeachingSession'), admin)
          .send({ id: sb.id, version: sb.version + 2, day: term, start_time: '11:00', end_time: '12:00' })
      ).body,
    ).toMatchObject({ code: Code.Error, msg: '只能调整或取消未上的课次' });
    expect((await t.post(api('cancelTeachingSession'), admin).send({ id: sa.id, version: sa.version, reason: '' })).body.code).toBe(Code.Error);
  });

  it('two concurrent moves of two sessions into the same slot: exactly one wins', async () => {
    const r = await room();
    const a = await addClass({ name: uniq('舞蹈A'), room_id: r });
    const b = await addClass({ name: uniq('舞蹈B'), room_id: r, teacher_id: adviserId });
    await generated(a.id, [slot(1, '07:00', '08:00')], term, addDays(term, 6));
    await generated(b.id, [slot(2, '07:00', '08:00')], term, addDays(term, 6));
    const [sa] = await sessionsOf(a.id);
    const [sb] = await sessionsOf(b.id);
    const target = { day: addDays(term, 4), start_time: '19:00', end_time: '20:00' };
    const answers = await Promise.all([
      t.post(api('moveTeachingSession'), admin).send({ id: sa.id, version: sa.version, ...target }),
      t.post(api('moveTeachingSession'), admin).send({ id: sb.id, version: sb.version, ...target }),
    ]);
    const codes = answers.map((x) => x.body.code).sort();
    expect(codes).toEqual([Code.Ok, Code.Error].sort());
    const loser = answers.find((x) => x.body.code === Code.Error)!;
    expect(loser.body.data.clashes[0]).toMatchObject({ kind: 'room', who: r });
    const { rows } = await t.sql.query(`select count(*)::int as n from class_sessions where room_id = $1 and day = $2 and start_min = 1140`, [
      r,
      target.day,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('roll call: the class’s students with approved leave pre-filled; saved for several at once by the session’s teacher; the session is held', async () => {
    const c = await addClass({ name: uniq('科学') });
    await join(c.id, [free[0], free[1], child]);
    await generated(
      c.id,
      [
        slot(1, '06:00', '06:30'),
        slot(2, '06:00', '06:30'),
        slot(3, '06:00', '06:30'),
        slot(4, '06:00', '06:30'),
        slot(5, '06:00', '06:30'),
        slot(6, '06:00', '06:30'),
        slot(7, '06:00', '06:30'),
      ],
      today,
      addDays(today, 1),
    );
    const [s, tomorrow] = await sessionsOf(c.id);
    expect(s.day).toBe(today);
    await t.sql.query(
      `insert into leave_requests (school_id, student_id, requested_by, start_day, end_day, reason, status) values ($1, $2, $3, $4, $4, '发烧', 1)`,
      [t.demo.schoolId, free[1], t.demo.users.parent, today],
    );

    const got = await t.get(`${api('rollCall')}?session_id=${s.id}`, teacher);
    expect(got.body.code).toBe(Code.Ok);
    const byId = (list: Array<{ student_id: number; status: string | null; saved: boolean }>) =>
      Object.fromEntries(list.map((x) => [x.student_id, [x.status, x.saved]]));
    expect(byId(got.body.data.students)).toEqual({ [free[0]]: [null, false], [free[1]]: ['leave', false], [child]: [null, false] });

    const before = await snap();
    for (const body of [
      { session_id: s.id, entries: [] },
      { session_id: s.id, entries: [{ student_id: free[0], status: 'asleep' }] },
      {
        session_id: s.id,
        entries: [
          { student_id: free[0], status: 'present' },
          { student_id: free[0], status: 'late' },
        ],
      },
      { session_id: s.id, entries: [{ student_id: free[5], status: 'present' }] },
    ]) {
      expect((await t.post(api('rollCall'), teacher).send(body)).body.code).toBe(Code.Error);
    }
    expect(
      (await t.post(api('rollCall'), teacher).send({ session_id: tomorrow.id, entries: [{ student_id: free[0], status: 'present' }] })).body,
    ).toMatchObject({ code: Code.Error, msg: '课次尚未开始，不能点名' });
    // another teacher (the head teacher here) is not this session's teacher
    expect((await t.get(`${api('rollCall')}?session_id=${s.id}`, adviser)).body).toMatchObject({ code: Code.Error, msg: '未找到该课次' });
    expect((await t.get(`${api('rollCall')}?session_id=${s.id}`, parent)).body).toMatchObject(DENIED);
    expect(
      (await t.post(api('rollCall'), parent).send({ session_id: s.id, entries: [{ student_id: child, status: 'present' }] })).body,
    ).toMatchObject(DENIED);
    expect(await snap()).toEqual(before);

    const saved = await t.post(api('rollCall'), teacher).send({
      session_id: s.id,
      entries: [
        { student_id: free[0], status: 'present' },
        { student_id: free[1], status: 'leave' },
        { student_id: child, status: 'late' },
      ],
    });
    expect(saved.body.code).toBe(Code.Ok);
    expect(byId(saved.body.data.students)).toEqual({ [free[0]]: ['present', true], [free[1]]: ['leave', true], [child]: ['late', true] });
    expect(saved.body.data.session).toMatchObject({ state: 'held', roll_call: { present: 1, late: 1, absent: 0, leave: 1 } });
    // the admin corrects one
    const fixed = await t.post(api('rollCall'), admin).send({ session_id: s.id, entries: [{ student_id: child, status: 'absent' }] });
    expect(fixed.body.data.session.roll_call).toEqual({ present: 1, late: 0, absent: 1, leave: 1 });
    // a held session is not moved any more
    expect(
      (
        await t
          .post(api('moveTeachingSession'), admin)
          .send({ id: s.id, version: fixed.body.data.session.version, day: today, start_time: '05:00', end_time: '05:30' })
      ).body.msg,
    ).toBe('只能调整或取消未上的课次');
  });
});

describe('roll-call counts for the data centre (rollCallCount, rollCallExport)', () => {
  // a past March (no other test's sessions): Monday 2 and Wednesday 4 (week of the 2nd), Tuesday 10 (next week)
  const MON = '2020-03-02';
  const WED = '2020-03-04';
  const TUE = '2020-03-10';
  const COUNT = api('rollCallCount');
  let students: number[];

  /** A session of the teacher on the day with roll calls of the given statuses, written as a held session would be. */
  async function called(kind: 'teaching' | 'tutoring', classId: number, teacherOf: number, day: string, statuses: string[]) {
    const { rows } = await t.sql.query(
      `insert into class_sessions (school_id, kind, class_id, day, start_min, end_min, teacher_id, state) values ($1, $2, $3, $4, 600 + $5, 630 + $5, $6, 'held') returning id`,
      [t.demo.schoolId, kind, classId, day, seq++ % 500, teacherOf],
    );
    await t.sql.query(
      `insert into session_roll_calls (session_id, student_id, school_id, status, by_user) select $1, unnest($2::int[]), $3, unnest($4::varchar[]), $5`,
      [rows[0].id, students.slice(0, statuses.length), t.demo.schoolId, statuses, teacherOf],
    );
  }

  beforeAll(async () => {
    students = [];
    for (let i = 0; i < 4; i++)
      students.push(
        (await t.sql.query(`insert into students (school_id, name) values ($1, $2) returning id`, [t.demo.schoolId, `点名生${i}`])).rows[0].id,
      );
    const mine = await addClass({ name: uniq('统计班') });
    const theirs = await addClass({ name: uniq('统计班'), teacher_id: adviserId });
    await called('teaching', mine.id, teacherId, MON, ['present', 'late', 'absent']);
    await called('teaching', mine.id, teacherId, WED, ['present', 'present', 'leave']);
    await called('tutoring', mine.id, teacherId, TUE, ['present', 'absent']);
    await called('teaching', theirs.id, adviserId, WED, ['late', 'leave', 'leave', 'present']);
  });

  it('counts by day, week and month: the admin all sessions, a teacher or head teacher those they teach; the same as .xlsx', async () => {
    const rows = (list: Array<Record<string, unknown>>) =>
      list.map((r) => [r.period, r.kind, r.sessions, r.total, r.present, r.late, r.absent, r.leave]);
    const byDay = await t.get(`${COUNT}?date_from=${MON}&date_to=${TUE}`, admin);
    expect(byDay.body.code).toBe(Code.Ok);
    expect(rows(byDay.body.data.list)).toEqual([
      [TUE, 'tutoring', 1, 2, 1, 0, 1, 0],
      [WED, 'teaching', 2, 7, 3, 1, 0, 3],
      [MON, 'teaching', 1, 3, 1, 1, 1, 0],
    ]);
    expect(byDay.body.data.list[0].id).toBe(`${TUE}:tutoring`);
    const byWeek = await t.get(`${COUNT}?date_from=${MON}&date_to=${TUE}&group=week`, admin);
    expect(rows(byWeek.body.data.list)).toEqual([
      ['2020-03-09', 'tutoring', 1, 2, 1, 0, 1, 0],
      [MON, 'teaching', 3, 10, 4, 2, 1, 3],
    ]);
    const byMonth = await t.get(`${COUNT}?date_from=${MON}&date_to=${TUE}&group=month&kind=teaching`, admin);
    expect(rows(byMonth.body.data.list)).toEqual([['2020-03-01', 'teaching', 3, 10, 4, 2, 1, 3]]);
    // the teacher: their own sessions; the head teacher: theirs
    const mine = await t.get(`${COUNT}?date_from=${MON}&date_to=${TUE}&group=week`, teacher);
    expect(rows(mine.body.data.list)).toEqual([
      ['2020-03-09', 'tutoring', 1, 2, 1, 0, 1, 0],
      [MON, 'teaching', 2, 6, 3, 1, 1, 1],
    ]);
    const theirs = await t.get(`${COUNT}?date_from=${MON}&date_to=${TUE}&group=month`, adviser);
    expect(rows(theirs.body.data.list)).toEqual([['2020-03-01', 'teaching', 1, 4, 1, 1, 0, 2]]);

    const res = await t
      .get(`${api('rollCallExport')}?date_from=${MON}&date_to=${TUE}&group=week`, teacher)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const { Workbook } = await import('exceljs');
    const wb = new Workbook();
    await wb.xlsx.load(res.body as ArrayBuffer);
    const sheet = wb.worksheets[0]
      .getSheetValues()
      .filter(Boolean)
      .map((r) => (r as unknown[]).slice(1));
    expect(sheet).toEqual([
      ['周（周一）', '类型', '点名课次', '点名人次', '出勤', '迟到', '缺勤', '请假'],
      [MON, '兴趣班', 2, 6, 3, 1, 1, 1],
      ['2020-03-09', '课业辅导', 1, 2, 1, 0, 1, 0],
      ['合计', '', 3, 8, 4, 1, 2, 1],
    ]);
  });

  it('bad input is refused with a clear message', async () => {
    for (const qs of [
      `date_from=${TUE}&date_to=${MON}`,
      `date_from=${MON}&date_to=2020-06-30`,
      `date_from=${MON}&date_to=2021-06-30&group=week`,
      `date_from=${MON}&date_to=${TUE}&group=year`,
      `date_from=${MON}&date_to=${TUE}&kind=care`,
      `date_from=2020-02-30&date_to=${TUE}`,
      `date_to=${TUE}`,
    ]) {
      const res = await t.get(`${COUNT}?${qs}`, admin);
      expect({ qs, code: res.body.code }).toEqual({ qs, code: Code.Error });
      expect((await t.get(`${api('rollCallExport')}?${qs}`, admin)).body.code).toBe(Code.Error);
    }
    expect((await t.get(`${COUNT}?date_from=${MON}&date_to=2020-06-30`, admin)).body.msg).toBe(
      '统计范围无效：按日最多 62 天，按周最多 27 周，按月最多 13 个月',
    );
  });

  it.each(['parent', 'operator'] as const)('%s may not read the counts', async (who) => {
    const token = await t.login(who);
    expect((await t.get(`${COUNT}?date_from=${MON}&date_to=${TUE}`, token)).body).toMatchObject(DENIED);
    expect((await t.get(`${api('rollCallExport')}?date_from=${MON}&date_to=${TUE}`, token)).body).toMatchObject(DENIED);
  });

  it("another school's admin counts only their own school's sessions", async () => {
    const res = await t.get(`${COUNT}?date_from=${MON}&date_to=${TUE}&group=month`, other.adminToken);
    expect(res.body).toMatchObject({ code: Code.Ok, data: { list: [] } });
  });
});
