import { Code } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let admin: string;
let other: { schoolId: number; adminToken: string };
beforeAll(async () => {
  t = await startTestApp({ runJobs: false });
  admin = await t.login('admin');
  other = await t.otherSchool();
});
afterAll(() => t.close());

const FORBIDDEN = '当前账号没有权限执行此操作';
const LIST = '/api/index/classTimeList';
const SELECT = '/api/index/selectClassTime';
const ADD = '/api/index/addClassTime';
const EDIT = '/api/index/editClassTime';
const DEL = '/api/index/delClassTime';
const STUDENT = '/api/index/addStudentClassTime';

let seq = 0;
const slot = (over: Record<string, unknown> = {}) => ({
  name: `时段${++seq}`,
  start_time: '16:00',
  end_time: '18:00',
  weekdays: [1, 2, 3, 4, 5],
  ...over,
});

async function addSlot(over: Record<string, unknown> = {}, token = admin) {
  const res = await t.post(ADD, token).send(slot(over));
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data as { id: number; name: string; version: number };
}

async function student(schoolId = t.demo.schoolId, name = '学生') {
  const { rows } = await t.sql.query(`insert into students (school_id, name) values ($1, $2) returning id`, [schoolId, name]);
  return rows[0].id as number;
}

/** calls with each input and expects code 100 and nothing written */
async function expectRefused(path: string, inputs: unknown[], token = admin, method: 'get' | 'post' = 'post') {
  for (const input of inputs) {
    const before = await snapshot(t.sql);
    const res = method === 'post' ? await t.post(path, token).send(input as object) : await t.get(`${path}?${input as string}`, token);
    expect({ input, code: res.body.code }).toEqual({ input, code: Code.Error });
    expect(typeof res.body.msg).toBe('string');
    expect(await snapshot(t.sql)).toEqual(before);
  }
}

const long = 'x'.repeat(10_000);

