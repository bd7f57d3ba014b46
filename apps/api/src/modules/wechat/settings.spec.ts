import { Code, GUARDIAN_MESSAGE_KIND_NAMES } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { WechatOa } from './oa-client';

/**
 * The settings and counts of parents in WeChat: messagePrefs / saveMessagePrefs / wechatUnbind (the guardian),
 * schoolWechatStats (the school's admin), wechatAccount / saveWechatTemplates (the operator).
 */
let t: TestApp;
let other: { schoolId: number; adminToken: string };
let appid: string;
const DENIED = '当前账号没有权限执行此操作';

/** The tables these actions write, besides the harness's. */
async function snap() {
  const { rows } = await t.sql.query(
    `select (select count(*) from message_prefs)::int as prefs, (select string_agg(user_id || kind || channel, ',' order by user_id, kind) from message_prefs) as prefs_rows,
            (select count(*) from wechat_bindings where unbound_at is null)::int as live_bindings,
            (select count(*) from wechat_templates)::int as templates, (select string_agg(kind || template_id, ',' order by kind) from wechat_templates) as template_rows`,
  );
  const { user_tokens: _a, ...rest } = await snapshot(t.sql);
  return { ...rest, ...rows[0] };
}

/** Another parent of a school, with a live binding when `openid` is given. */
async function parentOf(schoolId: number, mobile: string, openid?: string): Promise<number> {
  const { rows } = await t.sql.query(
    `insert into users (school_id, role, username, name, nickname, mobile) values ($1, 6, $2, '家长', '家长', $2) returning id`,
    [schoolId, mobile],
  );
  const id = rows[0].id as number;
  if (openid)
    await t.sql.query(`insert into wechat_bindings (user_id, school_id, appid, openid) values ($1, $2, $3, $4)`, [id, schoolId, appid, openid]);
  return id;
}

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, listen: true });
  other = await t.otherSchool();
  appid = t.app.get(WechatOa).appid;
});
afterAll(() => t.close());

describe('messagePrefs and saveMessagePrefs', () => {
  it('a guardian sees every kind at the default (WeChat), alerts that cannot be turned off, and not bound', async () => {
    const res = await t.get('/api/index/messagePrefs', await t.login('parent'));
    expect(res.body.code).toBe(Code.Ok);
    const { kinds, binding } = res.body.data;
    expect(kinds.map((k: { kind: string }) => k.kind)).toEqual(GUARDIAN_MESSAGE_KIND_NAMES);
    for (const k of kinds) expect(k).toMatchObject({ channel: 'wechat', chosen: false });
    expect(kinds.find((k: { kind: string }) => k.kind === 'alert.raised')).toMatchObject({
      label: { zh: '异常提醒', en: 'Alert' },
      may_turn_off: false,
      channels: ['wechat', 'sms', 'both'],
    });
    expect(kinds.find((k: { kind: string }) => k.kind === 'notice.important')).toMatchObject({
      may_turn_off: true,
      channels: ['wechat', 'sms', 'both', 'none'],
    });
    expect(binding).toEqual({ bound: false, bound_at: null, openid: null });
  });

  it('saves some channels (set-based upsert), the others keep theirs, and answers the settings', async () => {
    const parent = await t.login('parent');
    const first = await t.post('/api/index/saveMessagePrefs', parent).send({
      prefs: [
        { kind: 'notice.important', channel: 'none' },
        { kind: 'flow.arrived', channel: 'sms' },
        { kind: 'alert.raised', channel: 'both' },
      ],
    });
    expect(first.body.code).toBe(Code.Ok);
    const second = await t.post('/api/index/saveMessagePrefs', parent).send({ prefs: [{ kind: 'flow.arrived', channel: 'both' }] });
    const byKind = Object.fromEntries(
      second.body.data.kinds.map((k: { kind: string; channel: string; chosen: boolean }) => [k.kind, [k.channel, k.chosen]]),
    );
    expect(byKind).toMatchObject({
      'notice.important': ['none', true],
      'flow.arrived': ['both', true],
      'alert.raised': ['both', true],
      'flow.left': ['wechat', false],
    });
    const { rows } = await t.sql.query(`select kind, channel from message_prefs where user_id = $1 order by kind`, [t.demo.users.parent]);
    expect(rows).toEqual([
      { kind: 'alert.raised', channel: 'both' },
      { kind: 'flow.arrived', channel: 'both' },
      { kind: 'notice.important', channel: 'none' },
    ]);
  });

  it.each([
    [
      'alerts turned off',
      {
        prefs: [
          { kind: 'notice.remind', channel: 'sms' },
          { kind: 'alert.raised', channel: 'none' },
        ],
      },
      '异常提醒不能关闭',
    ],
    ['an unknown kind', { prefs: [{ kind: 'code.login', channel: 'sms' }] }, '未知的消息类型'],
    ['a bad channel', { prefs: [{ kind: 'flow.left', channel: 'email' }] }, '接收方式只能是微信、短信、都要或不接收'],
    [
      'a kind twice',
      {
        prefs: [
          { kind: 'flow.left', channel: 'sms' },
          { kind: 'flow.left', channel: 'none' },
        ],
      },
      '同一种消息只能设置一次',
    ],
    ['nothing', { prefs: [] }, undefined],
    ['not a list', { prefs: 'all' }, undefined],
    ['an unknown field', { prefs: [{ kind: 'flow.left', channel: 'sms' }], user_id: 1 }, undefined],
    ['an unknown field of a pref', { prefs: [{ kind: 'flow.left', channel: 'sms', user_id: 1 }] }, undefined],
  ])('refuses %s with code 100 and writes nothing', async (_, body, msg) => {
    const parent = await t.login('parent');
    const before = await snap();
    const res = await t.post('/api/index/saveMessagePrefs', parent).send(body);
    expect(res.body.code).toBe(Code.Error);
    if (msg) expect(res.body.msg).toBe(msg);
    expect(await snap()).toEqual(before);
  });

  it('staff and the operator have no message settings', async () => {
    const before = await snap();
    for (const user of ['admin', 'teacher', 'adviser', 'operator'] as const) {
      const token = await t.login(user);
      expect((await t.get('/api/index/messagePrefs', token)).body).toMatchObject({ code: Code.Error, msg: DENIED });
      expect((await t.post('/api/index/saveMessagePrefs', token).send({ prefs: [{ kind: 'flow.left', channel: 'sms' }] })).body).toMatchObject({
        code: Code.Error,
        msg: DENIED,
      });
    }
    const { user_activity: _a, ...after } = await snap();
    const { user_activity: _b, ...was } = before;
    expect(after).toEqual(was);
  });
});

