import { Code } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { generatePassword } from './staff.service';

let t: TestApp;
let admin: string;
let teacher: string;
let adviser: string;
let parent: string;
let other: { schoolId: number; adminToken: string };
beforeAll(async () => {
  t = await startTestApp({ runJobs: false });
  [admin, teacher, adviser, parent] = await Promise.all([t.login('admin'), t.login('teacher'), t.login('adviser'), t.login('parent')]);
  other = await t.otherSchool();
});
afterAll(() => t.close());

const api = (action: string) => `/api/index/${action}`;
const FORBIDDEN = '当前账号没有权限执行此操作';
const NOT_FOUND = '该老师不存在';
const PASSWORD = 'Teach2026x';
const LONG = 'x'.repeat(10_000);

let nextMobile = 0;
const freshMobile = () => `1371111${String(++nextMobile).padStart(4, '0')}`;

interface Staff {
  id: number;
  username: string;
  name: string;
  nickname: string;
  mobile: string;
  email: string | null;
  role: number;
  duties: string[];
  gender: number | null;
  remark: string | null;
  job_status: number;
  left_at: string | null;
  version: number;
}

async function add(over: Record<string, unknown> = {}, token = admin): Promise<Staff> {
  const res = await t.post(api('addTeacher'), token).send({ name: '赵老师', mobile: freshMobile(), role: 2, password: PASSWORD, ...over });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data as Staff;
}

async function row(id: number) {
  const { rows } = await t.sql.query(`select * from users where id = $1`, [id]);
  return rows[0];
}

async function signIn(account: string, password = PASSWORD) {
  return (await t.post(api('login')).send({ account, password })).body as { code: number; msg: string; data: { userinfo: { token: string } } };
}

/** every bad input answers code 100 and writes nothing */
async function expectRejected(method: 'get' | 'post', action: string, inputs: Array<Record<string, unknown> | string>, token = admin) {
  for (const input of inputs) {
    const before = await snapshot(t.sql);
    const res = method === 'get' ? await t.get(`${api(action)}?${input as string}`, token) : await t.post(api(action), token).send(input as object);
    expect({ input, code: res.body.code }).toEqual({ input, code: Code.Error });
    expect(typeof res.body.msg).toBe('string');
    expect(await snapshot(t.sql)).toEqual(before);
  }
}

/** the roles not allowed get "no permission" and nothing changes */
async function expectForbidden(method: 'get' | 'post', action: string, input: Record<string, unknown>, tokens: string[]) {
  const before = await snapshot(t.sql);
  for (const token of tokens) {
    const res = method === 'get' ? await t.get(api(action), token).query(input) : await t.post(api(action), token).send(input);
    expect({ code: res.body.code, msg: res.body.msg }).toEqual({ code: Code.Error, msg: FORBIDDEN });
  }
  const after = await snapshot(t.sql);
  expect({ ...after, user_activity: 0 }).toEqual({ ...before, user_activity: 0 });
}

/** a teacher of the other school: its id is answered as unknown here */
async function otherTeacher(): Promise<Staff> {
  return add({ name: '外校老师', duties: ['shuttle', 'tutor', 'head'] }, other.adminToken);
}

const queryBad = [
  'page=0',
  'page=abc',
  'limit=0',
  'limit=101',
  `keyword=${LONG}`,
  'sort=id',
  `page=${'9'.repeat(10_000)}`,
  'page=1;%20drop%20table%20users',
];

