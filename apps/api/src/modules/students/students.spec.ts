import { Code } from '@wantuo/shared';
import { snapshot, startTestApp, statementsOf, type TestApp } from '../../../test/harness';

let t: TestApp;
let admin: string;
let teacher: string;
let adviser: string;
let parent: string;
let other: { schoolId: number; adminToken: string };
let otherStudentId: number;
beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true });
  [admin, teacher, adviser, parent] = await Promise.all([t.login('admin'), t.login('teacher'), t.login('adviser'), t.login('parent')]);
  other = await t.otherSchool();
  const res = await t
    .post(ADD, other.adminToken)
    .send({ name: '外校学生', guardians: [{ name: '外校家长', mobile: '13912345678', relation: '母亲' }] });
  expect(res.body.code).toBe(Code.Ok);
  otherStudentId = res.body.data.id;
});
afterAll(() => t.close());

const P = '/api/index/';
const LIST = `${P}studentList`;
const INFO = `${P}studentInfo`;
const CHECK = `${P}checkStudent`;
const ADD = `${P}addStudent`;
const DEL = `${P}delStudent`;
const GRADES = `${P}schoolGrade`;
const SETTING_INFO = `${P}studentSettingInfo`;
const SETTING = `${P}studentSetting`;
const T_LIST = `${P}teacherStudentList`;
const T_INFO = `${P}teacherStudentInfo`;
const GROWTH = `${P}teacherStudentGrowth`;
const COMMENT = `${P}overallComment`;
const FORBIDDEN = '当前账号没有权限执行此操作';
const LONG = 'x'.repeat(10_000);

let nextMobile = 0;
const freshMobile = () => `1360000${String(++nextMobile).padStart(4, '0')}`;

async function studentId(name: string): Promise<number> {
  const { rows } = await t.sql.query(`select id from students where name = $1 and school_id = $2`, [name, t.demo.schoolId]);
  return rows[0].id;
}

async function add(over: Record<string, unknown> = {}) {
  const res = await t.post(ADD, admin).send({
    name: '新同学',
    gender: 1,
    birthday: '2018-04-01',
    day_school: '实验小学',
    grade: '二年级',
    class_name: '6班',
    guardians: [{ name: '新妈妈', mobile: freshMobile(), relation: '母亲' }],
    ...over,
  });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data;
}

/** calls with each input and expects code 100 and nothing written */
async function rejects(
  call: (input: Record<string, unknown>) => Promise<{ body: { code: number; msg: string } }>,
  inputs: Record<string, unknown>[],
) {
  for (const input of inputs) {
    const before = await snapshot(t.sql);
    const res = await call(input);
    expect({ input, code: res.body.code }).toEqual({ input, code: Code.Error });
    expect(typeof res.body.msg).toBe('string');
    expect(await snapshot(t.sql)).toEqual(before);
  }
}
const getQ = (path: string, token: string) => (input: Record<string, unknown>) => t.get(path, token).query(input as Record<string, string>);
const postB = (path: string, token: string) => (input: Record<string, unknown>) => t.post(path, token).send(input);

