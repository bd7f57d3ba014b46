import {
  addDays,
  Code,
  mondayOf,
  type AddTutorialSchoolCareAnswer,
  type Clash,
  type TutoringClass,
  type TutoringSession,
  type TutorialSetting,
} from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let admin: string;
let teacherId: number;
let other: { schoolId: number; adminToken: string };
let today: string;
/** a Monday three weeks ahead: the classes are generated from it */
let term: string;
let students: number[];

const api = (action: string) => `/api/index/${action}`;
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };
let seq = 0;
const uniq = (p: string) => `${p}${++seq}`;

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, redis: false, demoPeople: true });
  admin = await t.login('admin');
  teacherId = t.demo.users.teacher;
  other = await t.otherSchool();
  today = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as d`)).rows[0].d;
  term = addDays(mondayOf(today), 21);
  students = [];
  for (let i = 0; i < 8; i++)
    students.push(
      (await t.sql.query(`insert into students (school_id, name) values ($1, $2) returning id`, [t.demo.schoolId, `辅导生${i}`])).rows[0].id,
    );
});
afterAll(() => t.close());

/** Row counts and versions of everything this module writes, with the harness's tables. */
async function snap() {
  const { rows } = await t.sql.query(
    `select (select count(*) from tutoring_types)::int as types, (select coalesce(sum(version), 0) from tutoring_types)::int as type_versions,
            (select count(*) from tutoring_classes)::int as classes, (select coalesce(sum(version), 0) from tutoring_classes)::int as class_versions,
            (select count(*) from tutoring_class_students)::int as members, (select count(*) from class_sessions)::int as sessions,
            (select coalesce(sum(version), 0) from class_sessions)::int as session_versions`,
  );
  return { ...(await snapshot(t.sql)), ...rows[0] };
}

/** A teacher of their own, so the tests' sessions do not clash with each other's. */
async function newTeacher(): Promise<number> {
  const { rows } = await t.sql.query(
    `insert into users (school_id, role, username, name, nickname, mobile, password_hash) select school_id, 2, $2, $3, $3, null, password_hash from users where id = $1 returning id`,
    [teacherId, uniq('tut_'), uniq('辅导老师')],
  );
  return rows[0].id;
}

async function types(token = admin): Promise<Array<{ id: number; name: string }>> {
  const res = await t.get(api('tutorialType'), token);
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data.list;
}

const slot = (weekday: number, start_time: string, end_time?: string) => ({ weekday, start_time, ...(end_time ? { end_time } : {}) });

async function addClass(over: Record<string, unknown> = {}, token = admin) {
  const [type] = await types();
  return t.post(api('addTutorialSchoolCare'), token).send({
    name: uniq('辅导班'),
    type_id: type.id,
    teacher_id: teacherId,
    capacity: 3,
    from: term,
    to: addDays(term, 13),
    pattern: [slot(1, '16:00', '17:00'), slot(3, '16:00', '17:00')],
    ...over,
  });
}

async function created(over: Record<string, unknown> = {}) {
  const res = await addClass(over);
  expect(res.body).toMatchObject({ code: Code.Ok });
  return (res.body.data as AddTutorialSchoolCareAnswer).class!;
}

async function sessionsOf(classId: number) {
  const res = await t.get(`${api('tutorialScheduling')}?class_id=${classId}&limit=100`, admin);
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data.list as TutoringSession[];
}

/** A teaching class of `teacher` on Mondays 16:30-17:30 of the term, with `members`. */
async function teachingClass(teacher: number, members: number[] = []) {
  const c = await t
    .post(api('addTeachingClass'), admin)
    .send({ name: uniq('教学班'), subject: '数学', teacher_id: teacher, capacity: 10, sessions_count: 40, fee_fen: 0 });
  expect(c.body).toMatchObject({ code: Code.Ok });
  const g = await t
    .post(api('teachingClassCourseScheduling'), admin)
    .send({ class_id: c.body.data.id, from: term, to: addDays(term, 13), pattern: [{ weekday: 1, start_time: '16:30', end_time: '17:30' }] });
  expect(g.body).toMatchObject({ code: Code.Ok });
  if (members.length)
    expect((await t.post(api('addTeachingClassStudent'), admin).send({ class_id: c.body.data.id, student_ids: members })).body).toMatchObject({
      code: Code.Ok,
    });
  return c.body.data as { id: number; name: string };
}

describe('tutoring types and settings', () => {
  it('seeds the default types on the first read, once, and lists each setting', async () => {
    const list = await types();
    expect(list.map((x) => x.name)).toEqual(['作业辅导', '一对一', '小组辅导']);
    expect(await types()).toHaveLength(3);
    const settings = await t.get(api('tutorialSettingList'), admin);
    expect(settings.body.data).toMatchObject({
      total: 3,
      list: [{ name: '作业辅导', duration_min: 90, price_fen: 5000, teacher_id: null, version: 1 }, {}, {}],
    });
    // another school gets its own defaults, and sees none of this school's
    const theirs = await types(other.adminToken);
    expect(theirs.map((x) => x.name)).toEqual(['作业辅导', '一对一', '小组辅导']);
    expect(theirs.map((x) => x.id)).not.toContain(list[0].id);
  });

  it('saves a setting on the version read, adds a type; stale, taken names and bad input write nothing', async () => {
    const [first] = await types();
    const [before] = (await t.get(api('tutorialSettingList'), admin)).body.data.list as TutorialSetting[];
    const saved = await t
      .post(api('tutorialSetting'), admin)
      .send({ type_id: first.id, version: before.version, duration_min: 75, price_fen: 6000, teacher_id: teacherId });
    expect(saved.body.data).toMatchObject({
      type_id: first.id,
      duration_min: 75,
      price_fen: 6000,
      teacher_id: teacherId,
      teacher_name: expect.any(String),
      version: before.version + 1,
    });
    const added = await t.post(api('tutorialSetting'), admin).send({ name: '英语辅导', duration_min: 45, price_fen: 4000 });
    expect(added.body.data).toMatchObject({ name: '英语辅导', duration_min: 45, teacher_id: null, version: 1 });

    const s = await snap();
    expect(
      (await t.post(api('tutorialSetting'), admin).send({ type_id: first.id, version: before.version, duration_min: 60, price_fen: 1 })).body,
    ).toMatchObject({ code: Code.Error, msg: '该辅导设置已被他人修改，请刷新后重试' });
    expect((await t.post(api('tutorialSetting'), admin).send({ name: '一对一', duration_min: 60, price_fen: 1 })).body).toMatchObject({
      code: Code.Error,
      msg: '已有同名辅导类型',
    });
    for (const body of [
      { type_id: first.id, duration_min: 60, price_fen: 0 },
      { duration_min: 60, price_fen: 0 },
      { name: 'x', duration_min: 5, price_fen: 0 },
      { name: 'x', duration_min: 60, price_fen: -1 },
      { name: 'x', duration_min: 60, price_fen: 0, teacher_id: 'a' },
    ]) {
      const res = await t.post(api('tutorialSetting'), admin).send(body);
      expect(res.body.code).toBe(Code.Error);
    }
    // another school's teacher, another school's type
    const otherTeacher = (await t.sql.query(`select id from users where school_id = $1 limit 1`, [other.schoolId])).rows[0].id;
    expect(
      (await t.post(api('tutorialSetting'), admin).send({ name: 'y', duration_min: 60, price_fen: 0, teacher_id: otherTeacher })).body,
    ).toMatchObject({ code: Code.Error, msg: '辅导老师须是本机构在职的老师' });
    expect(
      (await t.post(api('tutorialSetting'), other.adminToken).send({ type_id: first.id, version: 2, duration_min: 60, price_fen: 0 })).body,
    ).toMatchObject({ code: Code.Error, msg: '未找到该辅导类型' });
    expect(await snap()).toEqual(s);
  });
});

describe('tutoring classes', () => {
  it('previews without writing, then creates the class with its sessions; a slot without an end lasts the type duration', async () => {
    const teacher = await newTeacher();
    const hol = addDays(term, 2);
    await t.sql.query(`insert into school_calendar_days (school_id, day, kind, note) values ($1, $2, 'holiday', '校庆')`, [t.demo.schoolId, hol]);
    const s = await snap();
    const preview = await addClass({ teacher_id: teacher, preview: true, pattern: [slot(1, '16:00'), slot(3, '16:00', '17:00')] });
    expect(preview.body.data).toMatchObject({ preview: true, written: 0, class: null, clashes: [] });
    expect(preview.body.data.sessions).toHaveLength(3);
    expect(preview.body.data.skipped).toEqual([expect.objectContaining({ day: hol, reason: 'holiday' })]);
    expect(await snap()).toEqual(s);

    const res = await addClass({ name: '周一三辅导', teacher_id: teacher, pattern: [slot(1, '16:00'), slot(3, '16:00', '17:00')] });
    expect(res.body.data).toMatchObject({
      preview: false,
      written: 3,
      class: { name: '周一三辅导', teacher_id: teacher, capacity: 3, sessions_scheduled: 3, from: term, duration_min: 75 },
    });
    const c = res.body.data.class as TutoringClass;
    expect(c.pattern[0]).toEqual({ weekday: 1, start_time: '16:00', end_time: '17:15' });
    const sessions = await sessionsOf(c.id);
    expect(sessions.map((x) => [x.day, x.start_time, x.end_time, x.lesson_no])).toEqual([
      [term, '16:00', '17:15', 1],
      [addDays(term, 7), '16:00', '17:15', 2],
      [addDays(term, 9), '16:00', '17:00', 3],
    ]);
    expect((await t.sql.query(`select count(*)::int as n from class_sessions where kind = 'tutoring' and class_id = $1`, [c.id])).rows[0].n).toBe(3);
    expect((await t.get(`${api('tutorialInfo')}?id=${c.id}`, admin)).body.data).toMatchObject({
      id: c.id,
      type_name: expect.any(String),
      students: 0,
    });
    expect((await t.get(`${api('tutorialList')}?name=周一三`, admin)).body.data).toMatchObject({ total: 1, list: [{ id: c.id }] });
    // another school's admin sees none of it
    expect((await t.get(`${api('tutorialInfo')}?id=${c.id}`, other.adminToken)).body).toMatchObject({ code: Code.Error, msg: '未找到该辅导班' });
    expect((await t.get(`${api('tutorialScheduling')}?class_id=${c.id}`, other.adminToken)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该辅导班',
    });
    expect((await t.get(api('tutorialList'), other.adminToken)).body.data.total).toBe(0);
  });

  it('refuses a class whose session clashes with a teaching session of the same teacher, naming it; bad input and other schools write nothing', async () => {
    const teacher = await newTeacher();
    const teaching = await teachingClass(teacher);
    const s = await snap();
    const preview = await addClass({ teacher_id: teacher, preview: true });
    const clashes = preview.body.data.clashes as Clash[];
    expect(clashes).toEqual([
      expect.objectContaining({
        kind: 'teacher',
        who: teacher,
        day: term,
        with: expect.objectContaining({ source: 'teaching', label: teaching.name, start_time: '16:30' }),
      }),
      expect.objectContaining({ kind: 'teacher', day: addDays(term, 7) }),
    ]);
    const res = await addClass({ teacher_id: teacher });
    expect(res.body.code).toBe(Code.Error);
    expect(res.body.msg).toContain(teaching.name);
    expect(res.body.data.clashes).toHaveLength(2);

    const [type] = await types();
    const otherType = (await types(other.adminToken))[0].id;
    const otherTeacher = (await t.sql.query(`select id from users where school_id = $1 limit 1`, [other.schoolId])).rows[0].id;
    for (const over of [
      { name: '' },
      { capacity: 0 },
      { from: addDays(term, 5), to: term },
      { pattern: [] },
      { pattern: [slot(8, '16:00')] },
      { pattern: [slot(1, '17:00', '16:00')] },
      { to: addDays(term, 500) },
      { type_id: 'x' },
    ]) {
      expect((await addClass({ teacher_id: teacher, ...over })).body.code).toBe(Code.Error);
    }
    expect((await addClass({ type_id: otherType })).body).toMatchObject({ code: Code.Error, msg: '未找到该辅导类型' });
    expect((await addClass({ teacher_id: otherTeacher })).body).toMatchObject({ code: Code.Error, msg: '辅导老师须是本机构在职的老师' });
    expect((await addClass({ type_id: type.id }, other.adminToken)).body).toMatchObject({ code: Code.Error, msg: '未找到该辅导类型' });
    expect((await addClass({ teacher_id: teacher, pattern: [slot(7, '23:30')] })).body).toMatchObject({ code: Code.Error });
    expect(await snap()).toEqual(s);
    // a class name is unique in the school
    const c = await created({ teacher_id: await newTeacher() });
    expect((await addClass({ name: c.name, teacher_id: await newTeacher() })).body).toMatchObject({ code: Code.Error, msg: '已有同名辅导班' });
  });
});

describe('tutoring students', () => {
  it('lists who may join, adds with a plan up to the capacity, shows the plan and records, removes', async () => {
    const c = await created({ teacher_id: await newTeacher(), capacity: 2 });
    const sel = await t.get(`${api('selectTutorialStudent')}?class_id=${c.id}&name=辅导生`, admin);
    expect(sel.body.data.total).toBe(8);
    const theirStudent = (await t.sql.query(`insert into students (school_id, name) values ($1, '外校生') returning id`, [other.schoolId])).rows[0]
      .id;
    const s = await snap();
    const over = await t.post(api('addTutorialStudent'), admin).send({ class_id: c.id, student_ids: students.slice(0, 3) });
    expect(over.body).toMatchObject({ code: Code.Error, msg: '超出辅导班容量：容量 2 人，已有 0 人，本次添加 3 人' });
    for (const body of [
      { class_id: c.id, student_ids: [] },
      { class_id: c.id, student_ids: [students[0], students[0]] },
      { class_id: c.id },
      { class_id: 'x', student_ids: [students[0]] },
    ]) {
      expect((await t.post(api('addTutorialStudent'), admin).send(body)).body.code).toBe(Code.Error);
    }
    expect((await t.post(api('addTutorialStudent'), admin).send({ class_id: c.id, student_ids: [theirStudent] })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该学生',
    });
    expect((await t.post(api('addTutorialStudent'), other.adminToken).send({ class_id: c.id, student_ids: [theirStudent] })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该辅导班',
    });
    expect((await t.get(`${api('selectTutorialStudent')}?class_id=${c.id}`, other.adminToken)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该辅导班',
    });
    expect(await snap()).toEqual(s);

    const ok = await t.post(api('addTutorialStudent'), admin).send({ class_id: c.id, student_ids: students.slice(0, 2), plan: '每次先完成数学作业' });
    expect(ok.body.data).toMatchObject({ id: c.id, students: 2 });
    expect((await t.post(api('addTutorialStudent'), admin).send({ class_id: c.id, student_ids: [students[0]] })).body).toMatchObject({
      code: Code.Error,
      msg: '以下学生已在辅导班中：辅导生0',
    });
    const members = await t.get(`${api('tutorialStudent')}?class_id=${c.id}`, admin);
    expect(members.body.data).toMatchObject({ total: 2, list: [{ id: students[0], plan: '每次先完成数学作业', attended: 0 }, { id: students[1] }] });
    expect((await t.get(`${api('tutorialStudent')}?class_id=${c.id}`, other.adminToken)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该辅导班',
    });
    expect((await t.get(`${api('selectTutorialStudent')}?class_id=${c.id}&name=辅导生`, admin)).body.data.total).toBe(6);

    const planned = (await sessionsOf(c.id)).length;
    // a past session of the class, held with a roll call: it shows in the records and the counts
    const past = (
      await t.sql.query(
        `insert into class_sessions (school_id, kind, class_id, day, start_min, end_min, teacher_id, state) values ($1, 'tutoring', $2, $3::date - 7, 600, 660, $4, 'held') returning id`,
        [t.demo.schoolId, c.id, today, c.teacher_id],
      )
    ).rows[0].id;
    await t.sql.query(`insert into session_roll_calls (session_id, student_id, school_id, status, by_user) values ($1, $2, $3, 'late', $4)`, [
      past,
      students[0],
      t.demo.schoolId,
      teacherId,
    ]);
    const info = await t.get(`${api('tutorialStudentInfo')}?class_id=${c.id}&student_id=${students[0]}`, admin);
    expect(info.body.data).toMatchObject({
      student: { id: students[0], name: '辅导生0' },
      class: { id: c.id, name: c.name },
      plan: '每次先完成数学作业',
      counts: { sessions: planned + 1, held: 1, planned, late: 1, present: 0 },
      records: { total: 1, list: [{ session_id: past, status: 'late', state: 'held', start_time: '10:00' }] },
    });
    expect(info.body.data.next_sessions).toHaveLength(Math.min(planned, 5));
    expect((await t.get(`${api('tutorialStudentInfo')}?class_id=${c.id}&student_id=${students[5]}`, admin)).body).toMatchObject({
      code: Code.Error,
      msg: '该学生不在此辅导班中',
    });
    expect((await t.get(`${api('tutorialStudentInfo')}?class_id=${c.id}&student_id=${students[0]}`, other.adminToken)).body).toMatchObject({
      code: Code.Error,
      msg: '该学生不在此辅导班中',
    });
    expect((await t.get(`${api('tutorialStudentInfo')}?class_id=${c.id}&student_id=x`, admin)).body.code).toBe(Code.Error);

    const s2 = await snap();
    expect((await t.post(api('delTutorialStudent'), other.adminToken).send({ class_id: c.id, student_id: students[0] })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该辅导班',
    });
    expect((await t.post(api('delTutorialStudent'), admin).send({ class_id: c.id, student_id: students[5] })).body).toMatchObject({
      code: Code.Error,
      msg: '该学生不在此辅导班中',
    });
    expect((await t.post(api('delTutorialStudent'), admin).send({ class_id: c.id })).body.code).toBe(Code.Error);
    expect(await snap()).toEqual(s2);
    expect((await t.post(api('delTutorialStudent'), admin).send({ class_id: c.id, student_id: students[0] })).body.data).toMatchObject({
      students: 1,
    });
  });

  it('refuses a student whose teaching session clashes with the tutoring, naming both', async () => {
    const teaching = await teachingClass(await newTeacher(), [students[6]]);
    const c = await created({ teacher_id: await newTeacher() });
    const s = await snap();
    const res = await t.post(api('addTutorialStudent'), admin).send({ class_id: c.id, student_ids: [students[6], students[7]] });
    expect(res.body.code).toBe(Code.Error);
    expect(res.body.msg).toContain('辅导生6');
    expect(res.body.msg).toContain(teaching.name);
    expect(res.body.data.clashes).toEqual([
      expect.objectContaining({
        kind: 'student',
        who: students[6],
        day: term,
        with: expect.objectContaining({ source: 'teaching', label: teaching.name }),
      }),
      expect.objectContaining({ kind: 'student', who: students[6], day: addDays(term, 7) }),
    ]);
    expect(await snap()).toEqual(s);
  });

  it('the teaching side sees tutoring too: a tutoring student added to a teaching class at that time is refused, naming the tutoring class', async () => {
    const kid = (await t.sql.query(`insert into students (school_id, name) values ($1, '辅导生8') returning id`, [t.demo.schoolId])).rows[0]
      .id as number;
    const c = await created({ teacher_id: await newTeacher(), pattern: [slot(1, '16:00', '17:00')] });
    expect((await t.post(api('addTutorialStudent'), admin).send({ class_id: c.id, student_ids: [kid] })).body).toMatchObject({ code: Code.Ok });
    const teaching = await teachingClass(await newTeacher());
    const s = await snap();
    const res = await t.post(api('addTeachingClassStudent'), admin).send({ class_id: teaching.id, student_ids: [kid] });
    expect(res.body.code).toBe(Code.Error);
    expect(res.body.data.clashes[0]).toMatchObject({ kind: 'student', who: kid, day: term, with: { source: 'tutoring', label: c.name } });
    expect(await snap()).toEqual(s);
  });

  it('roll call takes tutoring sessions too: the class’s students, saved by the admin, the session held', async () => {
    const kid = (await t.sql.query(`insert into students (school_id, name) values ($1, '辅导生9') returning id`, [t.demo.schoolId])).rows[0]
      .id as number;
    const c = await created({ teacher_id: await newTeacher(), pattern: [slot(4, '19:00', '20:00')] });
    expect((await t.post(api('addTutorialStudent'), admin).send({ class_id: c.id, student_ids: [kid] })).body).toMatchObject({ code: Code.Ok });
    const [first] = await sessionsOf(c.id);
    // test setup: the first session moved to today (roll call is taken on the day)
    await t.sql.query(`update class_sessions set day = $2 where id = $1`, [first.id, today]);
    const got = await t.get(`${api('rollCall')}?session_id=${first.id}`, admin);
    expect(got.body).toMatchObject({ code: Code.Ok, data: { class_name: c.name, students: [{ student_id: kid, status: null }] } });
    const saved = await t.post(api('rollCall'), admin).send({ session_id: first.id, entries: [{ student_id: kid, status: 'late' }] });
    expect(saved.body).toMatchObject({
      code: Code.Ok,
      data: { session: { state: 'held' }, students: [{ student_id: kid, status: 'late', saved: true }] },
    });
    // a student of another class is not this session's
    expect(
      (await t.post(api('rollCall'), admin).send({ session_id: first.id, entries: [{ student_id: students[0], status: 'present' }] })).body.code,
    ).toBe(Code.Error);
  });

  it('refuses a student already in another tutoring class at the same time', async () => {
    const a = await created({ teacher_id: await newTeacher(), pattern: [slot(2, '18:00', '19:00')] });
    const b = await created({ teacher_id: await newTeacher(), pattern: [slot(2, '18:30', '19:30')] });
    expect((await t.post(api('addTutorialStudent'), admin).send({ class_id: a.id, student_ids: [students[7]] })).body.code).toBe(Code.Ok);
    const res = await t.post(api('addTutorialStudent'), admin).send({ class_id: b.id, student_ids: [students[7]] });
    expect(res.body.data.clashes[0]).toMatchObject({ kind: 'student', who: students[7], with: { source: 'tutoring', label: a.name } });
  });
});

describe('moving a tutoring session', () => {
  it('moves on the version read; a stale version, a holiday, a clash with a teaching session and bad input are refused and write nothing', async () => {
    const teacher = await newTeacher();
    const teaching = await teachingClass(teacher);
    const c = await created({ teacher_id: teacher, pattern: [slot(2, '16:00', '17:00')] });
    const [first] = await sessionsOf(c.id);
    const moved = await t
      .post(api('tutorialChangeScheduling'), admin)
      .send({ id: first.id, version: first.version, day: addDays(term, 3), start_time: '15:00', end_time: '16:00' });
    expect(moved.body.data).toMatchObject({
      id: first.id,
      day: addDays(term, 3),
      start_time: '15:00',
      end_time: '16:00',
      version: first.version + 1,
    });

    const s = await snap();
    expect(
      (
        await t
          .post(api('tutorialChangeScheduling'), admin)
          .send({ id: first.id, version: first.version, day: addDays(term, 3), start_time: '17:00', end_time: '18:00' })
      ).body,
    ).toMatchObject({
      code: Code.Error,
      msg: '该辅导课次已被他人修改，请刷新后重试',
    });
    const clash = await t
      .post(api('tutorialChangeScheduling'), admin)
      .send({ id: first.id, version: first.version + 1, day: term, start_time: '17:00', end_time: '18:00' });
    expect(clash.body.code).toBe(Code.Error);
    expect(clash.body.msg).toContain(teaching.name);
    expect(clash.body.data.clashes[0]).toMatchObject({ kind: 'teacher', who: teacher, with: { source: 'teaching', label: teaching.name } });
    const hol = addDays(term, 4);
    await t.sql.query(`insert into school_calendar_days (school_id, day, kind) values ($1, $2, 'holiday') on conflict do nothing`, [
      t.demo.schoolId,
      hol,
    ]);
    const s2 = await snap();
    expect(
      (
        await t
          .post(api('tutorialChangeScheduling'), admin)
          .send({ id: first.id, version: first.version + 1, day: hol, start_time: '17:00', end_time: '18:00' })
      ).body,
    ).toMatchObject({ code: Code.Error, msg: `${hol} 是放假日，不能排课` });
    for (const body of [
      { id: first.id, version: 2, day: term, start_time: '18:00', end_time: '17:00' },
      { id: first.id, day: term, start_time: '17:00', end_time: '18:00' },
      { id: first.id, version: 2, day: '2026-02-30', start_time: '17:00', end_time: '18:00' },
    ]) {
      expect((await t.post(api('tutorialChangeScheduling'), admin).send(body)).body.code).toBe(Code.Error);
    }
    expect(
      (
        await t
          .post(api('tutorialChangeScheduling'), other.adminToken)
          .send({ id: first.id, version: first.version + 1, day: term, start_time: '19:00', end_time: '20:00' })
      ).body,
    ).toMatchObject({ code: Code.Error, msg: '未找到该辅导课次' });
    expect(await snap()).toEqual({ ...s2 });
    expect(s2.sessions).toBe(s.sessions);
  });

  it('refuses a move into a teaching session of one of its students', async () => {
    const teaching = await teachingClass(await newTeacher(), [students[5]]);
    const c = await created({ teacher_id: await newTeacher(), pattern: [slot(2, '16:00', '17:00')] });
    expect((await t.post(api('addTutorialStudent'), admin).send({ class_id: c.id, student_ids: [students[5]] })).body.code).toBe(Code.Ok);
    const [first] = await sessionsOf(c.id);
    const res = await t
      .post(api('tutorialChangeScheduling'), admin)
      .send({ id: first.id, version: first.version, day: term, start_time: '17:00', end_time: '18:00' });
    expect(res.body.data.clashes).toEqual([
      expect.objectContaining({ kind: 'student', who: students[5], with: expect.objectContaining({ label: teaching.name }) }),
    ]);
  });

  it('two concurrent moves of the same teacher into one slot: one wins, the other is refused with the clash', async () => {
    const teacher = await newTeacher();
    const a = await created({ teacher_id: teacher, pattern: [slot(2, '09:00', '10:00')] });
    const b = await created({ teacher_id: teacher, pattern: [slot(2, '11:00', '12:00')] });
    const [sa] = await sessionsOf(a.id);
    const [sb] = await sessionsOf(b.id);
    const to = { day: addDays(term, 3), start_time: '14:00', end_time: '15:00' };
    const answers = await Promise.all([
      t.post(api('tutorialChangeScheduling'), admin).send({ id: sa.id, version: sa.version, ...to }),
      t.post(api('tutorialChangeScheduling'), admin).send({ id: sb.id, version: sb.version, ...to }),
    ]);
    expect(answers.map((r) => r.body.code).sort()).toEqual([Code.Ok, Code.Error].sort());
    const lost = answers.find((r) => r.body.code !== Code.Ok)!;
    expect(lost.body.data.clashes[0]).toMatchObject({ kind: 'teacher', who: teacher, with: { source: 'tutoring' } });
    const { rows } = await t.sql.query(`select count(*)::int as n from class_sessions where teacher_id = $1 and day = $2 and start_min = 840`, [
      teacher,
      to.day,
    ]);
    expect(rows[0].n).toBe(1);
  });
});

describe('roles', () => {
  const actions: Array<['GET' | 'POST', string, Record<string, unknown>]> = [
    ['GET', 'tutorialType', {}],
    ['GET', 'tutorialSettingList', {}],
    ['POST', 'tutorialSetting', { name: '角色测试', duration_min: 60, price_fen: 0 }],
    [
      'POST',
      'addTutorialSchoolCare',
      { name: '角色测试', type_id: 1, capacity: 1, from: '2030-01-07', to: '2030-01-08', pattern: [{ weekday: 1, start_time: '10:00' }] },
    ],
    ['GET', 'tutorialInfo', { id: 1 }],
    ['GET', 'tutorialList', {}],
    ['GET', 'tutorialScheduling', { class_id: 1 }],
    ['GET', 'tutorialStudent', { class_id: 1 }],
    ['GET', 'tutorialStudentInfo', { class_id: 1, student_id: 1 }],
    ['GET', 'selectTutorialStudent', { class_id: 1 }],
    ['POST', 'addTutorialStudent', { class_id: 1, student_ids: [1] }],
    ['POST', 'delTutorialStudent', { class_id: 1, student_id: 1 }],
    ['POST', 'tutorialChangeScheduling', { id: 1, version: 1, day: '2030-01-07', start_time: '10:00', end_time: '11:00' }],
  ];
  it.each(['teacher', 'adviser', 'parent', 'operator'] as const)('%s may call none of the tutoring actions', async (who) => {
    const token = await t.login(who);
    const s = await snap();
    for (const [method, action, body] of actions) {
      const res =
        method === 'GET'
          ? await t.get(`${api(action)}?${new URLSearchParams(body as Record<string, string>)}`, token)
          : await t.post(api(action), token).send(body);
      expect([action, res.body]).toEqual([action, expect.objectContaining(DENIED)]);
    }
    expect(await snap()).toEqual({ ...s, user_tokens: expect.any(Number), user_activity: expect.any(Number) });
  });
});