describe('accountList', () => {
  it('the admin lists every staff account of the school (not parents, not other schools), without password hashes', async () => {
    const mine = await add({ name: '列表老师', remark: '备注' });
    const theirs = await otherTeacher();
    const res = await t.get(`${api('accountList')}?limit=100`, admin);
    expect(res.body.code).toBe(Code.Ok);
    const { list, total, page, limit } = res.body.data as { list: Staff[]; total: number; page: number; limit: number };
    expect({ page, limit }).toEqual({ page: 1, limit: 100 });
    const ids = list.map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining([t.demo.users.admin, t.demo.users.teacher, t.demo.users.adviser, mine.id]));
    expect(ids).not.toContain(t.demo.users.parent);
    expect(ids).not.toContain(t.demo.users.operator);
    expect(ids).not.toContain(theirs.id);
    const { rows } = await t.sql.query(`select count(*)::int as n from users where school_id = $1 and role in (1, 2, 5) and deleted_at is null`, [
      t.demo.schoolId,
    ]);
    expect(total).toBe(rows[0].n);
    expect(JSON.stringify(res.body)).not.toMatch(/password|argon/);
    expect(list.find((r) => r.id === mine.id)).toEqual({
      id: mine.id,
      username: `t${mine.mobile}`,
      name: '列表老师',
      nickname: '列表老师',
      mobile: mine.mobile,
      email: null,
      role: 2,
      duties: [],
      gender: null,
      remark: '备注',
      job_status: 1,
      left_at: null,
      last_login_at: null,
      version: 1,
      created_at: expect.any(String),
    });
  });

  it('pages, searches by name or mobile, filters by role and job status', async () => {
    const a = await add({ name: '搜索甲老师', role: 5 });
    const b = await add({ name: '搜索乙老师' });
    await t.post(api('setLeave'), admin).send({ id: b.id });
    const get = async (q: string) => {
      const res = await t.get(`${api('accountList')}?${q}`, admin);
      expect(res.body.code).toBe(Code.Ok);
      return res.body.data as { list: Staff[]; total: number };
    };
    expect((await get(`keyword=${encodeURIComponent('搜索')}`)).list.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
    expect((await get(`keyword=${a.mobile.slice(-6)}`)).list.map((r) => r.id)).toEqual([a.id]);
    expect((await get(`keyword=${encodeURIComponent('搜索')}&role=5`)).list.map((r) => r.id)).toEqual([a.id]);
    expect((await get(`keyword=${encodeURIComponent('搜索')}&job_status=2`)).list.map((r) => r.id)).toEqual([b.id]);
    expect((await get(`keyword=${encodeURIComponent('搜索')}&job_status=1&role=`)).list.map((r) => r.id)).toEqual([a.id]);
    expect((await get('keyword=%25')).total).toBe(0);
    expect((await get("keyword=x'%20or%20'1'%3D'1")).total).toBe(0);
    const admins = await get('role=1');
    expect(admins.list.map((r) => r.id)).toEqual([t.demo.users.admin]);
    const first = await get('limit=2&page=1');
    const second = await get('limit=2&page=2');
    expect(first.list).toHaveLength(2);
    expect(second.list.map((r) => r.id)).not.toContain(first.list[0].id);
    const past = await get('limit=100&page=1000');
    expect(past).toMatchObject({ list: [], total: first.total });
  });

  it('bad input answers code 100', async () => {
    await expectRejected('get', 'accountList', [
      ...queryBad,
      'role=6',
      'role=9',
      'role=abc',
      'job_status=3',
      'job_status=0',
      'job_status=%3Cscript%3E',
    ]);
    const res = await t.get(`${api('accountList')}?role=6`, admin);
    expect(res.body.msg).toBe('角色只能是 1（管理员）、2（老师）或 5（班主任）');
  });

  it('only the admin', async () => {
    await expectForbidden('get', 'accountList', {}, [teacher, adviser, parent]);
  });
});

describe('teachersList', () => {
  it('the admin and head teachers list teachers and head teachers, filtered by job status', async () => {
    const on = await add({ name: '在职老师' });
    const left = await add({ name: '离职老师' });
    await t.post(api('setLeave'), admin).send({ id: left.id });
    const theirs = await otherTeacher();
    for (const token of [admin, adviser]) {
      const all = await t.get(`${api('teachersList')}?limit=100`, token);
      expect(all.body.code).toBe(Code.Ok);
      const ids = (all.body.data.list as Staff[]).map((r) => r.id);
      expect(ids).toEqual(expect.arrayContaining([on.id, left.id, t.demo.users.teacher, t.demo.users.adviser]));
      expect(ids).not.toContain(t.demo.users.admin);
      expect(ids).not.toContain(theirs.id);
      const onJob = await t.get(`${api('teachersList')}?limit=100&job_status=1`, token);
      expect((onJob.body.data.list as Staff[]).every((r) => r.job_status === 1)).toBe(true);
      expect((onJob.body.data.list as Staff[]).map((r) => r.id)).toContain(on.id);
      const gone = await t.get(`${api('teachersList')}?limit=100&job_status=2`, token);
      expect((gone.body.data.list as Staff[]).map((r) => r.id)).toContain(left.id);
      expect((gone.body.data.list as Staff[]).map((r) => r.id)).not.toContain(on.id);
      const heads = await t.get(`${api('teachersList')}?limit=100&role=5`, token);
      expect((heads.body.data.list as Staff[]).every((r) => r.role === 5)).toBe(true);
    }
  });

  it('bad input answers code 100', async () => {
    await expectRejected('get', 'teachersList', [...queryBad, 'role=1', 'role=6', 'job_status=9', 'job_status=1%20or%201%3D1']);
  });

  it('teachers and parents may not', async () => {
    await expectForbidden('get', 'teachersList', {}, [teacher, parent]);
  });
});

