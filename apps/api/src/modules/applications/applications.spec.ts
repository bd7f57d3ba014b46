import { APPLICATION_LIMITS, Code } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let operator: string;
beforeAll(async () => {
  t = await startTestApp({ runJobs: false });
  operator = await t.login('operator');
});
afterAll(() => t.close());

const APPLY = '/api/index/applyAccount';
const LIST = '/api/index/accountApplications';
const HANDLE = '/api/index/handleAccountApplication';
const FORBIDDEN = '当前账号没有权限执行此操作';

let nextMobile = 0;
/** a fresh mobile for each application, so the per-mobile limit only bites where a test wants it */
const freshMobile = () => `1370000${String(++nextMobile).padStart(4, '0')}`;

const valid = (over: Record<string, unknown> = {}) => ({
  institution_name: '星星晚托中心',
  contact_name: '刘老师',
  mobile: freshMobile(),
  city: '杭州',
  students_estimate: 80,
  message: '我们有两个校区，希望尽快开通。',
  ...over,
});

async function apply(over: Record<string, unknown> = {}) {
  const res = await t.post(APPLY).send(valid(over));
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data as { id: number; status: number; created_at: string };
}

async function row(id: number) {
  const { rows } = await t.sql.query(`select * from account_applications where id = $1`, [id]);
  return rows[0];
}