describe('addClassTime', () => {
  it('adds a slot with HH:mm times and sorted weekdays', async () => {
    const res = await t.post(ADD, admin).send({ name: ' 放学托管 ', start_time: '16:30', end_time: '18:30', weekdays: [5, 1, 3] });
    expect(res.body).toEqual({
      code: Code.Ok,
      msg: expect.any(String),
      data: { id: expect.any(Number), name: '放学托管', start_time: '16:30', end_time: '18:30', weekdays: [1, 3, 5], version: 1 },
    });
    const { rows } = await t.sql.query(`select school_id, start_time, weekdays from class_times where id = $1`, [res.body.data.id]);
    expect(rows[0]).toEqual({ school_id: t.demo.schoolId, start_time: '16:30:00', weekdays: [1, 3, 5] });
  });

  it('bad input answers code 100 and writes nothing', async () => {
    await expectRefused(ADD, [
      {},
      slot({ name: undefined }),
      slot({ name: '' }),
      slot({ name: long }),
      slot({ name: '<script>alert(1)</script>' }),
      slot({ start_time: '18:00', end_time: '16:00' }),
      slot({ start_time: '16:00', end_time: '16:00' }),
      slot({ start_time: '24:00' }),
      slot({ start_time: '9:00' }),
      slot({ start_time: 1600 }),
      slot({ start_time: "16:00'; drop table class_times; --" }),
      slot({ end_time: long }),
      slot({ weekdays: [] }),
      slot({ weekdays: [0] }),
      slot({ weekdays: [8] }),
      slot({ weekdays: [1, 1] }),
      slot({ weekdays: ['1'] }),
      slot({ weekdays: '1,2' }),
      slot({ weekdays: [1.5] }),
      slot({ school_id: other.schoolId }),
    ]);
    const res = await t.post(ADD, admin).send(slot({ start_time: '18:00', end_time: '17:00' }));
    expect(res.body.msg).toBe('开始时间需早于结束时间');
  });

  it('a teacher may not add slots', async () => {
    const teacher = await t.login('teacher');
    const before = await snapshot(t.sql);
    const res = await t.post(ADD, teacher).send(slot());
    expect(res.body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
    expect(await snapshot(t.sql)).toEqual(before);
  });
});

describe('classTimeList and selectClassTime', () => {
  it('lists the school slots paged by start time with their use, searchable; selectClassTime gives the short list', async () => {
    const early = await addSlot({ name: '早间列表', start_time: '07:00', end_time: '08:00' });
    const late = await addSlot({ name: '晚间列表', start_time: '19:00', end_time: '20:00' });
    await addSlot({ name: '外校时段' }, other.adminToken);
    const s = await student();
    expect((await t.post(STUDENT, admin).send({ student_id: s, class_time_ids: [late.id] })).body.code).toBe(Code.Ok);

    const res = await t.get(`${LIST}?page=1&limit=100`, admin);
    expect(res.body.code).toBe(Code.Ok);
    const { list, total } = res.body.data;
    expect(total).toBe(list.length);
    expect(list.map((r: { name: string }) => r.name)).not.toContain('外校时段');
    expect(list[0]).toMatchObject({ id: early.id, start_time: '07:00', class_count: 0, student_count: 0, version: 1 });
    expect(list.find((r: { id: number }) => r.id === late.id)).toMatchObject({ student_count: 1 });

    const search = await t.get(`${LIST}?name=${encodeURIComponent('晚间')}`, admin);
    expect(search.body.data).toMatchObject({ total: 1, page: 1, limit: 20 });
    expect(search.body.data.list[0].id).toBe(late.id);
    const percent = await t.get(`${LIST}?name=%25`, admin);
    expect(percent.body.data.total).toBe(0);

    const paged = await t.get(`${LIST}?page=2&limit=1`, admin);
    expect(paged.body.data.list).toHaveLength(1);
    expect(paged.body.data.list[0].id).toBe(list[1].id);

    const pick = await t.get(SELECT, admin);
    expect(pick.body.data.list.length).toBe(total);
    expect(pick.body.data.list[0]).toEqual({ id: early.id, name: '早间列表', start_time: '07:00', end_time: '08:00', weekdays: [1, 2, 3, 4, 5] });
    const pickSearch = await t.get(`${SELECT}?name=${encodeURIComponent('早间')}`, admin);
    expect(pickSearch.body.data.list.map((r: { id: number }) => r.id)).toEqual([early.id]);
  });

  it('bad input answers code 100', async () => {
    await expectRefused(LIST, ['page=0', 'limit=1000', 'page=abc', `name=${long}`, 'sort=id', 'name=%3Cscript%3E', 'school_id=1'], admin, 'get');
    await expectRefused(SELECT, [`name=${long}`, 'page=1', 'x=1'], admin, 'get');
  });

  it('a teacher may not list slots', async () => {
    const teacher = await t.login('teacher');
    expect((await t.get(LIST, teacher)).body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
    expect((await t.get(SELECT, await t.login('parent'))).body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
  });
});

describe('editClassTime', () => {
  it('edits on the version read; a stale version is a conflict', async () => {
    const a = await addSlot();
    const res = await t.post(EDIT, admin).send({ id: a.id, version: 1, name: '改名', start_time: '15:00', end_time: '17:30', weekdays: [6, 7] });
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: { id: a.id, name: '改名', start_time: '15:00', end_time: '17:30', weekdays: [6, 7], version: 2 },
    });
    const before = await snapshot(t.sql);
    const stale = await t.post(EDIT, admin).send({ id: a.id, version: 1, name: '又改', start_time: '15:00', end_time: '17:30', weekdays: [6] });
    expect(stale.body).toMatchObject({ code: Code.Error, msg: '数据已被他人修改，请刷新后重试' });
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('refuses a change that makes a student’s two slots overlap', async () => {
    const a = await addSlot({ name: '周一早', start_time: '08:00', end_time: '09:00', weekdays: [1] });
    const b = await addSlot({ name: '周一午', start_time: '12:00', end_time: '13:00', weekdays: [1] });
    const s = await student(t.demo.schoolId, '小明');
    expect((await t.post(STUDENT, admin).send({ student_id: s, class_time_ids: [a.id, b.id] })).body.code).toBe(Code.Ok);
    const before = await snapshot(t.sql);
    const res = await t.post(EDIT, admin).send({ id: a.id, version: 1, name: '周一早', start_time: '08:00', end_time: '12:30', weekdays: [1] });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '修改后会与学生「小明」的时间段「周一午」重叠' });
    expect(await snapshot(t.sql)).toEqual(before);
    // the same times on another weekday are fine
    const ok = await t.post(EDIT, admin).send({ id: a.id, version: 1, name: '周二早', start_time: '08:00', end_time: '12:30', weekdays: [2] });
    expect(ok.body.code).toBe(Code.Ok);
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const a = await addSlot();
    const base = { id: a.id, version: 1, name: 'x', start_time: '10:00', end_time: '11:00', weekdays: [1] };
    await expectRefused(EDIT, [
      {},
      { ...base, version: undefined },
      { ...base, id: '1' },
      { ...base, id: -1 },
      { ...base, version: 0 },
      { ...base, start_time: '11:00', end_time: '10:00' },
      { ...base, name: long },
      { ...base, weekdays: [] },
      { ...base, name: "1' or '1'='1", start_time: "10:00' or 1=1" },
      { ...base, id: 999_999 },
    ]);
  });

  it('another school’s slot is answered as not found and left alone', async () => {
    const theirs = await addSlot({ name: '外校' }, other.adminToken);
    const before = await snapshot(t.sql);
    const res = await t.post(EDIT, admin).send({ id: theirs.id, version: 1, name: '抢', start_time: '10:00', end_time: '11:00', weekdays: [1] });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '该时间段不存在' });
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('a head teacher may not edit', async () => {
    const a = await addSlot();
    const res = await t
      .post(EDIT, await t.login('adviser'))
      .send({ id: a.id, version: 1, name: 'x', start_time: '10:00', end_time: '11:00', weekdays: [1] });
    expect(res.body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
  });
});

describe('delClassTime', () => {
  it('soft-deletes an unused slot; it leaves the lists', async () => {
    const a = await addSlot({ name: '待删' });
    const res = await t.post(DEL, admin).send({ id: a.id });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { id: a.id } });
    const { rows } = await t.sql.query(`select deleted_at from class_times where id = $1`, [a.id]);
    expect(rows[0].deleted_at).not.toBeNull();
    const pick = await t.get(SELECT, admin);
    expect(pick.body.data.list.map((r: { id: number }) => r.id)).not.toContain(a.id);
    expect((await t.post(DEL, admin).send({ id: a.id })).body).toMatchObject({ code: Code.Error, msg: '该时间段不存在' });
  });

  it('a slot in use by a class or a student says by whom and stays', async () => {
    const a = await addSlot();
    const s = await student();
    await t.post(STUDENT, admin).send({ student_id: s, class_time_ids: [a.id] });
    await t.sql.query(`insert into care_classes (school_id, name, class_time_id, capacity) values ($1, '向日葵班', $2, 10)`, [t.demo.schoolId, a.id]);
    const before = await snapshot(t.sql);
    const res = await t.post(DEL, admin).send({ id: a.id });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '该时间段正在使用中，不能删除：1 个晚托班（向日葵班），1 名学生' });
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('bad input, another school’s id and a wrong role answer code 100 and write nothing', async () => {
    const theirs = await addSlot({}, other.adminToken);
    await expectRefused(DEL, [{}, { id: 'abc' }, { id: 0 }, { id: 1.5 }, { id: long }, { id: '1 or 1=1' }, { id: 1, extra: 1 }, { id: theirs.id }]);
    const mine = await addSlot();
    await expectRefused(DEL, [{ id: mine.id }], await t.login('teacher'));
    const { rows } = await t.sql.query(`select deleted_at from class_times where id = $1`, [theirs.id]);
    expect(rows[0].deleted_at).toBeNull();
  });
});