describe('teacherInfo', () => {
  it('the admin and head teachers read any teacher of the school', async () => {
    const x = await add({ name: '资料老师', gender: 2, email: 'ziliao@example.com', duties: ['tutor'] });
    for (const token of [admin, adviser]) {
      const res = await t.get(`${api('teacherInfo')}?id=${x.id}`, token);
      expect(res.body).toMatchObject({
        code: Code.Ok,
        data: { id: x.id, name: '资料老师', gender: 2, email: 'ziliao@example.com', duties: ['tutor'], role: 2 },
      });
      expect(res.body.data).not.toHaveProperty('password_hash');
    }
    // a head teacher does not read the admin's account through it
    expect((await t.get(`${api('teacherInfo')}?id=${t.demo.users.admin}`, adviser)).body).toMatchObject({ code: Code.Error, msg: NOT_FOUND });
  });

  it('a teacher reads only their own profile', async () => {
    const own = await t.get(api('teacherInfo'), teacher);
    expect(own.body).toMatchObject({ code: Code.Ok, data: { id: t.demo.users.teacher, username: 'teacher', role: 2 } });
    const byId = await t.get(`${api('teacherInfo')}?id=${t.demo.users.teacher}`, teacher);
    expect(byId.body.data.id).toBe(t.demo.users.teacher);
    const otherId = await t.get(`${api('teacherInfo')}?id=${t.demo.users.adviser}`, teacher);
    expect(otherId.body).toMatchObject({ code: Code.Error, msg: NOT_FOUND, data: null });
  });

  it("another school's teacher, a parent, a deleted or unknown id: not found", async () => {
    const theirs = await otherTeacher();
    const gone = await add();
    await t.post(api('delTeacher'), admin).send({ id: gone.id });
    for (const id of [theirs.id, t.demo.users.parent, gone.id, 999_999]) {
      const res = await t.get(`${api('teacherInfo')}?id=${id}`, admin);
      expect({ id, body: res.body }).toMatchObject({ id, body: { code: Code.Error, msg: NOT_FOUND } });
    }
  });

  it('bad input answers code 100', async () => {
    await expectRejected('get', 'teacherInfo', [
      'id=0',
      'id=-1',
      'id=abc',
      'id=1.5',
      'id=99999999999',
      `id=${LONG}`,
      'id=1%20or%201%3D1',
      'id=%3Cscript%3E',
      'name=x',
    ]);
  });

  it('parents may not', async () => {
    await expectForbidden('get', 'teacherInfo', {}, [parent]);
  });
});

describe('addTeacher', () => {
  it('creates an on-job teacher of the caller school with a generated user name who can sign in', async () => {
    const mobile = freshMobile();
    const res = await t.post(api('addTeacher'), admin).send({
      name: ' 孙老师 ',
      mobile,
      role: 5,
      duties: ['tutor', 'shuttle', 'tutor'],
      gender: 1,
      remark: '数学',
      password: PASSWORD,
    });
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: {
        username: `t${mobile}`,
        name: '孙老师',
        nickname: '孙老师',
        mobile,
        role: 5,
        duties: ['shuttle', 'tutor'],
        gender: 1,
        remark: '数学',
        job_status: 1,
        version: 1,
      },
    });
    expect(res.body.data).not.toHaveProperty('password_hash');
    const r = await row(res.body.data.id);
    expect(r).toMatchObject({ school_id: t.demo.schoolId, role: 5, deleted_at: null, job_status: 1 });
    expect(r.password_hash).toMatch(/^\$argon2id\$/);
    expect((await signIn(`t${mobile}`)).code).toBe(Code.Ok);
  });

  it('takes a chosen user name, nickname and e-mail; user names are unique platform-wide, case-insensitively', async () => {
    const x = await add({ username: 'Zhou_Laoshi', nickname: '周周', email: 'zhou@example.com' });
    expect(x).toMatchObject({ username: 'Zhou_Laoshi', nickname: '周周', email: 'zhou@example.com' });
    expect((await signIn('zhou_laoshi')).code).toBe(Code.Ok);
    const before = await snapshot(t.sql);
    const taken = await t
      .post(api('addTeacher'), admin)
      .send({ name: '周二', mobile: freshMobile(), role: 2, password: PASSWORD, username: 'zhou_LAOSHI' });
    expect(taken.body).toMatchObject({ code: Code.Error, msg: '用户名 zhou_LAOSHI 已被使用' });
    const email = await t
      .post(api('addTeacher'), admin)
      .send({ name: '周三', mobile: freshMobile(), role: 2, password: PASSWORD, email: 'ZHOU@example.com' });
    expect(email.body).toMatchObject({ code: Code.Error, msg: '邮箱 ZHOU@example.com 已被其他账号使用' });
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('the same mobile in another school is fine; the generated user name then gets a suffix', async () => {
    const mobile = freshMobile();
    const theirs = await add({ mobile }, other.adminToken);
    const mine = await add({ mobile });
    expect(theirs.username).toBe(`t${mobile}`);
    expect(mine.username).toBe(`t${mobile}_2`);
    expect((await row(theirs.id)).school_id).toBe(other.schoolId);
    expect((await row(mine.id)).school_id).toBe(t.demo.schoolId);
  });

  it('a mobile already used in the school is refused, naming who has it', async () => {
    const x = await add({ name: '钱老师' });
    const before = await snapshot(t.sql);
    const res = await t.post(api('addTeacher'), admin).send({ name: '钱二', mobile: x.mobile, role: 2, password: PASSWORD });
    expect(res.body).toMatchObject({ code: Code.Error, msg: `手机号 ${x.mobile} 已被本机构的「钱老师」使用` });
    const parentMobile = await t
      .post(api('addTeacher'), admin)
      .set('lang', 'en')
      .send({ name: '钱三', mobile: '13800000006', role: 2, password: PASSWORD });
    expect(parentMobile.body).toMatchObject({ code: Code.Error, msg: 'The mobile 13800000006 is already used by 陈家长 in this institution' });
    expect(await snapshot(t.sql)).toEqual(before);
    // once that teacher is deleted the mobile is free again
    await t.post(api('delTeacher'), admin).send({ id: x.id });
    await add({ mobile: x.mobile });
  });

  it('two additions of one mobile at once: one wins, the other is told who has it', async () => {
    const mobile = freshMobile();
    const results = await Promise.all([
      t.post(api('addTeacher'), admin).send({ name: '并发甲', mobile, role: 2, password: PASSWORD }),
      t.post(api('addTeacher'), admin).send({ name: '并发乙', mobile, role: 2, password: PASSWORD }),
      t.post(api('addTeacher'), other.adminToken).send({ name: '并发丙', mobile, role: 2, password: PASSWORD }),
    ]);
    const mine = results.slice(0, 2);
    expect(mine.map((r) => r.body.code).sort()).toEqual([Code.Error, Code.Ok].sort());
    const winner = mine.find((r) => r.body.code === Code.Ok)!.body.data as Staff;
    expect(mine.find((r) => r.body.code === Code.Error)!.body.msg).toBe(`手机号 ${mobile} 已被本机构的「${winner.name}」使用`);
    expect(results[2].body.code).toBe(Code.Ok);
    expect([winner.username, results[2].body.data.username].sort()).toEqual([`t${mobile}`, `t${mobile}_2`]);
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const valid = (over: Record<string, unknown>) => ({ name: '吴老师', mobile: freshMobile(), role: 2, password: PASSWORD, ...over });
    await expectRejected('post', 'addTeacher', [
      {},
      valid({ name: undefined }),
      valid({ mobile: undefined }),
      valid({ role: undefined }),
      valid({ password: undefined }),
      valid({ name: '' }),
      valid({ name: LONG }),
      valid({ name: '<b>吴</b>' }),
      valid({ name: "x'; drop table users; --" }),
      valid({ name: 12 }),
      valid({ mobile: '12345' }),
      valid({ mobile: 13711112222 }),
      valid({ mobile: LONG }),
      valid({ role: 1 }),
      valid({ role: 6 }),
      valid({ role: 9 }),
      valid({ role: '2' }),
      valid({ duties: ['cook'] }),
      valid({ duties: 'shuttle' }),
      valid({ duties: ['shuttle', 'tutor', 'head', 'shuttle'] }),
      valid({ gender: 3 }),
      valid({ gender: '1' }),
      valid({ remark: LONG }),
      valid({ remark: '<script>alert(1)</script>' }),
      valid({ password: 'short1' }),
      valid({ password: 'lettersonly' }),
      valid({ password: LONG }),
      valid({ username: 'ab' }),
      valid({ username: 'has space' }),
      valid({ username: "a' or '1'='1" }),
      valid({ username: LONG }),
      valid({ nickname: '' }),
      valid({ nickname: '<img src=x onerror=alert(1)>' }),
      valid({ email: 'not-an-email' }),
      valid({ email: `${LONG}@example.com` }),
      valid({ school_id: other.schoolId }),
      valid({ job_status: 2 }),
      valid({ password_hash: 'x' }),
    ]);
    const res = await t.post(api('addTeacher'), admin).send(valid({ role: 1 }));
    expect(res.body.msg).toBe('角色只能是 2（老师）或 5（班主任）');
    const weak = await t.post(api('addTeacher'), admin).send(valid({ password: 'abc' }));
    expect(weak.body.msg).toBe('密码需 8-64 位，且同时包含字母和数字');
  });

  it('only the admin', async () => {
    await expectForbidden('post', 'addTeacher', { name: '越权', mobile: freshMobile(), role: 2, password: PASSWORD }, [teacher, adviser, parent]);
  });
});

