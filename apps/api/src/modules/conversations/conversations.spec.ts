import {
  Code,
  DEFAULT_OFFICE_HOURS,
  instantOf,
  localDay,
  nextOfficeOpening,
  QUICK_REPLIES,
  Role,
  weekdayOf,
  addDays,
  type ConversationLiveMessage,
} from '@wantuo/shared';
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { eventually, snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { DomainEvents } from '../../core/events/domain-events';
import { WechatOa } from '../wechat/oa-client';
import { ConversationsClock } from './conversations-clock';
import { ConversationNotices } from './notices.service';

const TZ = 'Asia/Shanghai';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let t: TestApp;
let clock: ConversationsClock;
let parent: string;
let teacher: string;
let adviser: string;
let admin: string;
let childId: number;
let otherChildId: number;
let seq = 0;
const pushed: Array<ConversationLiveMessage & { user_ids: number[] }> = [];
const ids: Record<string, number> = {};

/** A school-local weekday (Wednesday) at `time`, in the past week: within or outside the default office hours at will. */
function wednesdayAt(time: string): Date {
  let day = localDay(new Date(), TZ);
  while (weekdayOf(day) !== 3) day = addDays(day, -1);
  return instantOf(day, time, TZ);
}

const rid = () => `spec-${process.pid}-${++seq}-${Date.now().toString(36)}`;
const send = (token: string, body: Record<string, unknown>) => t.post('/api/index/conversationSend', token).send({ request_id: rid(), ...body });
const info = (token: string, studentId = childId, extra = '') => t.get(`/api/index/conversationInfo?student_id=${studentId}${extra}`, token);

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true, listen: true });
  clock = t.app.get(ConversationsClock);
  clock.now = () => wednesdayAt('10:00');
  t.app.get(DomainEvents).on('conversation.message', (e) => pushed.push(e));
  [parent, teacher, adviser, admin] = await Promise.all([t.login('parent'), t.login('teacher'), t.login('adviser'), t.login('admin')]);
  const { rows } = await t.sql.query(`select id, username from users where username in ('parent', 'teacher', 'adviser', 'admin')`);
  for (const r of rows) ids[r.username] = r.id;
  // the guardian's child the teacher is responsible for, and a child of the school that is not the guardian's
  const mine = await t.get('/api/index/conversationList', teacher);
  const kids = (await t.get('/api/index/conversationList', parent)).body.data.list as Array<{ student_id: number }>;
  const reachable = new Set((mine.body.data.list as Array<{ student_id: number }>).map((r) => r.student_id));
  childId = kids.find((k) => reachable.has(k.student_id))?.student_id ?? kids[0].student_id;
  const { rows: others } = await t.sql.query(
    `select s.id from students s where s.school_id = $1 and not exists (select 1 from student_guardians g where g.student_id = s.id and g.user_id = $2) order by s.id limit 1`,
    [t.demo.schoolId, ids.parent],
  );
  otherChildId = others[0].id;
  await t.sql.query(`update students set photo_consent = true where id = $1`, [childId]);
});
afterAll(() => t.close());
beforeEach(() => {
  pushed.length = 0;
  clock.now = () => wednesdayAt('10:00');
});

