import { addDays, Code, mondayOf, type AddTutorialSchoolCareAnswer, type TutoringClass, type TutoringSession } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

/** Stopping, starting and deleting tutoring classes; cancelling one tutoring session (extra actions of issue 13). */

let t: TestApp;
let admin: string;
let teacherToken: string;
let other: { schoolId: number; adminToken: string };
let term: string;
let typeId: number;

const api = (action: string) => `/api/index/${action}`;
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };
let seq = 0;
const uniq = (p: string) => `${p}${++seq}`;

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, redis: false, demoPeople: true });
  admin = await t.login('admin');
  teacherToken = await t.login('teacher');
  other = await t.otherSchool();
  const today = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as d`)).rows[0].d;
  term = addDays(mondayOf(today), 21);
  typeId = (await t.get(api('tutorialType'), admin)).body.data.list[0].id;
});
afterAll(() => t.close());

async function snap() {
  const { rows } = await t.sql.query(
    `select (select count(*) from tutoring_classes where deleted_at is null)::int as classes, (select coalesce(sum(version), 0) from tutoring_classes)::int as class_versions,
            (select count(*) from class_sessions where state = 'cancelled')::int as cancelled, (select coalesce(sum(version), 0) from class_sessions)::int as session_versions`,
  );
  return { ...(await snapshot(t.sql)), ...rows[0] };
}

async function newTeacher(): Promise<number> {
  const { rows } = await t.sql.query(
    `insert into users (school_id, role, username, name, nickname, mobile, password_hash) select school_id, 2, $2, $3, $3, null, password_hash from users where id = $1 returning id`,
    [t.demo.users.teacher, uniq('tca_'), uniq('辅导老师')],
  );
  return rows[0].id;
}

async function created(): Promise<TutoringClass> {
  const res = await t.post(api('addTutorialSchoolCare'), admin).send({
    name: uniq('停开辅导班'),
    type_id: typeId,
    teacher_id: await newTeacher(),
    capacity: 3,
    from: term,
    to: addDays(term, 13),
    pattern: [{ weekday: 2, start_time: '16:00', end_time: '17:00' }],
  });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return (res.body.data as AddTutorialSchoolCareAnswer).class!;
}

async function sessionsOf(classId: number): Promise<TutoringSession[]> {
  return (await t.get(`${api('tutorialScheduling')}?class_id=${classId}&limit=100`, admin)).body.data.list;
}

describe('startAndEndTutorialClass', () => {
  it('stops a class on the version read (it then takes no students and its sessions do not move) and starts it again', async () => {
    const c = await created();
    const [ses] = await sessionsOf(c.id);
    const student = (await t.sql.query(`insert into students (school_id, name) values ($1, '停课生') returning id`, [t.demo.schoolId])).rows[0].id;
    const stopped = await t.post(api('startAndEndTutorialClass'), admin).send({ id: c.id, version: c.version, status: 0 });
    expect(stopped.body.data).toMatchObject({ id: c.id, status: 0, version: c.version + 1 });
    expect((await t.post(api('addTutorialStudent'), admin).send({ class_id: c.id, student_ids: [student] })).body).toMatchObject({
      code: Code.Error,
      msg: '该辅导班已停课',
    });
    const move = { id: ses.id, version: ses.version, day: ses.day, start_time: '17:00', end_time: '18:00' };
    const before = await snap();
    expect((await t.post(api('tutorialChangeScheduling'), admin).send(move)).body).toMatchObject({ code: Code.Error, msg: '该辅导班已停课' });
    expect(await snap()).toEqual(before);
    const started = await t.post(api('startAndEndTutorialClass'), admin).send({ id: c.id, version: c.version + 1, status: 1 });
    expect(started.body.data).toMatchObject({ status: 1, version: c.version + 2 });
    expect((await t.post(api('addTutorialStudent'), admin).send({ class_id: c.id, student_ids: [student] })).body).toMatchObject({ code: Code.Ok });
    expect((await t.post(api('tutorialChangeScheduling'), admin).send(move)).body.data).toMatchObject({
      start_time: '17:00',
      version: ses.version + 1,
    });
  });

  it('bad input, a stale version, the same state, a teacher and another school write nothing', async () => {
    const c = await created();
    const s = await snap();
    for (const body of [
      { id: c.id, version: c.version, status: 2 },
      { id: c.id, status: 0 },
      { id: 'x', version: 1, status: 0 },
      { id: c.id, version: c.version, status: 0, extra: 1 },
    ]) {
      expect((await t.post(api('startAndEndTutorialClass'), admin).send(body)).body.code).toBe(Code.Error);
    }
    expect((await t.post(api('startAndEndTutorialClass'), admin).send({ id: c.id, version: c.version + 5, status: 0 })).body).toMatchObject({
      code: Code.Error,
      msg: '该辅导班已被他人修改，请刷新后重试',
    });
    expect((await t.post(api('startAndEndTutorialClass'), admin).send({ id: c.id, version: c.version, status: 1 })).body).toMatchObject({
      code: Code.Error,
      msg: '辅导班已是该状态',
    });
    expect((await t.post(api('startAndEndTutorialClass'), teacherToken).send({ id: c.id, version: c.version, status: 0 })).body).toMatchObject(
      DENIED,
    );
    expect((await t.post(api('startAndEndTutorialClass'), other.adminToken).send({ id: c.id, version: c.version, status: 0 })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该辅导班',
    });
    expect(await snap()).toEqual(s);
  });
});

describe('delTutorialClass', () => {
  it('deletes a class without held sessions: its planned sessions are cancelled, its name free again', async () => {
    const c = await created();
    const before = await sessionsOf(c.id);
    expect(before).toHaveLength(2);
    const res = await t.post(api('delTutorialClass'), admin).send({ id: c.id, version: c.version });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { id: c.id, cancelled: 2 } });
    expect((await t.get(`${api('tutorialInfo')}?id=${c.id}`, admin)).body).toMatchObject({ code: Code.Error, msg: '未找到该辅导班' });
    const rows = (await t.sql.query(`select state, cancel_reason from class_sessions where kind = 'tutoring' and class_id = $1`, [c.id])).rows;
    expect(rows).toEqual([
      { state: 'cancelled', cancel_reason: '辅导班已删除' },
      { state: 'cancelled', cancel_reason: '辅导班已删除' },
    ]);
    expect((await t.get(`${api('tutorialList')}?name=${encodeURIComponent(c.name)}`, admin)).body.data.total).toBe(0);
  });

  it('refuses a class with a held session; bad input, stale, a teacher and another school write nothing', async () => {
    const c = await created();
    const [first] = await sessionsOf(c.id);
    await t.sql.query(`update class_sessions set state = 'held' where id = $1`, [first.id]);
    const s = await snap();
    expect((await t.post(api('delTutorialClass'), admin).send({ id: c.id, version: c.version })).body).toMatchObject({
      code: Code.Error,
      msg: '该辅导班已上过 1 次课，不能删除（可以停课）',
    });
    await t.sql.query(`update class_sessions set state = 'planned' where id = $1`, [first.id]);
    for (const body of [{ id: c.id }, { id: 0, version: 1 }, { id: c.id, version: 'a' }]) {
      expect((await t.post(api('delTutorialClass'), admin).send(body)).body.code).toBe(Code.Error);
    }
    expect((await t.post(api('delTutorialClass'), admin).send({ id: c.id, version: c.version + 1 })).body).toMatchObject({
      code: Code.Error,
      msg: '该辅导班已被他人修改，请刷新后重试',
    });
    expect((await t.post(api('delTutorialClass'), teacherToken).send({ id: c.id, version: c.version })).body).toMatchObject(DENIED);
    expect((await t.post(api('delTutorialClass'), other.adminToken).send({ id: c.id, version: c.version })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该辅导班',
    });
    expect(await snap()).toEqual(s);
  });
});

describe('cancelTutorialSession', () => {
  it('cancels one planned session with a reason; it is then no longer counted', async () => {
    const c = await created();
    const [first, second] = await sessionsOf(c.id);
    const res = await t.post(api('cancelTutorialSession'), admin).send({ id: first.id, version: first.version, reason: '老师请假' });
    expect(res.body.data).toMatchObject({ id: first.id, state: 'cancelled', version: first.version + 1, lesson_no: null });
    expect((await t.get(`${api('tutorialInfo')}?id=${c.id}`, admin)).body.data).toMatchObject({ sessions_scheduled: 1 });
    expect((await sessionsOf(c.id)).find((x) => x.id === second.id)).toMatchObject({ lesson_no: 1 });
    expect(
      (await t.post(api('cancelTutorialSession'), admin).send({ id: first.id, version: first.version + 1, reason: '再取消' })).body,
    ).toMatchObject({ code: Code.Error, msg: '只能调整未上的辅导课次' });
  });

  it('bad input, a stale version, a teacher and another school write nothing', async () => {
    const c = await created();
    const [first] = await sessionsOf(c.id);
    const s = await snap();
    for (const body of [
      { id: first.id, version: first.version },
      { id: first.id, version: first.version, reason: 'x' },
      { id: first.id, reason: '原因原因' },
      { id: 'a', version: 1, reason: '原因原因' },
    ]) {
      expect((await t.post(api('cancelTutorialSession'), admin).send(body)).body.code).toBe(Code.Error);
    }
    expect(
      (await t.post(api('cancelTutorialSession'), admin).send({ id: first.id, version: first.version + 3, reason: '老师请假' })).body,
    ).toMatchObject({ code: Code.Error, msg: '该辅导课次已被他人修改，请刷新后重试' });
    expect(
      (await t.post(api('cancelTutorialSession'), teacherToken).send({ id: first.id, version: first.version, reason: '老师请假' })).body,
    ).toMatchObject(DENIED);
    expect(
      (await t.post(api('cancelTutorialSession'), other.adminToken).send({ id: first.id, version: first.version, reason: '老师请假' })).body,
    ).toMatchObject({ code: Code.Error, msg: '未找到该辅导课次' });
    expect(await snap()).toEqual(s);
  });
});