describe('editTeacher', () => {
  it('changes the fields given on the version read; a stale version answers a conflict', async () => {
    const x = await add({ name: '郑老师', remark: '旧备注', email: 'zheng@example.com' });
    const mobile = freshMobile();
    const res = await t
      .post(api('editTeacher'), admin)
      .send({ id: x.id, version: 1, name: '郑老师二', mobile, role: 5, duties: ['head'], gender: 2, remark: '', email: '' });
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: { id: x.id, name: '郑老师二', nickname: '郑老师', mobile, role: 5, duties: ['head'], gender: 2, remark: null, email: null, version: 2 },
    });
    const before = await snapshot(t.sql);
    const stale = await t.post(api('editTeacher'), admin).send({ id: x.id, version: 1, name: '旧版本' });
    expect(stale.body).toMatchObject({ code: Code.Error, msg: '数据已被他人修改，请刷新后重试' });
    expect(await snapshot(t.sql)).toEqual(before);
    const partial = await t.post(api('editTeacher'), admin).send({ id: x.id, version: 2, gender: null });
    expect(partial.body).toMatchObject({ code: Code.Ok, data: { name: '郑老师二', gender: null, role: 5, version: 3 } });
  });

  it('refuses a change of role or duties that would leave a class or a duty without a fit teacher, naming them', async () => {
    const head = await add({ name: '韩老师', role: 5 });
    const both = await add({ name: '邓老师', duties: ['shuttle', 'tutor'] });
    const { rows } = await t.sql.query(
      `insert into care_classes (school_id, name, head_teacher_id, capacity) values ($1, '星星班', $2, 30) returning id`,
      [t.demo.schoolId, head.id],
    );
    await t.sql.query(`insert into duty_assignments (school_id, class_id, teacher_id, duty) values ($1, $2, $3, 'shuttle')`, [
      t.demo.schoolId,
      rows[0].id,
      both.id,
    ]);
    const before = await snapshot(t.sql);
    const demote = await t.post(api('editTeacher'), admin).send({ id: head.id, version: 1, role: 2 });
    expect(demote.body).toMatchObject({ code: Code.Error, msg: '韩老师仍是「星星班」的班主任，请先更换' });
    const drop = await t.post(api('editTeacher'), admin).send({ id: both.id, version: 1, duties: ['tutor'] });
    expect(drop.body).toMatchObject({ code: Code.Error, msg: '邓老师仍负责「星星班」的接送，请先更换' });
    expect(await snapshot(t.sql)).toEqual(before);
    // still fit: a teacher with the head duty may head the class; the tutoring duty is not assigned anywhere
    const withHead = await t.post(api('editTeacher'), admin).send({ id: head.id, version: 1, role: 2, duties: ['head'] });
    expect(withHead.body).toMatchObject({ code: Code.Ok, data: { role: 2, duties: ['head'] } });
    const keepShuttle = await t.post(api('editTeacher'), admin).send({ id: both.id, version: 1, duties: ['shuttle'] });
    expect(keepShuttle.body).toMatchObject({ code: Code.Ok, data: { duties: ['shuttle'] } });
  });

  it('two admins editing at once: one wins, the other is told', async () => {
    const x = await add();
    const second = await t.login('admin');
    const results = await Promise.all([
      t.post(api('editTeacher'), admin).send({ id: x.id, version: 1, name: '甲' }),
      t.post(api('editTeacher'), second).send({ id: x.id, version: 1, name: '乙' }),
    ]);
    expect(results.map((r) => r.body.code).sort()).toEqual([Code.Error, Code.Ok].sort());
    expect((await row(x.id)).version).toBe(2);
  });

  it("refuses another teacher's mobile, the admin account, and another school's teacher", async () => {
    const a = await add({ name: '冯老师' });
    const b = await add();
    const theirs = await otherTeacher();
    const before = await snapshot(t.sql);
    const taken = await t.post(api('editTeacher'), admin).send({ id: b.id, version: 1, mobile: a.mobile });
    expect(taken.body).toMatchObject({ code: Code.Error, msg: `手机号 ${a.mobile} 已被本机构的「冯老师」使用` });
    const same = await t.post(api('editTeacher'), admin).send({ id: a.id, version: 1, mobile: a.mobile, name: '冯老师' });
    expect(same.body.code).toBe(Code.Ok);
    const adminRes = await t.post(api('editTeacher'), admin).send({ id: t.demo.users.admin, version: 1, name: '改管理员' });
    expect(adminRes.body).toMatchObject({ code: Code.Error, msg: '机构管理员账号不能在此修改、删除或设为离职' });
    const theirsBefore = await row(theirs.id);
    for (const id of [theirs.id, t.demo.users.parent, 999_999]) {
      const res = await t.post(api('editTeacher'), admin).send({ id, version: 1, name: '越界' });
      expect(res.body).toMatchObject({ code: Code.Error, msg: NOT_FOUND });
    }
    expect(await row(theirs.id)).toEqual(theirsBefore);
    const after = await snapshot(t.sql);
    expect(after.user_versions).toBe(before.user_versions + 1);
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const x = await add();
    await expectRejected('post', 'editTeacher', [
      {},
      { id: x.id },
      { version: 1, name: '无 id' },
      { id: String(x.id), version: 1 },
      { id: x.id, version: '1' },
      { id: x.id, version: 0 },
      { id: -1, version: 1 },
      { id: 1.5, version: 1 },
      { id: 99_999_999_999, version: 1 },
      { id: `${x.id} or 1=1`, version: 1 },
      { id: x.id, version: 1, name: LONG },
      { id: x.id, version: 1, name: '<script>alert(1)</script>' },
      { id: x.id, version: 1, mobile: 'abc' },
      { id: x.id, version: 1, role: 1 },
      { id: x.id, version: 1, duties: ['boss'] },
      { id: x.id, version: 1, remark: LONG },
      { id: x.id, version: 1, email: 'x@' },
      { id: x.id, version: 1, password: PASSWORD },
      { id: x.id, version: 1, job_status: 2 },
      { id: x.id, version: 1, school_id: other.schoolId },
    ]);
  });

  it('only the admin', async () => {
    const x = await add();
    await expectForbidden('post', 'editTeacher', { id: x.id, version: 1, name: '越权' }, [teacher, adviser, parent]);
  });
});

