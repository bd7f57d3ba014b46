import { instantOf, localDay, Role } from '@wantuo/shared';
import { eventually, lastDaytime, startTestApp, type TestApp } from '../../../test/harness';
import { WechatOa } from '../wechat/oa-client';
import { GuardianMessages, MessagesClock, type GuardianMessage } from './guardian-messages.service';

/** A WeChat message handed over: sent, or already delivered (the sandbox's push can come before the poll looks). */
const SENT = new Set(['sent', 'delivered']);

/**
 * Guardians' messages against the real WeChat sandbox (/api/dev/wechat/) and the SMS outbox: WeChat when bound, SMS
 * when not or when WeChat refuses, the guardian's channel, the quiet hours, one message per key.
 */
let t: TestApp;
let messages: GuardianMessages;
let appid: string;
let seq = 0;

beforeAll(async () => {
  t = await startTestApp({ listen: true });
  messages = t.app.get(GuardianMessages);
  // messages "sent now" are due now whatever the hour CI runs at (the quiet hours are the test below's own)
  t.app.get(MessagesClock).now = () => lastDaytime();
  appid = t.app.get(WechatOa).appid;
});
afterAll(() => t.close());

/** A guardian of the demo school with a mobile of their own; bound to a new sandbox WeChat user when asked. */
async function guardian(opts: { bound?: boolean; subscribed?: boolean } = {}): Promise<{ id: number; mobile: string; openid: string | null }> {
  const n = ++seq;
  const mobile = `1390000${String(1000 + n).padStart(4, '0')}`;
  const { rows } = await t.sql.query(
    `insert into users (school_id, role, username, name, nickname, mobile, password_hash)
     select $1, $2, $3, $4, $4, $5, password_hash from users where username = 'admin' returning id`,
    [t.demo.schoolId, Role.Parent, `gm_parent_${n}`, `家长${n}`, mobile],
  );
  const id = rows[0].id as number;
  if (!opts.bound) return { id, mobile, openid: null };
  const user = await t.post('/api/dev/wechat/users').send({ name: `微信家长${n}`, subscribed: opts.subscribed ?? true });
  const openid = user.body.data.openid as string;
  expect(openid).toBeTruthy();
  await t.sql.query(`insert into wechat_bindings (user_id, school_id, appid, openid) values ($1, $2, $3, $4)`, [id, t.demo.schoolId, appid, openid]);
  return { id, mobile, openid };
}

const item = (user_id: number, over: Partial<GuardianMessage> = {}): GuardianMessage => ({
  school_id: t.demo.schoolId,
  user_id,
  kind: 'notice.important',
  params: { school: '阳光晚托', title: `第${seq}号通知：明天放假` },
  link: '/parent_notices',
  key: `spec-${user_id}-${over.kind ?? 'notice.important'}`,
  ...over,
});

const rowsOf = async (userId: number) =>
  (
    await t.sql.query(
      `select id::int, kind, state, errcode, msgid, sms_message_id::int, url, send_after from wechat_messages where user_id = $1 order by id`,
      [userId],
    )
  ).rows;

const outbox = async (mobile: string): Promise<Array<{ template: string; content: string }>> =>
  (await t.get(`/api/dev/sms-outbox?mobile=${mobile}`)).body.data.list;

const sandboxLog = async (openid: string): Promise<Array<Record<string, unknown>>> => {
  const res = await t.get(`/api/dev/wechat/messages?openid=${openid}`);
  return res.body.data.list ?? res.body.data;
};

it('a bound guardian with the default channel gets the WeChat message, sent with its msgid and an absolute link', async () => {
  const g = await guardian({ bound: true });
  expect(await messages.send([item(g.id)])).toBe(1);
  const [row] = await eventually(async () => {
    const rows = await rowsOf(g.id);
    return SENT.has(rows[0]?.state) ? rows : null;
  });
  expect(row).toMatchObject({ kind: 'notice.important', errcode: null, sms_message_id: null });
  expect(row.msgid).toBeTruthy();
  expect(row.url).toBe(`${t.config.webPublicUrl}/m/parent_notices`);
  const log = await eventually(async () => ((await sandboxLog(g.openid!)).length ? sandboxLog(g.openid!) : null));
  expect(log).toHaveLength(1);
  expect(JSON.stringify(log[0])).toContain('明天放假');
  expect(await outbox(g.mobile)).toEqual([]);
});

it('an unbound guardian gets the SMS, and no WeChat message is written', async () => {
  const g = await guardian();
  await messages.send([item(g.id)]);
  const sms = await eventually(async () => (await outbox(g.mobile)).find((m) => m.template === 'notice.important'));
  expect(sms.content).toContain('明天放假');
  expect(await rowsOf(g.id)).toEqual([]);
});

