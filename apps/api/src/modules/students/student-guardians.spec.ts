import { Code } from '@wantuo/shared';
import { snapshot, startTestApp, statementsOf, type TestApp } from '../../../test/harness';
import { SCHOOL_TODAY } from '../../core/database/sql-kit';

/** saveStudentGuardians and studentGuardianLog (issue 21), and what studentInfo carries besides the profile. */

let t: TestApp;
let admin: string;
let teacher: string;
let adviser: string;
let parent: string;
let other: { schoolId: number; adminToken: string };
let otherStudentId: number;

const P = '/api/index/';
const ADD = `${P}addStudent`;
const INFO = `${P}studentInfo`;
const SAVE = `${P}saveStudentGuardians`;
const LOG = `${P}studentGuardianLog`;
const SETTING = `${P}studentSetting`;
const FORBIDDEN = '当前账号没有权限执行此操作';

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

let nextMobile = 0;
const freshMobile = () => `1350000${String(++nextMobile).padStart(4, '0')}`;

interface Guardian {
  user_id: number;
  name: string;
  mobile: string;
  relation: string;
  is_primary: boolean;
}

async function newStudent(name: string, guardians = [{ name: '王妈妈', mobile: freshMobile(), relation: '母亲' }]) {
  const res = await t.post(ADD, admin).send({ name, guardians });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data as { id: number; version: number; guardians_version: number; guardians: Guardian[] };
}

/** the row counts of the harness plus the guardian history and versions */
async function written() {
  const { rows } = await t.sql.query(
    `select (select count(*) from student_guardian_changes)::int as changes, (select sum(guardians_version) from students)::int as gv,
            (select string_agg(student_id || ':' || user_id || ':' || relation || ':' || is_primary, ',' order by student_id, user_id) from student_guardians) as links`,
  );
  return { ...(await snapshot(t.sql)), ...rows[0] };
}

async function rejected(token: string, inputs: Record<string, unknown>[], msg?: string) {
  for (const input of inputs) {
    const before = await written();
    const res = await t.post(SAVE, token).send(input);
    expect({ input, code: res.body.code }).toEqual({ input, code: Code.Error });
    if (msg) expect(res.body.msg).toBe(msg);
    expect(await written()).toEqual(before);
  }
}

const asInput = (g: Guardian) => ({ name: g.name, mobile: g.mobile, relation: g.relation, is_primary: g.is_primary });