describe('delTeacher', () => {
  it('soft-deletes: the account leaves the lists, cannot sign in, its sessions end, its row stays', async () => {
    const x = await add();
    const token = (await signIn(x.username)).data.userinfo.token;
    const res = await t.post(api('delTeacher'), admin).send({ id: x.id, version: 1 });
    expect(res.body).toMatchObject({ code: Code.Ok, data: {} });
    const r = await row(x.id);
    expect(r.deleted_at).not.toBeNull();
    expect((await t.get(api('userInfo'), token)).body.code).toBe(Code.Untoken);
    expect((await signIn(x.username)).code).toBe(Code.Error);
    const list = await t.get(`${api('accountList')}?limit=100&keyword=${x.mobile}`, admin);
    expect(list.body.data.total).toBe(0);
    expect((await t.post(api('delTeacher'), admin).send({ id: x.id })).body).toMatchObject({ code: Code.Error, msg: NOT_FOUND });
  });

  it('is refused while the teacher heads a class or holds a duty, naming them and the class', async () => {
    const head = await add({ name: '张老师', role: 5 });
    const duty = await add({ name: '陈老师', duties: ['shuttle'] });
    const { rows } = await t.sql.query(
      `insert into care_classes (school_id, name, head_teacher_id, capacity) values ($1, '阳光一班', $2, 30) returning id`,
      [t.demo.schoolId, head.id],
    );
    const classId = rows[0].id;
    await t.sql.query(`insert into duty_assignments (school_id, class_id, teacher_id, duty) values ($1, $2, $3, 'shuttle')`, [
      t.demo.schoolId,
      classId,
      duty.id,
    ]);
    const before = await snapshot(t.sql);
    const a = await t.post(api('delTeacher'), admin).send({ id: head.id });
    expect(a.body).toMatchObject({ code: Code.Error, msg: '张老师仍是「阳光一班」的班主任，请先更换' });
    const b = await t.post(api('delTeacher'), admin).send({ id: duty.id });
    expect(b.body).toMatchObject({ code: Code.Error, msg: '陈老师仍负责「阳光一班」的接送，请先更换' });
    const en = await t.post(api('delTeacher'), admin).set('lang', 'en').send({ id: head.id });
    expect(en.body.msg).toBe('张老师 is still the head teacher of 阳光一班: assign another one first');
    expect(await snapshot(t.sql)).toEqual(before);
    // a deleted class no longer holds them
    await t.sql.query(`update care_classes set deleted_at = now() where id = $1`, [classId]);
    expect((await t.post(api('delTeacher'), admin).send({ id: head.id })).body.code).toBe(Code.Ok);
    expect((await t.post(api('delTeacher'), admin).send({ id: duty.id })).body.code).toBe(Code.Ok);
  });

  it("refuses the admin account, another school's teacher and a stale version", async () => {
    const theirs = await otherTeacher();
    const x = await add();
    const before = await snapshot(t.sql);
    expect((await t.post(api('delTeacher'), admin).send({ id: t.demo.users.admin })).body).toMatchObject({
      code: Code.Error,
      msg: '机构管理员账号不能在此修改、删除或设为离职',
    });
    expect((await t.post(api('delTeacher'), admin).send({ id: theirs.id })).body).toMatchObject({ code: Code.Error, msg: NOT_FOUND });
    expect((await t.post(api('delTeacher'), admin).send({ id: x.id, version: 7 })).body).toMatchObject({
      code: Code.Error,
      msg: '数据已被他人修改，请刷新后重试',
    });
    expect(await snapshot(t.sql)).toEqual(before);
    expect((await row(theirs.id)).deleted_at).toBeNull();
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const x = await add();
    await expectRejected('post', 'delTeacher', [
      {},
      { id: '1' },
      { id: 0 },
      { id: -5 },
      { id: 2.5 },
      { id: LONG },
      { id: `1; delete from users` },
      { id: x.id, version: 'x' },
      { id: x.id, force: true },
    ]);
  });

  it('only the admin', async () => {
    const x = await add();
    await expectForbidden('post', 'delTeacher', { id: x.id }, [teacher, adviser, parent]);
    expect((await row(x.id)).deleted_at).toBeNull();
  });
});

