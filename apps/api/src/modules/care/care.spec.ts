import { Code } from '@wantuo/shared';
import { snapshot, startTestApp, type DemoUser, type TestApp } from '../../../test/harness';

let t: TestApp;
let admin: string;
let teacherToken: string;
let other: { schoolId: number; adminToken: string };
beforeAll(async () => {
  t = await startTestApp({ runJobs: false });
  admin = await t.login('admin');
  teacherToken = await t.login('teacher');
  other = await t.otherSchool();
});
afterAll(() => t.close());

const FORBIDDEN = '当前账号没有权限执行此操作';
const NOT_FOUND = '该晚托班不存在';
const api = (action: string) => `/api/index/${action}`;
const long = 'x'.repeat(10_000);

interface ClassInfo {
  id: number;
  name: string;
  version: number;
  headcount: number;
  head_teacher_id: number | null;
  duties: Array<{ id: number; duty: string; teacher_id: number; teacher_name: string; student_id: number | null }>;
}

let seq = 0;
async function student(opts: { schoolId?: number; name?: string; status?: number } = {}) {
  const { rows } = await t.sql.query(`insert into students (school_id, name, status, grade) values ($1, $2, $3, '三年级') returning id`, [
    opts.schoolId ?? t.demo.schoolId,
    opts.name ?? `学生${++seq}`,
    opts.status ?? 1,
  ]);
  return rows[0].id as number;
}

/** a staff member (role 2 teacher or 5 head teacher) who can sign in with the demo password */
async function staff(opts: { role?: 2 | 5; schoolId?: number; jobStatus?: number; name?: string } = {}) {
  const username = `care_staff_${++seq}`;
  const { rows } = await t.sql.query(
    `insert into users (school_id, role, username, name, nickname, password_hash, job_status)
     select $1, $2, $3, $4, $4, password_hash, $5 from users where username = 'admin' returning id`,
    [opts.schoolId ?? t.demo.schoolId, opts.role ?? 2, username, opts.name ?? `老师${seq}`, opts.jobStatus ?? 1],
  );
  return { id: rows[0].id as number, login: () => t.login(username as DemoUser) };
}

async function slot(schoolId = t.demo.schoolId) {
  const { rows } = await t.sql.query(
    `insert into class_times (school_id, name, start_time, end_time, weekdays) values ($1, '放学后', '16:00', '18:00', '{1,2,3,4,5}') returning id`,
    [schoolId],
  );
  return rows[0].id as number;
}

async function createClass(over: Record<string, unknown> = {}, token = admin): Promise<ClassInfo> {
  const res = await t.post(api('addAfterSchoolCare'), token).send({ name: `班级${++seq}`, capacity: 10, fee_fen: 150000, ...over });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data;
}

async function addStudents(classId: number, ids: number[], token = admin, action = 'addWantuoStudent') {
  const res = await t.post(api(action), token).send({ class_id: classId, student_ids: ids });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data;
}

/** each input answers code 100 and writes nothing */
async function expectRefused(action: string, inputs: unknown[], token = admin, method: 'get' | 'post' = 'post') {
  for (const input of inputs) {
    const before = await snapshot(t.sql);
    const res = method === 'post' ? await t.post(api(action), token).send(input as object) : await t.get(`${api(action)}?${input as string}`, token);
    expect({ input, code: res.body.code }).toEqual({ input, code: Code.Error });
    expect(typeof res.body.msg).toBe('string');
    expect(await snapshot(t.sql)).toEqual(before);
  }
}

