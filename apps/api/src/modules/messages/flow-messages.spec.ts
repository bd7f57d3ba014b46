import { Code, Role } from '@wantuo/shared';
import { randomUUID } from 'node:crypto';
import { FlowService } from '../flow/flow.service';
import { eventually, startTestApp, type TestApp } from '../../../test/harness';
import { WechatOa } from '../wechat/oa-client';
import { FlowMessagesListener } from './flow-messages.listener';

/**
 * The flow tells guardians (issue 24): the teacher's 入园 and 离园 reach every guardian of the child after the commit, a
 * bound one in WeChat (the sandbox's log) and an unbound one by SMS, the departure with the pick-up person's name;
 * a repeated command tells nobody twice.
 */
let t: TestApp;
let teacher: string;
let kid: { id: number; name: string; pickup: number; pickup_name: string };
let bound: { id: number; openid: string };
let unbound: { id: number; mobile: string };

beforeAll(async () => {
  t = await startTestApp({ listen: true, demoPeople: true });
  teacher = await t.login('teacher');
  const { rows } = await t.sql.query(
    `select s.id, s.name, p.id as pickup, p.name as pickup_name
       from care_class_students ccs join students s on s.id = ccs.student_id
       join lateral (select id, name from pickup_people where student_id = s.id order by id limit 1) p on true
      where ccs.class_id = $1 order by s.id limit 1`,
    [t.demo.classes!.running],
  );
  kid = rows[0];
  // two guardians of the child: the seeded one, bound to a sandbox WeChat user, and a second one without WeChat
  const [g] = (await t.sql.query(`select user_id from student_guardians where student_id = $1 order by is_primary desc limit 1`, [kid.id])).rows;
  const user = await t.post('/api/dev/wechat/users').send({ name: '入园消息家长', subscribed: true });
  bound = { id: g.user_id, openid: user.body.data.openid };
  await t.sql.query(`insert into wechat_bindings (user_id, school_id, appid, openid) values ($1, $2, $3, $4)`, [
    bound.id,
    t.demo.schoolId,
    t.app.get(WechatOa).appid,
    bound.openid,
  ]);
  const { rows: second } = await t.sql.query(
    `with u as (insert into users (school_id, role, username, name, nickname, mobile) values ($1, $2, 'gm_flow_second', '第二监护人', '第二监护人', '13900077001') returning id)
     insert into student_guardians (school_id, student_id, user_id, relation, is_primary) select $1, $3, u.id, '祖父母', false from u returning user_id`,
    [t.demo.schoolId, Role.Parent, kid.id],
  );
  unbound = { id: second[0].user_id, mobile: '13900077001' };
});
afterAll(() => t.close());

const sandboxLog = async () => {
  const res = await t.get(`/api/dev/wechat/messages?openid=${encodeURIComponent(bound.openid)}`);
  return res.body.data as Array<{ template_id: string; data: Record<string, { value: string }>; url: string | null }>;
};
const texts = async (kind: string) =>
  (await t.sql.query(`select params from sms_messages where mobile = $1 and kind = $2 order by id`, [unbound.mobile, kind])).rows as Array<{
    params: Record<string, string>;
  }>;

it('入园 and 离园 reach every guardian: the bound one in WeChat, the other by SMS, the departure naming who picked up', async () => {
  const enter = await t.post('/api/index/studentEnter', teacher).send({ student_ids: [kid.id] });
  expect(enter.body.code).toBe(Code.Ok);
  await t.app.get(FlowMessagesListener).settled();
  const arrived = await eventually(async () => (await sandboxLog()).find((m) => m.template_id === 'sbx_tpl_flow_arrived'));
  expect(JSON.stringify(arrived.data)).toContain(kid.name);
  expect(arrived.url).toMatch(/\/parent/);
  const [sms] = await eventually(async () => ((await texts('flow.arrived')).length ? texts('flow.arrived') : null));
  expect(sms.params.student).toBe(kid.name);

  const leave = await t.post('/api/index/studentLiyuan', teacher).send({ student_ids: [kid.id], picked_up_by: kid.pickup });
  expect(leave.body.code).toBe(Code.Ok);
  await t.app.get(FlowMessagesListener).settled();
  const left = await eventually(async () => (await sandboxLog()).find((m) => m.template_id === 'sbx_tpl_flow_left'));
  expect(JSON.stringify(left.data)).toContain(kid.pickup_name);
  const [leftSms] = await eventually(async () => ((await texts('flow.left')).length ? texts('flow.left') : null));
  expect(leftSms.params.by).toContain(kid.pickup_name);

  // every send is recorded with its result; the bound guardian got no text, the other no WeChat message
  // (the daily report, issue 27, also goes out at departure: only the flow's own messages are counted here)
  const { rows } = await t.sql.query(
    `select user_id, kind, state from wechat_messages where user_id = any($1::int[]) and kind like 'flow.%' order by id`,
    [[bound.id, unbound.id]],
  );
  expect(rows.map((r) => [r.user_id, r.kind])).toEqual([
    [bound.id, 'flow.arrived'],
    [bound.id, 'flow.left'],
  ]);
  const { rows: boundTexts } = await t.sql.query(
    `select count(*)::int as n from sms_messages m join users u on u.mobile = m.mobile where u.id = $1 and m.kind like 'flow.%'`,
    [bound.id],
  );
  expect(boundTexts[0].n).toBe(0);
});

it('a departure with a verified pick-up code names the verified person and their relation', async () => {
  const { rows } = await t.sql.query(
    `select ccs.student_id as id from care_class_students ccs where ccs.class_id = $1 and ccs.student_id <> $2 order by ccs.student_id limit 1`,
    [t.demo.classes!.running, kid.id],
  );
  const other = rows[0].id as number;
  const mobile = '13900077002';
  await t.sql.query(
    `with u as (insert into users (school_id, role, username, name, nickname, mobile) values ($1, $2, 'gm_flow_verified', '核验家长', '核验家长', $4) returning id)
     insert into student_guardians (school_id, student_id, user_id, relation, is_primary) select $1, $3, u.id, '姑姑', false from u`,
    [t.demo.schoolId, Role.Parent, other, mobile],
  );
  const enter = await t.post('/api/index/studentEnter', teacher).send({ student_ids: [other] });
  expect(enter.body.code).toBe(Code.Ok);
  const user = {
    id: t.demo.users.teacher,
    role: Role.Teacher,
    schoolId: t.demo.schoolId,
    name: 't',
    nickname: 't',
    lang: 'zh-CN' as const,
    tokenId: 0,
  };
  const pickup_verified = { person: 'g1', name: '核验的人', relation: '外婆', code_id: randomUUID(), offline: false };
  const out = await t.app.get(FlowService).command(user, [other], { type: 'leave', picked_up_by: null, pickup_verified });
  expect(out.results[0]).toMatchObject({ ok: true });
  await t.app.get(FlowMessagesListener).settled();
  const left = await eventually(async () => {
    const { rows: sms } = await t.sql.query(`select params from sms_messages where mobile = $1 and kind = 'flow.left'`, [mobile]);
    return sms[0] as { params: Record<string, string> } | undefined;
  });
  expect(left.params.by).toBe('核验的人（外婆）');
});