async function forbidden(method: 'get' | 'post', path: string, tokens: string[]) {
  for (const token of tokens) {
    const before = await snapshot(t.sql);
    const res = method === 'get' ? await t.get(path, token) : await t.post(path, token).send({});
    expect(res.body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
    expect(await snapshot(t.sql)).toEqual(before);
  }
}

describe('addStudent', () => {
  it('creates the student with a new parent account (no password, p<mobile>) and pick-up people', async () => {
    const mobile = freshMobile();
    const s = await add({
      name: '林小满',
      allergies: '芒果',
      notes: '周三学钢琴',
      needs_shuttle: true,
      tutoring_type: '作业辅导',
      photo_url: '/uploads/2026/11/a.png',
      guardians: [
        { name: '林妈妈', mobile, relation: '母亲' },
        { name: '陈家长', mobile: '13800000006', relation: '父亲', is_primary: true },
      ],
      pickup_people: [{ name: '林奶奶', relation: '祖母', mobile: '13712345678' }],
    });
    expect(s).toMatchObject({
      name: '林小满',
      gender: 1,
      birthday: '2018-04-01',
      day_school: '实验小学',
      grade: '二年级',
      class_name: '6班',
      allergies: '芒果',
      notes: '周三学钢琴',
      needs_shuttle: true,
      needs_dinner: false,
      tutoring_type: '作业辅导',
      status: 1,
      version: 1,
      care_class: null,
      photo_url: '/uploads/2026/11/a.png',
      pickup_people: [{ id: expect.any(Number), name: '林奶奶', relation: '祖母', mobile: '13712345678', photo_url: null }],
    });
    // the existing demo parent is linked (and primary), the new mobile gets a parent account
    expect(s.guardians).toEqual([
      { user_id: t.demo.users.parent, name: '陈家长', mobile: '13800000006', relation: '父亲', is_primary: true },
      { user_id: expect.any(Number), name: '林妈妈', mobile, relation: '母亲', is_primary: false },
    ]);
    const { rows } = await t.sql.query(`select * from users where mobile = $1`, [mobile]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ role: 6, school_id: t.demo.schoolId, username: `p${mobile}`, nickname: '林妈妈', password_hash: null });
  });

  it('one guardian can have several children; the first guardian is primary when none is marked', async () => {
    const mobile = freshMobile();
    const a = await add({ name: '周一', guardians: [{ name: '周妈妈', mobile, relation: '母亲' }] });
    const b = await add({ name: '周二', guardians: [{ name: '周妈妈', mobile, relation: '母亲' }] });
    expect(a.guardians[0].user_id).toBe(b.guardians[0].user_id);
    expect(a.guardians[0].is_primary).toBe(true);
  });

  it('a parent mobile already used by another school gets a unique user name', async () => {
    const s = await add({ name: '跨校', guardians: [{ name: '外校家长', mobile: '13912345678', relation: '母亲' }] });
    const { rows } = await t.sql.query(`select username, school_id from users where id = $1`, [s.guardians[0].user_id]);
    expect(rows[0].school_id).toBe(t.demo.schoolId);
    expect(rows[0].username).toMatch(/^p13912345678_[0-9a-f]{8}$/);
  });

  it('refuses a duplicate (same name and guardian mobile) and a staff mobile, writing nothing', async () => {
    const before = await snapshot(t.sql);
    const dup = await t.post(ADD, admin).send({ name: '陈小雨', guardians: [{ name: '陈家长', mobile: '13800000006', relation: '母亲' }] });
    expect(dup.body).toMatchObject({ code: Code.Error, msg: '已存在学生“陈小雨”且监护人手机为 13800000006，请勿重复添加' });
    const staff = await t.post(ADD, admin).send({ name: '某某', guardians: [{ name: '李老师', mobile: '13800000002', relation: '父亲' }] });
    expect(staff.body).toMatchObject({ code: Code.Error, msg: '手机号 13800000002 已被本机构的教职工账号使用，不能作为监护人' });
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const g = [{ name: '甲', mobile: '13600009999', relation: '母亲' }];
    await rejects(postB(ADD, admin), [
      {},
      { name: '张三' },
      { guardians: g },
      { name: '', guardians: g },
      { name: LONG, guardians: g },
      { name: 123, guardians: g },
      { name: '<b>张</b>', guardians: g },
      { name: "x'; drop table students; --", guardians: g },
      { name: '张三', guardians: [] },
      { name: '张三', guardians: 'x' },
      { name: '张三', guardians: [{ name: '甲', mobile: '123', relation: '母亲' }] },
      { name: '张三', guardians: [{ name: '甲', mobile: '13600009999' }] },
      { name: '张三', guardians: [...g, ...g] },
      {
        name: '张三',
        guardians: [
          { ...g[0], is_primary: true },
          { name: '乙', mobile: '13600009998', relation: '父亲', is_primary: true },
        ],
      },
      { name: '张三', guardians: g, gender: 3 },
      { name: '张三', guardians: g, gender: '1' },
      { name: '张三', guardians: g, birthday: '2018-02-30' },
      { name: '张三', guardians: g, birthday: '2999-01-01' },
      { name: '张三', guardians: g, photo_url: 'javascript:alert(1)' },
      { name: '张三', guardians: g, allergies: LONG },
      { name: '张三', guardians: g, notes: '<script>alert(1)</script>' },
      { name: '张三', guardians: g, needs_shuttle: 'yes' },
      { name: '张三', guardians: g, pickup_people: [{ name: '乙', relation: '父亲', mobile: 'x' }] },
      { name: '张三', guardians: g, pickup_people: [{ id: 1, name: '乙', relation: '父亲', mobile: '13600009998' }] },
      { name: '张三', guardians: g, status: 0 },
      { name: '张三', guardians: g, school_id: 1 },
    ]);
  });

  it('a wrong role is refused', () => forbidden('post', ADD, [teacher, adviser, parent]));

  it('the school is the session school: the other school admin adds into its own school only', async () => {
    const { rows } = await t.sql.query(`select school_id from students where id = $1`, [otherStudentId]);
    expect(rows[0].school_id).toBe(other.schoolId);
    // the same name and mobile in another school is no duplicate
    const res = await t
      .post(ADD, other.adminToken)
      .send({ name: '陈小雨', guardians: [{ name: '陈家长', mobile: '13800000006', relation: '母亲' }] });
    expect(res.body.code).toBe(Code.Ok);
    const { rows: u } = await t.sql.query(`select school_id from users where id = $1`, [res.body.data.guardians[0].user_id]);
    expect(u[0].school_id).toBe(other.schoolId);
  });
});