async function expectForbidden(action: string, token: string, input: object | string = {}, method: 'get' | 'post' = 'post') {
  const before = await snapshot(t.sql);
  const res = method === 'post' ? await t.post(api(action), token).send(input as object) : await t.get(`${api(action)}?${input as string}`, token);
  expect(res.body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
  expect(await snapshot(t.sql)).toEqual(before);
}

async function theirClass() {
  const res = await t.post(api('addAfterSchoolCare'), other.adminToken).send({ name: '外校班', capacity: 5 });
  expect(res.body.code).toBe(Code.Ok);
  return res.body.data as ClassInfo;
}

describe('addAfterSchoolCare', () => {
  it('creates a running class with head teacher, time slot, capacity and fee; the head duty follows', async () => {
    const slotId = await slot();
    const res = await t.post(api('addAfterSchoolCare'), admin).send({
      name: ' 向日葵班 ',
      head_teacher_id: t.demo.users.adviser,
      class_time_id: slotId,
      capacity: 20,
      fee_fen: 180000,
    });
    expect(res.body.code).toBe(Code.Ok);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      name: '向日葵班',
      status: 1,
      capacity: 20,
      fee_fen: 180000,
      headcount: 0,
      head_teacher_id: t.demo.users.adviser,
      head_teacher_name: '张班主任',
      class_time_id: slotId,
      class_time_name: '放学后',
      start_time: '16:00',
      end_time: '18:00',
      weekdays: [1, 2, 3, 4, 5],
      version: 1,
      created_at: expect.any(String),
      duties: [{ id: expect.any(Number), duty: 'head', teacher_id: t.demo.users.adviser, teacher_name: '张班主任', student_id: null }],
    });
    const { rows } = await t.sql.query(`select school_id from care_classes where id = $1`, [res.body.data.id]);
    expect(rows[0].school_id).toBe(t.demo.schoolId);
  });

  it('needs only name and capacity; a teacher (role 2) may be the head teacher', async () => {
    const c = await createClass({ fee_fen: undefined });
    expect(c).toMatchObject({ head_teacher_id: null, class_time_id: null, duties: [], fee_fen: 0 });
    const d = await createClass({ head_teacher_id: t.demo.users.teacher });
    expect(d.head_teacher_id).toBe(t.demo.users.teacher);
  });

  it('bad input, unsuitable teachers and other schools’ ids answer code 100 and write nothing', async () => {
    const left = await staff({ jobStatus: 2 });
    const theirTeacher = await staff({ schoolId: other.schoolId });
    const theirSlot = await slot(other.schoolId);
    const deletedSlot = await slot();
    await t.sql.query(`update class_times set deleted_at = now() where id = $1`, [deletedSlot]);
    const ok = { name: '班', capacity: 10 };
    await expectRefused('addAfterSchoolCare', [
      {},
      { capacity: 10 },
      { name: '班' },
      { ...ok, name: '' },
      { ...ok, name: long },
      { ...ok, name: '<script>alert(1)</script>' },
      { ...ok, name: 42 },
      { ...ok, capacity: 0 },
      { ...ok, capacity: 501 },
      { ...ok, capacity: '10' },
      { ...ok, capacity: 1.5 },
      { ...ok, fee_fen: -1 },
      { ...ok, fee_fen: 12.5 },
      { ...ok, fee_fen: '100' },
      { ...ok, fee_fen: long },
      { ...ok, head_teacher_id: '1; drop table care_classes' },
      { ...ok, head_teacher_id: t.demo.users.parent },
      { ...ok, head_teacher_id: t.demo.users.admin },
      { ...ok, head_teacher_id: left.id },
      { ...ok, head_teacher_id: theirTeacher.id },
      { ...ok, class_time_id: theirSlot },
      { ...ok, class_time_id: deletedSlot },
      { ...ok, status: 0 },
      { ...ok, school_id: other.schoolId },
    ]);
    const res = await t.post(api('addAfterSchoolCare'), admin).send({ ...ok, head_teacher_id: left.id });
    expect(res.body.msg).toBe('所选老师不存在、已离职，或不是本机构的老师/班主任');
    const cap = await t.post(api('addAfterSchoolCare'), admin).send({ ...ok, capacity: 0 });
    expect(cap.body.msg).toBe('容量需为 1-500 的整数');
  });

  it('a teacher may not create classes', async () => {
    await expectForbidden('addAfterSchoolCare', teacherToken, { name: '班', capacity: 10 });
  });
});

