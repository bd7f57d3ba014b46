import { Code } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

/**
 * Issue 9's findings, each reproduced through HTTP: NUL in a text reached PostgreSQL (HTTP 500), NUL and lone
 * surrogates in the operator's page config / about text broke the jsonb write (HTTP 500), markup was stored in
 * plain-text fields and file names. The input layer (input-safety.ts) now refuses them with code 100 naming the field.
 */
let t: TestApp;
let admin: string;
let operator: string;
beforeAll(async () => {
  t = await startTestApp({ runJobs: false, redis: false });
  admin = await t.login('admin');
  operator = await t.login('operator');
});
afterAll(() => t.close());

const refused = (body: { code: number; msg: string }, field: string) => {
  expect(body.code).toBe(Code.Error);
  expect(body.msg).toContain(field);
};

describe('a NUL character anywhere in the input is code 100 naming the field, and writes nothing', () => {
  it('POST login: account and password', async () => {
    const before = await snapshot(t.sql);
    for (const [field, body] of [
      ['account', { account: 'ad\u0000min', password: 'Demo@2026' }],
      ['password', { account: 'admin', password: 'Demo@2026\u0000' }],
    ] as const) {
      const res = await t.post('/api/index/login').send(body);
      expect(res.status).toBe(200);
      refused(res.body, field);
    }
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('GET resetpwd account, %00 in the query', async () => {
    const res = await t.get('/api/index/resetpwd?account=admin%00');
    expect(res.status).toBe(200);
    refused(res.body, 'account');
  });

  it.each(['accountList', 'teachersList', 'selectClassTeacher', 'shuttleTeacher', 'tutorTeacher', 'teacherShuttleTeacher', 'teacherTutorTeacher'])(
    'GET %s keyword',
    async (action) => {
      const token = action.startsWith('teacher') ? await t.login('adviser') : admin;
      const res = await t.get(`/api/index/${action}?keyword=%00x`, token);
      expect(res.status).toBe(200);
      refused(res.body, 'keyword');
    },
  );

  it('names the field in English too, and a key of the body', async () => {
    const res = await t
      .post('/api/index/login')
      .set('lang', 'en')
      .send({ account: 'admin', password: 'x', ['x\u0001']: 1 });
    expect(res.body).toMatchObject({ code: Code.Error, msg: expect.stringContaining('not allowed') });
  });

  it('refuses a body nested deeper than any form', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 200; i++) deep = [deep];
    const res = await t.post('/api/index/login').send({ account: 'admin', password: 'x', deep });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '请求内容嵌套过深' });
  });
});