describe('wechatUnbind', () => {
  it('refuses a guardian who is not bound, writing nothing', async () => {
    const parent = await t.login('parent');
    const before = await snap();
    expect((await t.post('/api/index/wechatUnbind', parent).send({})).body).toMatchObject({ code: Code.Error, msg: '当前账号未绑定微信' });
    expect(await snap()).toEqual(before);
  });

  it("ends the guardian's live binding (history kept, reason user), records it, and clears nothing else", async () => {
    const parent = await t.login('parent');
    const me = t.demo.users.parent;
    await t.sql.query(`insert into wechat_bindings (user_id, school_id, appid, openid) values ($1, $2, $3, 'oSbxPARENT0000000001')`, [
      me,
      t.demo.schoolId,
      appid,
    ]);
    // another guardian's binding (the other school) stays
    await parentOf(other.schoolId, '13900009001', 'oSbxOTHER00000000001');
    const bound = await t.get('/api/index/messagePrefs', parent);
    expect(bound.body.data.binding).toMatchObject({ bound: true, openid: 'oSbx****0001' });
    expect(Date.parse(bound.body.data.binding.bound_at)).toBeGreaterThan(Date.now() - 60_000);
    const prefsBefore = await t.sql.query(`select count(*)::int as n from message_prefs where user_id = $1`, [me]);

    const res = await t.post('/api/index/wechatUnbind', parent).send({});
    expect(res.body).toMatchObject({ code: Code.Ok, data: {} });
    const { rows } = await t.sql.query(`select openid, unbound_at is not null as ended, unbound_reason from wechat_bindings order by id`);
    expect(rows).toEqual([
      { openid: 'oSbxPARENT0000000001', ended: true, unbound_reason: 'user' },
      { openid: 'oSbxOTHER00000000001', ended: false, unbound_reason: null },
    ]);
    const activity = await t.sql.query(`select action, detail from user_activity where user_id = $1 and action like 'wechat.%'`, [me]);
    expect(activity.rows).toEqual([{ action: 'wechat.unbind', detail: expect.objectContaining({ appid, openid: 'oSbx****0001' }) }]);
    expect((await t.sql.query(`select count(*)::int as n from message_prefs where user_id = $1`, [me])).rows).toEqual(prefsBefore.rows);
    expect((await t.get('/api/index/messagePrefs', parent)).body.data.binding).toEqual({ bound: false, bound_at: null, openid: null });
    // a second time: nothing bound any more
    expect((await t.post('/api/index/wechatUnbind', parent).send({})).body).toMatchObject({ code: Code.Error, msg: '当前账号未绑定微信' });
  });

  it('refuses input and other roles', async () => {
    const before = await snap();
    expect((await t.post('/api/index/wechatUnbind', await t.login('parent')).send({ user_id: 1 })).body.code).toBe(Code.Error);
    for (const user of ['admin', 'teacher', 'operator'] as const) {
      expect((await t.post('/api/index/wechatUnbind', await t.login(user)).send({})).body).toMatchObject({ code: Code.Error, msg: DENIED });
    }
    const { user_activity: _a, ...after } = await snap();
    const { user_activity: _b, ...was } = before;
    expect(after).toEqual(was);
  });
});