describe('editAfterSchoolCare', () => {
  it('edits on the version read; changing the head teacher moves the head duty; stale versions conflict', async () => {
    const c = await createClass({ head_teacher_id: t.demo.users.adviser });
    const slotId = await slot();
    const res = await t.post(api('editAfterSchoolCare'), admin).send({
      id: c.id,
      version: 1,
      name: '改名班',
      head_teacher_id: t.demo.users.teacher,
      class_time_id: slotId,
      capacity: 30,
      fee_fen: 0,
    });
    expect(res.body.data).toMatchObject({
      id: c.id,
      name: '改名班',
      head_teacher_id: t.demo.users.teacher,
      class_time_id: slotId,
      capacity: 30,
      fee_fen: 0,
      version: 2,
    });
    expect(res.body.data.duties).toEqual([expect.objectContaining({ duty: 'head', teacher_id: t.demo.users.teacher })]);
    // absent ids keep, null clears
    const keep = await t.post(api('editAfterSchoolCare'), admin).send({ id: c.id, version: 2, name: '改名班', capacity: 30, fee_fen: 0 });
    expect(keep.body.data).toMatchObject({ head_teacher_id: t.demo.users.teacher, class_time_id: slotId, version: 3 });
    const clear = await t
      .post(api('editAfterSchoolCare'), admin)
      .send({ id: c.id, version: 3, name: '改名班', head_teacher_id: null, class_time_id: null, capacity: 30, fee_fen: 0 });
    expect(clear.body.data).toMatchObject({ head_teacher_id: null, class_time_id: null, duties: [], version: 4 });
    const before = await snapshot(t.sql);
    const stale = await t.post(api('editAfterSchoolCare'), admin).send({ id: c.id, version: 3, name: '旧', capacity: 30, fee_fen: 0 });
    expect(stale.body).toMatchObject({ code: Code.Error, msg: '数据已被他人修改，请刷新后重试' });
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('the capacity cannot go below the headcount', async () => {
    const c = await createClass({ capacity: 5 });
    await addStudents(c.id, [await student(), await student(), await student()]);
    const before = await snapshot(t.sql);
    const res = await t.post(api('editAfterSchoolCare'), admin).send({ id: c.id, version: 1, name: c.name, capacity: 2, fee_fen: 0 });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '班级现有 3 名学生，容量不能小于 3' });
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('bad input, other schools’ classes and a wrong role answer code 100 and write nothing', async () => {
    const c = await createClass();
    const theirs = await theirClass();
    const ok = { id: c.id, version: 1, name: '班', capacity: 10, fee_fen: 0 };
    await expectRefused('editAfterSchoolCare', [
      {},
      { ...ok, version: undefined },
      { ...ok, id: undefined },
      { ...ok, fee_fen: undefined },
      { ...ok, id: String(c.id) },
      { ...ok, version: '1' },
      { ...ok, name: long },
      { ...ok, name: '<b>班</b>' },
      { ...ok, capacity: -5 },
      { ...ok, head_teacher_id: t.demo.users.parent },
      { ...ok, id: theirs.id },
      { ...ok, id: 999_999 },
    ]);
    const res = await t.post(api('editAfterSchoolCare'), admin).send({ ...ok, id: theirs.id });
    expect(res.body.msg).toBe(NOT_FOUND);
    await expectForbidden('editAfterSchoolCare', await t.login('adviser'), ok);
  });
});

describe('classList', () => {
  it('lists the school’s classes newest first with teacher, slot, headcount, capacity, fee and status; search and filter', async () => {
    const slotId = await slot();
    const a = await createClass({ name: '列表甲班', head_teacher_id: t.demo.users.adviser, class_time_id: slotId, capacity: 8, fee_fen: 99 });
    const b = await createClass({ name: '列表乙班' });
    await addStudents(a.id, [await student(), await student()]);
    await t.post(api('startAndEnd'), admin).send({ id: b.id, version: 1, status: 0 });
    await theirClass();

    const res = await t.get(`${api('classList')}?limit=100`, admin);
    expect(res.body.code).toBe(Code.Ok);
    const { list, total } = res.body.data;
    const { rows } = await t.sql.query(`select count(*)::int as n from care_classes where school_id = $1 and deleted_at is null`, [t.demo.schoolId]);
    expect(total).toBe(rows[0].n);
    expect(list.map((r: { name: string }) => r.name)).not.toContain('外校班');
    expect(list[0].id).toBe(b.id);
    expect(list[1]).toEqual({
      id: a.id,
      name: '列表甲班',
      status: 1,
      capacity: 8,
      fee_fen: 99,
      headcount: 2,
      head_teacher_id: t.demo.users.adviser,
      head_teacher_name: '张班主任',
      class_time_id: slotId,
      class_time_name: '放学后',
      start_time: '16:00',
      end_time: '18:00',
      weekdays: [1, 2, 3, 4, 5],
      version: 1,
      created_at: expect.any(String),
    });
    const search = await t.get(`${api('classList')}?name=${encodeURIComponent('列表')}`, admin);
    expect(search.body.data.list.map((r: { id: number }) => r.id)).toEqual([b.id, a.id]);
    const stopped = await t.get(`${api('classList')}?status=0&name=${encodeURIComponent('列表')}`, admin);
    expect(stopped.body.data).toMatchObject({ total: 1, list: [{ id: b.id, status: 0 }] });
    const all = await t.get(`${api('classList')}?status=&limit=1&page=2`, admin);
    expect(all.body.data).toMatchObject({ total, page: 2, limit: 1, list: [{ id: a.id }] });
    const like = await t.get(`${api('classList')}?name=_`, admin);
    expect(like.body.data.total).toBe(0);
  });

  it('bad input and a wrong role answer code 100', async () => {
    await expectRefused(
      'classList',
      ['status=2', 'status=abc', 'page=0', 'limit=101', `name=${long}`, 'name=%3Cscript%3E', 'status=1%20or%201%3D1', 'x=1'],
      admin,
      'get',
    );
    await expectForbidden('classList', teacherToken, '', 'get');
  });
});

describe('wantuoInfo', () => {
  it('one class with its class duties; another school’s id is not found', async () => {
    const c = await createClass({ head_teacher_id: t.demo.users.adviser });
    await t.post(api('allotTeacher'), admin).send({ class_id: c.id, duty: 'shuttle', teacher_id: t.demo.users.teacher });
    const res = await t.get(`${api('wantuoInfo')}?id=${c.id}`, admin);
    expect(res.body.data).toMatchObject({ id: c.id, headcount: 0, head_teacher_name: '张班主任' });
    expect(res.body.data.duties.map((d: { duty: string; teacher_name: string }) => [d.duty, d.teacher_name])).toEqual([
      ['head', '张班主任'],
      ['shuttle', '李老师'],
    ]);
    const theirs = await theirClass();
    expect((await t.get(`${api('wantuoInfo')}?id=${theirs.id}`, admin)).body).toMatchObject({ code: Code.Error, msg: NOT_FOUND });
  });

  it('bad input and a wrong role answer code 100', async () => {
    await expectRefused('wantuoInfo', ['', 'id=abc', 'id=0', 'id=-1', `id=${'9'.repeat(10_000)}`, 'id=1%20or%201%3D1', 'id=1&x=1'], admin, 'get');
    await expectForbidden('wantuoInfo', teacherToken, 'id=1', 'get');
  });
});

describe('addWantuoStudent, wantuoStudent and selectWantuoStudent', () => {
  it('adds active students; lists them with per-student duties; they leave the selectable list', async () => {
    const c = await createClass({ capacity: 3 });
    const s1 = await student({ name: '王小一' });
    const s2 = await student({ name: '王小二' });
    const before = await t.get(`${api('selectWantuoStudent')}?limit=100&name=${encodeURIComponent('王小')}`, admin);
    expect(before.body.data.list.map((r: { id: number }) => r.id)).toEqual(expect.arrayContaining([s1, s2]));
    expect(before.body.data.list.find((r: { id: number }) => r.id === s1)).toEqual({
      id: s1,
      name: '王小一',
      gender: null,
      grade: '三年级',
      class_name: null,
      day_school: null,
    });

    expect(await addStudents(c.id, [s1, s2])).toEqual({ class_id: c.id, added: 2, headcount: 2, capacity: 3 });
    await t.post(api('allotTeacher'), admin).send({ class_id: c.id, student_id: s1, duty: 'tutor', teacher_id: t.demo.users.teacher });

    const res = await t.get(`${api('wantuoStudent')}?id=${c.id}`, admin);
    expect(res.body.data).toMatchObject({ total: 2, page: 1, limit: 20 });
    expect(res.body.data.list[0]).toEqual({
      id: s1,
      name: '王小一',
      gender: null,
      grade: '三年级',
      class_name: null,
      day_school: null,
      joined_at: expect.any(String),
      duties: [{ id: expect.any(Number), duty: 'tutor', teacher_id: t.demo.users.teacher, teacher_name: '李老师', student_id: s1 }],
      class_times: [],
    });
    expect(res.body.data.list[1]).toMatchObject({ id: s2, duties: [] });
    const search = await t.get(`${api('wantuoStudent')}?id=${c.id}&name=${encodeURIComponent('小二')}`, admin);
    expect(search.body.data).toMatchObject({ total: 1, list: [{ id: s2 }] });
    const page2 = await t.get(`${api('wantuoStudent')}?id=${c.id}&page=2&limit=1`, admin);
    expect(page2.body.data).toMatchObject({ total: 2, list: [{ id: s2 }] });

    const after = await t.get(`${api('selectWantuoStudent')}?limit=100`, admin);
    const ids = after.body.data.list.map((r: { id: number }) => r.id);
    expect(ids).not.toContain(s1);
    expect(ids).not.toContain(s2);
  });

  it('lists each student’s own time slots (addStudentClassTime) by start time; removed slots drop out', async () => {
    const c = await createClass({ capacity: 3 });
    const s1 = await student({ name: '时段甲' });
    const s2 = await student({ name: '时段乙' });
    await addStudents(c.id, [s1, s2]);
    const slot = async (name: string, start: string, end: string, weekdays: string) =>
      (
        await t.sql.query(`insert into class_times (school_id, name, start_time, end_time, weekdays) values ($1, $2, $3, $4, $5) returning id`, [
          t.demo.schoolId,
          name,
          start,
          end,
          weekdays,
        ])
      ).rows[0].id as number;
    const late = await slot(`晚段${++seq}`, '17:30', '20:00', '{1,3}');
    const early = await slot(`早段${++seq}`, '15:00', '17:00', '{2,4}');
    const set = await t.post(api('addStudentClassTime'), admin).send({ student_id: s1, class_time_ids: [late, early] });
    expect(set.body.code).toBe(200);
    const list = (await t.get(`${api('wantuoStudent')}?id=${c.id}`, admin)).body.data.list as Array<{ id: number; class_times: unknown[] }>;
    expect(list.find((r) => r.id === s1)!.class_times).toEqual([
      { id: early, name: expect.stringMatching(/^早段/), start_time: '15:00', end_time: '17:00', weekdays: [2, 4] },
      { id: late, name: expect.stringMatching(/^晚段/), start_time: '17:30', end_time: '20:00', weekdays: [1, 3] },
    ]);
    expect(list.find((r) => r.id === s2)!.class_times).toEqual([]);
    await t.sql.query(`update class_times set deleted_at = now() where id = $1`, [late]);
    const again = (await t.get(`${api('wantuoStudent')}?id=${c.id}`, admin)).body.data.list as Array<{
      id: number;
      class_times: Array<{ id: number }>;
    }>;
    expect(again.find((r) => r.id === s1)!.class_times.map((x) => x.id)).toEqual([early]);
  });

  it('selectWantuoStudent leaves out inactive and other schools’ students', async () => {
    const inactive = await student({ status: 0, name: '停读生' });
    const theirs = await student({ schoolId: other.schoolId, name: '外校生' });
    const res = await t.get(`${api('selectWantuoStudent')}?limit=100`, admin);
    const ids = res.body.data.list.map((r: { id: number }) => r.id);
    expect(ids).not.toContain(inactive);
    expect(ids).not.toContain(theirs);
    expect(res.body.data.total).toBe(res.body.data.list.length);
  });

  it('a student in another class is refused with the class named; nobody of the batch is added', async () => {
    const a = await createClass({ name: '甲班' });
    const b = await createClass({ name: '乙班' });
    const taken = await student({ name: '李明' });
    await addStudents(a.id, [taken]);
    const fresh = await student();
    const before = await snapshot(t.sql);
    const res = await t.post(api('addWantuoStudent'), admin).send({ class_id: b.id, student_ids: [fresh, taken] });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '学生「李明」已在晚托班「甲班」中，一名学生只能加入一个晚托班' });
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('a batch over capacity is refused whole with the numbers', async () => {
    const c = await createClass({ capacity: 3 });
    await addStudents(c.id, [await student()]);
    const batch = [await student(), await student(), await student()];
    const before = await snapshot(t.sql);
    const res = await t.post(api('addWantuoStudent'), admin).send({ class_id: c.id, student_ids: batch });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '班级容量 3 人，现有 1 人，还能添加 2 人，本次选择了 3 人，未添加任何学生' });
    expect(await snapshot(t.sql)).toEqual(before);
    expect(await addStudents(c.id, batch.slice(0, 2))).toMatchObject({ headcount: 3 });
  });

  it('concurrent adds of one student to two classes: exactly one wins', async () => {
    const a = await createClass();
    const b = await createClass();
    const s = await student();
    const results = await Promise.all([a, b].map((c) => t.post(api('addWantuoStudent'), admin).send({ class_id: c.id, student_ids: [s] })));
    expect(results.map((r) => r.body.code).sort()).toEqual([Code.Error, Code.Ok].sort());
  });

  it('bad input, inactive and other schools’ students and classes answer code 100 and write nothing', async () => {
    const c = await createClass();
    const theirs = await theirClass();
    const s = await student();
    const inactive = await student({ status: 0 });
    const theirStudent = await student({ schoolId: other.schoolId });
    await expectRefused('addWantuoStudent', [
      {},
      { class_id: c.id },
      { student_ids: [s] },
      { class_id: c.id, student_ids: [] },
      { class_id: c.id, student_ids: [s, s] },
      { class_id: c.id, student_ids: s },
      { class_id: c.id, student_ids: [String(s)] },
      { class_id: c.id, student_ids: Array.from({ length: 101 }, (_, i) => i + 1) },
      { class_id: `${c.id} or 1=1`, student_ids: [s] },
      { class_id: long, student_ids: [s] },
      { class_id: c.id, student_ids: [inactive] },
      { class_id: c.id, student_ids: [theirStudent] },
      { class_id: c.id, student_ids: [999_999] },
      { class_id: theirs.id, student_ids: [s] },
      { class_id: 999_999, student_ids: [s] },
    ]);
    const res = await t.post(api('addWantuoStudent'), admin).send({ class_id: c.id, student_ids: [s, inactive] });
    expect(res.body.msg).toBe(`以下学生不存在或不是在读学生：${inactive}`);
    await expectRefused(
      'wantuoStudent',
      ['', 'id=abc', `id=${theirs.id}`, 'id=1&limit=500', `id=${c.id}&name=${long}`, `id=${c.id}&x=1`],
      admin,
      'get',
    );
    await expectRefused('selectWantuoStudent', ['page=-1', `name=${long}`, 'name=%3Cimg%3E', 'id=1'], admin, 'get');
  });

  it('a teacher may not call them', async () => {
    await expectForbidden('addWantuoStudent', teacherToken, { class_id: 1, student_ids: [1] });
    await expectForbidden('wantuoStudent', teacherToken, 'id=1', 'get');
    await expectForbidden('selectWantuoStudent', await t.login('adviser'), '', 'get');
  });
});