describe('setLeave and onJob', () => {
  it('left-job: sessions end, sign-in is refused, pickers drop them; on-job again undoes it', async () => {
    const x = await add({ name: '离职测试', duties: ['shuttle', 'tutor', 'head'] });
    const token = (await signIn(x.username)).data.userinfo.token;
    const pickers = async () => {
      const [s, tu, h] = await Promise.all(
        ['shuttleTeacher', 'tutorTeacher', 'selectClassTeacher'].map((a) => t.get(`${api(a)}?limit=100&keyword=${x.mobile}`, admin)),
      );
      return [s.body.data.total, tu.body.data.total, h.body.data.total];
    };
    expect(await pickers()).toEqual([1, 1, 1]);

    const res = await t.post(api('setLeave'), admin).send({ id: x.id, version: 1 });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { id: x.id, job_status: 2, left_at: expect.any(String), version: 2 } });
    expect((await t.get(api('userInfo'), token)).body.code).toBe(Code.Untoken);
    const { rows } = await t.sql.query(`select count(*)::int as n from user_tokens where user_id = $1 and revoked_at is null`, [x.id]);
    expect(rows[0].n).toBe(0);
    expect(await signIn(x.username)).toMatchObject({ code: Code.Error, msg: '该账号已离职，无法登录' });
    expect(await pickers()).toEqual([0, 0, 0]);
    expect((await t.get(`${api('teacherInfo')}?id=${x.id}`, admin)).body.data.job_status).toBe(2);
    const again = await t.post(api('setLeave'), admin).send({ id: x.id });
    expect(again.body).toMatchObject({ code: Code.Error, msg: '离职测试已是离职状态' });

    const back = await t.post(api('onJob'), admin).send({ id: x.id, version: 2 });
    expect(back.body).toMatchObject({ code: Code.Ok, data: { id: x.id, job_status: 1, left_at: null, version: 3 } });
    expect((await signIn(x.username)).code).toBe(Code.Ok);
    expect(await pickers()).toEqual([1, 1, 1]);
    expect((await t.post(api('onJob'), admin).send({ id: x.id })).body).toMatchObject({ code: Code.Error, msg: '离职测试已是在职状态' });
  });

  it("refuses the admin account, another school's teacher, a stale version", async () => {
    const theirs = await otherTeacher();
    const x = await add();
    const before = await snapshot(t.sql);
    for (const action of ['setLeave', 'onJob']) {
      expect((await t.post(api(action), admin).send({ id: t.demo.users.admin })).body.msg).toBe('机构管理员账号不能在此修改、删除或设为离职');
      expect((await t.post(api(action), admin).send({ id: theirs.id })).body).toMatchObject({ code: Code.Error, msg: NOT_FOUND });
      expect((await t.post(api(action), admin).send({ id: t.demo.users.parent })).body).toMatchObject({ code: Code.Error, msg: NOT_FOUND });
      expect((await t.post(api(action), admin).send({ id: x.id, version: 9 })).body.msg).toBe('数据已被他人修改，请刷新后重试');
    }
    expect(await snapshot(t.sql)).toEqual(before);
    expect((await row(theirs.id)).job_status).toBe(1);
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const x = await add();
    for (const action of ['setLeave', 'onJob']) {
      await expectRejected('post', action, [
        {},
        { id: 'abc' },
        { id: 0 },
        { id: LONG },
        { id: x.id, version: 0 },
        { id: x.id, left_at: '2020-01-01' },
        { id: '<script>' },
      ]);
    }
  });

  it('only the admin', async () => {
    const x = await add();
    await expectForbidden('post', 'setLeave', { id: x.id }, [teacher, adviser, parent]);
    await t.post(api('setLeave'), admin).send({ id: x.id });
    await expectForbidden('post', 'onJob', { id: x.id }, [teacher, adviser, parent]);
  });
});