describe('studentList', () => {
  it('lists active students newest first with guardians and care class, paged', async () => {
    const s = await add({ name: '列表新生' });
    const res = await t.get(`${LIST}?page=1&limit=5`, admin);
    const { rows } = await t.sql.query(`select count(*)::int as n from students where school_id = $1 and status = 1`, [t.demo.schoolId]);
    expect(res.body).toMatchObject({ code: Code.Ok, data: { total: rows[0].n, page: 1, limit: 5 } });
    expect(res.body.data.list).toHaveLength(5);
    expect(res.body.data.list[0]).toMatchObject({ id: s.id, name: '列表新生', guardians: [{ name: '新妈妈', relation: '母亲' }] });
    const ids = res.body.data.list.map((r: { id: number }) => r.id);
    expect([...ids].sort((a: number, b: number) => b - a)).toEqual(ids);
    const all = await t.get(`${LIST}?limit=100`, admin);
    const chen = all.body.data.list.find((r: { name: string }) => r.name === '陈小雨');
    expect(chen).toMatchObject({
      care_class: { name: '阳光一班' },
      guardians: [{ name: '陈家长', mobile: '13800000006', relation: '父亲', is_primary: true }],
    });
    expect(all.body.data.list.some((r: { name: string }) => r.name === '林嘉豪' || r.name === '外校学生')).toBe(false);
  });

  it('searches by name or guardian mobile and filters by grade, class, day school, status, care class', async () => {
    const names = async (q: string) => {
      const res = await t.get(`${LIST}?limit=100&${q}`, admin);
      expect(res.body.code).toBe(Code.Ok);
      return (res.body.data.list as Array<{ name: string }>).map((r) => r.name).sort();
    };
    expect(await names(`keyword=${encodeURIComponent('小雨')}`)).toEqual(['陈小雨']);
    expect(await names('keyword=13800000006')).toEqual(expect.arrayContaining(['陈小雨', '陈小阳']));
    expect(await names('keyword=1380000000')).toEqual(expect.arrayContaining(['陈小雨', '陈小阳']));
    expect(await names(`keyword=${encodeURIComponent('%')}`)).toEqual([]);
    expect(await names(`grade=${encodeURIComponent('四年级')}&class_name=${encodeURIComponent('3班')}`)).toEqual(['赵雨桐']);
    expect(await names(`day_school=${encodeURIComponent('育才小学')}&grade=${encodeURIComponent('二年级')}`)).toEqual(['孙浩宇', '高雅琪'].sort());
    expect(await names('status=0')).toEqual(['林嘉豪', '郭思远'].sort());
    expect(await names(`class_id=${t.demo.classes!.second}`)).toHaveLength(6);
    expect(await names(`class_id=${t.demo.classes!.second}&keyword=${encodeURIComponent('吴')}`)).toEqual(['吴宇轩']);
    expect(await names('status=&grade=&keyword=')).toEqual(await names(''));
  });

  it('runs a constant number of queries whatever the page size', async () => {
    const small = (await statementsOf(t, () => t.get(`${LIST}?limit=2`, admin))).length;
    const large = (await statementsOf(t, () => t.get(`${LIST}?limit=100`, admin))).length;
    expect(large).toBe(small);
    // the session lookup (counted since it is a compiled statement), rows with total, guardians of the page, the reads' log
    expect(small).toBeGreaterThan(0);
    expect(small).toBeLessThanOrEqual(4);
  });

  it('bad input answers code 100', async () => {
    await rejects(getQ(LIST, admin), [
      { status: '2' },
      { status: 'x' },
      { page: '0' },
      { limit: '101' },
      { class_id: '-1' },
      { class_id: "1' or 1=1" },
      { keyword: LONG },
      { grade: LONG },
      { keyword: '<script>' },
      { sort: 'id' },
    ]);
  });

  it('a wrong role is refused', () => forbidden('get', LIST, [teacher, adviser, parent]));

  it('another school: its students never show, its care class id matches nothing', async () => {
    const res = await t.get(`${LIST}?limit=100&keyword=${encodeURIComponent('外校')}`, admin);
    expect(res.body.data.total).toBe(0);
    const { rows } = await t.sql.query(`insert into care_classes (school_id, name, capacity) values ($1, '外校班', 10) returning id`, [
      other.schoolId,
    ]);
    await t.sql.query(`insert into care_class_students (school_id, class_id, student_id) values ($1, $2, $3)`, [
      other.schoolId,
      rows[0].id,
      otherStudentId,
    ]);
    const byClass = await t.get(`${LIST}?class_id=${rows[0].id}`, admin);
    expect(byClass.body.data).toMatchObject({ total: 0, list: [] });
  });
});