describe('delWantuoStudent', () => {
  it('the preview lists what the removal affects; the removal takes the student’s duties of the class with it', async () => {
    const c = await createClass({ name: '删除班' });
    const s = await student({ name: '赵小' });
    const keep = await student();
    await addStudents(c.id, [s, keep]);
    await t.post(api('allotTeacher'), admin).send({ class_id: c.id, duty: 'shuttle', teacher_id: t.demo.users.teacher });
    await t.post(api('allotTeacher'), admin).send({ class_id: c.id, student_id: s, duty: 'tutor', teacher_id: t.demo.users.teacher });
    await t.post(api('allotTeacher'), admin).send({ class_id: c.id, student_id: keep, duty: 'tutor', teacher_id: t.demo.users.teacher });

    const before = await snapshot(t.sql);
    const preview = await t.get(`${api('delWantuoStudent')}?class_id=${c.id}&student_id=${s}`, admin);
    expect(preview.body.data).toEqual({
      class_id: c.id,
      class_name: '删除班',
      student_id: s,
      student_name: '赵小',
      duties: [{ id: expect.any(Number), duty: 'tutor', teacher_id: t.demo.users.teacher, teacher_name: '李老师', student_id: s }],
      contracts: [],
      meal_bookings: [],
    });
    expect(await snapshot(t.sql)).toEqual(before);

    const res = await t.post(api('delWantuoStudent'), admin).send({ class_id: c.id, student_id: s });
    expect(res.body.data).toEqual({ class_id: c.id, student_id: s, removed_duties: 1, headcount: 1 });
    const { rows } = await t.sql.query(`select student_id, duty from duty_assignments where class_id = $1 order by id`, [c.id]);
    expect(rows).toEqual([
      { student_id: null, duty: 'shuttle' },
      { student_id: keep, duty: 'tutor' },
    ]);
    const again = await t.post(api('delWantuoStudent'), admin).send({ class_id: c.id, student_id: s });
    expect(again.body).toMatchObject({ code: Code.Error, msg: '该学生不在此晚托班中' });
    expect((await t.get(`${api('delWantuoStudent')}?class_id=${c.id}&student_id=${s}`, admin)).body.msg).toBe('该学生不在此晚托班中');
  });

  it('bad input, other schools’ ids and a wrong role answer code 100 and write nothing', async () => {
    const c = await createClass();
    const s = await student();
    await addStudents(c.id, [s]);
    const theirs = await theirClass();
    const theirStudent = await student({ schoolId: other.schoolId });
    await t.sql.query(`insert into care_class_students (school_id, class_id, student_id) values ($1, $2, $3)`, [
      other.schoolId,
      theirs.id,
      theirStudent,
    ]);
    await expectRefused('delWantuoStudent', [
      {},
      { class_id: c.id },
      { student_id: s },
      { class_id: String(c.id), student_id: s },
      { class_id: c.id, student_id: long },
      { class_id: c.id, student_id: "1'; delete from care_class_students; --" },
      { class_id: theirs.id, student_id: theirStudent },
      { class_id: c.id, student_id: theirStudent },
    ]);
    await expectRefused(
      'delWantuoStudent',
      [
        '',
        `class_id=${c.id}`,
        `class_id=abc&student_id=${s}`,
        `class_id=${theirs.id}&student_id=${theirStudent}`,
        `class_id=${c.id}&student_id=${s}&x=1`,
      ],
      admin,
      'get',
    );
    expect((await t.get(`${api('delWantuoStudent')}?class_id=${theirs.id}&student_id=${theirStudent}`, admin)).body.msg).toBe(NOT_FOUND);
    await expectForbidden('delWantuoStudent', teacherToken, { class_id: c.id, student_id: s });
    await expectForbidden('delWantuoStudent', teacherToken, `class_id=${c.id}&student_id=${s}`, 'get');
  });
});

