import { Code } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let operator: string;
let admin: string;
const api = (action: string) => `/api/index/${action}`;
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };

beforeAll(async () => {
  t = await startTestApp({ runJobs: false });
  [operator, admin] = await Promise.all([t.login('operator'), t.login('admin')]);
});
afterAll(() => t.close());

/** What these actions write, with the harness's tables. */
async function snap() {
  const { rows } = await t.sql.query(`select count(*)::int as resources, count(deleted_at)::int as removed from site_resources`);
  return { ...(await snapshot(t.sql)), ...rows[0] };
}

async function uploaded(token: string, name = '资料.pdf'): Promise<string> {
  const res = await t.post(api('upload'), token).attach('file', Buffer.from('%PDF-1.7\n%%EOF\n'), { filename: name });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data.id as string;
}

async function added(body: Record<string, unknown>) {
  const res = await t.post(api('addResource'), operator).send(body);
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data as { id: number; url: string };
}

describe('public resources and school materials', () => {
  it('the operator publishes; everyone sees the public ones, signed-in schools the materials by subject and grade', async () => {
    const pub = await added({
      audience: 'public',
      title: '晚托服务规范（2026 版）',
      description: '平台公开文件',
      file_id: await uploaded(operator, '规范.pdf'),
    });
    expect(pub).toMatchObject({
      audience: 'public',
      title: '晚托服务规范（2026 版）',
      file_name: '规范.pdf',
      mime: 'application/pdf',
      subject: null,
      url: expect.stringMatching(/^\/uploads\/.+\.pdf$/),
    });
    const math3 = await added({
      audience: 'schools',
      title: '三年级口算练习 100 题',
      subject: '数学',
      grade: '三年级',
      file_id: await uploaded(operator),
    });
    const chinese4 = await added({
      audience: 'schools',
      title: '四年级古诗词默写',
      subject: '语文',
      grade: '四年级',
      file_id: await uploaded(operator),
    });

    // the public list: signed out, only the public one
    const open = await t.get(api('resource'));
    expect(open.body).toMatchObject({ code: Code.Ok, data: { total: 1, page: 1, list: [{ id: pub.id, title: '晚托服务规范（2026 版）' }] } });
    expect((await t.get(`${api('resource')}?keyword=${encodeURIComponent('规范')}`)).body.data.total).toBe(1);
    expect((await t.get(`${api('resource')}?keyword=${encodeURIComponent('口算')}`)).body.data.total).toBe(0);
    // the file is served
    expect((await t.get(pub.url)).status).toBe(200);

    // materials: a signed-in school, newest first, with the filters' choices
    const all = await t.get(api('dataDownload'), admin);
    expect(all.body.data).toMatchObject({ total: 2, subjects: ['数学', '语文'].sort(), grades: ['三年级', '四年级'].sort() });
    expect(all.body.data.list.map((r: { id: number }) => r.id)).toEqual([chinese4.id, math3.id]);
    const maths = await t.get(
      `${api('dataDownload')}?subject=${encodeURIComponent('数学')}&grade=${encodeURIComponent('三年级')}`,
      await t.login('teacher'),
    );
    expect(maths.body.data).toMatchObject({ total: 1, list: [{ id: math3.id, subject: '数学', grade: '三年级' }] });
    // paged on the server: past the last page the total still answers
    expect((await t.get(`${api('dataDownload')}?limit=1&page=2`, admin)).body.data).toMatchObject({ total: 2, list: [{ id: math3.id }] });
    expect((await t.get(`${api('dataDownload')}?limit=1&page=9`, admin)).body.data).toMatchObject({ total: 2, list: [] });
    // the operator's list has both, by audience
    expect((await t.get(api('resourceAdminList'), operator)).body.data.total).toBe(3);
    expect((await t.get(`${api('resourceAdminList')}?audience=schools`, operator)).body.data.total).toBe(2);
  });

  it('removal hides a resource and keeps the row with who removed it; removing twice is refused', async () => {
    const r = await added({ audience: 'public', title: '待删除的文件', file_id: await uploaded(operator) });
    expect((await t.post(api('delResource'), operator).send({ id: r.id })).body).toMatchObject({ code: Code.Ok, data: { id: r.id } });
    expect((await t.get(`${api('resource')}?keyword=${encodeURIComponent('待删除')}`)).body.data.total).toBe(0);
    const before = await snap();
    expect((await t.post(api('delResource'), operator).send({ id: r.id })).body).toMatchObject({ code: Code.Error, msg: '未找到该资源' });
    expect(await snap()).toEqual(before);
    const { rows } = await t.sql.query(`select deleted_at is not null as gone, deleted_by from site_resources where id = $1`, [r.id]);
    expect(rows).toEqual([{ gone: true, deleted_by: expect.any(Number) }]);
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const file = await uploaded(operator);
    const before = await snap();
    const bodies: Array<[Record<string, unknown>, string?]> = [
      [{ audience: 'public', file_id: file }],
      [{ audience: 'public', title: '  ', file_id: file }, '请填写标题'],
      [{ audience: 'everyone', title: 'x', file_id: file }, '请选择公开资源或机构资料'],
      [{ audience: 'public', title: 'x', subject: '数学', file_id: file }, '公开资源不分学科和年级'],
      [{ audience: 'schools', title: 'x', subject: ' ', file_id: file }, '学科和年级不能为空白'],
      [{ audience: 'schools', title: 'x' }, '请先上传文件'],
      [{ audience: 'schools', title: 'x', file_id: 'not-a-uuid' }, '请先上传文件'],
      [{ audience: 'schools', title: '<b>x</b>', file_id: file }],
      [{ audience: 'schools', title: 'x'.repeat(101), file_id: file }],
      [{ audience: 'schools', title: 'x', file_id: file, school_id: 1 }],
      // a file nobody uploaded
      [{ audience: 'schools', title: 'x', file_id: '00000000-0000-4000-8000-000000000000' }, '未找到上传的文件，请重新上传'],
    ];
    for (const [body, msg] of bodies) {
      const res = await t.post(api('addResource'), operator).send(body);
      expect(res.body.code).toBe(Code.Error);
      if (msg) expect(res.body.msg).toBe(msg);
    }
    for (const q of ['?page=0', '?limit=1000', '?subject=', '?grade=' + 'x'.repeat(30), '?audience=public']) {
      expect((await t.get(`${api('dataDownload')}${q}`, admin)).body.code).toBe(Code.Error);
    }
    for (const body of [{}, { id: 'x' }, { id: 0 }]) expect((await t.post(api('delResource'), operator).send(body)).body.code).toBe(Code.Error);
    expect(await snap()).toEqual(before);
  });

  it('a school’s upload cannot be published as a platform resource (another owner’s file)', async () => {
    const schoolFile = await uploaded(admin, '机构文件.pdf');
    const before = await snap();
    expect((await t.post(api('addResource'), operator).send({ audience: 'public', title: '借用机构文件', file_id: schoolFile })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到上传的文件，请重新上传',
    });
    expect(await snap()).toEqual(before);
  });

  it('only the operator publishes, lists for managing and removes; materials need a signed-in user', async () => {
    const file = await uploaded(operator);
    const tokens = await Promise.all((['admin', 'teacher', 'adviser', 'parent'] as const).map((who) => t.login(who)));
    const before = await snap();
    for (const token of tokens) {
      expect((await t.post(api('addResource'), token).send({ audience: 'public', title: 'x', file_id: file })).body).toMatchObject(DENIED);
      expect((await t.post(api('delResource'), token).send({ id: 1 })).body).toMatchObject(DENIED);
      expect((await t.get(api('resourceAdminList'), token)).body).toMatchObject(DENIED);
    }
    expect((await t.get(api('dataDownload'))).body.code).toBe(Code.Untoken);
    expect(await snap()).toEqual(before);
  });
});