describe('studentInfo', () => {
  it('answers profile, guardians, pick-up people, care class with head teacher, settings', async () => {
    const id = await studentId('李欣怡');
    const res = await t.get(`${INFO}?id=${id}`, admin);
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: {
        id,
        name: '李欣怡',
        gender: 2,
        birthday: '2018-05-09',
        allergies: '花生过敏',
        needs_shuttle: false,
        needs_dinner: true,
        care_class: { id: t.demo.classes!.running, name: '阳光一班', head_teacher_id: t.demo.users.adviser, head_teacher_name: '张班主任' },
        guardians: [{ relation: expect.any(String), is_primary: true }],
        pickup_people: [expect.objectContaining({ id: expect.any(Number) }), expect.objectContaining({ relation: '祖父母' })],
      },
    });
    // and (issue 21) its contracts, points balance and teaching classes: student-guardians.spec.ts
    expect(res.body.data).toMatchObject({
      contracts: expect.any(Array),
      contracts_total: expect.any(Number),
      points_balance: expect.any(Number),
      teaching_classes: expect.any(Array),
    });
  });

  it('still answers for an archived student, with its status', async () => {
    const res = await t.get(`${INFO}?id=${await studentId('林嘉豪')}`, admin);
    expect(res.body.data).toMatchObject({ status: 0, archived_at: expect.any(String) });
  });

  it('bad input answers code 100', () => rejects(getQ(INFO, admin), [{}, { id: '0' }, { id: 'abc' }, { id: LONG }, { id: '1;drop' }]));
  it('a wrong role is refused', () => forbidden('get', INFO, [teacher, adviser, parent]));
  it('another school id is not found', async () => {
    const res = await t.get(`${INFO}?id=${otherStudentId}`, admin);
    expect(res.body).toMatchObject({ code: Code.Error, msg: '该学生不存在' });
    expect((await t.get(`${INFO}?id=99999999`, admin)).body.msg).toBe('该学生不存在');
  });
});