describe('schoolWechatStats', () => {
  beforeAll(async () => {
    // two more guardians of the demo school, one bound (the demo's parent was unbound above); one bound at the other school
    const bound = await parentOf(t.demo.schoolId, '13900008001', 'oSbxDEMO000000000001');
    await parentOf(t.demo.schoolId, '13900008002');
    await parentOf(other.schoolId, '13900009002', 'oSbxOTHER00000000002');
    const sms = await t.sql.query(
      `with d as (select (now() at time zone 'Asia/Shanghai')::date as today)
       insert into sms_messages (school_id, day, mobile, kind, content, provider, state, units)
       values ($1, (select today from d), '13900008001', 'flow.arrived', '入园（转短信）', 'outbox', 'delivered', 1),
              ($1, (select today from d), '13900008002', 'flow.arrived', '入园', 'outbox', 'delivered', 1),
              ($1, (select today from d), '13900008002', 'flow.arrived', '入园', 'outbox', 'failed', 0),
              ($1, (select today from d) - 1, '13900008002', 'notice.important', '通知', 'outbox', 'sent', 1),
              ($1, (select today from d), '13900008002', 'code.login', '验证码', 'outbox', 'delivered', 1),
              ($2, (select today from d), '13900009002', 'flow.arrived', '另一所', 'outbox', 'delivered', 1)
       returning id`,
      [t.demo.schoolId, other.schoolId],
    );
    const fallbackId = sms.rows[0].id;
    await t.sql.query(
      `with d as (select (now() at time zone 'Asia/Shanghai')::date as today)
       insert into wechat_messages (school_id, user_id, appid, openid, kind, template_id, day, state, errcode, sms_message_id)
       values ($1, $3, $5, 'oSbxDEMO000000000001', 'flow.arrived', 'tpl', (select today from d), 'delivered', null, null),
              ($1, $3, $5, 'oSbxDEMO000000000001', 'flow.arrived', 'tpl', (select today from d), 'sent', null, null),
              ($1, $3, $5, 'oSbxDEMO000000000001', 'flow.arrived', 'tpl', (select today from d), 'failed', 43101, $4),
              ($1, $3, $5, 'oSbxDEMO000000000001', 'alert.raised', 'tpl', (select today from d), 'queued', null, null),
              ($1, $3, $5, 'oSbxDEMO000000000001', 'flow.left', 'tpl', (select today from d) - 1, 'delivered', null, null),
              ($1, $3, $5, 'oSbxDEMO000000000001', 'flow.left', 'tpl', (select today from d) - 40, 'delivered', null, null),
              ($2, null, $5, 'oSbxOTHER00000000002', 'flow.arrived', 'tpl', (select today from d), 'delivered', null, null)`,
      [t.demo.schoolId, other.schoolId, bound, fallbackId, appid],
    );
  });

  it("an admin sees their school's guardians bound and delivery per day and kind, newest first, with the totals", async () => {
    const res = await t.get('/api/index/schoolWechatStats', await t.login('admin'));
    expect(res.body.code).toBe(Code.Ok);
    const data = res.body.data;
    // the demo's parent (unbound) and two more, one bound
    expect(data.guardians).toEqual({ bound: 1, total: 3 });
    expect(data.total).toBe(4);
    const zero = { wechat_sent: 0, wechat_delivered: 0, wechat_failed: 0, wechat_waiting: 0, sms_fallback: 0, sms_direct: 0 };
    expect(data.list.map((r: Record<string, unknown>) => ({ ...r, day: undefined }))).toEqual([
      { ...zero, day: undefined, kind: 'flow.arrived', wechat_sent: 2, wechat_delivered: 1, wechat_failed: 1, sms_fallback: 1, sms_direct: 2 },
      { ...zero, day: undefined, kind: 'alert.raised', wechat_waiting: 1 },
      { ...zero, day: undefined, kind: 'flow.left', wechat_sent: 1, wechat_delivered: 1 },
      { ...zero, day: undefined, kind: 'notice.important', sms_direct: 1 },
    ]);
    expect(data.list[0].day).toBe(data.to);
    expect(data.list[2].day < data.to).toBe(true);
    expect(data.totals).toEqual({ wechat_sent: 3, wechat_delivered: 2, wechat_failed: 1, wechat_waiting: 1, sms_fallback: 1, sms_direct: 3 });
    // the default range: the last 7 school days (at least 7 days, at most 7 + holidays and weekends), today included
    const days = (Date.parse(data.to) - Date.parse(data.from)) / 86_400_000 + 1;
    expect(days).toBeGreaterThanOrEqual(7);
    expect(days).toBeLessThanOrEqual(11);
  });

  it('pages on the server and filters by range', async () => {
    const admin = await t.login('admin');
    const page2 = await t.get('/api/index/schoolWechatStats?page=2&limit=3', admin);
    expect(page2.body.data).toMatchObject({ total: 4, page: 2, limit: 3, list: [expect.objectContaining({ kind: 'notice.important' })] });
    expect(page2.body.data.totals.sms_direct).toBe(3);
    const first = await t.get('/api/index/schoolWechatStats', admin);
    const today = first.body.data.to as string;
    const one = await t.get(`/api/index/schoolWechatStats?from=${today}&to=${today}`, admin);
    expect(one.body.data).toMatchObject({ from: today, to: today, total: 2 });
    const longAgo = await t.get(`/api/index/schoolWechatStats?to=${today}&from=2026-01-01`, admin);
    expect(longAgo.body.code).toBe(Code.Error);
  });

  it("another school's admin sees only their own, whatever the demo school has", async () => {
    const res = await t.get('/api/index/schoolWechatStats', other.adminToken);
    // its two guardians, both bound (one in the unbind test above)
    expect(res.body.data.guardians).toEqual({ bound: 2, total: 2 });
    expect(res.body.data.list).toEqual([
      expect.objectContaining({ kind: 'flow.arrived', wechat_sent: 1, wechat_delivered: 1, sms_direct: 1, sms_fallback: 0 }),
    ]);
  });

  it('refuses bad ranges with code 100; teachers, head teachers, parents and the operator may not read it', async () => {
    const admin = await t.login('admin');
    const before = await snap();
    for (const [q, msg] of [
      ['from=2026-13-01', '日期格式需为 YYYY-MM-DD'],
      ['from=2026-11-10&to=2026-11-01', '结束日期不能早于开始日期'],
      ['from=2026-01-01&to=2026-11-01', '日期范围最多 92 天'],
      ['limit=1000', undefined],
      ['school_id=1', undefined],
    ] as const) {
      const res = await t.get(`/api/index/schoolWechatStats?${q}`, admin);
      expect({ q, code: res.body.code }).toEqual({ q, code: Code.Error });
      if (msg) expect(res.body.msg).toBe(msg);
    }
    for (const user of ['teacher', 'adviser', 'parent', 'operator'] as const) {
      expect((await t.get('/api/index/schoolWechatStats', await t.login(user))).body).toMatchObject({ code: Code.Error, msg: DENIED });
    }
    const { user_activity: _a, ...after } = await snap();
    const { user_activity: _b, ...was } = before;
    expect(after).toEqual(was);
  });
});

