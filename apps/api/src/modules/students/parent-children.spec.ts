import { Code } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true });
});
afterAll(() => t.close());

describe('parentChildren', () => {
  it('lists the parent’s own children with their care class and head teacher', async () => {
    const res = await t.get('/api/index/parentChildren', await t.login('parent'));
    expect(res.body.code).toBe(Code.Ok);
    expect(res.body.data.list.map((c: { name: string }) => c.name).sort()).toEqual(['陈小阳', '陈小雨']);
    expect(res.body.data.list[0]).toMatchObject({ relation: expect.any(String), care_class: { name: '阳光一班', head_teacher_name: '张班主任' } });
  });

  it('leaves out archived children', async () => {
    const token = await t.login('parent');
    await t.sql.query(`update students set status = 0 where name = '陈小阳'`);
    const res = await t.get('/api/index/parentChildren', token);
    expect(res.body.data.list.map((c: { name: string }) => c.name)).toEqual(['陈小雨']);
    await t.sql.query(`update students set status = 1 where name = '陈小阳'`);
  });

  it('refuses unknown parameters and writes nothing', async () => {
    const token = await t.login('parent');
    const before = await snapshot(t.sql);
    const res = await t.get('/api/index/parentChildren?user_id=1', token);
    expect(res.body.code).toBe(Code.Error);
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('is for parents only', async () => {
    for (const user of ['admin', 'teacher', 'adviser', 'operator'] as const) {
      const res = await t.get('/api/index/parentChildren', await t.login(user));
      expect(res.body).toMatchObject({ code: Code.Error, msg: '当前账号没有权限执行此操作' });
    }
    expect((await t.get('/api/index/parentChildren')).body.code).toBe(Code.Untoken);
  });

  it('a parent of another school sees only that school’s children, never these', async () => {
    const { schoolId } = await t.otherSchool();
    // the same person (same mobile) as a parent account of the other school
    await t.sql.query(
      `insert into users (school_id, role, username, name, nickname, mobile, password_hash)
      select $1, 6, 'other_parent', '陈家长', '陈家长', '13800000006', password_hash from users where username = 'admin'`,
      [schoolId],
    );
    const login = await t.post('/api/index/login').send({ account: 'other_parent', password: 'Demo@2026' });
    const res = await t.get('/api/index/parentChildren', login.body.data.userinfo.token);
    expect(res.body.data.list).toEqual([]);
  });
});