describe('checkStudent', () => {
  it('tells whether an active student with that name and guardian mobile exists', async () => {
    const yes = await t.get(`${CHECK}?name=${encodeURIComponent('陈小雨')}&mobile=13800000006`, admin);
    expect(yes.body).toMatchObject({ code: Code.Ok, data: { exists: true, student_id: await studentId('陈小雨') } });
    const no = await t.get(`${CHECK}?name=${encodeURIComponent('陈小雨')}&mobile=13800000007`, admin);
    expect(no.body.data).toEqual({ exists: false, student_id: null });
    // archived students do not count
    const { rows } = await t.sql.query(`select u.mobile from student_guardians g join users u on u.id = g.user_id where g.student_id = $1`, [
      await studentId('林嘉豪'),
    ]);
    const archived = await t.get(`${CHECK}?name=${encodeURIComponent('林嘉豪')}&mobile=${rows[0].mobile}`, admin);
    expect(archived.body.data.exists).toBe(false);
  });
  it('bad input answers code 100', () =>
    rejects(getQ(CHECK, admin), [
      {},
      { name: '张三' },
      { mobile: '13800000006' },
      { name: LONG, mobile: '13800000006' },
      { name: '张三', mobile: 'abc' },
      { name: '<i>x</i>', mobile: '13800000006' },
    ]));
  it('a wrong role is refused', () => forbidden('get', CHECK, [teacher, adviser, parent]));
  it('another school students are not seen', async () => {
    const res = await t.get(`${CHECK}?name=${encodeURIComponent('外校学生')}&mobile=13912345678`, admin);
    expect(res.body.data.exists).toBe(false);
  });
});

describe('delStudent', () => {
  it('archives: gone from the list, info still readable, version bumped; twice is refused', async () => {
    const s = await add({ name: '要归档' });
    const res = await t.post(DEL, admin).send({ id: s.id, version: 1 });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { id: s.id, status: 0, version: 2 } });
    const list = await t.get(`${LIST}?keyword=${encodeURIComponent('要归档')}`, admin);
    expect(list.body.data.total).toBe(0);
    const archived = await t.get(`${LIST}?status=0&keyword=${encodeURIComponent('要归档')}`, admin);
    expect(archived.body.data.total).toBe(1);
    expect((await t.get(`${INFO}?id=${s.id}`, admin)).body.data).toMatchObject({ status: 0, archived_at: expect.any(String) });
    expect((await t.post(DEL, admin).send({ id: s.id })).body).toMatchObject({ code: Code.Error, msg: '该学生已归档' });
    // the same name and guardian may be added again after archiving
    await add({ name: '要归档', guardians: [{ name: '新妈妈', mobile: s.guardians[0].mobile, relation: '母亲' }] });
  });
  it('a stale version is a conflict', async () => {
    const s = await add({ name: '版本冲突' });
    const res = await t.post(DEL, admin).send({ id: s.id, version: 7 });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '数据已被他人修改，请刷新后重试' });
  });
  it('bad input answers code 100', () => rejects(postB(DEL, admin), [{}, { id: '1' }, { id: 0 }, { id: 1.5 }, { id: 1, version: 0 }, { id: LONG }]));
  it('a wrong role is refused', () => forbidden('post', DEL, [teacher, adviser, parent]));
  it('another school id is not found and stays active', async () => {
    const before = await snapshot(t.sql);
    const res = await t.post(DEL, admin).send({ id: otherStudentId });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '该学生不存在' });
    expect(await snapshot(t.sql)).toEqual(before);
  });
});

describe('schoolGrade', () => {
  it('lists the grades and classes among active students', async () => {
    for (const token of [admin, teacher, adviser]) {
      const res = await t.get(GRADES, token);
      expect(res.body.code).toBe(Code.Ok);
      const grades = res.body.data as Array<{ grade: string; classes: string[] }>;
      expect(grades.find((g) => g.grade === '四年级')).toEqual({ grade: '四年级', classes: ['1班', '2班', '3班'] });
      // only archived students are in 五年级
      expect(grades.some((g) => g.grade === '五年级')).toBe(false);
    }
  });
  it('bad input answers code 100', () => rejects(getQ(GRADES, admin), [{ school_id: '1' }, { grade: LONG }]));
  it('a wrong role is refused', () => forbidden('get', GRADES, [parent]));
  it('another school grades are its own', async () => {
    await t
      .post(ADD, other.adminToken)
      .send({ name: '外校二', grade: '九年级', class_name: '9班', guardians: [{ name: '外', mobile: '13912340000', relation: '母亲' }] });
    const mine = await t.get(GRADES, admin);
    expect(mine.body.data.some((g: { grade: string }) => g.grade === '九年级')).toBe(false);
    const theirs = await t.get(GRADES, other.adminToken);
    expect(theirs.body.data).toContainEqual({ grade: '九年级', classes: ['9班'] });
  });
});