describe('wechatAccount and saveWechatTemplates', () => {
  it("the operator sees the account, its token, every school's bound guardians and the sandbox's default templates", async () => {
    const res = await t.get('/api/index/wechatAccount', await t.login('operator'));
    expect(res.body.code).toBe(Code.Ok);
    const data = res.body.data;
    expect(data).toMatchObject({ appid, sandbox: true });
    expect(data.token.fresh).toBe(data.token.error === null);
    const { rows } = await t.sql.query(`select count(*)::int as n from wechat_bindings where unbound_at is null`);
    expect(data.bound_guardians).toBe(rows[0].n);
    expect(data.templates.map((x: { kind: string }) => x.kind)).toEqual(GUARDIAN_MESSAGE_KIND_NAMES);
    expect(data.templates.find((x: { kind: string }) => x.kind === 'flow.arrived')).toEqual({
      kind: 'flow.arrived',
      label: expect.objectContaining({ zh: expect.any(String) }),
      template_id: 'sbx_tpl_flow_arrived',
      is_default: true,
      updated_at: null,
      updated_by_name: null,
    });
  });

  it('the operator sets some template ids (upsert, who and when kept)', async () => {
    const op = await t.login('operator');
    await t.post('/api/index/saveWechatTemplates', op).send({ templates: [{ kind: 'flow.arrived', template_id: 'old_id' }] });
    const res = await t.post('/api/index/saveWechatTemplates', op).send({
      templates: [
        { kind: 'flow.arrived', template_id: ' Abc-123_xyz ' },
        { kind: 'alert.raised', template_id: 'ALERT_tpl' },
      ],
    });
    expect(res.body.code).toBe(Code.Ok);
    const byKind = Object.fromEntries(res.body.data.templates.map((x: { kind: string }) => [x.kind, x]));
    expect(byKind['flow.arrived']).toMatchObject({ template_id: 'Abc-123_xyz', is_default: false, updated_by_name: expect.any(String) });
    expect(byKind['alert.raised']).toMatchObject({ template_id: 'ALERT_tpl', is_default: false });
    expect(byKind['flow.left']).toMatchObject({ template_id: 'sbx_tpl_flow_left', is_default: true });
    const { rows } = await t.sql.query(`select kind, template_id, updated_by from wechat_templates order by kind`);
    expect(rows).toEqual([
      { kind: 'alert.raised', template_id: 'ALERT_tpl', updated_by: t.demo.users.operator },
      { kind: 'flow.arrived', template_id: 'Abc-123_xyz', updated_by: t.demo.users.operator },
    ]);
  });

  it.each([
    ['a template id with a space', { templates: [{ kind: 'flow.left', template_id: 'a b' }] }, '模板 ID 为 1-64 位字母、数字、下划线或短横线'],
    ['a template id too long', { templates: [{ kind: 'flow.left', template_id: 'x'.repeat(65) }] }, '模板 ID 为 1-64 位字母、数字、下划线或短横线'],
    ['an empty template id', { templates: [{ kind: 'flow.left', template_id: '' }] }, '模板 ID 为 1-64 位字母、数字、下划线或短横线'],
    ['an unknown kind', { templates: [{ kind: 'school.welcome', template_id: 'abc' }] }, '未知的消息类型'],
    [
      'a kind twice',
      {
        templates: [
          { kind: 'flow.left', template_id: 'a' },
          { kind: 'flow.left', template_id: 'b' },
        ],
      },
      '同一种消息只能设置一次',
    ],
    ['nothing', { templates: [] }, undefined],
    ['an unknown field', { templates: [{ kind: 'flow.left', template_id: 'a', updated_by: 1 }] }, undefined],
  ])('refuses %s with code 100 and writes nothing', async (_, body, msg) => {
    const op = await t.login('operator');
    const before = await snap();
    const res = await t.post('/api/index/saveWechatTemplates', op).send(body);
    expect(res.body.code).toBe(Code.Error);
    if (msg) expect(res.body.msg).toBe(msg);
    expect(await snap()).toEqual(before);
  });

  it('a school admin, a teacher or a parent may neither read nor set the account', async () => {
    const before = await snap();
    for (const token of [await t.login('admin'), await t.login('teacher'), await t.login('parent'), other.adminToken]) {
      expect((await t.get('/api/index/wechatAccount', token)).body).toMatchObject({ code: Code.Error, msg: DENIED });
      expect(
        (await t.post('/api/index/saveWechatTemplates', token).send({ templates: [{ kind: 'flow.left', template_id: 'x' }] })).body,
      ).toMatchObject({
        code: Code.Error,
        msg: DENIED,
      });
    }
    const { user_activity: _a, ...after } = await snap();
    const { user_activity: _b, ...was } = before;
    expect(after).toEqual(was);
  });
});