describe('saveStudentGuardians', () => {
  it('adds (a new mobile gets a parent account, a known one is linked), changes a relation, moves the primary, removes; each change is in the history', async () => {
    const s = await newStudent('郑小雨');
    expect(s.guardians_version).toBe(1);
    const [mother] = s.guardians;
    expect(mother.is_primary).toBe(true);
    const dadMobile = freshMobile();

    // add: a new mobile (a parent account is created as addStudent does) and the demo parent (linked), the new one primary
    const res = await t.post(SAVE, admin).send({
      student_id: s.id,
      version: 1,
      guardians: [
        { ...asInput(mother), is_primary: false },
        { name: '郑爸爸', mobile: dadMobile, relation: '父亲', is_primary: true },
        { name: '随便写', mobile: '13800000006', relation: '舅舅' },
      ],
    });
    expect(res.body).toMatchObject({ code: Code.Ok });
    const d = res.body.data;
    expect(d).toMatchObject({ id: s.id, guardians_version: 2, version: s.version });
    expect(d.guardians).toEqual([
      { user_id: expect.any(Number), name: '郑爸爸', mobile: dadMobile, relation: '父亲', is_primary: true },
      { user_id: mother.user_id, name: '王妈妈', mobile: mother.mobile, relation: '母亲', is_primary: false },
      // the existing account keeps its own name
      { user_id: t.demo.users.parent, name: '陈家长', mobile: '13800000006', relation: '舅舅', is_primary: false },
    ]);
    const { rows: dad } = await t.sql.query(`select role, school_id, username, name, password_hash from users where mobile = $1`, [dadMobile]);
    expect(dad).toEqual([{ role: 6, school_id: t.demo.schoolId, username: `p${dadMobile}`, name: '郑爸爸', password_hash: null }]);

    // change a relation, make the mother primary again, remove the demo parent
    const res2 = await t.post(SAVE, admin).send({
      student_id: s.id,
      version: 2,
      guardians: [
        { name: '郑爸爸', mobile: dadMobile, relation: '爸爸' },
        { ...asInput(mother), is_primary: true },
      ],
    });
    expect(res2.body).toMatchObject({ code: Code.Ok });
    expect(res2.body.data.guardians.map((g: Guardian) => [g.name, g.relation, g.is_primary])).toEqual([
      ['王妈妈', '母亲', true],
      ['郑爸爸', '爸爸', false],
    ]);
    expect(res2.body.data.guardians_version).toBe(3);

    // the history, newest first, with who and when
    const log = await t.get(LOG, admin).query({ student_id: s.id, limit: 10 });
    expect(log.body).toMatchObject({ code: Code.Ok, data: { total: 6, page: 1, limit: 10 } });
    const admins = await t.sql.query(`select id, name from users where username = 'admin'`);
    expect(
      log.body.data.list.map((c: Record<string, unknown>) => [c.kind, c.guardian_name, c.relation, c.old_relation, c.guardians_version]),
    ).toEqual([
      ['primary', '王妈妈', '母亲', null, 3],
      ['relation', '郑爸爸', '爸爸', '父亲', 3],
      ['removed', '陈家长', '舅舅', null, 3],
      ['primary', '郑爸爸', '父亲', null, 2],
      ['added', '陈家长', '舅舅', null, 2],
      ['added', '郑爸爸', '父亲', null, 2],
    ]);
    for (const c of log.body.data.list) {
      expect(c).toMatchObject({ actor_id: admins.rows[0].id, actor_name: admins.rows[0].name, created_at: expect.any(String) });
    }
    const page2 = await t.get(LOG, admin).query({ student_id: s.id, limit: 4, page: 2 });
    expect(page2.body.data.list.map((c: { kind: string }) => c.kind)).toEqual(['added', 'added']);

    // the profile's version is apart: a profile form read before the guardian changes still saves
    const setting = await t.post(SETTING, admin).send({ id: s.id, version: s.version, notes: '周五早接' });
    expect(setting.body).toMatchObject({ code: Code.Ok, data: { notes: '周五早接', guardians_version: 3 } });
  });

  it('the same list writes nothing and keeps the version', async () => {
    const s = await newStudent('郑小雪');
    const before = await written();
    const res = await t.post(SAVE, admin).send({ student_id: s.id, version: 1, guardians: s.guardians.map(asInput) });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { guardians_version: 1 } });
    expect(await written()).toEqual(before);
  });

  it('a stale version is a conflict, nothing written', async () => {
    const s = await newStudent('郑小霜');
    const ok = await t.post(SAVE, admin).send({ student_id: s.id, version: 1, guardians: [{ ...asInput(s.guardians[0]), relation: '妈妈' }] });
    expect(ok.body.code).toBe(Code.Ok);
    const before = await written();
    const res = await t.post(SAVE, admin).send({ student_id: s.id, version: 1, guardians: [{ ...asInput(s.guardians[0]), relation: '母亲' }] });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '数据已被他人修改，请刷新后重试' });
    expect(await written()).toEqual(before);
  });

  it('bad input (bad mobile, no guardian left, two primaries, none primary, ...) answers code 100 and writes nothing', async () => {
    const s = await newStudent('郑小露');
    const g = asInput(s.guardians[0]);
    const base = { student_id: s.id, version: 1 };
    await rejected(
      admin,
      [
        { ...base, guardians: [{ ...g, mobile: '1234' }] },
        { ...base, guardians: [g, { name: '李爸爸', mobile: '2380000000a', relation: '父亲' }] },
      ],
      '手机号格式不正确',
    );
    await rejected(admin, [{ ...base, guardians: [] }], '请至少填写一位监护人');
    await rejected(
      admin,
      [{ ...base, guardians: [g, { name: '李爸爸', mobile: freshMobile(), relation: '父亲', is_primary: true }] }],
      '只能有一位主监护人',
    );
    await rejected(
      admin,
      [
        {
          ...base,
          guardians: [
            { ...g, is_primary: false },
            { name: '李爸爸', mobile: freshMobile(), relation: '父亲' },
          ],
        },
      ],
      '请指定一位主监护人',
    );
    await rejected(admin, [{ ...base, guardians: [g, { ...g, is_primary: false, relation: '父亲' }] }], '监护人手机号不能重复');
    // a staff member's mobile cannot be a guardian (checked inside: the new parent accounts are not kept either)
    await rejected(
      admin,
      [
        {
          ...base,
          guardians: [g, { name: '新家长', mobile: freshMobile(), relation: '父亲' }, { name: '周老师', mobile: '13800000002', relation: '父亲' }],
        },
      ],
      '手机号 13800000002 已被本机构的教职工账号使用，不能作为监护人',
    );
    await rejected(admin, [
      {},
      { ...base },
      { ...base, guardians: 'x' },
      { ...base, version: 0, guardians: [g] },
      { ...base, version: '1', guardians: [g] },
      { student_id: 0, version: 1, guardians: [g] },
      { ...base, guardians: [{ ...g, name: '<b>x</b>' }] },
      { ...base, guardians: [{ ...g, relation: '' }] },
      { ...base, guardians: [{ ...g, user_id: 1 }] },
      { ...base, guardians: [g], extra: 1 },
      { ...base, guardians: Array.from({ length: 5 }, (_, i) => ({ name: '家长', mobile: freshMobile(), relation: '亲属', is_primary: i === 0 })) },
    ]);
    // unknown student
    await rejected(admin, [{ student_id: 2_000_000_000, version: 1, guardians: [g] }], '该学生不存在');
  });

  it("a wrong role is refused, nothing written (guardians are the admin's: teachers, head teachers and parents may not)", async () => {
    const s = await newStudent('郑小云');
    for (const token of [teacher, adviser, parent]) {
      const before = await written();
      const res = await t.post(SAVE, token).send({ student_id: s.id, version: 1, guardians: [{ ...asInput(s.guardians[0]), relation: '妈妈' }] });
      expect(res.body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
      expect(await written()).toEqual(before);
      const log = await t.get(LOG, token).query({ student_id: s.id });
      expect(log.body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
    }
  });

  it("another school's student is not found: nothing written, its history not readable", async () => {
    await rejected(
      admin,
      [{ student_id: otherStudentId, version: 1, guardians: [{ name: '外校家长', mobile: '13912345678', relation: '父亲', is_primary: true }] }],
      '该学生不存在',
    );
    const log = await t.get(LOG, admin).query({ student_id: otherStudentId });
    expect(log.body).toMatchObject({ code: Code.Error, msg: '该学生不存在' });
    // and the other school's admin cannot reach this school's student
    const s = await newStudent('郑小风');
    await rejected(
      other.adminToken,
      [{ student_id: s.id, version: 1, guardians: [{ ...asInput(s.guardians[0]), relation: '妈妈' }] }],
      '该学生不存在',
    );
  });

  it('the database keeps one primary per student and the history append-only', async () => {
    const s = await newStudent('郑小晴', [
      { name: '甲', mobile: freshMobile(), relation: '母亲' },
      { name: '乙', mobile: freshMobile(), relation: '父亲' },
    ]);
    await expect(t.sql.query(`update student_guardians set is_primary = true where student_id = $1`, [s.id])).rejects.toThrow(
      /student_guardians_one_primary_idx/,
    );
    await t
      .post(SAVE, admin)
      .send({ student_id: s.id, version: 1, guardians: s.guardians.map((g) => ({ ...asInput(g), is_primary: !g.is_primary })) });
    await expect(t.sql.query(`update student_guardian_changes set relation = 'x' where student_id = $1`, [s.id])).rejects.toThrow(/append-only/);
    await expect(t.sql.query(`delete from student_guardian_changes where student_id = $1`, [s.id])).rejects.toThrow(/append-only/);
  });
});

