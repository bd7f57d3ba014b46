import { Code } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let admin: string;
let teacher: string;
let adviser: string;
let parent: string;
let liu: string;
let other: { schoolId: number; adminToken: string };
let otherStudentId: number;
let otherParentId: number;
let otherLeaveId: number;
let today: string;
const ids = new Map<string, number>();
/** the guardian account of 王子涵 (not the demo parent) */
let wangParent: number;

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true });
  [admin, teacher, adviser, parent] = await Promise.all([t.login('admin'), t.login('teacher'), t.login('adviser'), t.login('parent')]);
  liu = (await t.post('/api/index/login').send({ account: 'demo_liu', password: 'Demo@2026' })).body.data.userinfo.token;
  other = await t.otherSchool();
  const { rows } = await t.sql.query(`select id, name from students where school_id = $1`, [t.demo.schoolId]);
  for (const r of rows) ids.set(r.name, r.id);
  today = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as d`)).rows[0].d;
  wangParent = (await t.sql.query(`select user_id from student_guardians where student_id = $1`, [id('王子涵')])).rows[0].user_id;
  otherStudentId = (await t.sql.query(`insert into students (school_id, name, gender) values ($1, '外校学生', 1) returning id`, [other.schoolId]))
    .rows[0].id;
  otherParentId = (
    await t.sql.query(
      `insert into users (school_id, role, username, name, nickname, mobile) values ($1, 6, 'other_parent_c', '外校家长', '外校家长', '13912340000') returning id`,
      [other.schoolId],
    )
  ).rows[0].id;
  await t.sql.query(`insert into student_guardians (school_id, student_id, user_id, relation, is_primary) values ($1, $2, $3, '母亲', true)`, [
    other.schoolId,
    otherStudentId,
    otherParentId,
  ]);
  otherLeaveId = (
    await t.sql.query(
      `insert into leave_requests (school_id, student_id, requested_by, start_day, end_day, reason) values ($1, $2, $3, $4, $4, '外校请假') returning id`,
      [other.schoolId, otherStudentId, otherParentId, today],
    )
  ).rows[0].id;
});
afterAll(() => t.close());

const P = '/api/index/';
const SUBMIT = `${P}submitLeave`;
const CANCEL = `${P}cancelLeave`;
const P_LIST = `${P}parentLeaveList`;
const T_LIST = `${P}teacherStudentLeaveList`;
const T_INFO = `${P}teacherStudentLeaveInfo`;
const AUDIT = `${P}auditStudentInfo`;
const ENTER = `${P}studentEnter`;
const FORBIDDEN = '当前账号没有权限执行此操作';
const LONG = 'x'.repeat(10_000);

const id = (name: string) => ids.get(name)!;
/** today plus n days (the school's date) */
const plus = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

async function clear() {
  for (const table of ['flow_events', 'student_days', 'leave_requests'])
    await t.sql.query(`delete from ${table} where school_id = $1`, [t.demo.schoolId]);
}

async function submit(over: Record<string, unknown> = {}) {
  const res = await t.post(SUBMIT, parent).send({ student_id: id('陈小雨'), start_day: today, end_day: plus(2), reason: '发烧，在家休息', ...over });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data as { id: number; version: number; status: number; student_id: number };
}

/** a request put in directly, e.g. by another parent or starting in the past */
async function insertLeave(studentName: string, requestedBy: number, start: string, end: string, status = 0) {
  const { rows } = await t.sql.query(
    `insert into leave_requests (school_id, student_id, requested_by, start_day, end_day, reason, status) values ($1, $2, $3, $4, $5, '家里有事', $6) returning id`,
    [t.demo.schoolId, id(studentName), requestedBy, start, end, status],
  );
  return rows[0].id as number;
}

const leaveRow = async (leaveId: number) => (await t.sql.query(`select * from leave_requests where id = $1`, [leaveId])).rows[0];
const dayRows = async (studentName: string) =>
  (
    await t.sql.query(`select to_char(day, 'YYYY-MM-DD') as day, state, on_leave from student_days where student_id = $1 order by day`, [
      id(studentName),
    ])
  ).rows;

async function badPosts(path: string, token: string, bodies: unknown[]) {
  for (const body of bodies) {
    const before = await snapshot(t.sql);
    const res = await t.post(path, token).send(body as object);
    expect({ body, code: res.body.code }).toEqual({ body, code: Code.Error });
    expect(typeof res.body.msg).toBe('string');
    expect(await snapshot(t.sql)).toEqual(before);
  }
}

async function badGets(path: string, token: string, queries: string[]) {
  for (const q of queries) {
    const before = await snapshot(t.sql);
    const res = await t.get(`${path}?${q}`, token);
    expect({ q, code: res.body.code }).toEqual({ q, code: Code.Error });
    expect(await snapshot(t.sql)).toEqual(before);
  }
}

async function forbidden(method: 'get' | 'post', path: string, tokens: string[], body: object = {}) {
  for (const token of tokens) {
    const before = await snapshot(t.sql);
    const res = method === 'get' ? await t.get(path, token) : await t.post(path, token).send(body);
    expect(res.body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
    expect(await snapshot(t.sql)).toEqual(before);
  }
}

const PAGE_BAD = ['page=0', 'page=abc', 'limit=0', 'limit=1000', `x=${LONG}`, 'page=1;%20drop%20table%20leave_requests', 'page=%3Cscript%3E'];

describe('submitLeave', () => {
  beforeEach(clear);

  it("a parent asks leave for an own child; it is stored pending with the child's class", async () => {
    const res = await t.post(SUBMIT, parent).send({ student_id: id('陈小雨'), start_day: today, end_day: plus(2), reason: '  发烧，在家休息 ' });
    expect(res.body).toEqual({
      code: Code.Ok,
      msg: expect.any(String),
      data: {
        id: expect.any(Number),
        student_id: id('陈小雨'),
        student_name: '陈小雨',
        class_id: t.demo.classes!.running,
        class_name: '阳光一班',
        requested_by: t.demo.users.parent,
        requested_by_name: expect.any(String),
        start_day: today,
        end_day: plus(2),
        days: 3,
        reason: '发烧，在家休息',
        status: 0,
        reviewed_by: null,
        reviewed_by_name: null,
        review_note: null,
        reviewed_at: null,
        version: 1,
        created_at: expect.any(String),
      },
    });
    expect(await leaveRow(res.body.data.id)).toMatchObject({ school_id: t.demo.schoolId, status: 0, requested_by: t.demo.users.parent });
    // a whole month ahead is fine, SQL-looking text is kept as typed
    await submit({ student_id: id('陈小阳'), start_day: plus(10), end_day: plus(40), reason: "x'); drop table leave_requests; --" });
  });

  it('refuses a past start, overlaps with pending or approved requests, and children not the own', async () => {
    const first = await submit();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ start_day: plus(-1), end_day: plus(1) }, '请假开始日期不能早于今天'],
      [{ start_day: plus(2), end_day: plus(5) }, '该时间段已有待审核或已批准的请假申请'],
      [{ student_id: id('王子涵') }, '该学生不存在'],
      [{ student_id: otherStudentId }, '该学生不存在'],
      [{ student_id: 99_999_999 }, '该学生不存在'],
    ];
    for (const [over, msg] of cases) {
      const before = await snapshot(t.sql);
      const res = await t.post(SUBMIT, parent).send({ student_id: id('陈小雨'), start_day: today, end_day: plus(2), reason: '发烧', ...over });
      expect({ over, body: res.body }).toMatchObject({ over, body: { code: Code.Error, msg } });
      expect(await snapshot(t.sql)).toEqual(before);
    }
    // once rejected, the days are free again; the next days never overlapped
    await t.sql.query(`update leave_requests set status = 2 where id = $1`, [first.id]);
    await submit();
    await submit({ start_day: plus(3), end_day: plus(3) });
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const valid = { student_id: id('陈小雨'), start_day: plus(1), end_day: plus(2), reason: '发烧' };
    await badPosts(SUBMIT, parent, [
      {},
      { ...valid, student_id: undefined },
      { ...valid, start_day: undefined },
      { ...valid, end_day: undefined },
      { ...valid, reason: undefined },
      { ...valid, student_id: String(id('陈小雨')) },
      { ...valid, student_id: 0 },
      { ...valid, student_id: 1.5 },
      { ...valid, student_id: '1 or 1=1' },
      { ...valid, start_day: '2026-02-30' },
      { ...valid, start_day: 20260101 },
      { ...valid, start_day: "2026-01-01'; drop table leave_requests; --" },
      { ...valid, end_day: '明天' },
      { ...valid, start_day: plus(3), end_day: plus(2) },
      { ...valid, start_day: plus(1), end_day: plus(32) },
      { ...valid, reason: '' },
      { ...valid, reason: '   ' },
      { ...valid, reason: LONG },
      { ...valid, reason: 'x'.repeat(501) },
      { ...valid, reason: '<script>alert(1)</script>' },
      { ...valid, reason: '<img src=x onerror=alert(1)>' },
      { ...valid, reason: ['发烧'] },
      { ...valid, status: 1 },
      { ...valid, requested_by: 1 },
    ]);
    const res = await t.post(SUBMIT, parent).send({ ...valid, end_day: plus(40) });
    expect(res.body.msg).toBe('日期范围最多 31 天');
  });

  it('only parents may ask leave', () =>
    forbidden('post', SUBMIT, [admin, teacher, adviser, other.adminToken], {
      student_id: id('陈小雨'),
      start_day: today,
      end_day: today,
      reason: '发烧',
    }));
});

describe('parentLeaveList', () => {
  beforeAll(clear);

  it("lists the requests for the parent's own children, newest first, paged, filterable by child", async () => {
    const a = await submit();
    const b = await submit({ student_id: id('陈小阳'), start_day: plus(5), end_day: plus(5) });
    await insertLeave('王子涵', wangParent, today, today);
    const all = await t.get(P_LIST, parent);
    expect(all.body).toMatchObject({ code: Code.Ok, data: { total: 2, page: 1, limit: 20 } });
    expect(all.body.data.list.map((r: { id: number }) => r.id)).toEqual([b.id, a.id]);
    expect(all.body.data.list[0]).toMatchObject({ student_name: '陈小阳', days: 1, status: 0, class_name: '阳光一班' });
    const one = await t.get(`${P_LIST}?student_id=${id('陈小雨')}&page=1&limit=1`, parent);
    expect(one.body.data).toMatchObject({ total: 1, list: [{ id: a.id }] });
    const second = await t.get(`${P_LIST}?page=2&limit=1`, parent);
    expect(second.body.data).toMatchObject({ total: 2, list: [{ id: a.id }] });
    const past = await t.get(`${P_LIST}?page=9`, parent);
    expect(past.body.data).toEqual({ list: [], total: 2, page: 9, limit: 20 });
  });

  it("another family's or another school's child gives an empty list", async () => {
    for (const sid of [id('王子涵'), otherStudentId]) {
      const res = await t.get(`${P_LIST}?student_id=${sid}`, parent);
      expect(res.body).toMatchObject({ code: Code.Ok, data: { list: [], total: 0 } });
    }
  });

  it('bad input answers code 100', () =>
    badGets(P_LIST, parent, [
      ...PAGE_BAD,
      'student_id=abc',
      'student_id=0',
      'student_id=-3',
      `student_id=${'9'.repeat(10_000)}`,
      'student_id=1%20or%201%3D1',
    ]));

  it('only parents may call it', () => forbidden('get', P_LIST, [admin, teacher, adviser, other.adminToken]));
});

describe('teacherStudentLeaveList and teacherStudentLeaveInfo', () => {
  let mine: number;
  let secondClass: number;
  beforeAll(async () => {
    await clear();
    mine = (await submit()).id;
    await insertLeave('王子涵', wangParent, plus(1), plus(1), 1);
    const xu = (await t.sql.query(`select user_id from student_guardians where student_id = $1`, [id('徐若曦')])).rows[0].user_id;
    secondClass = await insertLeave('徐若曦', xu, today, today);
  });

  it('a teacher lists the requests of the students they are responsible for, pending first, with names', async () => {
    const res = await t.get(T_LIST, teacher);
    expect(res.body).toMatchObject({ code: Code.Ok, data: { total: 2, page: 1, limit: 20 } });
    expect(res.body.data.list.map((r: { student_name: string }) => r.student_name)).toEqual(['陈小雨', '王子涵']);
    expect(res.body.data.list[1]).toMatchObject({
      status: 1,
      requested_by: wangParent,
      requested_by_name: expect.any(String),
      class_name: '阳光一班',
    });
    const approved = await t.get(`${T_LIST}?status=1`, adviser);
    expect(approved.body.data).toMatchObject({ total: 1, list: [{ student_name: '王子涵' }] });
    expect((await t.get(`${T_LIST}?status=3`, adviser)).body.data).toMatchObject({ total: 0, list: [] });
    // 刘老师 heads 阳光二班
    const liuList = await t.get(T_LIST, liu);
    expect(liuList.body.data).toMatchObject({ total: 1, list: [{ id: secondClass, student_name: '徐若曦', class_name: '阳光二班' }] });
  });

  it('a teacher reads one request of an own student', async () => {
    const res = await t.get(`${T_INFO}?id=${mine}`, teacher);
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: { id: mine, student_name: '陈小雨', status: 0, version: 1, days: 3, reason: '发烧，在家休息' },
    });
  });

  it("another class's, another school's and unknown requests are not found; other schools are not listed", async () => {
    for (const leaveId of [secondClass, otherLeaveId, 99_999_999]) {
      expect((await t.get(`${T_INFO}?id=${leaveId}`, teacher)).body).toMatchObject({ code: Code.Error, msg: '该请假申请不存在' });
    }
    const ids = (await t.get(`${T_LIST}?limit=100`, adviser)).body.data.list.map((r: { id: number }) => r.id);
    expect(ids).not.toContain(otherLeaveId);
    expect(ids).not.toContain(secondClass);
  });

  it('bad input answers code 100', async () => {
    await badGets(T_LIST, teacher, [
      ...PAGE_BAD,
      'status=4',
      'status=-1',
      'status=abc',
      'status=1.5',
      'status=0%20or%201%3D1',
      `status=${'1'.repeat(10_000)}`,
    ]);
    await badGets(T_INFO, teacher, [
      '',
      'id=',
      'id=abc',
      'id=0',
      'id=1.5',
      `id=${'9'.repeat(10_000)}`,
      "id=1';drop%20table%20leave_requests;--",
      'id=%3Cb%3E',
      `id=1&x=${LONG}`,
    ]);
    expect((await t.get(`${T_LIST}?status=9`, teacher)).body.msg).toBe('状态只能是 0（待审核）、1（已批准）、2（已驳回）或 3（已撤销）');
  });

  it('admins and parents may not call them', async () => {
    await forbidden('get', T_LIST, [admin, parent, other.adminToken]);
    await forbidden('get', `${T_INFO}?id=${mine}`, [admin, parent, other.adminToken]);
  });
});

describe("adminLeaveList and adminLeaveInfo (the admin's leave review)", () => {
  const A_LIST = `${P}adminLeaveList`;
  const A_INFO = `${P}adminLeaveInfo`;
  let mine: number;
  let secondClass: number;
  beforeAll(async () => {
    await clear();
    mine = (await submit()).id;
    await insertLeave('王子涵', wangParent, plus(1), plus(1), 1);
    const xu = (await t.sql.query(`select user_id from student_guardians where student_id = $1`, [id('徐若曦')])).rows[0].user_id;
    secondClass = await insertLeave('徐若曦', xu, today, today);
  });

  it('the admin lists the requests of every class of the school, pending first, filterable by status', async () => {
    const res = await t.get(A_LIST, admin);
    expect(res.body).toMatchObject({ code: Code.Ok, data: { total: 3, page: 1, limit: 20 } });
    const names = res.body.data.list.map((r: { student_name: string }) => r.student_name);
    expect(names.slice(0, 2).sort()).toEqual(['徐若曦', '陈小雨'].sort());
    expect(names[2]).toBe('王子涵');
    expect((await t.get(`${A_LIST}?status=1`, admin)).body.data).toMatchObject({
      total: 1,
      list: [{ student_name: '王子涵', class_name: '阳光一班' }],
    });
    expect((await t.get(`${A_LIST}?status=3`, admin)).body.data).toMatchObject({ total: 0, list: [] });
    expect((await t.get(`${A_LIST}?page=2&limit=2`, admin)).body.data).toMatchObject({ total: 3, page: 2, list: [{ student_name: '王子涵' }] });
  });

  it("the admin reads any request of the school, another class's too", async () => {
    expect((await t.get(`${A_INFO}?id=${secondClass}`, admin)).body).toMatchObject({
      code: Code.Ok,
      data: { id: secondClass, student_name: '徐若曦', class_name: '阳光二班', status: 0 },
    });
    expect((await t.get(`${A_INFO}?id=${mine}`, admin)).body).toMatchObject({ code: Code.Ok, data: { id: mine, version: 1, days: 3 } });
  });

  it("another school's and unknown requests are not found; another school's admin does not see this school's", async () => {
    for (const leaveId of [otherLeaveId, 99_999_999])
      expect((await t.get(`${A_INFO}?id=${leaveId}`, admin)).body).toMatchObject({ code: Code.Error, msg: '该请假申请不存在' });
    const ids = (await t.get(`${A_LIST}?limit=100`, admin)).body.data.list.map((r: { id: number }) => r.id);
    expect(ids).not.toContain(otherLeaveId);
    expect((await t.get(`${A_INFO}?id=${mine}`, other.adminToken)).body).toMatchObject({ code: Code.Error, msg: '该请假申请不存在' });
    expect((await t.get(`${A_LIST}?limit=100`, other.adminToken)).body.data).toMatchObject({ total: 1, list: [{ id: otherLeaveId }] });
  });

  it('bad input answers code 100', async () => {
    await badGets(A_LIST, admin, [...PAGE_BAD, 'status=4', 'status=abc', 'status=1.5', `status=${'1'.repeat(10_000)}`]);
    await badGets(A_INFO, admin, ['', 'id=', 'id=abc', 'id=0', 'id=1.5', `id=${'9'.repeat(10_000)}`, 'id=%3Cb%3E', `id=1&x=${LONG}`]);
  });

  it('teachers, head teachers and parents may not call them', async () => {
    await forbidden('get', A_LIST, [teacher, adviser, parent]);
    await forbidden('get', `${A_INFO}?id=${mine}`, [teacher, adviser, parent]);
  });
});

describe('auditStudentInfo', () => {
  beforeEach(clear);

  it('the head teacher approves: days from today on show as on leave, the teacher may not record entry, the head teacher may with a reason', async () => {
    const leave = await submit({ start_day: today, end_day: plus(2) });
    const res = await t.post(AUDIT, adviser).send({ id: leave.id, version: 1, approve: true, note: '注意休息' });
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: {
        leave: {
          id: leave.id,
          status: 1,
          version: 2,
          reviewed_by: t.demo.users.adviser,
          reviewed_by_name: expect.any(String),
          review_note: '注意休息',
          reviewed_at: expect.any(String),
        },
        days: [
          { day: today, ok: true },
          { day: plus(1), ok: true },
          { day: plus(2), ok: true },
        ],
      },
    });
    expect(await dayRows('陈小雨')).toEqual([today, plus(1), plus(2)].map((day) => ({ day, state: 'expected', on_leave: true })));
    const { rows: events } = await t.sql.query(`select type, actor_id, payload from flow_events where student_id = $1 order by day`, [id('陈小雨')]);
    expect(events).toEqual([0, 1, 2].map(() => ({ type: 'day.leave_approved', actor_id: t.demo.users.adviser, payload: { leave_id: leave.id } })));
    // the boards and task lists say on leave
    expect((await t.get('/api/index/teacherTodayTask', teacher)).body.data.states.on_leave).toBe(1);

    const refused = await t.post(ENTER, teacher).send({ student_ids: [id('陈小雨')] });
    expect(refused.body).toMatchObject({
      code: Code.Ok,
      data: { results: [{ student_id: id('陈小雨'), ok: false, error: '该学生今天已请假，如需记录请由班主任填写原因' }] },
    });
    const headless = await t.post(ENTER, teacher).send({ student_ids: [id('陈小雨')], override: '家长送来了' });
    expect(headless.body.data.results[0]).toMatchObject({ ok: false, error: '只有班主任可以越过规则并填写原因' });
    const allowed = await t.post(ENTER, adviser).send({ student_ids: [id('陈小雨')], override: '家长临时送来' });
    expect(allowed.body).toMatchObject({ code: Code.Ok, data: { results: [{ student_id: id('陈小雨'), ok: true, state: 'in_centre' }] } });
  });

  it('approval leaves past days alone; the admin may approve any class; rejection marks nothing', async () => {
    const past = await insertLeave('王子涵', wangParent, plus(-2), today);
    const res = await t.post(AUDIT, admin).send({ id: past, version: 1, approve: true });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { leave: { status: 1, review_note: null }, days: [{ day: today, ok: true }] } });
    expect(await dayRows('王子涵')).toEqual([{ day: today, state: 'expected', on_leave: true }]);

    const leave = await submit({ student_id: id('陈小阳'), start_day: plus(1), end_day: plus(1) });
    const rejected = await t.post(AUDIT, adviser).send({ id: leave.id, version: 1, approve: false, note: '请补充医院证明' });
    expect(rejected.body).toMatchObject({ code: Code.Ok, data: { leave: { status: 2, review_note: '请补充医院证明' }, days: [] } });
    expect(await dayRows('陈小阳')).toEqual([]);
  });

  it('a stale version is a conflict, a decided request cannot be decided again, another class is not for this head teacher', async () => {
    const leave = await submit();
    const xu = (await t.sql.query(`select user_id from student_guardians where student_id = $1`, [id('徐若曦')])).rows[0].user_id;
    const second = await insertLeave('徐若曦', xu, today, today);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [adviser, { id: leave.id, version: 2, approve: true }, '数据已被他人修改，请刷新后重试'],
      [liu, { id: leave.id, version: 1, approve: true }, '只能审核自己班级学生的请假申请'],
      [adviser, { id: second, version: 1, approve: true }, '只能审核自己班级学生的请假申请'],
      [adviser, { id: 99_999_999, version: 1, approve: true }, '该请假申请不存在'],
    ];
    for (const [token, body, msg] of cases) {
      const before = await snapshot(t.sql);
      expect((await t.post(AUDIT, token).send(body)).body).toMatchObject({ code: Code.Error, msg });
      expect(await snapshot(t.sql)).toEqual(before);
    }
    expect((await t.post(AUDIT, adviser).send({ id: leave.id, version: 1, approve: false })).body.code).toBe(Code.Ok);
    const again = await t.post(AUDIT, admin).send({ id: leave.id, version: 2, approve: true });
    expect(again.body).toMatchObject({ code: Code.Error, msg: '该请假申请已处理，不能再审核' });
  });

  it("another school's request is not found for this school, and this school's is not found for another school", async () => {
    const leave = await submit();
    for (const [token, leaveId] of [
      [admin, otherLeaveId],
      [adviser, otherLeaveId],
      [other.adminToken, leave.id],
    ] as const) {
      const before = await snapshot(t.sql);
      expect((await t.post(AUDIT, token).send({ id: leaveId, version: 1, approve: true })).body).toMatchObject({
        code: Code.Error,
        msg: '该请假申请不存在',
      });
      expect(await snapshot(t.sql)).toEqual(before);
    }
    expect((await leaveRow(otherLeaveId)).status).toBe(0);
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const leave = await submit();
    const valid = { id: leave.id, version: 1, approve: true };
    await badPosts(AUDIT, adviser, [
      {},
      { ...valid, id: undefined },
      { ...valid, version: undefined },
      { ...valid, approve: undefined },
      { ...valid, id: String(leave.id) },
      { ...valid, id: 0 },
      { ...valid, version: 0 },
      { ...valid, version: '1' },
      { ...valid, approve: 'true' },
      { ...valid, approve: 1 },
      { ...valid, note: LONG },
      { ...valid, note: '<script>alert(1)</script>' },
      { ...valid, note: 42 },
      { ...valid, id: '1; drop table leave_requests' },
      { ...valid, status: 1 },
    ]);
  });

  it('teachers and parents may not decide', async () => {
    const leave = await submit();
    await forbidden('post', AUDIT, [teacher, parent], { id: leave.id, version: 1, approve: true });
  });
});

describe('cancelLeave', () => {
  beforeEach(clear);

  it('a pending request becomes cancelled and frees its days', async () => {
    const leave = await submit();
    const res = await t.post(CANCEL, parent).send({ id: leave.id, version: 1 });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { leave: { id: leave.id, status: 3, version: 2 }, days: [] } });
    await submit();
  });

  it('an approved request becomes cancelled and its days from today on are no longer leave', async () => {
    const leave = await submit({ start_day: today, end_day: plus(1) });
    expect((await t.post(AUDIT, adviser).send({ id: leave.id, version: 1, approve: true })).body.code).toBe(Code.Ok);
    const res = await t.post(CANCEL, parent).send({ id: leave.id, version: 2 });
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: {
        leave: { status: 3, version: 3 },
        days: [
          { day: today, ok: true },
          { day: plus(1), ok: true },
        ],
      },
    });
    expect(await dayRows('陈小雨')).toEqual([today, plus(1)].map((day) => ({ day, state: 'expected', on_leave: false })));
    expect((await t.post(ENTER, teacher).send({ student_ids: [id('陈小雨')] })).body.data.results[0]).toMatchObject({ ok: true, state: 'in_centre' });
  });

  it('stale versions, decided requests and requests of others are refused', async () => {
    const leave = await submit();
    const rejected = await insertLeave('陈小阳', t.demo.users.parent, plus(3), plus(3), 2);
    const wang = await insertLeave('王子涵', wangParent, today, today);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [parent, { id: leave.id, version: 3 }, '数据已被他人修改，请刷新后重试'],
      [parent, { id: rejected, version: 1 }, '该请假申请已驳回或已撤销，不能撤销'],
      [parent, { id: wang, version: 1 }, '该请假申请不存在'],
      [parent, { id: otherLeaveId, version: 1 }, '该请假申请不存在'],
      [parent, { id: 99_999_999, version: 1 }, '该请假申请不存在'],
    ];
    for (const [token, body, msg] of cases) {
      const before = await snapshot(t.sql);
      expect({ body, res: (await t.post(CANCEL, token).send(body)).body }).toMatchObject({ body, res: { code: Code.Error, msg } });
      expect(await snapshot(t.sql)).toEqual(before);
    }
    expect((await leaveRow(otherLeaveId)).status).toBe(0);
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const leave = await submit();
    await badPosts(CANCEL, parent, [
      {},
      { id: leave.id },
      { version: 1 },
      { id: String(leave.id), version: 1 },
      { id: leave.id, version: 'x' },
      { id: -1, version: 1 },
      { id: leave.id, version: 1, reason: LONG },
      { id: '1 or 1=1', version: 1 },
      { id: '<b>1</b>', version: 1 },
    ]);
  });

  it('only parents may cancel', async () => {
    const leave = await submit();
    await forbidden('post', CANCEL, [admin, teacher, adviser, other.adminToken], { id: leave.id, version: 1 });
  });
});