describe('studentSettingInfo and studentSetting', () => {
  it('the admin reads and saves care settings, allergies, pick-up people (kept ids) and the profile, on the version read', async () => {
    const s = await add({
      name: '设置生',
      pickup_people: [
        { name: '甲', relation: '舅舅', mobile: '13711110001' },
        { name: '乙', relation: '姑姑', mobile: '13711110002' },
      ],
    });
    const info = await t.get(`${SETTING_INFO}?id=${s.id}`, admin);
    expect(info.body.data).toMatchObject({
      id: s.id,
      name: '设置生',
      needs_shuttle: false,
      needs_dinner: false,
      tutoring_type: null,
      allergies: null,
      version: 1,
    });
    const [keep] = info.body.data.pickup_people;
    const res = await t.post(SETTING, admin).send({
      id: s.id,
      version: 1,
      needs_shuttle: true,
      needs_dinner: true,
      tutoring_type: '一对一辅导',
      allergies: '牛奶',
      pickup_people: [
        { id: keep.id, name: '甲', relation: '舅舅', mobile: '13711110009' },
        { name: '丙', relation: '爷爷', mobile: '13711110003' },
      ],
      grade: '三年级',
      notes: '',
    });
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: {
        version: 2,
        needs_shuttle: true,
        needs_dinner: true,
        tutoring_type: '一对一辅导',
        allergies: '牛奶',
        grade: '三年级',
        notes: null,
        name: '设置生',
      },
    });
    expect(res.body.data.pickup_people).toEqual([
      { id: keep.id, name: '甲', relation: '舅舅', mobile: '13711110009', photo_url: null },
      { id: expect.any(Number), name: '丙', relation: '爷爷', mobile: '13711110003', photo_url: null },
    ]);
    // the removed one is kept as history
    const { rows } = await t.sql.query(`select count(*)::int as n from pickup_people where student_id = $1 and deleted_at is not null`, [s.id]);
    expect(rows[0].n).toBe(1);
    // stale version
    const stale = await t.post(SETTING, admin).send({ id: s.id, version: 1, needs_dinner: false });
    expect(stale.body).toMatchObject({ code: Code.Error, msg: '数据已被他人修改，请刷新后重试' });
  });

  it('a head teacher edits own class students care settings only, not the profile', async () => {
    const id = await studentId('王子涵');
    const info = await t.get(`${SETTING_INFO}?id=${id}`, adviser);
    expect(info.body.code).toBe(Code.Ok);
    const ok = await t.post(SETTING, adviser).send({ id, version: info.body.data.version, needs_dinner: false });
    expect(ok.body).toMatchObject({ code: Code.Ok, data: { needs_dinner: false } });
    const profile = await t.post(SETTING, adviser).send({ id, version: ok.body.data.version, name: '改名' });
    expect(profile.body).toMatchObject({ code: Code.Error, msg: '只有机构管理员可以修改学生档案' });
    const notMine = await studentId('吴宇轩');
    expect((await t.get(`${SETTING_INFO}?id=${notMine}`, adviser)).body).toMatchObject({ code: Code.Error, msg: '该学生不存在' });
    expect((await t.post(SETTING, adviser).send({ id: notMine, version: 1, needs_dinner: false })).body.msg).toBe('该学生不存在');
  });

  it('a pick-up person id of another student is refused, nothing written', async () => {
    const a = await studentId('周梓萱');
    const { rows } = await t.sql.query(`select id from pickup_people where student_id = $1 limit 1`, [await studentId('黄俊熙')]);
    const { rows: v } = await t.sql.query(`select version from students where id = $1`, [a]);
    const before = await snapshot(t.sql);
    const res = await t
      .post(SETTING, admin)
      .send({ id: a, version: v[0].version, pickup_people: [{ id: rows[0].id, name: '偷', relation: '父亲', mobile: '13711119999' }] });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '接送人不存在或不属于该学生' });
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('bad input answers code 100', async () => {
    await rejects(getQ(SETTING_INFO, admin), [{}, { id: 'x' }, { id: LONG }]);
    const id = await studentId('周梓萱');
    await rejects(postB(SETTING, admin), [
      {},
      { id },
      { id, version: '1' },
      { id, version: 1, needs_shuttle: 'x' },
      { id, version: 1, tutoring_type: LONG },
      { id, version: 1, allergies: '<img src=x onerror=1>' },
      { id, version: 1, pickup_people: [{ name: '', relation: '父', mobile: '13711110001' }] },
      { id, version: 1, pickup_people: new Array(11).fill({ name: '甲', relation: '父', mobile: '13711110001' }) },
      { id, version: 1, status: 0 },
      { id, version: 1, name: "a'; delete from students; --" },
    ]);
  });

  it('a wrong role is refused', async () => {
    await forbidden('get', SETTING_INFO, [teacher, parent]);
    await forbidden('post', SETTING, [teacher, parent]);
  });

  it('another school id is not found', async () => {
    expect((await t.get(`${SETTING_INFO}?id=${otherStudentId}`, admin)).body.msg).toBe('该学生不存在');
    const before = await snapshot(t.sql);
    expect((await t.post(SETTING, admin).send({ id: otherStudentId, version: 1, needs_dinner: true })).body.msg).toBe('该学生不存在');
    expect(await snapshot(t.sql)).toEqual(before);
  });
});

