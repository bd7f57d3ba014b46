import { actionPath, Code, DECLARED, FileAnswer } from '@wantuo/shared';
import { startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ runJobs: false });
});
afterAll(() => t.close());

it('wraps success in { code: 200, msg, data } with HTTP 200, for POST too', async () => {
  const res = await t.post('/api/index/login').send({ account: 'admin', password: 'Demo@2026' });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ code: 200, msg: '成功', data: { userinfo: expect.any(Object) } });
  expect(res.headers['x-request-id']).toEqual(expect.any(String));
});

it('answers an unknown action with HTTP 404', async () => {
  for (const path of ['/api/index/noSuchAction', '/api/index/userinfo' /* names are case-sensitive */, '/api/nothing']) {
    const res = await t.get(path);
    expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: { code: 404, msg: '请求的接口不存在', data: null } });
  }
});

it('bad JSON and oversized bodies are the caller’s input: code 100, never 500', async () => {
  const bad = await t.post('/api/index/login').set('content-type', 'application/json').send('{"account": "admin",');
  expect(bad.status).toBe(200);
  expect(bad.body).toEqual({ code: Code.Error, msg: '请求内容不是有效的 JSON', data: null });
  const big = await t.post('/api/index/login').send({ account: 'x'.repeat(2 * 1024 * 1024), password: 'x' });
  expect(big.status).toBe(200);
  expect(big.body).toEqual({ code: Code.Error, msg: '请求内容过大', data: null });
});

it('lists every problem of bad input in data.fields, the first in msg', async () => {
  const res = await t.post('/api/index/changepwd', await t.login('teacher')).send({ oldpassword: 5, newpassword: 'short', x: 1 });
  expect(res.body.code).toBe(Code.Error);
  expect(res.body.data.fields.length).toBeGreaterThanOrEqual(2);
  expect(res.body.msg).toBe(res.body.data.fields[0].message);
});

it('an unexpected failure is HTTP 500 with an error id and no internals', async () => {
  await t.sql.query(`alter table site_settings rename to site_settings_moved`);
  try {
    const res = await t.get('/api/index/index');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      code: 500,
      msg: expect.stringContaining(res.body.data.errorId),
      data: { errorId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/site_settings|stack|at /);
  } finally {
    await t.sql.query(`alter table site_settings_moved rename to site_settings`);
  }
});

it('/api/health reports the database and Redis', async () => {
  const res = await t.get('/api/health');
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ status: 'ok', database: 'up', redis: 'up' });
});

it('serves the OpenAPI document built from the routes', async () => {
  const json = await t.get('/api/docs-json');
  expect(json.status).toBe(200);
  const login = json.body.paths['/api/index/login'].post;
  expect(login.tags).toEqual(['auth']);
  expect(login.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['account', 'password']));
  expect(json.body.paths['/api/index/profile'].post.requestBody.content['multipart/form-data']).toBeDefined();
  expect(json.body.paths['/api/index/userInfo'].get.security).toEqual([{ token: [] }]);
  // every action's answer is in the document: the envelope's data is its declared schema (or the file an export sends)
  const json200 = (m: string, path: string) => json.body.paths[path][m.toLowerCase()].responses['200'].content;
  const bare = DECLARED.filter((d) => {
    const content = json200(d.method, actionPath(d));
    if (d.answer === FileAnswer) return !content['application/octet-stream'];
    const data = content['application/json'].schema.properties.data;
    return !data || Object.keys(data).length === 0;
  }).map((d) => `${d.method} ${d.action}`);
  expect(bare).toEqual([]);
  const contractList = json200('GET', '/api/index/contractList')['application/json'].schema.properties.data;
  expect(contractList.required).toEqual(expect.arrayContaining(['list', 'total', 'page', 'limit', 'counts']));
  const ui = await t.get('/api/docs');
  expect(ui.status).toBe(200);
  expect(ui.text).toContain('swagger');
});