describe('applyAccount', () => {
  it('is public: a signed-out caller applies and the application is stored pending with the caller IP', async () => {
    const mobile = freshMobile();
    const res = await t
      .post(APPLY)
      .send({ institution_name: '  阳光（东区）晚托 ', contact_name: '王 明', mobile, city: '', students_estimate: 120, message: '' });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { id: expect.any(Number), status: 0, created_at: expect.any(String) } });
    const r = await row(res.body.data.id);
    expect(r).toMatchObject({
      institution_name: '阳光（东区）晚托',
      contact_name: '王 明',
      mobile,
      city: null,
      students_estimate: 120,
      message: null,
      status: 0,
      handled_by: null,
      handled_at: null,
      version: 1,
      ip: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
    });
  });

  it('needs only institution, contact and mobile; a signed-in caller may apply too', async () => {
    const res = await t
      .post(APPLY, await t.login('teacher'))
      .send({ institution_name: "St. Mary's After-School", contact_name: 'Li', mobile: freshMobile() });
    expect(res.body.code).toBe(Code.Ok);
    expect(await row(res.body.data.id)).toMatchObject({ city: null, students_estimate: null, message: null });
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const long = 'x'.repeat(10_000);
    const inputs: Record<string, unknown>[] = [
      {},
      { contact_name: '刘老师', mobile: freshMobile() },
      valid({ institution_name: undefined }),
      valid({ contact_name: undefined }),
      valid({ mobile: undefined }),
      valid({ institution_name: 'A' }),
      valid({ institution_name: '   ' }),
      valid({ contact_name: '' }),
      valid({ institution_name: 123 }),
      valid({ contact_name: ['刘'] }),
      valid({ mobile: 13700009999 }),
      valid({ mobile: '12345' }),
      valid({ students_estimate: '80' }),
      valid({ students_estimate: 0 }),
      valid({ students_estimate: 1.5 }),
      valid({ students_estimate: 100_001 }),
      valid({ city: 42 }),
      valid({ message: { text: 'hi' } }),
      valid({ institution_name: long }),
      valid({ contact_name: long }),
      valid({ city: long }),
      valid({ message: long }),
      valid({ mobile: long }),
      valid({ institution_name: "x'; drop table users; --" }),
      valid({ institution_name: "1' or '1'='1" }),
      valid({ contact_name: 'a"); delete from account_applications; --' }),
      valid({ city: '杭州; truncate users' }),
      valid({ institution_name: '<script>alert(1)</script>' }),
      valid({ contact_name: '<b>王</b>' }),
      valid({ city: '<img src=x onerror=alert(1)>' }),
      valid({ message: '你好<script>alert(1)</script>' }),
      valid({ message: '<a href="javascript:alert(1)">点我</a>' }),
      valid({ message: 'nul\u0000byte' }),
      valid({ status: 1 }),
      valid({ handled_by: 1 }),
    ];
    for (const input of inputs) {
      const before = await snapshot(t.sql);
      const res = await t.post(APPLY).send(input);
      expect({ input, code: res.body.code }).toEqual({ input, code: Code.Error });
      expect(typeof res.body.msg).toBe('string');
      expect(await snapshot(t.sql)).toEqual(before);
    }
  });

  it('says what is wrong, in the caller language', async () => {
    const zh = await t.post(APPLY).send(valid({ institution_name: 'A' }));
    expect(zh.body).toMatchObject({ code: Code.Error, msg: '机构名称需 2-100 个字符，只能包含文字、数字、空格和常用标点' });
    expect(zh.body.data.fields[0].path).toBe('institution_name');
    const en = await t
      .post(APPLY)
      .set('lang', 'en')
      .send(valid({ message: '<p>hi</p>' }));
    expect(en.body).toMatchObject({ code: Code.Error, msg: 'Plain text only: no HTML tags or control characters' });
    const long = await t.post(APPLY).send(valid({ message: 'x'.repeat(1001) }));
    expect(long.body).toMatchObject({ code: Code.Error, msg: '内容过长（最多 1000 个字符）' });
  });

  it('a message is plain text: SQL-looking text is stored as typed, harmlessly', async () => {
    const message = "Robert'); drop table users; -- 我们 50 人 & 2 个班";
    const { id } = await apply({ message });
    expect((await row(id)).message).toBe(message);
    const { rows } = await t.sql.query(`select count(*)::int as n from users`);
    expect(rows[0].n).toBeGreaterThan(0);
  });

  it(`allows ${APPLICATION_LIMITS.perMobilePerDay} applications per mobile in 24 hours`, async () => {
    const mobile = freshMobile();
    // an application older than 24 hours does not count
    await t.sql.query(
      `insert into account_applications (institution_name, contact_name, mobile, ip, created_at) values ('旧机构', '旧', $1, '10.0.0.1', now() - interval '25 hours')`,
      [mobile],
    );
    for (let i = 0; i < APPLICATION_LIMITS.perMobilePerDay; i++) await apply({ mobile });
    const before = await snapshot(t.sql);
    const res = await t.post(APPLY).send(valid({ mobile }));
    expect(res.body).toMatchObject({ code: Code.Error, msg: '该手机号 24 小时内已提交 3 次申请，请耐心等待平台联系' });
    expect(await snapshot(t.sql)).toEqual(before);
    // another mobile from the same network still may
    await apply();
  });

  it(`allows ${APPLICATION_LIMITS.perIpPerHour} applications per IP address in an hour`, async () => {
    const { id } = await apply();
    const { ip } = await row(id);
    // older than an hour, or from another address: not counted
    await t.sql.query(
      `insert into account_applications (institution_name, contact_name, mobile, ip, created_at)
       select '旧机构', '旧', '1360000' || lpad(g::text, 4, '0'), $1, now() - interval '61 minutes' from generate_series(1, 30) g
       union all
       select '别处机构', '别', '1350000' || lpad(g::text, 4, '0'), '10.9.9.9', now() from generate_series(1, 30) g`,
      [ip],
    );
    const { rows } = await t.sql.query(
      `select count(*)::int as n from account_applications where ip = $1 and created_at > now() - interval '1 hour'`,
      [ip],
    );
    const room = APPLICATION_LIMITS.perIpPerHour - rows[0].n;
    expect(room).toBeGreaterThan(0);
    for (let i = 0; i < room; i++) await apply();
    const before = await snapshot(t.sql);
    const res = await t.post(APPLY).send(valid());
    expect(res.body).toMatchObject({ code: Code.Error, msg: '当前网络提交申请过于频繁，请稍后再试' });
    expect(await snapshot(t.sql)).toEqual(before);
    // free the address for the tests that follow
    await t.sql.query(`update account_applications set created_at = created_at - interval '2 hours' where ip = $1`, [ip]);
    await t.sql.query(`delete from account_applications where mobile like '1360000%' or mobile like '1350000%'`);
  });
});

