import { Code } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ runJobs: false });
});
afterAll(() => t.close());

describe('index (page configuration)', () => {
  it('is public and comes from the database', async () => {
    const res = await t.get('/api/index/index');
    expect(res.body).toMatchObject({ code: Code.Ok, data: { site_name: '晚托管理平台', version: 1, nav: expect.any(Array) } });
  });

  it('the operator saves it; a stale version is refused, not overwritten', async () => {
    const token = await t.login('operator');
    const current = (await t.get('/api/index/index')).body.data;
    const saved = await t.post('/api/index/index', token).send({ ...current, site_name: '阳光晚托' });
    expect(saved.body).toMatchObject({ code: Code.Ok, data: { site_name: '阳光晚托', version: current.version + 1 } });
    const stale = await t.post('/api/index/index', token).send({ ...current, site_name: '覆盖' });
    expect(stale.body).toMatchObject({ code: Code.Error, msg: '数据已被他人修改，请刷新后重试' });
    expect((await t.get('/api/index/index')).body.data.site_name).toBe('阳光晚托');
  });

  it('the footer’s public-security filing number: none in a configuration saved before it, saved and read back, one line', async () => {
    const token = await t.login('operator');
    expect((await t.get('/api/index/index')).body.data.footer).toMatchObject({ police_filing: null });
    const current = (await t.get('/api/index/index')).body.data;
    // a client that does not know the field yet saves the rest and keeps none
    const { police_filing: _, ...oldFooter } = current.footer;
    const old = await t.post('/api/index/index', token).send({ ...current, footer: oldFooter });
    expect(old.body).toMatchObject({ code: Code.Ok, data: { footer: { police_filing: null } } });
    const filing = '京公网安备11010502030143号';
    const saved = await t.post('/api/index/index', token).send({ ...old.body.data, footer: { ...old.body.data.footer, police_filing: filing } });
    expect(saved.body).toMatchObject({ code: Code.Ok, data: { footer: { police_filing: filing } } });
    expect((await t.get('/api/index/index')).body.data.footer.police_filing).toBe(filing);
    const before = await snapshot(t.sql);
    for (const bad of ['a\nb', 'x'.repeat(61), 3]) {
      const res = await t.post('/api/index/index', token).send({ ...saved.body.data, footer: { ...saved.body.data.footer, police_filing: bad } });
      expect(res.body.code).toBe(Code.Error);
    }
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('bad input writes nothing', async () => {
    const token = await t.login('operator');
    const current = (await t.get('/api/index/index')).body.data;
    for (const input of [
      {},
      { ...current, site_name: '' },
      { ...current, nav: 'x' },
      { ...current, site_name: 'x'.repeat(10_000) },
      { ...current, version: 'one' },
    ]) {
      const before = await snapshot(t.sql);
      const res = await t.post('/api/index/index', token).send(input);
      expect(res.body.code).toBe(Code.Error);
      expect(await snapshot(t.sql)).toEqual(before);
    }
  });

  it('no school role may save it', async () => {
    for (const user of ['admin', 'teacher', 'adviser', 'parent'] as const) {
      const res = await t.post('/api/index/index', await t.login(user)).send({});
      expect(res.body).toMatchObject({ code: Code.Error, msg: '当前账号没有权限执行此操作' });
    }
  });
});

describe('aboutUs', () => {
  it('is public, and saved HTML is sanitised', async () => {
    const token = await t.login('operator');
    const { version } = (await t.get('/api/index/aboutUs')).body.data;
    const res = await t.post('/api/index/aboutUs', token).send({
      version,
      content: '<h2 onclick="x()">我们</h2><script>alert(1)</script><a href="javascript:alert(1)">链接</a><img src="https://x/y.png" onerror="z">',
    });
    expect(res.body.code).toBe(Code.Ok);
    const read = (await t.get('/api/index/aboutUs')).body.data.content as string;
    expect(read).toContain('<h2>我们</h2>');
    expect(read).not.toMatch(/script|onclick|onerror|javascript:/);
  });
});

describe('upload', () => {
  it('stores a PDF for a signed-in user and serves it back', async () => {
    const token = await t.login('teacher');
    const res = await t.post('/api/index/upload', token).attach('file', Buffer.from('%PDF-1.7\n%%EOF\n'), { filename: '教案.pdf' });
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: { id: expect.any(String), mime: 'application/pdf', name: '教案.pdf', url: expect.stringMatching(/\.pdf$/) },
    });
    const { rows } = await t.sql.query(`select school_id, user_id from files where id = $1`, [res.body.data.id]);
    expect(rows[0]).toEqual({ school_id: t.demo.schoolId, user_id: t.demo.users.teacher });
    expect((await t.get(res.body.data.url)).status).toBe(200);
  });

  it('refuses unknown types, a missing file and signed-out callers, writing nothing', async () => {
    const token = await t.login('teacher');
    const before = await snapshot(t.sql);
    const exe = await t.post('/api/index/upload', token).attach('file', Buffer.from('MZ\x90\x00binary'), { filename: 'setup.pdf' });
    expect(exe.body).toMatchObject({ code: Code.Error, msg: '不支持的文件类型：pdf' });
    const none = await t.post('/api/index/upload', token).send({});
    expect(none.body).toMatchObject({ code: Code.Error, msg: '请选择要上传的文件' });
    const anon = await t.post('/api/index/upload').attach('file', Buffer.from('%PDF-1.7'), { filename: 'a.pdf' });
    expect(anon.body.code).toBe(Code.Untoken);
    expect(await snapshot(t.sql)).toEqual(before);
  });
});