describe('delClass', () => {
  it('refuses a class with students, with the count; soft-deletes an empty one', async () => {
    const c = await createClass();
    const s1 = await student();
    const s2 = await student();
    await addStudents(c.id, [s1, s2]);
    const before = await snapshot(t.sql);
    const res = await t.post(api('delClass'), admin).send({ id: c.id });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '该班级还有 2 名学生，请先移出全部学生再删除' });
    expect(await snapshot(t.sql)).toEqual(before);
    await t.post(api('delWantuoStudent'), admin).send({ class_id: c.id, student_id: s1 });
    await t.post(api('delWantuoStudent'), admin).send({ class_id: c.id, student_id: s2 });
    expect((await t.post(api('delClass'), admin).send({ id: c.id })).body).toMatchObject({ code: Code.Ok, data: { id: c.id } });
    const { rows } = await t.sql.query(`select deleted_at from care_classes where id = $1`, [c.id]);
    expect(rows[0].deleted_at).not.toBeNull();
    expect((await t.get(`${api('wantuoInfo')}?id=${c.id}`, admin)).body.msg).toBe(NOT_FOUND);
    const list = await t.get(`${api('classList')}?limit=100`, admin);
    expect(list.body.data.list.map((r: { id: number }) => r.id)).not.toContain(c.id);
  });

  it('bad input, another school’s class and a wrong role answer code 100 and write nothing', async () => {
    const theirs = await theirClass();
    await expectRefused('delClass', [{}, { id: 'x' }, { id: 0 }, { id: long }, { id: '1 or 1=1' }, { id: 1, version: 1 }, { id: theirs.id }]);
    expect((await t.post(api('delClass'), admin).send({ id: theirs.id })).body.msg).toBe(NOT_FOUND);
    await expectForbidden('delClass', teacherToken, { id: theirs.id });
  });
});