describe('the operator’s page config and about text', () => {
  const current = async () => (await t.get('/api/index/index')).body.data;

  it.each([
    ['NUL in site_name', (c: Record<string, unknown>) => JSON.stringify({ ...c, site_name: 'a\u0000' }), 'site_name'],
    ['NUL at depth', (c: Record<string, unknown>) => JSON.stringify({ ...c, nav: [{ title: 'x', path: '/a\u0000' }] }), 'nav.0.path'],
    // JSON.stringify escapes a lone surrogate as \ud800 and the server's JSON parser turns it back into one
    ['a lone surrogate', (c: Record<string, unknown>) => JSON.stringify({ ...c, site_name: 'x\ud800' }), 'site_name'],
  ])('POST index: %s → code 100, nothing written', async (_, body, field) => {
    const c = await current();
    const before = await snapshot(t.sql);
    const res = await t.post('/api/index/index', operator).set('content-type', 'application/json').send(body(c));
    expect(res.status).toBe(200);
    refused(res.body, field);
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it.each([
    ['NUL', '{"version":1,"content":"<p>a\\u0000</p>"}'],
    ['a lone surrogate', '{"version":1,"content":"<p>\\udc00</p>"}'],
  ])('POST aboutUs: %s → code 100', async (_, raw) => {
    const res = await t.post('/api/index/aboutUs', operator).set('content-type', 'application/json').send(raw);
    expect(res.status).toBe(200);
    refused(res.body, 'content');
  });

  it('site_name and the other plain-text fields refuse markup; links refuse javascript:', async () => {
    const c = await current();
    const before = await snapshot(t.sql);
    for (const change of [
      { site_name: '<img src=x onerror=alert(1)>' },
      { footer: { text: '<script>alert(1)</script>', icp: null } },
      { nav: [{ title: '<b>x</b>', path: '/home' }] },
      { nav: [{ title: '首页', path: 'javascript:alert(1)' }] },
      { banners: [{ image: '/uploads/a.png', title: '', link: 'javascript:alert(1)' }] },
      { logo: 'data:text/html,<script>alert(1)</script>' },
    ]) {
      const res = await t.post('/api/index/index', operator).send({ ...c, ...change });
      expect({ change, code: res.body.code }).toEqual({ change, code: Code.Error });
    }
    expect(await snapshot(t.sql)).toEqual(before);
    expect((await current()).site_name).toBe(c.site_name);
    // what is allowed still saves
    const ok = await t.post('/api/index/index', operator).send({ ...c, site_name: '阳光 & 晚托 <3', nav: [{ title: '首页', path: '/home' }] });
    expect(ok.body).toMatchObject({ code: Code.Ok, data: { site_name: '阳光 & 晚托 <3' } });
  });
});

describe('upload', () => {
  const pdf = Buffer.from('%PDF-1.7\n%%EOF\n');

  it('stores a safe display name: no markup, no path', async () => {
    for (const [sent, stored] of [
      ['<img src=x onerror=alert(1)>.pdf', 'img src=x onerror=alert(1).pdf'],
      ['../../etc/教案.pdf', '教案.pdf'],
    ]) {
      const res = await t.post('/api/index/upload', admin).attach('file', pdf, { filename: sent });
      expect(res.body).toMatchObject({ code: Code.Ok, data: { name: stored } });
      const { rows } = await t.sql.query('select name from files where id = $1', [res.body.data.id]);
      expect(rows[0].name).toBe(stored);
    }
  });

  it('a control character in the file name or a field is code 100, nothing written', async () => {
    const before = await snapshot(t.sql);
    // C1 controls pass the multipart parser and reach the input layer; busboy itself refuses C0 in part headers
    const name = await t.post('/api/index/upload', admin).attach('file', pdf, { filename: 'a\u0085.pdf' });
    refused(name.body, 'file.name');
    const c0 = await t.post('/api/index/upload', admin).attach('file', pdf, { filename: 'a\u0001.pdf' });
    expect(c0.body).toEqual({ code: Code.Error, msg: '上传的表单格式不正确', data: null });
    const field = await t.post('/api/index/upload', admin).field('note', 'x\u0000').attach('file', pdf, { filename: 'a.pdf' });
    refused(field.body, 'note');
    expect(await snapshot(t.sql)).toEqual(before);
  });
});

it('a nickname is plain text: markup is refused, nothing written', async () => {
  const before = await snapshot(t.sql);
  const res = await t.post('/api/index/profile', admin).field('nickname', '<img src=x onerror=alert(1)>');
  expect(res.body).toMatchObject({ code: Code.Error, msg: '内容不能包含 HTML 标签或控制字符' });
  expect(await snapshot(t.sql)).toEqual(before);
});

it('a charset or content-encoding the body parser cannot read is code 100, not HTTP 500', async () => {
  const latin1 = await t.post('/api/index/login').set('content-type', 'application/json; charset=iso-8859-1').send('{"account":"a","password":"b"}');
  expect(latin1.status).toBe(200);
  expect(latin1.body).toEqual({ code: Code.Error, msg: '请求内容的字符集或压缩方式不受支持（请使用 UTF-8）', data: null });
  const encoded = await t
    .post('/api/index/login')
    .set('content-type', 'application/json')
    .set('content-encoding', 'fuzz')
    .send('{"account":"a","password":"b"}');
  expect(encoded.body.code).toBe(Code.Error);
});