describe('addStudentClassTime', () => {
  it('sets a student’s slots, replacing the previous set; an empty list clears them', async () => {
    const a = await addSlot({ start_time: '08:00', end_time: '09:00', weekdays: [1] });
    const b = await addSlot({ start_time: '09:00', end_time: '10:00', weekdays: [1] });
    const c = await addSlot({ start_time: '08:30', end_time: '09:30', weekdays: [2] });
    const s = await student();
    const res = await t.post(STUDENT, admin).send({ student_id: s, class_time_ids: [b.id, a.id] });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { student_id: s } });
    expect(res.body.data.class_times.map((r: { id: number }) => r.id)).toEqual([a.id, b.id]);
    await t.post(STUDENT, admin).send({ student_id: s, class_time_ids: [c.id] });
    const { rows } = await t.sql.query(`select class_time_id from student_class_times where student_id = $1`, [s]);
    expect(rows).toEqual([{ class_time_id: c.id }]);
    expect((await t.post(STUDENT, admin).send({ student_id: s, class_time_ids: [] })).body.code).toBe(Code.Ok);
    expect((await t.sql.query(`select 1 from student_class_times where student_id = $1`, [s])).rowCount).toBe(0);
  });

  it('refuses slots that overlap each other, naming them', async () => {
    const a = await addSlot({ name: '甲', start_time: '08:00', end_time: '09:00', weekdays: [1, 3] });
    const b = await addSlot({ name: '乙', start_time: '08:30', end_time: '10:00', weekdays: [3] });
    const s = await student();
    const before = await snapshot(t.sql);
    const res = await t.post(STUDENT, admin).send({ student_id: s, class_time_ids: [a.id, b.id] });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '时间段「甲」与「乙」重叠（同一天内时间有交叉）' });
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('bad input, other schools’ students and slots, and a wrong role answer code 100 and write nothing', async () => {
    const mine = await addSlot();
    const theirs = await addSlot({}, other.adminToken);
    const s = await student();
    const theirStudent = await student(other.schoolId);
    await expectRefused(STUDENT, [
      {},
      { student_id: s },
      { class_time_ids: [mine.id] },
      { student_id: s, class_time_ids: [mine.id, mine.id] },
      { student_id: s, class_time_ids: 'all' },
      { student_id: s, class_time_ids: [String(mine.id)] },
      { student_id: s, class_time_ids: Array.from({ length: 21 }, (_, i) => i + 1) },
      { student_id: `${s}; drop table students`, class_time_ids: [] },
      { student_id: long, class_time_ids: [] },
      { student_id: s, class_time_ids: [theirs.id] },
      { student_id: theirStudent, class_time_ids: [mine.id] },
      { student_id: 999_999, class_time_ids: [] },
    ]);
    await expectRefused(STUDENT, [{ student_id: s, class_time_ids: [mine.id] }], await t.login('adviser'));
  });
});