describe('accountApplications', () => {
  it('the operator lists them newest first, paged, with the total', async () => {
    const a = await apply({ institution_name: '列表机构一' });
    const b = await apply({ institution_name: '列表机构二' });
    const { rows } = await t.sql.query(`select count(*)::int as n from account_applications`);
    const res = await t.get(`${LIST}?page=1&limit=2`, operator);
    expect(res.body).toMatchObject({ code: Code.Ok, data: { total: rows[0].n, page: 1, limit: 2 } });
    expect(res.body.data.list.map((r: { id: number }) => r.id)).toEqual([b.id, a.id]);
    expect(res.body.data.list[0]).toEqual({
      id: b.id,
      school_id: null,
      institution_name: '列表机构二',
      contact_name: '刘老师',
      mobile: expect.stringMatching(/^1370000\d{4}$/),
      city: '杭州',
      students_estimate: 80,
      message: '我们有两个校区，希望尽快开通。',
      status: 0,
      handled_by: null,
      handled_by_name: null,
      handled_note: null,
      handled_at: null,
      ip: expect.any(String),
      version: 1,
      created_at: expect.any(String),
    });
    const second = await t.get(`${LIST}?page=2&limit=2`, operator);
    expect(second.body.data.list).toHaveLength(Math.min(2, rows[0].n - 2));
    expect(second.body.data.list.map((r: { id: number }) => r.id)).not.toContain(b.id);
  });

  it('a page past the end is empty but still carries the total', async () => {
    const { rows } = await t.sql.query(`select count(*)::int as n from account_applications`);
    const res = await t.get(`${LIST}?page=1000&limit=100`, operator);
    expect(res.body).toMatchObject({ code: Code.Ok, data: { list: [], total: rows[0].n, page: 1000, limit: 100 } });
  });

  it('filters by status; an empty status lists all', async () => {
    const pending = await apply({ institution_name: '筛选机构' });
    const done = await apply({ institution_name: '已通过机构' });
    expect((await t.post(HANDLE, operator).send({ id: done.id, version: 1, status: 1 })).body.code).toBe(Code.Ok);
    const counts = async (status: string) => {
      const res = await t.get(`${LIST}?limit=100${status}`, operator);
      expect(res.body.code).toBe(Code.Ok);
      return res.body.data as { list: Array<{ id: number; status: number }>; total: number };
    };
    const p = await counts('&status=0');
    expect(p.list.every((r) => r.status === 0)).toBe(true);
    expect(p.list.map((r) => r.id)).toContain(pending.id);
    expect(p.list.map((r) => r.id)).not.toContain(done.id);
    const a = await counts('&status=1');
    expect(a.list.map((r) => r.id)).toEqual([done.id]);
    expect(a.total).toBe(1);
    expect((await counts('&status=2')).total).toBe(0);
    const all = await counts('');
    const { rows } = await t.sql.query(`select count(*)::int as n from account_applications`);
    expect(all.total).toBe(rows[0].n);
    expect((await counts('&status=')).total).toBe(rows[0].n);
  });

  it('bad input answers code 100', async () => {
    const queries = [
      'status=3',
      'status=-1',
      'status=abc',
      'status=1.5',
      'status=0%20or%201%3D1',
      "status=0';drop%20table%20users;--",
      'status=%3Cscript%3E',
      'page=0',
      'page=abc',
      'page=1;%20drop%20table%20account_applications',
      'limit=0',
      'limit=1000',
      `status=${'1'.repeat(10_000)}`,
      `page=${'9'.repeat(10_000)}`,
      'sort=id',
      `q=${'x'.repeat(10_000)}`,
    ];
    for (const q of queries) {
      const before = await snapshot(t.sql);
      const res = await t.get(`${LIST}?${q}`, operator);
      expect({ q, code: res.body.code }).toEqual({ q, code: Code.Error });
      expect(await snapshot(t.sql)).toEqual(before);
    }
    const status = await t.get(`${LIST}?status=7`, operator);
    expect(status.body.msg).toBe('状态只能是 0（待处理）、1（已通过）或 2（已拒绝）');
  });
});