describe('a conversation between a child’s guardians and the school', () => {
  it('a guardian writes, the teacher sees it unread, answers, and each side’s reads are kept', async () => {
    const sent = await send(parent, { student_id: childId, text: '明天奶奶来接，谢谢老师' });
    expect(sent.body).toMatchObject({
      code: Code.Ok,
      data: { message: { side: 'family', text: '明天奶奶来接，谢谢老师', mine: true }, office: { open_now: true } },
    });
    const mid = sent.body.data.message.id as number;

    const list = await t.get('/api/index/conversationList?unread=1', teacher);
    expect(list.body.data.list).toEqual([
      expect.objectContaining({ student_id: childId, unread: 1, last: expect.objectContaining({ id: mid, preview: '明天奶奶来接，谢谢老师' }) }),
    ]);
    expect((await t.get('/api/index/conversationUnread', teacher)).body.data).toEqual({ unread: 1, conversations: 1 });

    const seen = await info(teacher);
    expect(seen.body.data).toMatchObject({ my_side: 'school', read: { family: mid, school: null }, has_more: false });
    expect(seen.body.data.messages.map((m: { text: string }) => m.text)).toEqual(['明天奶奶来接，谢谢老师']);
    expect(seen.body.data.family.length).toBeGreaterThan(0);
    expect((await t.post('/api/index/conversationRead', teacher).send({ student_id: childId, upto_id: mid })).body.code).toBe(Code.Ok);
    expect((await t.get('/api/index/conversationUnread', teacher)).body.data.unread).toBe(0);

    const answer = await send(teacher, { student_id: childId, quick_reply: 0 });
    expect(answer.body.data.message).toMatchObject({ side: 'school', text: QUICK_REPLIES.school[0].zh, quick: true });
    const again = await info(parent);
    expect(again.body.data.read.school).toBeGreaterThanOrEqual(mid);
    expect(again.body.data.messages.at(-1).mine).toBe(false);
    // a read never moves back
    await t.post('/api/index/conversationRead', teacher).send({ student_id: childId, upto_id: 1 });
    expect((await info(parent)).body.data.read.school).toBeGreaterThanOrEqual(mid);
    // the guardian and the teacher on duty heard it live; the sender too
    const live = pushed.find((p) => p.message.id === mid)!;
    expect(live.user_ids).toEqual(expect.arrayContaining([ids.parent]));
  });

  it('is idempotent by request_id and pages back by message id', async () => {
    const request_id = rid();
    const a = await t.post('/api/index/conversationSend', parent).send({ student_id: childId, text: '同一条', request_id });
    const b = await t.post('/api/index/conversationSend', parent).send({ student_id: childId, text: '同一条', request_id });
    expect(b.body.data.message.id).toBe(a.body.data.message.id);
    const { rows } = await t.sql.query(`select count(*)::int as n from family_messages where request_id = $1`, [request_id]);
    expect(rows[0].n).toBe(1);
    const page = await info(parent, childId, '&limit=1');
    expect(page.body.data).toMatchObject({ has_more: true, messages: [expect.objectContaining({ id: a.body.data.message.id })] });
    const back = await info(parent, childId, `&limit=50&before=${a.body.data.message.id}`);
    expect(back.body.data.messages.every((m: { id: number }) => m.id < a.body.data.message.id)).toBe(true);
    // a member of staff's two sends of one request at once (no lock for staff): one message
    const staffRid = rid();
    const both = await Promise.all(
      [0, 1, 2].map(() => t.post('/api/index/conversationSend', teacher).send({ student_id: childId, text: '并发', request_id: staffRid })),
    );
    expect(new Set(both.map((r) => r.body.data?.message?.id)).size).toBe(1);
    expect((await t.sql.query(`select count(*)::int as n from family_messages where request_id = $1`, [staffRid])).rows[0].n).toBe(1);
  });

  it('at 22:00 tells the guardian when the school answers and notifies no teacher; urgent goes to the admin', async () => {
    // the staff have left the conversation's page (a member who read it in the last ten minutes is still told)
    await t.sql.query(`update family_conversation_reads set read_at = now() - interval '1 hour' where side = 'school'`);
    const night = wednesdayAt('22:00');
    clock.now = () => night;
    const sent = await send(parent, { student_id: childId, text: '孩子晚上有点发烧' });
    const opens = nextOfficeOpening(DEFAULT_OFFICE_HOURS, night, TZ)!;
    expect(sent.body.data.office).toEqual({ open_now: false, answers_at: opens.toISOString() });
    expect(opens.toISOString()).toBe(instantOf(addDays(localDay(night, TZ), 1), '08:00', TZ).toISOString());
    const live = pushed.find((p) => p.message.id === sent.body.data.message.id)!;
    expect(live.user_ids).not.toContain(ids.teacher);
    expect(live.user_ids).not.toContain(ids.adviser);

    const urgent = await send(parent, { student_id: childId, text: '紧急：请回电', urgent: true });
    const u = pushed.find((p) => p.message.id === urgent.body.data.message.id)!;
    expect(u.user_ids).toContain(ids.admin);
    expect(u.user_ids).not.toContain(ids.teacher);
    expect((await info(teacher)).body.data.office.open_now).toBe(false);
    // a head teacher on duty at night (their own hours) gets the urgent one instead of the admin
    await t.post('/api/index/officeHoursSave', adviser).send({ days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '23:59' });
    const urgent2 = await send(parent, { student_id: childId, text: '紧急：孩子过敏', urgent: true });
    expect(pushed.find((p) => p.message.id === urgent2.body.data.message.id)!.user_ids).toContain(ids.adviser);
    await t.sql.query(`delete from staff_office_hours where user_id = $1`, [ids.adviser]);
    // only a guardian marks urgent
    expect((await send(teacher, { student_id: childId, text: 'x', urgent: true })).body).toMatchObject({
      code: Code.Error,
      msg: '只有家长可以标记紧急',
    });
  });

  it('the morning answer reaches a guardian who is not on the page once by WeChat, never with the text', async () => {
    const oa = t.app.get(WechatOa);
    const user = await t.post('/api/dev/wechat/users').send({ name: '家校消息家长', subscribed: true });
    await t.sql.query(`insert into wechat_bindings (user_id, school_id, appid, openid) values ($1, $2, $3, $4) on conflict do nothing`, [
      ids.parent,
      t.demo.schoolId,
      oa.appid,
      user.body.data.openid,
    ]);
    const notices = t.app.get(ConversationNotices);
    const text = '早上好，已收到，今天会多留意孩子';
    const sent = await send(adviser, { student_id: childId, text });
    const at = new Date(sent.body.data.message.sent_at);
    // within the minute: nobody is told yet
    expect(await notices.sweep(new Date(at.getTime() + 10_000))).toBe(0);
    expect(await notices.sweep(new Date(at.getTime() + 61_000))).toBeGreaterThanOrEqual(1);
    const rows = async () =>
      (await t.sql.query(`select data, params, url from wechat_messages where user_id = $1 and kind = 'family.message'`, [ids.parent])).rows;
    expect(await rows()).toHaveLength(1);
    const [row] = await rows();
    expect(JSON.stringify(row)).not.toContain(text);
    const { rows: names } = await t.sql.query(`select name from students where id = $1`, [childId]);
    expect(JSON.stringify(row.data)).not.toContain(names[0].name);
    expect(row.url).toContain(`/m/parent_chat?student=${childId}`);
    // the same message never twice; a new one within the quiet period waits for it to end
    expect(await notices.sweep(new Date(at.getTime() + 120_000))).toBe(0);
    const next = await send(adviser, { student_id: childId, text: '补充一句' });
    const at2 = new Date(next.body.data.message.sent_at);
    expect(await notices.sweep(new Date(at2.getTime() + 61_000))).toBe(0);
    expect(await notices.sweep(new Date(at.getTime() + 32 * 60_000))).toBeGreaterThanOrEqual(1);
    expect(await rows()).toHaveLength(2);
    // a guardian who read it is not told
    const third = await send(adviser, { student_id: childId, text: '第三条' });
    await t.post('/api/index/conversationRead', parent).send({ student_id: childId, upto_id: third.body.data.message.id });
    expect(await notices.sweep(new Date(at.getTime() + 70 * 60_000))).toBe(0);
  });

  it('refuses a photo without the child’s photo consent, and another’s upload', async () => {
    const up = await t.post('/api/index/upload', teacher).attach('file', PNG, { filename: 'a.png' });
    const url = up.body.data.url as string;
    await t.sql.query(`update students set photo_consent = false where id = $1`, [childId]);
    const before = await snapshot(t.sql);
    const refused = await send(teacher, { student_id: childId, photo_url: url });
    expect(refused.body).toMatchObject({ code: Code.Error, msg: expect.stringContaining('未同意使用照片') });
    expect(await snapshot(t.sql)).toEqual(before);
    await t.sql.query(`update students set photo_consent = true where id = $1`, [childId]);
    expect((await send(parent, { student_id: childId, photo_url: url })).body.msg).toContain('不是您上传的');
    const ok = await send(teacher, { student_id: childId, photo_url: url });
    expect(ok.body.data.message).toMatchObject({ photo_url: url, text: null });
  });

  it('retracts within two minutes with a mark; the admin still reads it, and the read is logged', async () => {
    // the real clock: the message's sending time is the database's
    clock.now = () => new Date();
    const sent = await send(parent, { student_id: childId, text: '发错了' });
    const id = sent.body.data.message.id as number;
    expect((await t.post('/api/index/conversationRetract', teacher).send({ id })).body.msg).toBe('只能撤回自己发送的消息');
    const gone = await t.post('/api/index/conversationRetract', parent).send({ id });
    expect(gone.body).toMatchObject({ data: { id, text: null, retracted_at: expect.any(String) } });
    expect((await t.post('/api/index/conversationRetract', parent).send({ id })).body.msg).toBe('这条消息已撤回');
    const shown = (await info(teacher)).body.data.messages.find((m: { id: number }) => m.id === id);
    expect(shown).toMatchObject({ text: null, retracted_at: expect.any(String) });

    const before = (
      await t.sql.query(`select count(*)::int as n from child_access_log where action = 'conversationInfo' and actor_id = $1`, [ids.admin])
    ).rows[0].n;
    const adminView = (await info(admin)).body.data.messages.find((m: { id: number }) => m.id === id);
    expect(adminView).toMatchObject({ text: '发错了', retracted_at: expect.any(String) });
    const after = await t.sql.query(
      `select what, student_ids from child_access_log where action = 'conversationInfo' and actor_id = $1 order by id desc`,
      [ids.admin],
    );
    expect(after.rows.length).toBe(before + 1);
    expect(after.rows[0]).toEqual({ what: ['messages'], student_ids: [childId] });

    const late = await send(teacher, { student_id: childId, text: '两分钟后' });
    clock.now = () => new Date(Date.now() + 3 * 60_000);
    expect((await t.post('/api/index/conversationRetract', teacher).send({ id: late.body.data.message.id })).body.msg).toContain('超过 2 分钟');
  });

  it('never edits or deletes a sent message', async () => {
    await expect(t.sql.query(`update family_messages set body = '改过' where student_id = $1`, [childId])).rejects.toThrow(/never edited or deleted/);
    await expect(t.sql.query(`delete from family_messages where student_id = $1`, [childId])).rejects.toThrow(/never edited or deleted/);
    await expect(t.sql.query(`update family_messages set retracted_at = null where retracted_at is not null`)).rejects.toThrow(/never edited/);
  });

  it('limits a guardian to N messages a minute, writing nothing past it', async () => {
    await t.sql.query(`delete from family_messages where false`);
    const { rows } = await t.sql.query(
      `select count(*)::int as n from family_messages where sender_id = $1 and sent_at > now() - interval '1 minute'`,
      [ids.parent],
    );
    let ok = rows[0].n as number;
    while (ok < 6) {
      expect((await send(parent, { student_id: childId, text: `第${ok}条` })).body.code).toBe(Code.Ok);
      ok++;
    }
    const before = await snapshot(t.sql);
    const refused = await send(parent, { student_id: childId, text: '太多了' });
    expect(refused.body).toMatchObject({ code: Code.Error, msg: expect.stringContaining('每分钟最多 6 条') });
    expect(await snapshot(t.sql)).toEqual(before);
    // staff are not limited
    expect((await send(teacher, { student_id: childId, text: '老师不受限' })).body.code).toBe(Code.Ok);
  });

  it('refuses bad input, the wrong role, another family’s and another school’s child, writing nothing', async () => {
    const before = await snapshot(t.sql);
    for (const body of [
      { student_id: childId },
      { student_id: childId, text: '' },
      { student_id: 'x', text: 'a' },
      { student_id: childId, text: 'a', quick_reply: 1 },
      { student_id: childId, photo_url: 'http://evil/x.png' },
      { student_id: childId, text: 'a'.repeat(1001) },
    ]) {
      const res = await send(parent, body);
      expect(res.body.code).toBe(Code.Error);
      expect(res.status).toBeLessThan(500);
    }
    expect((await send(parent, { student_id: childId, quick_reply: 15 })).body.msg).toBe('快捷回复不存在');
    expect((await send(parent, { student_id: otherChildId, text: '别人的孩子' })).body.msg).toBe('会话不存在或无权查看');
    expect((await info(parent, otherChildId)).body.msg).toBe('会话不存在或无权查看');
    const other = await t.otherSchool();
    expect((await send(other.adminToken, { student_id: childId, text: '外校' })).body.msg).toBe('会话不存在或无权查看');
    expect((await info(other.adminToken)).body.msg).toBe('会话不存在或无权查看');
    const operator = await t.login('operator');
    expect((await send(operator, { student_id: childId, text: 'x' })).body.msg).toContain('没有权限');
    expect((await t.get('/api/index/officeHoursInfo', parent)).body.msg).toContain('没有权限');
    expect((await t.post('/api/index/officeHoursSave', teacher).send({ days: [1], start: '18:00', end: '08:00' })).body.code).toBe(Code.Error);
    expect((await t.post('/api/index/officeHoursSave', teacher).send({ days: [], start: '08:00', end: '18:00' })).body.code).toBe(Code.Error);
    const after = await snapshot(t.sql);
    // otherSchool() adds its school and admin (and their sign-in)
    for (const k of Object.keys(before))
      if (!['schools', 'users', 'user_tokens', 'login_logs', 'sign_ins', 'user_activity', 'user_versions'].includes(k))
        expect([k, after[k]]).toEqual([k, before[k]]);
  });

  it('keeps a teacher’s office hours and tells whether they are open now', async () => {
    const saved = await t.post('/api/index/officeHoursSave', teacher).send({ days: [3, 1], start: '09:30', end: '17:00' });
    expect(saved.body.data).toEqual({ days: [1, 3], start: '09:30', end: '17:00', is_default: false, open_now: true });
    clock.now = () => wednesdayAt('17:30');
    expect((await t.get('/api/index/officeHoursInfo', teacher)).body.data.open_now).toBe(false);
    expect((await t.get('/api/index/officeHoursInfo', adviser)).body.data).toMatchObject({ is_default: true, days: [1, 2, 3, 4, 5] });
  });

  it('the admin lists the school’s conversations; a teacher lists only their children', async () => {
    const list = await t.get('/api/index/conversationList?page=1&limit=5', admin);
    expect(list.body.data).toMatchObject({ page: 1, limit: 5, total: expect.any(Number) });
    expect(list.body.data.list.every((r: { last: unknown }) => r.last !== null)).toBe(true);
    const { rows } = await t.sql.query(`select role from users where id = $1`, [ids.teacher]);
    expect(rows[0].role).toBe(Role.Teacher);
    const mine = await t.get('/api/index/conversationList?limit=100', teacher);
    const reach = new Set((mine.body.data.list as Array<{ student_id: number }>).map((r) => r.student_id));
    expect(reach.has(childId)).toBe(true);
  });

  it('pushes a message live to the guardian’s socket (flow: false: the user’s room only)', async () => {
    const url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const socket: Socket = io(url, {
      path: '/socket.io',
      auth: { token: parent, flow: false },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    const got: ConversationLiveMessage[] = [];
    const flow: unknown[] = [];
    socket.on('conversation.message', (m: ConversationLiveMessage) => got.push(m));
    socket.on('flow.event', (e: unknown) => flow.push(e));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    try {
      const sent = await send(teacher, { student_id: childId, text: '实时消息' });
      const m = await eventually(async () => got.find((g) => g.message.id === sent.body.data.message.id));
      expect(m).toMatchObject({ student_id: childId, message: { text: '实时消息', side: 'school' } });
      expect(flow).toEqual([]);
    } finally {
      socket.close();
    }
  });
});