describe('startAndEnd', () => {
  it('stops and starts on the version read', async () => {
    const c = await createClass();
    const stop = await t.post(api('startAndEnd'), admin).send({ id: c.id, version: 1, status: 0 });
    expect(stop.body.data).toMatchObject({ id: c.id, status: 0, version: 2 });
    const start = await t.post(api('startAndEnd'), admin).send({ id: c.id, version: 2, status: 1 });
    expect(start.body.data).toMatchObject({ status: 1, version: 3 });
    const before = await snapshot(t.sql);
    const stale = await t.post(api('startAndEnd'), admin).send({ id: c.id, version: 2, status: 0 });
    expect(stale.body).toMatchObject({ code: Code.Error, msg: '数据已被他人修改，请刷新后重试' });
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('bad input, another school’s class and a wrong role answer code 100 and write nothing', async () => {
    const c = await createClass();
    const theirs = await theirClass();
    await expectRefused('startAndEnd', [
      {},
      { id: c.id, version: 1 },
      { id: c.id, status: 0 },
      { id: c.id, version: 1, status: 2 },
      { id: c.id, version: 1, status: '0' },
      { id: c.id, version: 1, status: long },
      { id: theirs.id, version: 1, status: 0 },
    ]);
    expect((await t.post(api('startAndEnd'), admin).send({ id: theirs.id, version: 1, status: 0 })).body.msg).toBe(NOT_FOUND);
    await expectForbidden('startAndEnd', teacherToken, { id: c.id, version: 1, status: 0 });
  });
});

describe('allotTeacher', () => {
  it('assigns class and per-student duties, replaces the teacher of a duty, and removes', async () => {
    const c = await createClass();
    const s = await student();
    await addStudents(c.id, [s]);
    const other2 = await staff({ role: 5, name: '周老师' });
    const res = await t.post(api('allotTeacher'), admin).send({ class_id: c.id, duty: 'shuttle', teacher_id: t.demo.users.teacher });
    expect(res.body.data).toEqual({
      class_id: c.id,
      student_id: null,
      duty: 'shuttle',
      assignment: { id: expect.any(Number), duty: 'shuttle', teacher_id: t.demo.users.teacher, teacher_name: '李老师', student_id: null },
    });
    const replaced = await t.post(api('allotTeacher'), admin).send({ class_id: c.id, duty: 'shuttle', teacher_id: other2.id });
    expect(replaced.body.data.assignment).toMatchObject({ teacher_id: other2.id, teacher_name: '周老师' });
    await t.post(api('allotTeacher'), admin).send({ class_id: c.id, student_id: s, duty: 'tutor', teacher_id: t.demo.users.teacher });
    const { rows } = await t.sql.query(`select student_id, duty, teacher_id from duty_assignments where class_id = $1 order by id`, [c.id]);
    expect(rows).toEqual([
      { student_id: null, duty: 'shuttle', teacher_id: other2.id },
      { student_id: s, duty: 'tutor', teacher_id: t.demo.users.teacher },
    ]);
    const removed = await t.post(api('allotTeacher'), admin).send({ class_id: c.id, student_id: s, duty: 'tutor', remove: true });
    expect(removed.body.data).toEqual({ class_id: c.id, student_id: s, duty: 'tutor', assignment: null });
    expect((await t.sql.query(`select 1 from duty_assignments where class_id = $1`, [c.id])).rowCount).toBe(1);
  });

  it('the head duty sets and clears the class head teacher', async () => {
    const c = await createClass();
    await t.post(api('allotTeacher'), admin).send({ class_id: c.id, duty: 'head', teacher_id: t.demo.users.adviser });
    let info = (await t.get(`${api('wantuoInfo')}?id=${c.id}`, admin)).body.data;
    expect(info).toMatchObject({ head_teacher_id: t.demo.users.adviser, version: 2 });
    await t.post(api('allotTeacher'), admin).send({ class_id: c.id, duty: 'head', remove: true });
    info = (await t.get(`${api('wantuoInfo')}?id=${c.id}`, admin)).body.data;
    expect(info).toMatchObject({ head_teacher_id: null, duties: [] });
  });

  it('bad input, unsuitable teachers, students outside the class and other schools’ ids answer code 100 and write nothing', async () => {
    const c = await createClass();
    const s = await student();
    const outside = await student();
    await addStudents(c.id, [s]);
    const theirs = await theirClass();
    const left = await staff({ jobStatus: 2 });
    const theirTeacher = await staff({ schoolId: other.schoolId });
    const ok = { class_id: c.id, duty: 'shuttle', teacher_id: t.demo.users.teacher };
    await expectRefused('allotTeacher', [
      {},
      { ...ok, duty: undefined },
      { ...ok, duty: 'driver' },
      { ...ok, duty: long },
      { ...ok, teacher_id: undefined },
      { ...ok, remove: true },
      { ...ok, teacher_id: undefined, remove: 'yes' },
      { ...ok, duty: 'head', student_id: s },
      { ...ok, teacher_id: t.demo.users.parent },
      { ...ok, teacher_id: left.id },
      { ...ok, teacher_id: theirTeacher.id },
      { ...ok, student_id: outside },
      { ...ok, student_id: "1' or '1'='1" },
      { ...ok, class_id: theirs.id },
      { ...ok, class_id: 999_999 },
    ]);
    const head = await t.post(api('allotTeacher'), admin).send({ ...ok, duty: 'head', student_id: s });
    expect(head.body.msg).toBe('班主任只能分配给整个班级，不能分配给单个学生');
    await expectForbidden('allotTeacher', await t.login('adviser'), ok);
  });
});

describe('head teacher and teacher actions', () => {
  let head: { id: number; token: string };
  let tutor: { id: number; token: string };
  let mine: ClassInfo;
  let notMine: ClassInfo;
  let s1: number;
  beforeAll(async () => {
    const h = await staff({ role: 5, name: '孙班主任' });
    head = { id: h.id, token: await h.login() };
    const tu = await staff({ role: 2, name: '钱老师' });
    tutor = { id: tu.id, token: await tu.login() };
    mine = await createClass({ name: '孙班', head_teacher_id: head.id, capacity: 3 });
    notMine = await createClass({ name: '别班' });
    s1 = await student({ name: '孙小一' });
    await addStudents(mine.id, [s1]);
    await t.post(api('allotTeacher'), admin).send({ class_id: mine.id, student_id: s1, duty: 'tutor', teacher_id: tutor.id });
  });

  it('teacherWantuoInfo: the class the caller heads or has a duty in; none gives null', async () => {
    const res = await t.get(api('teacherWantuoInfo'), head.token);
    expect(res.body.data.classes).toEqual([{ id: mine.id, name: '孙班', is_head: true }]);
    expect(res.body.data.class).toMatchObject({ id: mine.id, headcount: 1, head_teacher_name: '孙班主任' });
    const asTutor = await t.get(`${api('teacherWantuoInfo')}?id=${mine.id}`, tutor.token);
    expect(asTutor.body.data).toMatchObject({ classes: [{ id: mine.id, is_head: false }], class: { id: mine.id } });
    const nobody = await (await staff()).login();
    expect((await t.get(api('teacherWantuoInfo'), nobody)).body.data).toEqual({ classes: [], class: null });
    expect((await t.get(`${api('teacherWantuoInfo')}?id=${notMine.id}`, head.token)).body).toMatchObject({ code: Code.Error, msg: NOT_FOUND });
  });

  it('teacherWantuoStudent: the students of the caller’s class with their duties', async () => {
    const res = await t.get(api('teacherWantuoStudent'), tutor.token);
    expect(res.body.data).toMatchObject({ total: 1, list: [{ id: s1, duties: [{ duty: 'tutor', teacher_id: tutor.id, teacher_name: '钱老师' }] }] });
    expect((await t.get(`${api('teacherWantuoStudent')}?id=${mine.id}&name=${encodeURIComponent('孙')}`, head.token)).body.data.total).toBe(1);
    const nobody = await (await staff()).login();
    expect((await t.get(api('teacherWantuoStudent'), nobody)).body.data).toEqual({ list: [], total: 0, page: 1, limit: 20 });
    expect((await t.get(`${api('teacherWantuoStudent')}?id=${notMine.id}`, tutor.token)).body.msg).toBe(NOT_FOUND);
  });

  it('a head teacher adds and removes students of their own class only, with the same rules', async () => {
    const s2 = await student({ name: '孙小二' });
    const pick = await t.get(`${api('teacherSelectWantuoStudent')}?name=${encodeURIComponent('孙小')}`, head.token);
    expect(pick.body.data.list.map((r: { id: number }) => r.id)).toEqual([s2]);
    expect(await addStudents(mine.id, [s2], head.token, 'teacherAddWantuoStudent')).toMatchObject({ headcount: 2 });

    const before = await snapshot(t.sql);
    const over = await t
      .post(api('teacherAddWantuoStudent'), head.token)
      .send({ class_id: mine.id, student_ids: [await student(), await student()] });
    expect(over.body.msg).toBe('班级容量 3 人，现有 2 人，还能添加 1 人，本次选择了 2 人，未添加任何学生');
    const twice = await t.post(api('teacherAddWantuoStudent'), head.token).send({ class_id: mine.id, student_ids: [s2] });
    expect(twice.body.msg).toBe('学生「孙小二」已在晚托班「孙班」中，一名学生只能加入一个晚托班');
    const elsewhere = await t.post(api('teacherAddWantuoStudent'), head.token).send({ class_id: notMine.id, student_ids: [await student()] });
    expect(elsewhere.body).toMatchObject({ code: Code.Error, msg: NOT_FOUND });
    const before2 = await snapshot(t.sql);
    expect(before2.students).toBe(before.students + 3);
    expect(before2.care_class_students).toBe(before.care_class_students);

    const del = await t.post(api('teacherDelWantuoStudent'), head.token).send({ class_id: mine.id, student_id: s1 });
    expect(del.body.data).toEqual({ class_id: mine.id, student_id: s1, removed_duties: 1, headcount: 1 });
    const notHers = await student();
    await addStudents(notMine.id, [notHers]);
    const before3 = await snapshot(t.sql);
    expect((await t.post(api('teacherDelWantuoStudent'), head.token).send({ class_id: notMine.id, student_id: notHers })).body.msg).toBe(NOT_FOUND);
    expect(await snapshot(t.sql)).toEqual(before3);
  });

  it('bad input and other schools’ ids answer code 100 and write nothing', async () => {
    const theirs = await theirClass();
    await expectRefused('teacherWantuoInfo', ['id=abc', 'id=0', `id=${theirs.id}`, 'x=1', `id=${long}`], head.token, 'get');
    await expectRefused('teacherWantuoStudent', ['id=abc', `id=${theirs.id}`, 'limit=0', `name=${long}`], head.token, 'get');
    await expectRefused('teacherSelectWantuoStudent', ['page=0', `name=${long}`, 'class_id=1'], head.token, 'get');
    await expectRefused(
      'teacherAddWantuoStudent',
      [
        {},
        { class_id: mine.id, student_ids: [] },
        { class_id: theirs.id, student_ids: [await student()] },
        { class_id: mine.id, student_ids: [await student({ schoolId: other.schoolId })] },
      ],
      head.token,
    );
    await expectRefused(
      'teacherDelWantuoStudent',
      [{}, { class_id: mine.id }, { class_id: theirs.id, student_id: 1 }, { class_id: mine.id, student_id: long }],
      head.token,
    );
  });

  it('wrong roles', async () => {
    const parent = await t.login('parent');
    await expectForbidden('teacherWantuoInfo', parent, '', 'get');
    await expectForbidden('teacherWantuoStudent', admin, '', 'get');
    await expectForbidden('teacherSelectWantuoStudent', tutor.token, '', 'get');
    await expectForbidden('teacherAddWantuoStudent', tutor.token, { class_id: mine.id, student_ids: [s1] });
    await expectForbidden('teacherDelWantuoStudent', admin, { class_id: mine.id, student_id: s1 });
  });
});