describe('handleAccountApplication', () => {
  it('the operator approves: status, note, who and when are recorded, the version moves on', async () => {
    const { id } = await apply({ institution_name: '待审批机构' });
    const res = await t.post(HANDLE, operator).send({ id, version: 1, status: 1, note: '  已电话核实，开通试用  ' });
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: {
        id,
        status: 1,
        version: 2,
        handled_by: t.demo.users.operator,
        handled_by_name: '平台运营',
        handled_note: '已电话核实，开通试用',
        handled_at: expect.any(String),
      },
    });
    const r = await row(id);
    expect(r).toMatchObject({ status: 1, version: 2, handled_by: t.demo.users.operator, handled_note: '已电话核实，开通试用' });
    expect(Math.abs(new Date(r.handled_at).getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('the operator rejects, without a note', async () => {
    const { id } = await apply({ institution_name: '待拒绝机构' });
    const res = await t.post(HANDLE, operator).send({ id, version: 1, status: 2 });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { id, status: 2, handled_note: null, version: 2 } });
  });

  it('a stale version answers error.conflict and changes nothing', async () => {
    const { id } = await apply({ institution_name: '并发机构' });
    const other = await t.login('operator');
    // two operators read version 1 and answer at the same time: one wins, the other is told
    const results = await Promise.all([
      t.post(HANDLE, operator).send({ id, version: 1, status: 1, note: '通过' }),
      t.post(HANDLE, other).send({ id, version: 1, status: 2, note: '拒绝' }),
    ]);
    const codes = results.map((r) => r.body.code).sort();
    expect(codes).toEqual([Code.Error, Code.Ok].sort());
    const loser = results.find((r) => r.body.code === Code.Error)!;
    expect(loser.body.msg).toBe('数据已被他人修改，请刷新后重试');
    const winner = results.find((r) => r.body.code === Code.Ok)!;
    expect(await row(id)).toMatchObject({ status: winner.body.data.status, version: 2 });

    const before = await snapshot(t.sql);
    const stale = await t.post(HANDLE, operator).set('lang', 'en').send({ id, version: 1, status: 2 });
    expect(stale.body).toMatchObject({ code: Code.Error, msg: 'Someone else changed this meanwhile: refresh and try again' });
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('a handled application cannot be handled again; an unknown one is not found', async () => {
    const { id } = await apply({ institution_name: '重复处理机构' });
    expect((await t.post(HANDLE, operator).send({ id, version: 1, status: 1 })).body.code).toBe(Code.Ok);
    const before = await snapshot(t.sql);
    const again = await t.post(HANDLE, operator).send({ id, version: 2, status: 2, note: '改主意' });
    expect(again.body).toMatchObject({ code: Code.Error, msg: '该申请已处理，不能重复处理' });
    const unknown = await t.post(HANDLE, operator).send({ id: 999_999, version: 1, status: 1 });
    expect(unknown.body).toMatchObject({ code: Code.Error, msg: '该申请不存在' });
    expect(await snapshot(t.sql)).toEqual(before);
    expect(await row(id)).toMatchObject({ status: 1, version: 2, handled_note: null });
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const { id } = await apply({ institution_name: '输入校验机构' });
    const inputs: Record<string, unknown>[] = [
      {},
      { id },
      { id, version: 1 },
      { version: 1, status: 1 },
      { id, status: 1 },
      { id: String(id), version: 1, status: 1 },
      { id, version: '1', status: 1 },
      { id, version: 1, status: '1' },
      { id, version: 1, status: 0 },
      { id, version: 1, status: 3 },
      { id, version: 1, status: true },
      { id: 1.5, version: 1, status: 1 },
      { id: -1, version: 1, status: 1 },
      { id, version: 0, status: 1 },
      { id: `${id} or 1=1`, version: 1, status: 1 },
      { id: '1; update account_applications set status = 1; --', version: 1, status: 1 },
      { id, version: 1, status: 1, note: 'x'.repeat(10_000) },
      { id, version: 1, status: 1, note: 'x'.repeat(501) },
      { id, version: 1, status: 1, note: '<script>alert(1)</script>' },
      { id, version: 1, status: 1, note: '<img src=x onerror=alert(1)>' },
      { id, version: 1, status: 1, note: 42 },
      { id, version: 1, status: 1, handled_by: 1 },
      { id, version: 1, status: 1, handled_at: '2020-01-01' },
    ];
    for (const input of inputs) {
      const before = await snapshot(t.sql);
      const res = await t.post(HANDLE, operator).send(input);
      expect({ input, code: res.body.code }).toEqual({ input, code: Code.Error });
      expect(await snapshot(t.sql)).toEqual(before);
    }
    expect(await row(id)).toMatchObject({ status: 0, version: 1, handled_by: null });
    const status = await t.post(HANDLE, operator).send({ id, version: 1, status: 0 });
    expect(status.body.msg).toBe('处理结果只能是 1（通过）或 2（拒绝）');
  });
});

describe('only the platform operator lists and handles applications', () => {
  it('school roles get "no permission", signed-out callers 401, and nothing changes', async () => {
    const { id } = await apply({ institution_name: '权限机构' });
    const before = await snapshot(t.sql);
    for (const user of ['admin', 'teacher', 'adviser', 'parent'] as const) {
      const token = await t.login(user);
      const list = await t.get(LIST, token);
      expect({ user, code: list.body.code, msg: list.body.msg, data: list.body.data }).toEqual({
        user,
        code: Code.Error,
        msg: FORBIDDEN,
        data: null,
      });
      const handle = await t.post(HANDLE, token).send({ id, version: 1, status: 1 });
      expect({ user, code: handle.body.code, msg: handle.body.msg }).toEqual({ user, code: Code.Error, msg: FORBIDDEN });
    }
    expect((await t.get(LIST)).body.code).toBe(Code.Untoken);
    expect((await t.post(HANDLE).send({ id, version: 1, status: 1 })).body.code).toBe(Code.Untoken);
    expect((await t.get(LIST, 'not-a-token')).body.code).toBe(Code.Untoken);
    const after = await snapshot(t.sql);
    // the sign-ins above wrote tokens and activity; the applications are untouched
    expect({ n: after.account_applications, v: after.application_versions }).toEqual({
      n: before.account_applications,
      v: before.application_versions,
    });
    expect(await row(id)).toMatchObject({ status: 0, version: 1, handled_by: null });
  });
});