it('WeChat refuses 43101 (not subscribed): the message failed with the code, the SMS sent instead and linked', async () => {
  const g = await guardian({ bound: true, subscribed: false });
  await messages.send([item(g.id)]);
  const [row] = await eventually(async () => {
    const rows = await rowsOf(g.id);
    return rows[0]?.state === 'failed' && rows[0].sms_message_id ? rows : null;
  });
  expect(row.errcode).toBe(43101);
  const { rows: sms } = await t.sql.query(`select mobile, kind, dedupe_key from sms_messages where id = $1`, [row.sms_message_id]);
  expect(sms[0]).toEqual({ mobile: g.mobile, kind: 'notice.important', dedupe_key: `wx-${row.id}` });
  await eventually(async () => (await outbox(g.mobile)).find((m) => m.template === 'notice.important'));
});

it("'none' sends nothing, but an alert still goes (it cannot be turned off)", async () => {
  const g = await guardian({ bound: true });
  await t.sql.query(`insert into message_prefs (user_id, kind, channel) values ($1, 'notice.important', 'none'), ($1, 'alert.raised', 'none')`, [
    g.id,
  ]);
  expect(await messages.send([item(g.id)])).toBe(0);
  const alert = item(g.id, {
    kind: 'alert.raised',
    params: { school: '阳光晚托', student: '陈小阳', class: '一班', what: '未到校' },
    link: '/parent',
  });
  expect(await messages.send([alert])).toBe(1);
  const rows = await eventually(async () => {
    const r = await rowsOf(g.id);
    return SENT.has(r[0]?.state) ? r : null;
  });
  expect(rows.map((r) => r.kind)).toEqual(['alert.raised']);
  expect(await outbox(g.mobile)).toEqual([]);
});

it("'both' sends the WeChat message and the SMS", async () => {
  const g = await guardian({ bound: true });
  await t.sql.query(`insert into message_prefs (user_id, kind, channel) values ($1, 'homework.set', 'both')`, [g.id]);
  const hw = item(g.id, { kind: 'homework.set', params: { school: '阳光晚托', student: '陈小阳', title: '口算一页', due: '2026-12-01' } });
  expect(await messages.send([hw])).toBe(2);
  await eventually(async () => (SENT.has((await rowsOf(g.id))[0]?.state) ? true : null));
  const sms = await eventually(async () => (await outbox(g.mobile)).find((m) => m.template === 'homework.set'));
  expect(sms.content).toContain('口算一页');
});

it('in the quiet hours both channels wait for 07:00 school time', async () => {
  const [bound, unbound] = [await guardian({ bound: true }), await guardian()];
  // 22:00 in Shanghai two days from now: held to 07:00 the next morning
  const day = localDay(new Date(Date.now() + 2 * 86_400_000), 'Asia/Shanghai');
  const at = instantOf(day, '22:00', 'Asia/Shanghai');
  await messages.send([item(bound.id), item(unbound.id)], { now: at });
  const [row] = await rowsOf(bound.id);
  expect(row.state).toBe('queued');
  expect(new Date(row.send_after).toISOString()).toBe(new Date(at.getTime() + 9 * 3_600_000).toISOString());
  // the SMS is not even written yet (a delayed job writes it at 07:00)
  const { rows } = await t.sql.query(`select count(*)::int as n from sms_messages where mobile = $1`, [unbound.mobile]);
  expect(rows[0].n).toBe(0);
  // where the child is cannot wait for the morning: a departure goes at once
  const left = item(bound.id, {
    kind: 'flow.left',
    key: `quiet-left-${bound.id}`,
    params: { school: '阳光晚托', student: '陈小阳', time: '22:00', by: '陈奶奶' },
  });
  await messages.send([left], { now: at });
  const urgent = (await rowsOf(bound.id)).find((r) => r.kind === 'flow.left');
  expect(new Date(urgent.send_after).toISOString()).toBe(at.toISOString());
});

it('the same key twice is one message, on each channel', async () => {
  const [bound, unbound] = [await guardian({ bound: true }), await guardian()];
  const items = [item(bound.id, { key: 'twice-1' }), item(unbound.id, { key: 'twice-2' })];
  expect(await messages.send(items)).toBe(2);
  expect(await messages.send(items)).toBe(0);
  await eventually(async () => (SENT.has((await rowsOf(bound.id))[0]?.state) ? true : null));
  await eventually(async () => ((await outbox(unbound.mobile)).length ? true : null));
  expect(await rowsOf(bound.id)).toHaveLength(1);
  const { rows } = await t.sql.query(`select count(*)::int as n from sms_messages where mobile = $1`, [unbound.mobile]);
  expect(rows[0].n).toBe(1);
});

it('a staff account is never sent a guardian message', async () => {
  const { rows } = await t.sql.query(`select id from users where username = 'teacher'`);
  expect(await messages.send([item(rows[0].id as number)])).toBe(0);
});