describe('teacher actions', () => {
  it('teacherStudentList: the students of the classes the teacher heads or has a duty in', async () => {
    const names = async (token: string, q = '') => {
      const res = await t.get(`${T_LIST}?limit=100${q}`, token);
      expect(res.body.code).toBe(Code.Ok);
      return res.body.data as { list: Array<{ name: string; care_class: { name: string } }>; total: number };
    };
    const mine = await names(teacher);
    expect(mine.total).toBe(10);
    expect(mine.list.every((r) => r.care_class.name === '阳光一班')).toBe(true);
    expect((await names(adviser)).total).toBe(10);
    expect((await names(adviser, `&keyword=${encodeURIComponent('陈')}`)).list.map((r) => r.name).sort()).toEqual(['陈小阳', '陈小雨']);
    expect((await names(adviser, `&class_id=${t.demo.classes!.second}`)).total).toBe(0);
    // a duty for one student of the second class adds only that student
    const wu = await studentId('吴宇轩');
    await t.sql.query(`insert into duty_assignments (school_id, class_id, student_id, teacher_id, duty) values ($1, $2, $3, $4, 'shuttle')`, [
      t.demo.schoolId,
      t.demo.classes!.second,
      wu,
      t.demo.users.teacher,
    ]);
    const more = await names(teacher);
    expect(more.total).toBe(11);
    expect(more.list.map((r) => r.name)).toContain('吴宇轩');
    await t.sql.query(`delete from duty_assignments where student_id = $1`, [wu]);
  });

  it('teacherStudentInfo: own students only', async () => {
    const id = await studentId('陈小雨');
    const res = await t.get(`${T_INFO}?id=${id}`, teacher);
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: { id, name: '陈小雨', guardians: [{ mobile: '13800000006' }], pickup_people: expect.any(Array) },
    });
    expect((await t.get(`${T_INFO}?id=${await studentId('吴宇轩')}`, teacher)).body).toMatchObject({ code: Code.Error, msg: '该学生不存在' });
  });

  it('overallComment writes an overall comment; growth lists comments newest first, paged; a parent sees own children only', async () => {
    const id = await studentId('陈小阳');
    const first = await t.post(COMMENT, adviser).send({ student_id: id, period: '2026 秋季学期', content: '作业认真，进步明显。' });
    expect(first.body).toMatchObject({
      code: Code.Ok,
      data: {
        id: expect.any(Number),
        student_id: id,
        kind: 'overall',
        period: '2026 秋季学期',
        content: '作业认真，进步明显。',
        author_id: t.demo.users.adviser,
        author_name: '张班主任',
      },
    });
    const second = await t.post(COMMENT, teacher).send({ student_id: id, period: '11 月', content: '数学进步。' });
    expect(second.body.code).toBe(Code.Ok);
    for (const token of [teacher, adviser, parent]) {
      const res = await t.get(`${GROWTH}?student_id=${id}&limit=1`, token);
      expect(res.body).toMatchObject({
        code: Code.Ok,
        data: { total: 2, page: 1, limit: 1, list: [{ id: second.body.data.id, author_name: '李老师' }] },
      });
    }
    // the admin reads the same record through studentComments
    const forAdmin = await t.get(`${P}studentComments?student_id=${id}`, admin);
    expect(forAdmin.body).toMatchObject({ code: Code.Ok, data: { total: 2, list: [{ id: second.body.data.id }, { id: first.body.data.id }] } });
    const page2 = await t.get(`${GROWTH}?student_id=${id}&limit=1&page=2`, teacher);
    expect(page2.body.data.list[0].id).toBe(first.body.data.id);
    // the parent is not a guardian of 王子涵
    expect((await t.get(`${GROWTH}?student_id=${await studentId('王子涵')}`, parent)).body).toMatchObject({ code: Code.Error, msg: '该学生不存在' });
    // a teacher without a duty for 吴宇轩
    const before = await snapshot(t.sql);
    expect((await t.post(COMMENT, teacher).send({ student_id: await studentId('吴宇轩'), period: 'x', content: 'y' })).body.msg).toBe('该学生不存在');
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('bad input answers code 100', async () => {
    await rejects(getQ(T_LIST, teacher), [{ page: '0' }, { limit: '1000' }, { keyword: LONG }, { class_id: 'x' }]);
    await rejects(getQ(T_INFO, teacher), [{}, { id: '-3' }, { id: LONG }]);
    await rejects(getQ(GROWTH, teacher), [{}, { student_id: 'x' }, { student_id: '1', limit: '0' }]);
    await rejects(getQ(`${P}studentComments`, admin), [{}, { student_id: 'x' }, { student_id: LONG }, { student_id: '1', page: '0' }]);
    const id = await studentId('陈小阳');
    await rejects(postB(COMMENT, teacher), [
      {},
      { student_id: id },
      { student_id: id, period: 'x' },
      { student_id: id, period: 'x', content: '' },
      { student_id: id, period: 'x', content: 'y'.repeat(2001) },
      { student_id: id, period: LONG, content: 'y' },
      { student_id: id, period: 'x', content: '<script>alert(1)</script>' },
      { student_id: String(id), period: 'x', content: 'y' },
      { student_id: id, period: 'x', content: 'y', kind: 'growth' },
    ]);
  });

  it('a wrong role is refused', async () => {
    await forbidden('get', T_LIST, [admin, parent]);
    await forbidden('get', T_INFO, [admin, parent]);
    await forbidden('get', GROWTH, [admin]);
    await forbidden('get', `${P}studentComments`, [teacher, adviser, parent]);
    await forbidden('post', COMMENT, [admin, parent]);
  });

  it('another school student is not found', async () => {
    expect((await t.get(`${T_INFO}?id=${otherStudentId}`, teacher)).body.msg).toBe('该学生不存在');
    expect((await t.get(`${GROWTH}?student_id=${otherStudentId}`, teacher)).body.msg).toBe('该学生不存在');
    expect((await t.get(`${P}studentComments?student_id=${otherStudentId}`, admin)).body.msg).toBe('该学生不存在');
    const before = await snapshot(t.sql);
    expect((await t.post(COMMENT, teacher).send({ student_id: otherStudentId, period: 'x', content: 'y' })).body.msg).toBe('该学生不存在');
    expect(await snapshot(t.sql)).toEqual(before);
  });
});