describe('resetTeacherPwd', () => {
  it('sets the chosen password and ends every session of the teacher', async () => {
    const x = await add();
    const token = (await signIn(x.username)).data.userinfo.token;
    const res = await t.post(api('resetTeacherPwd'), admin).send({ id: x.id, password: 'NewPass2027' });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { id: x.id, password: null } });
    expect((await t.get(api('userInfo'), token)).body.code).toBe(Code.Untoken);
    expect((await signIn(x.username)).code).toBe(Code.Error);
    expect((await signIn(x.username, 'NewPass2027')).code).toBe(Code.Ok);
    expect((await row(x.id)).version).toBe(2);
  });

  it('without a password generates one meeting the policy and answers it once', async () => {
    const x = await add();
    const res = await t.post(api('resetTeacherPwd'), admin).send({ id: x.id, version: 1 });
    expect(res.body.code).toBe(Code.Ok);
    const password = res.body.data.password as string;
    expect(password).toMatch(/^(?=.*[A-Za-z])(?=.*\d).{8,64}$/);
    expect((await signIn(x.username, password)).code).toBe(Code.Ok);
    for (let i = 0; i < 200; i++) expect(generatePassword()).toMatch(/^(?=.*[A-Za-z])(?=.*\d)[A-Za-z0-9]{12}$/);
  });

  it("refuses the admin account, another school's teacher, a stale version", async () => {
    const theirs = await otherTeacher();
    const x = await add();
    const before = await snapshot(t.sql);
    expect((await t.post(api('resetTeacherPwd'), admin).send({ id: t.demo.users.admin })).body.msg).toBe(
      '机构管理员账号不能在此修改、删除或设为离职',
    );
    expect((await t.post(api('resetTeacherPwd'), admin).send({ id: theirs.id, password: 'Hijack2026' })).body).toMatchObject({
      code: Code.Error,
      msg: NOT_FOUND,
    });
    expect((await t.post(api('resetTeacherPwd'), admin).send({ id: x.id, version: 3 })).body.msg).toBe('数据已被他人修改，请刷新后重试');
    expect(await snapshot(t.sql)).toEqual(before);
    expect((await signIn(theirs.username)).code).toBe(Code.Ok);
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const x = await add();
    await expectRejected('post', 'resetTeacherPwd', [
      {},
      { id: 'x' },
      { id: x.id, password: 'short' },
      { id: x.id, password: '12345678' },
      { id: x.id, password: LONG },
      { id: x.id, password: 12345678 },
      { id: x.id, newpassword: 'Valid2026x' },
      { id: -1, password: 'Valid2026x' },
    ]);
  });

  it('only the admin', async () => {
    const x = await add();
    await expectForbidden('post', 'resetTeacherPwd', { id: x.id, password: 'Hijack2026' }, [teacher, adviser, parent]);
  });
});

