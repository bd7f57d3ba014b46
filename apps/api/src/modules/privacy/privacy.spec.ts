import { Code } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true });
});
afterAll(() => t.close());

/** the demo parent's links as a guardian who has never been asked (the test template starts them accepted) */
const unconsent = () =>
  t.sql.query(
    `update student_guardians set privacy_version = null, children_version = null, consented_at = null
      where user_id = (select id from users where username = 'parent')`,
  );
const versions = async () => (await t.get('/api/index/myConsents', await t.login('parent'))).body.data;

describe('the consent gate', () => {
  beforeEach(unconsent);

  it('shows a guardian without consent no child’s data, and lets them read and accept the documents', async () => {
    const token = await t.login('parent');
    for (const path of ['/api/index/parentChildren', '/api/index/parentLeaveList', '/api/index/dailyReportDays']) {
      const res = await t.get(path, token);
      expect(res.body).toMatchObject({ code: Code.Error, data: { consent_required: true } });
      expect(res.body.msg).toContain('隐私政策');
    }
    // what they may still do: their account, the documents, the consent itself
    expect((await t.get('/api/index/userInfo', token)).body.code).toBe(Code.Ok);
    const docs = await t.get('/api/index/privacyPolicies', token);
    expect(docs.body.code).toBe(Code.Ok);
    expect(docs.body.data.privacy.body).toContain(docs.body.data.school_name);
    expect(docs.body.data.children.body).not.toContain('{{');
    const mine = await t.get('/api/index/myConsents', token);
    expect(mine.body.data).toMatchObject({ needs_consent: true, privacy_version: 1, children_version: 1 });
    expect(mine.body.data.children.map((c: { name: string }) => c.name).sort()).toEqual(['陈小阳', '陈小雨']);

    const accepted = await t
      .post('/api/index/acceptPolicies', token)
      .set('user-agent', 'jest-phone')
      .send({ privacy_version: 1, children_version: 1 });
    expect(accepted.body.data.needs_consent).toBe(false);
    expect((await t.get('/api/index/parentChildren', token)).body.code).toBe(Code.Ok);
    const { rows } = await t.sql.query(
      `select c.kind, c.granted, c.privacy_version, c.children_version, c.ip, c.user_agent, s.name
         from privacy_consents c join students s on s.id = c.student_id where c.ip <> 'demo-seed' order by s.name`,
    );
    expect(rows).toEqual([
      {
        kind: 'policies',
        granted: true,
        privacy_version: 1,
        children_version: 1,
        ip: expect.stringMatching(/127\.0\.0\.1|::1/),
        user_agent: 'jest-phone',
        name: '陈小阳',
      },
      {
        kind: 'policies',
        granted: true,
        privacy_version: 1,
        children_version: 1,
        ip: expect.stringMatching(/127\.0\.0\.1|::1/),
        user_agent: 'jest-phone',
        name: '陈小雨',
      },
    ]);
  });

  it('refuses versions other than the current ones, writing nothing', async () => {
    const token = await t.login('parent');
    const before = await snapshot(t.sql);
    const stale = await t.post('/api/index/acceptPolicies', token).send({ privacy_version: 0, children_version: 1 });
    expect(stale.body).toMatchObject({ code: Code.Error, msg: expect.stringContaining('更新') });
    const bad = await t.post('/api/index/acceptPolicies', token).send({ privacy_version: 'x' });
    expect(bad.body.code).toBe(Code.Error);
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('asks again when the operator publishes a new version, and the history keeps every version', async () => {
    const parent = await t.login('parent');
    await t.post('/api/index/acceptPolicies', parent).send({ privacy_version: 1, children_version: 1 });
    const operator = await t.login('operator');
    const body_zh = '# 儿童个人信息保护规则\n\n新版本：{{school}} 与 {{platform}} 更新了照片的保存期限，照片在孩子离校后删除。';
    const published = await t
      .post('/api/index/publishPrivacyPolicy', operator)
      .send({ kind: 'children', title: '儿童个人信息保护规则', body_zh, summary: '照片的保存期限', expected_version: 1 });
    expect(published.body.data).toMatchObject({ version: 2, summary: '照片的保存期限', published_by_name: expect.any(String) });
    // the same again, or on the old version: refused
    const again = await t
      .post('/api/index/publishPrivacyPolicy', operator)
      .send({ kind: 'children', title: '儿童个人信息保护规则', body_zh, summary: 'x', expected_version: 2 });
    expect(again.body.code).toBe(Code.Error);
    const crossed = await t
      .post('/api/index/publishPrivacyPolicy', operator)
      .send({ kind: 'children', title: '新标题', body_zh, summary: 'x', expected_version: 1 });
    expect(crossed.body).toMatchObject({ code: Code.Error, msg: expect.stringContaining('刷新') });

    expect((await t.get('/api/index/parentChildren', parent)).body.data).toMatchObject({ consent_required: true });
    const docs = (await t.get('/api/index/privacyPolicies', parent)).body.data;
    expect(docs.children).toMatchObject({ version: 2, summary: '照片的保存期限' });
    expect(docs.children.body).toContain('阳光');
    await t.post('/api/index/acceptPolicies', parent).send({ privacy_version: 1, children_version: 2 });
    expect((await t.get('/api/index/parentChildren', parent)).body.code).toBe(Code.Ok);

    const history = await t.get('/api/index/privacyPolicyHistory?kind=children', operator);
    expect(history.body.data.list.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(history.body.data.total).toBe(2);
  });

  it('lets only the operator publish, and validates what is published', async () => {
    for (const user of ['admin', 'parent', 'teacher'] as const) {
      const res = await t.post('/api/index/publishPrivacyPolicy', await t.login(user)).send({});
      expect(res.body.msg).toBe('当前账号没有权限执行此操作');
    }
    const operator = await t.login('operator');
    const before = await snapshot(t.sql);
    const short = await t
      .post('/api/index/publishPrivacyPolicy', operator)
      .send({ kind: 'privacy', title: '隐私政策', body_zh: '太短', summary: 'x', expected_version: 1 });
    expect(short.body).toMatchObject({ code: Code.Error, msg: '正文至少 20 个字' });
    const unknown = await t.get('/api/index/privacyPolicyHistory?kind=cookies', operator);
    expect(unknown.body.code).toBe(Code.Error);
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('gives a public page the documents with the school named by school_id, in English on request', async () => {
    const res = await t.get(`/api/index/privacyPolicies?school_id=${t.demo.schoolId}`).set('lang', 'en');
    expect(res.body.data.privacy.title).toBeTruthy();
    expect(res.body.data.privacy.body).toContain('Privacy policy');
    expect(res.body.data.school_name).toBeTruthy();
    expect((await t.get('/api/index/privacyPolicies?school_id=x')).body.code).toBe(Code.Error);
  });
});

describe('photos and health notes', () => {
  beforeEach(unconsent);

  it('needs the documents first, then takes effect at once; a withdrawn health consent erases the note', async () => {
    const token = await t.login('parent');
    const { rows } = await t.sql.query(`select id from students where name = '陈小雨'`);
    const id = rows[0].id;
    await t.sql.query(`update students set allergies = '花生过敏', health_consent = true where id = $1`, [id]);
    const mark = (await t.sql.query(`select coalesce(max(id), 0)::int as m from privacy_consents`)).rows[0].m;
    const early = await t.post('/api/index/setConsent', token).send({ student_id: id, kind: 'photos', granted: true });
    expect(early.body.code).toBe(Code.Error);

    const v = await versions();
    await t.post('/api/index/acceptPolicies', token).send({ privacy_version: v.privacy_version, children_version: v.children_version });
    const photos = await t.post('/api/index/setConsent', token).send({ student_id: id, kind: 'photos', granted: false });
    expect(photos.body.data.children.find((c: { student_id: number }) => c.student_id === id)).toMatchObject({ photos: false });
    const health = await t.post('/api/index/setConsent', token).send({ student_id: id, kind: 'health', granted: false });
    expect(health.body.data.children.find((c: { student_id: number }) => c.student_id === id)).toMatchObject({ health: false });
    const after = await t.sql.query(`select allergies, photo_consent, health_consent from students where id = $1`, [id]);
    expect(after.rows[0]).toEqual({ allergies: null, photo_consent: false, health_consent: false });

    // withdrawing the documents gates the guardian again at once
    await t.post('/api/index/setConsent', token).send({ student_id: id, kind: 'policies', granted: false });
    expect((await t.get('/api/index/parentChildren', token)).body.data).toMatchObject({ consent_required: true });

    const log = await t.sql.query(`select kind, granted from privacy_consents where student_id = $1 and id > $2 order by id`, [id, mark]);
    expect(log.rows).toEqual([
      { kind: 'policies', granted: true },
      { kind: 'photos', granted: false },
      { kind: 'health', granted: false },
      { kind: 'policies', granted: false },
    ]);
    // appended only
    await expect(t.sql.query(`update privacy_consents set granted = true`)).rejects.toThrow(/append-only/);
    await expect(t.sql.query(`delete from privacy_consents`)).rejects.toThrow(/append-only/);
  });

  it('refuses another family’s child, accepting policies this way, and other roles', async () => {
    const token = await t.login('parent');
    const v = await versions();
    await t.post('/api/index/acceptPolicies', token).send({ privacy_version: v.privacy_version, children_version: v.children_version });
    const { rows } = await t.sql.query(
      `select s.id from students s where s.school_id = $1 and not exists (select 1 from student_guardians g join users u on u.id = g.user_id
        where g.student_id = s.id and u.username = 'parent') limit 1`,
      [t.demo.schoolId],
    );
    const own = (await versions()).children[0].student_id;
    const before = await snapshot(t.sql);
    expect((await t.post('/api/index/setConsent', token).send({ student_id: rows[0].id, kind: 'photos', granted: true })).body.msg).toBe(
      '未找到该学生',
    );
    expect((await t.post('/api/index/setConsent', token).send({ student_id: own, kind: 'policies', granted: true })).body.code).toBe(Code.Error);
    expect((await t.post('/api/index/setConsent', token).send({ student_id: own, kind: 'hair', granted: true })).body.code).toBe(Code.Error);
    expect(await snapshot(t.sql)).toEqual(before);
    const admin = await t.post('/api/index/setConsent', await t.login('admin')).send({ student_id: own, kind: 'photos', granted: true });
    expect(admin.body.msg).toBe('当前账号没有权限执行此操作');
    const { schoolId } = await t.otherSchool();
    expect(schoolId).not.toBe(t.demo.schoolId);
  });
});

describe('the access log', () => {
  it('records staff reads with who, what, which children and where from, and shows them to the admin and the guardian', async () => {
    await t.sql.query(`delete from child_access_log`).catch(() => undefined);
    const { rows } = await t.sql.query(`select id from students where name = '陈小雨'`);
    const id = rows[0].id;
    const admin = await t.login('admin');
    expect((await t.get(`/api/index/studentInfo?id=${id}`, admin)).body.code).toBe(Code.Ok);
    const teacher = await t.login('teacher');
    const list = await t.get('/api/index/teacherStudentList?limit=100', teacher);
    expect(list.body.code).toBe(Code.Ok);
    // a failed read is not a read
    await t.get('/api/index/studentInfo?id=999999', admin);

    const logged = await t.sql.query(`select actor_role, student_ids, what, action, ip from child_access_log order by id`);
    expect(logged.rows).toHaveLength(2);
    expect(logged.rows[0]).toMatchObject({ actor_role: 1, student_ids: [id], action: 'studentInfo', ip: expect.stringMatching(/\d|::/) });
    expect(logged.rows[0].what).toEqual(expect.arrayContaining(['profile', 'guardians', 'pickup', 'health']));
    expect(logged.rows[1]).toMatchObject({ actor_role: 2, action: 'teacherStudentList' });
    expect(logged.rows[1].student_ids.sort()).toEqual(list.body.data.list.map((s: { id: number }) => s.id).sort());

    const all = await t.get('/api/index/childAccessLog', admin);
    expect(all.body.data.total).toBe(2);
    expect(all.body.data.list[0]).toMatchObject({ action: 'teacherStudentList', actor_role: 2, ip: expect.any(String) });
    const one = await t.get(`/api/index/childAccessLog?student_id=${id}&what=profile`, admin);
    expect(one.body.data.list.length).toBeGreaterThanOrEqual(1);

    const parent = await t.login('parent');
    const mine = await t.get(`/api/index/childAccessLog?student_id=${id}`, parent);
    expect(mine.body.data.total).toBe(2);
    for (const row of mine.body.data.list) {
      expect(row.ip).toBeNull();
      expect(row.students).toEqual([{ id, name: '陈小雨' }]);
    }
    // a guardian's own reads are not logged; another child, no student, or a teacher: refused
    expect((await t.get(`/api/index/childAccessLog`, parent)).body.code).toBe(Code.Error);
    const other = await t.sql.query(
      `select s.id from students s where not exists (select 1 from student_guardians g join users u on u.id = g.user_id
        where g.student_id = s.id and u.username = 'parent') limit 1`,
    );
    expect((await t.get(`/api/index/childAccessLog?student_id=${other.rows[0].id}`, parent)).body.msg).toBe('未找到该学生');
    expect((await t.get(`/api/index/childAccessLog`, teacher)).body.msg).toBe('当前账号没有权限执行此操作');
    expect((await t.get(`/api/index/childAccessLog?from=yesterday`, admin)).body.code).toBe(Code.Error);
    // another school's admin sees none of it
    const { adminToken } = await t.otherSchool();
    expect((await t.get(`/api/index/childAccessLog?student_id=${id}`, adminToken)).body.data.total).toBe(0);
    // appended only
    await expect(t.sql.query(`update child_access_log set ip = ''`)).rejects.toThrow(/append-only/);
    await expect(t.sql.query(`delete from child_access_log`)).rejects.toThrow(/append-only/);
  });
});

describe('correction and deletion requests', () => {
  it('a guardian asks, once per kind and child; the admin handles it once, on the version read', async () => {
    const parent = await t.login('parent');
    const { rows } = await t.sql.query(`select id from students where name = '陈小阳'`);
    const id = rows[0].id;
    const asked = await t.post('/api/index/privacyRequest', parent).send({ student_id: id, kind: 'correction', body: '生日应为 2018-03-02' });
    expect(asked.body.data).toMatchObject({ student_id: id, kind: 'correction', status: 'open', overdue: false, student_name: '陈小阳' });
    const due = new Date(asked.body.data.due_at).getTime() - new Date(asked.body.data.created_at).getTime();
    expect(Math.round(due / 86_400_000)).toBe(15);
    expect((await t.post('/api/index/privacyRequest', parent).send({ student_id: id, kind: 'correction' })).body.msg).toBe(
      '已有一条同类申请正在处理中',
    );
    expect((await t.get('/api/index/myPrivacyRequests', parent)).body.data.total).toBe(1);

    const admin = await t.login('admin');
    const list = await t.get('/api/index/privacyRequests?status=open', admin);
    expect(list.body.data.list[0]).toMatchObject({ id: asked.body.data.id, guardian_name: expect.any(String) });
    const stale = await t.post('/api/index/handlePrivacyRequest', admin).send({ id: asked.body.data.id, version: 9, outcome: 'done', note: '' });
    expect(stale.body.code).toBe(Code.Error);
    const done = await t.post('/api/index/handlePrivacyRequest', admin).send({ id: asked.body.data.id, version: 1, outcome: 'done', note: '已更正' });
    expect(done.body.data).toMatchObject({ status: 'done', result_note: '已更正', handled_by_name: expect.any(String), version: 2 });
    expect((await t.post('/api/index/handlePrivacyRequest', admin).send({ id: asked.body.data.id, version: 2, outcome: 'refused' })).body.msg).toBe(
      '该申请已处理',
    );
    // a deletion refused (the school keeps the data for a reason it states): nothing erased, the child as before
    const del = await t.post('/api/index/privacyRequest', parent).send({ student_id: id, kind: 'deletion' });
    const refused = await t
      .post('/api/index/handlePrivacyRequest', admin)
      .send({ id: del.body.data.id, version: 1, outcome: 'refused', note: '合同纠纷未了' });
    expect(refused.body.data).toMatchObject({ status: 'refused', result_note: '合同纠纷未了', student_name: '陈小阳' });
    expect((await t.sql.query(`select anonymised_at from students where id = $1`, [id])).rows[0].anonymised_at).toBeNull();
  });

  it('refuses bad input, other families, other roles and other schools, writing nothing', async () => {
    const parent = await t.login('parent');
    const admin = await t.login('admin');
    const { adminToken } = await t.otherSchool();
    const other = await t.sql.query(
      `select s.id from students s where not exists (select 1 from student_guardians g join users u on u.id = g.user_id
        where g.student_id = s.id and u.username = 'parent') limit 1`,
    );
    const [req] = (await t.sql.query(`select id, version from privacy_requests order by id limit 1`)).rows;
    const before = await snapshot(t.sql);
    expect((await t.post('/api/index/privacyRequest', parent).send({ student_id: 'x', kind: 'deletion' })).body.code).toBe(Code.Error);
    expect((await t.post('/api/index/privacyRequest', parent).send({ student_id: other.rows[0].id, kind: 'deletion' })).body.msg).toBe(
      '未找到该学生',
    );
    expect((await t.post('/api/index/privacyRequest', admin).send({ student_id: other.rows[0].id, kind: 'deletion' })).body.msg).toBe(
      '当前账号没有权限执行此操作',
    );
    expect((await t.get('/api/index/privacyRequests', parent)).body.msg).toBe('当前账号没有权限执行此操作');
    if (req) {
      const foreign = await t.post('/api/index/handlePrivacyRequest', adminToken).send({ id: req.id, version: req.version, outcome: 'refused' });
      expect(foreign.body.msg).toBe('未找到该申请');
    }
    expect((await t.get('/api/index/privacyRequests?status=maybe', admin)).body.code).toBe(Code.Error);
    expect(await snapshot(t.sql)).toEqual(before);
  });
});