describe('studentGuardianLog', () => {
  it('bad input answers code 100', async () => {
    for (const q of [
      {},
      { student_id: '0' },
      { student_id: 'x' },
      { student_id: '1', limit: '101' },
      { student_id: '1', page: '0' },
      { student_id: '1', kind: 'added' },
    ]) {
      const res = await t.get(LOG, admin).query(q);
      expect({ q, code: res.body.code }).toEqual({ q, code: Code.Error });
    }
  });

  it('a student without changes has an empty history', async () => {
    const s = await newStudent('郑小冰');
    const res = await t.get(LOG, admin).query({ student_id: s.id });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { list: [], total: 0 } });
  });
});

describe('studentInfo: contracts, points balance, teaching classes', () => {
  async function fixtures(studentId: number, n: number) {
    const school = t.demo.schoolId;
    const { rows: pkgs } = await t.sql.query(
      `insert into contract_packages (school_id, name, kind, length, valid_months, price_fen) values
         ($1, '学期托管' || $2, 'term', 1, null, 300000), ($1, '十次卡' || $2, 'sessions', 10, 3, 80000) returning id`,
      [school, studentId],
    );
    const { rows: teachers } = await t.sql.query(`select id from users where username = 'teacher'`);
    for (let i = 0; i < n; i++) {
      // a term contract running from today (60 days), a sessions one ended, a sessions one running (8 of 10 left)
      const no = `T${studentId}-${i}-`;
      await t.sql.query(
        `with d as ${SCHOOL_TODAY}
         insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, units_total, units_used, list_price_fen, price_fen, status)
         select $1::int, $5::text || 'a', $2::int, $3::int, 'term', d.today, d.today + 59, null::int, 0, 300000, 300000, 'active' from d
         union all
         select $1::int, $5::text || 'b', $2::int, $4::int, 'sessions', d.today - 100, d.today - 10, 10, 4, 80000, 80000, 'expired' from d
         union all
         select $1::int, $5::text || 'c', $2::int, $4::int, 'sessions', d.today - 50, d.today + 40, 10, 2, 80000, 80000, 'active' from d`,
        [school, studentId, pkgs[0].id, pkgs[1].id, no],
      );
      const { rows: c } = await t.sql.query(
        `insert into teaching_classes (school_id, name, subject, teacher_id, capacity, sessions_count, fee_fen, status)
         values ($1, $2, '书法', $3, 20, 12, 50000, $4) returning id`,
        [school, `书法${studentId}-${i}`, teachers[0].id, i === 0 ? 0 : 1],
      );
      await t.sql.query(`insert into teaching_class_students (school_id, class_id, student_id) values ($1, $2, $3)`, [school, c[0].id, studentId]);
    }
    await t.sql.query(`insert into points_accounts (student_id, school_id, balance) values ($1, $2, 37)`, [studentId, school]);
  }

  it('carries the contracts (open first: number, package, state, period, remaining), the points balance and the teaching classes', async () => {
    const s = await newStudent('郑小满');
    const empty = await t.get(INFO, admin).query({ id: s.id });
    expect(empty.body.data).toMatchObject({ contracts: [], contracts_total: 0, points_balance: 0, teaching_classes: [], guardians_version: 1 });

    await fixtures(s.id, 1);
    const res = await t.get(INFO, admin).query({ id: s.id });
    expect(res.body.code).toBe(Code.Ok);
    const d = res.body.data;
    expect(d.points_balance).toBe(37);
    expect(d.contracts_total).toBe(3);
    expect(d.contracts.map((c: Record<string, unknown>) => [c.no, c.state, c.units_total, c.units_left, c.days_left])).toEqual([
      [`T${s.id}-0-a`, 'active', null, null, 60],
      [`T${s.id}-0-c`, 'active', 10, 8, null],
      [`T${s.id}-0-b`, 'expired', 10, 6, null],
    ]);
    expect(d.contracts[0]).toEqual({
      id: expect.any(Number),
      no: `T${s.id}-0-a`,
      package_name: `学期托管${s.id}`,
      kind: 'term',
      state: 'active',
      start_day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      end_day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      units_total: null,
      units_left: null,
      days_left: 60,
    });
    expect(d.teaching_classes).toHaveLength(1);
    expect(d.teaching_classes[0]).toMatchObject({
      name: `书法${s.id}-0`,
      subject: '书法',
      teacher_name: expect.any(String),
      students: 1,
      sessions_count: 12,
      status: 0,
      fee_fen: 50000,
    });
    // the same classes studentTeachingClassList gives
    const list = await t.get(`${P}studentTeachingClassList`, admin).query({ student_id: s.id });
    expect(list.body.data.list.map((c: { id: number }) => c.id)).toEqual(d.teaching_classes.map((c: { id: number }) => c.id));
  });

  it('answers in a constant number of queries whatever the number of contracts and classes', async () => {
    const a = await newStudent('郑一');
    const b = await newStudent('郑二');
    await fixtures(a.id, 1);
    await fixtures(b.id, 6);
    const few = (await statementsOf(t, () => t.get(INFO, admin).query({ id: a.id }))).length;
    let res: { body: { data: { contracts: unknown[]; teaching_classes: unknown[] } } } | undefined;
    const many = (
      await statementsOf(t, async () => {
        res = await t.get(INFO, admin).query({ id: b.id });
      })
    ).length;
    expect(res!.body.data.contracts).toHaveLength(18);
    expect(res!.body.data.teaching_classes).toHaveLength(6);
    expect(many).toBe(few);
    // the session lookup (counted since it is a compiled statement), the student, guardians, pick-up people, the rest
    expect(few).toBeLessThanOrEqual(6);
  });

  it("another school's id is not found; a wrong role is refused", async () => {
    const res = await t.get(INFO, admin).query({ id: otherStudentId });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '该学生不存在' });
    for (const token of [teacher, adviser, parent]) {
      const r = await t.get(INFO, token).query({ id: otherStudentId });
      expect(r.body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
    }
  });
});