describe('teacherSaveInfo', () => {
  it('a teacher and a head teacher edit their own profile, never role or duties', async () => {
    const x = await add({ name: '自己老师', duties: ['shuttle'] });
    const token = (await signIn(x.username)).data.userinfo.token;
    const res = await t
      .post(api('teacherSaveInfo'), token)
      .send({ nickname: '小自', name: '自己老师改', gender: 2, email: 'self@example.com', remark: '喜欢画画' });
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: {
        id: x.id,
        nickname: '小自',
        name: '自己老师改',
        gender: 2,
        email: 'self@example.com',
        remark: '喜欢画画',
        role: 2,
        duties: ['shuttle'],
        version: 2,
      },
    });
    const stale = await t.post(api('teacherSaveInfo'), token).send({ version: 1, nickname: '旧' });
    expect(stale.body.msg).toBe('数据已被他人修改，请刷新后重试');
    const ok = await t.post(api('teacherSaveInfo'), token).send({ version: 2, email: '' });
    expect(ok.body).toMatchObject({ code: Code.Ok, data: { email: null, version: 3 } });
    const head = await t.post(api('teacherSaveInfo'), adviser).send({ nickname: '张班' });
    expect(head.body).toMatchObject({ code: Code.Ok, data: { id: t.demo.users.adviser, nickname: '张班', role: 5 } });
    // the admin's edits and the teacher's profile see the same version
    expect((await t.post(api('editTeacher'), admin).send({ id: x.id, version: 3, remark: '管理员改' })).body.data.version).toBe(4);
  });

  it('an e-mail of another account is refused', async () => {
    await add({ email: 'busy@example.com' });
    const before = await snapshot(t.sql);
    const res = await t.post(api('teacherSaveInfo'), teacher).send({ email: 'Busy@Example.com' });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '邮箱 Busy@Example.com 已被其他账号使用' });
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('bad input (including role, duties, another id) answers code 100 and writes nothing', async () => {
    await expectRejected(
      'post',
      'teacherSaveInfo',
      [
        { role: 5 },
        { duties: ['head'] },
        { id: t.demo.users.adviser, name: '改别人' },
        { mobile: '13711119999' },
        { job_status: 2 },
        { name: '' },
        { name: LONG },
        { name: '<script>alert(1)</script>' },
        { nickname: LONG },
        { nickname: '' },
        { gender: 0 },
        { email: 'a@b' },
        { remark: LONG },
        { remark: '<iframe src=x>' },
        { version: 'one' },
        { name: 42 },
      ],
      teacher,
    );
  });

  it('the admin and parents may not', async () => {
    await expectForbidden('post', 'teacherSaveInfo', { nickname: '越权' }, [admin, parent]);
  });
});

describe('duty pickers', () => {
  it('list only on-job staff of the school with that duty or role', async () => {
    const shuttle = await add({ name: '接送老师', duties: ['shuttle'] });
    const tutor = await add({ name: '辅导老师', duties: ['tutor'] });
    const headDuty = await add({ name: '代班主任', duties: ['head'] });
    const headRole = await add({ name: '正班主任', role: 5 });
    const left = await add({ name: '走了老师', role: 5, duties: ['shuttle', 'tutor', 'head'] });
    await t.post(api('setLeave'), admin).send({ id: left.id });
    const theirs = await otherTeacher();
    const ids = async (action: string, token: string) => {
      const res = await t.get(`${api(action)}?limit=100`, token);
      expect(res.body.code).toBe(Code.Ok);
      expect(res.body.data).toMatchObject({ page: 1, limit: 100, total: res.body.data.list.length });
      expect(Object.keys(res.body.data.list[0] ?? {}).sort()).toEqual(['duties', 'id', 'mobile', 'name', 'nickname', 'role']);
      return (res.body.data.list as Staff[]).map((r) => r.id);
    };
    const check = (got: number[], yes: number[], no: number[]) => {
      expect(got).toEqual(expect.arrayContaining(yes));
      for (const id of no) expect(got).not.toContain(id);
    };
    const all = [shuttle.id, tutor.id, headDuty.id, headRole.id];
    const except = (...keep: number[]) => all.filter((id) => !keep.includes(id));
    const never = [left.id, theirs.id, t.demo.users.admin, t.demo.users.parent];
    check(await ids('shuttleTeacher', admin), [shuttle.id], [...except(shuttle.id), ...never]);
    check(await ids('tutorTeacher', admin), [tutor.id], [...except(tutor.id), ...never]);
    check(await ids('selectClassTeacher', admin), [headDuty.id, headRole.id, t.demo.users.adviser], [shuttle.id, tutor.id, ...never]);
    for (const token of [teacher, adviser]) {
      check(await ids('teacherShuttleTeacher', token), [shuttle.id], [...except(shuttle.id), ...never]);
      check(await ids('teacherTutorTeacher', token), [tutor.id], [...except(tutor.id), ...never]);
    }
    const search = await t.get(`${api('shuttleTeacher')}?keyword=${encodeURIComponent('接送')}`, admin);
    expect(search.body.data.list.map((r: Staff) => r.id)).toEqual([shuttle.id]);
  });

  it('bad input answers code 100', async () => {
    for (const action of ['selectClassTeacher', 'shuttleTeacher', 'tutorTeacher']) await expectRejected('get', action, [...queryBad, 'duty=head']);
    for (const action of ['teacherShuttleTeacher', 'teacherTutorTeacher']) await expectRejected('get', action, queryBad, teacher);
  });

  it('the admin pickers are for the admin, the teacher pickers for teachers and head teachers', async () => {
    for (const action of ['selectClassTeacher', 'shuttleTeacher', 'tutorTeacher'])
      await expectForbidden('get', action, {}, [teacher, adviser, parent]);
    for (const action of ['teacherShuttleTeacher', 'teacherTutorTeacher']) await expectForbidden('get', action, {}, [admin, parent]);
  });
});
