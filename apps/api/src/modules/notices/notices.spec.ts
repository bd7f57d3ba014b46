import { Code, type AddInformResult, type NoticeInfo } from '@wantuo/shared';
import { JobsService } from '../../core/jobs/jobs.service';
import { MessagesClock } from '../messages/guardian-messages.service';
import { SmsTexts } from '../sms/texts.service';
import { WechatOa } from '../wechat/oa-client';
import { eventually, snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { NoticeClock } from './notices-sql';

/** A WeChat message handed over: sent, or already delivered (the sandbox's push can come before the poll looks). */
const SENT = new Set(['sent', 'delivered']);

let t: TestApp;
let admin: string;
let teacher: string;
let adviser: string;
let parent: string;
let operator: string;
let running: number;
let second: number;
let seq = 0;
const rid = () => `req-${Date.now().toString(36)}-${seq++}`;
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };
/** 12:00, 22:00 and 07:00 in Asia/Shanghai (the demo school's zone) */
const NOON = new Date('2026-11-23T04:00:00Z');
let clockAt = NOON;

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, redis: true, demoPeople: true });
  [admin, teacher, adviser, parent, operator] = await Promise.all(
    ['admin', 'teacher', 'adviser', 'parent', 'operator'].map((u) => t.login(u as 'admin')),
  );
  ({ running, second } = t.demo.classes!);
  jest.spyOn(t.app.get(NoticeClock), 'now').mockImplementation(() => clockAt);
  // the guardians' messages (GuardianMessages) go by the same clock: their held jobs' delays are counted from it
  t.app.get(MessagesClock).now = () => clockAt;
});
afterAll(() => t.close());
beforeEach(() => {
  clockAt = NOON;
});

/** Row counts of what this module writes, with the harness's tables. */
async function snap() {
  const { rows } = await t.sql.query(
    `select (select count(*) from notices)::int as notices, (select count(*) from notice_receipts)::int as receipts,
            (select count(*) from notice_receipts where read_at is not null)::int as read, (select coalesce(sum(read_count), 0) from notices)::int as read_counts,
            (select count(*) from notice_reminders)::int as reminders, (select count(last_reminded_at) from notices)::int as reminded`,
  );
  const { user_tokens: _t, user_activity: _a, ...rest } = await snapshot(t.sql);
  return { ...rest, ...rows[0], texts: (await texts()).length };
}

interface QueuedText {
  mobile: string;
  template: string;
  params: Record<string, string>;
  delay: number;
  /** staff: an `sms.fanout` text; guardians: GuardianMessages' SMS (written, or held in a `messages.send` job) or WeChat */
  via: 'staff' | 'sms' | 'wechat';
}

/**
 * The messages of notices, none of them sent in this test (BullMQ is not processed): the staff's texts (`sms.fanout`
 * jobs, one entry per mobile, with their delays) and the guardians' messages (GuardianMessages): the texts written
 * (sms_messages, due at once), those the quiet hours hold (`messages.send` jobs, with their delays) and the WeChat
 * messages (wechat_messages, delayed to their send_after), each with the guardian's mobile.
 */
async function texts(title?: string): Promise<QueuedText[]> {
  const jobs = await t.app.get(JobsService).queue('sms').getJobs(['waiting', 'delayed', 'prioritized']);
  const staff = jobs
    .filter((j) => j.name === 'sms.fanout' && String(j.data.template).startsWith('notice.') && (!title || j.data.params.title === title))
    .flatMap((j) =>
      (j.data.mobiles as string[]).map((mobile) => ({
        mobile,
        template: j.data.template,
        params: j.data.params,
        delay: j.opts.delay ?? 0,
        via: 'staff' as const,
      })),
    );
  const held = jobs
    .filter((j) => j.name === 'messages.send')
    .flatMap((j) =>
      (j.data.items as Array<{ user_id: number; kind: string; params: Record<string, string> }>)
        .filter((i) => i.kind.startsWith('notice.') && (!title || i.params.title === title))
        .map((i) => ({ user_id: i.user_id, template: i.kind, params: i.params, delay: j.opts.delay ?? 0 })),
    );
  const mobiles = new Map<number, string>(
    (await t.sql.query(`select id, mobile from users where id = any($1::int[])`, [held.map((h) => h.user_id)])).rows.map((r) => [r.id, r.mobile]),
  );
  const { rows: written } = await t.sql.query(
    `select mobile, kind as template, params, 0 as delay, 'sms' as via from sms_messages
      where dedupe_key like 'gm:notice:%' and ($1::text is null or params->>'title' = $1)
     union all
     select u.mobile, w.kind, w.params, greatest(0, extract(epoch from w.send_after - $2::timestamptz) * 1000)::int, 'wechat'
       from wechat_messages w join users u on u.id = w.user_id
      where w.kind like 'notice.%' and ($1::text is null or w.params->>'title' = $1)`,
    [title ?? null, clockAt],
  );
  return [...staff, ...held.map(({ user_id, ...h }) => ({ ...h, mobile: mobiles.get(user_id)!, via: 'sms' as const })), ...written];
}

/** Guardians (distinct) of the active students of a class, and their distinct mobiles. */
async function guardiansOf(classId: number): Promise<{ users: number; mobiles: number }> {
  const { rows } = await t.sql.query(
    `select count(distinct g.user_id)::int as users, count(distinct u.mobile)::int as mobiles
       from student_guardians g join students s on s.id = g.student_id and s.status = 1 join care_class_students c on c.student_id = s.id
       join users u on u.id = g.user_id where c.class_id = $1`,
    [classId],
  );
  return rows[0];
}

let titleNo = 0;
const publish = (token: string, over: Record<string, unknown> = {}) =>
  t.post('/api/index/teacherAddInform', token).send({
    title: `周五放学时间调整${titleNo++}`,
    content: '<p>本周五<b>提前一小时</b>放学，请家长按时接孩子。</p>',
    scope: 'classes',
    class_ids: [running],
    audience: 'guardians',
    request_id: rid(),
    ...over,
  });

async function published(token: string, over: Record<string, unknown> = {}): Promise<AddInformResult> {
  const res = await publish(token, over);
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data;
}

const info = async (id: number, token = adviser, query = ''): Promise<NoticeInfo> => {
  const res = await t.get(`/api/index/headTeacherInformInfo?id=${id}${query}`, token);
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data;
};
const read = (id: number, token = parent) => t.post('/api/index/readInform', token).send({ id });

// ---------------------------------------------------------------------------------------------------------- publishing

describe('teacherAddInform', () => {
  it('a head teacher publishes an important notice with an attachment to their class: one receipt per guardian, texts queued in bulk', async () => {
    const up = await t.post('/api/index/upload', adviser).attach('file', Buffer.from('%PDF-1.7\n%%EOF\n'), { filename: '安排.pdf' });
    expect(up.body.code).toBe(Code.Ok);
    const g = await guardiansOf(running);
    const n = await published(adviser, { title: '重要：周五提前放学', important: true, attachments: [up.body.data.id] });
    expect(n).toMatchObject({ recipients: g.users, sms_count: g.mobiles, held: false, sms_at: NOON.toISOString() });

    const queued = await texts('重要：周五提前放学');
    expect(queued).toHaveLength(g.mobiles);
    expect(queued.every((j) => j.delay === 0)).toBe(true);
    expect(queued[0]).toMatchObject({ template: 'notice.important', params: { school: expect.any(String), title: '重要：周五提前放学' } });

    const got = await info(n.id);
    expect(got.notice).toMatchObject({
      title: '重要：周五提前放学',
      important: true,
      recipients: g.users,
      read_count: 0,
      attachments: 1,
      class_names: ['阳光一班'],
    });
    expect(got.notice.attachment_list).toEqual([expect.objectContaining({ id: up.body.data.id, name: '安排.pdf', url: up.body.data.url })]);
    expect(got.receipts.total).toBe(g.users);
    expect(got.unread).toBe(g.users);
  });

  it('a guardian of two children in the class receives the notice once (one receipt, one text)', async () => {
    const { rows } = await t.sql.query(
      `select count(*)::int as n from student_guardians g join care_class_students c on c.student_id = g.student_id where g.user_id = $1 and c.class_id = $2`,
      [t.demo.users.parent, running],
    );
    expect(rows[0].n).toBe(2);
    const n = await published(adviser, { title: '家长会通知', important: true });
    const mine = await t.sql.query(`select count(*)::int as n from notice_receipts where notice_id = $1 and user_id = $2`, [
      n.id,
      t.demo.users.parent,
    ]);
    expect(mine.rows[0].n).toBe(1);
    const { rows: m } = await t.sql.query(`select mobile from users where id = $1`, [t.demo.users.parent]);
    expect((await texts('家长会通知')).filter((j) => j.mobile === m[0].mobile)).toHaveLength(1);
    const list = await t.get('/api/index/parentInformList', parent);
    expect(list.body.data.list.filter((x: { id: number }) => x.id === n.id)).toHaveLength(1);
    const r = await info(n.id, adviser, '&read=0&limit=100');
    expect(r.receipts.list.find((x) => x.user_id === t.demo.users.parent)).toMatchObject({
      kind: 'guardian',
      child_names: expect.stringContaining('、'),
      read_at: null,
    });
  });

  it.each([
    ['22:00: held to 07:00 the next morning', '2026-11-23T14:00:00Z', '2026-11-23T23:00:00Z', 9 * 3_600_000],
    ['21:00: held to 07:00', '2026-11-23T13:00:00Z', '2026-11-23T23:00:00Z', 10 * 3_600_000],
    ['06:59: held a minute', '2026-11-23T22:59:00Z', '2026-11-23T23:00:00Z', 60_000],
    ['07:00: sent at once', '2026-11-23T23:00:00Z', '2026-11-23T23:00:00Z', 0],
  ])('quiet hours, clock at %s', async (_, now, smsAt, delay) => {
    clockAt = new Date(now);
    const title = `安全提醒${titleNo++}`;
    const n = await published(adviser, { title, important: true });
    expect(n).toMatchObject({ sms_at: new Date(smsAt).toISOString(), held: delay > 0 });
    const queued = await texts(title);
    expect(queued.length).toBeGreaterThan(0);
    for (const j of queued) expect(j.delay).toBe(delay);
  });

  it('a notice that is not important sends no text; staff recipients are the class teachers, not the author', async () => {
    const before = (await texts()).length;
    const n = await published(adviser, { audience: 'staff' });
    expect(n).toMatchObject({ recipients: 1, sms_count: 0, sms_at: null });
    const { rows } = await t.sql.query(`select user_id, kind from notice_receipts where notice_id = $1`, [n.id]);
    expect(rows).toEqual([{ user_id: t.demo.users.teacher, kind: 'staff' }]);
    expect((await texts()).length).toBe(before);
  });

  it('an important notice to guardians and staff: guardians through GuardianMessages (keyed by notice and guardian), staff by text', async () => {
    const n = await published(adviser, { title: '紧急：停水通知', important: true, audience: 'all' });
    const all = await texts('紧急：停水通知');
    const staff = all.filter((x) => x.via === 'staff');
    const guardians = all.filter((x) => x.via !== 'staff');
    const { rows: teacherMobile } = await t.sql.query(`select mobile from users where id = $1`, [t.demo.users.teacher]);
    expect(staff.map((x) => x.mobile)).toEqual([teacherMobile[0].mobile]);
    expect(guardians).toHaveLength((await guardiansOf(running)).users);
    expect(n).toMatchObject({ recipients: guardians.length + 1, sms_count: guardians.length + 1, held: false });
    const { rows } = await t.sql.query(`select dedupe_key from sms_messages where dedupe_key like $1 order by dedupe_key`, [`gm:notice:${n.id}:%`]);
    expect(rows).toHaveLength(guardians.length);
    expect(rows.map((r) => r.dedupe_key)).toContain(`gm:notice:${n.id}:${t.demo.users.parent}`);
    const { rows: stored } = await t.sql.query(`select sms_count from notices where id = $1`, [n.id]);
    expect(stored[0].sms_count).toBe(n.sms_count);
  });

  it('sanitises the rich text (scripts, handlers and javascript: links dropped; links open elsewhere)', async () => {
    const n = await published(adviser, {
      content:
        '<p onclick="x()">你好<script>alert(1)</script><a href="javascript:alert(1)">坏</a><a href="https://example.com">好</a></p><img src=x onerror=alert(1)>',
    });
    const { rows } = await t.sql.query(`select content, summary from notices where id = $1`, [n.id]);
    expect(rows[0].content).not.toMatch(/script|onclick|onerror|javascript/);
    expect(rows[0].content).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">好</a>');
    expect(rows[0].summary).toBe('你好坏好');
  });

  it('the admin publishes to the whole school, for guardians and staff', async () => {
    const { rows } = await t.sql.query(
      `select (select count(distinct g.user_id) from student_guardians g join students s on s.id = g.student_id and s.status = 1 where g.school_id = $1)::int
            + (select count(*) from users where school_id = $1 and role in (2, 5) and deleted_at is null and job_status = 1)::int as n`,
      [t.demo.schoolId],
    );
    const n = await published(admin, { scope: 'school', class_ids: undefined, audience: 'all' });
    expect(n.recipients).toBe(rows[0].n);
    const list = await t.get('/api/index/adminInformList?limit=5', admin);
    expect(list.body.data.list[0]).toMatchObject({ id: n.id, scope: 'school', audience: 'all', recipients: rows[0].n });
    const got = await t.get(`/api/index/adminInformInfo?id=${n.id}`, admin);
    expect(got.body.data.receipts.total).toBe(rows[0].n);
  });

  it('a request_id publishes once, even concurrently', async () => {
    const before = await snap();
    const request_id = rid();
    const answers = await Promise.all(Array.from({ length: 4 }, () => publish(adviser, { title: '只发一次', request_id, important: true })));
    expect(answers.map((a) => a.body.code)).toEqual(Array(4).fill(Code.Ok));
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    const after = await snap();
    expect(after.notices).toBe(before.notices + 1);
    expect(after.texts - before.texts).toBe((await guardiansOf(running)).mobiles);
    expect((await publish(adviser, { title: '另一条', request_id })).body).toMatchObject({ code: Code.Error, msg: '该请求编号已用于另一次操作' });
  });

  it.each([
    ['no title', { title: '' }],
    ['a title with markup', { title: '<b>x</b>' }],
    ['no content', { content: '   ' }],
    ['content that is only markup', { content: '<p><script>x</script></p>' }],
    ['an unknown scope', { scope: 'city' }],
    ['classes without class ids', { class_ids: [] }],
    ['the school with class ids', { scope: 'school' }],
    ['a class twice', { class_ids: [1, 1] }],
    ['an unknown audience', { audience: 'everyone' }],
    ['a bad attachment id', { attachments: ['x'] }],
    ['an attachment never uploaded', { attachments: ['00000000-0000-4000-8000-000000000000'] }],
    ['important not a boolean', { important: 'yes' }],
    ['a bad request id', { request_id: 'x' }],
    ['an unknown field', { extra: 1 }],
  ])('bad input (%s) writes nothing', async (_, over) => {
    const before = await snap();
    const res = await publish(admin, over);
    expect(res.body.code).toBe(Code.Error);
    expect(await snap()).toEqual(before);
  });

  it('wrong role: a parent or the operator may not publish', async () => {
    const before = await snap();
    expect((await publish(parent)).body).toEqual(expect.objectContaining(DENIED));
    expect((await publish(operator)).body).toEqual(expect.objectContaining(DENIED));
    expect(await snap()).toEqual(before);
  });

  it('refuses another school’s class or file, a class that is not the teacher’s, the school for a teacher', async () => {
    const other = await t.otherSchool();
    const up = await t.post('/api/index/upload', other.adminToken).attach('file', Buffer.from('%PDF-1.7\n%%EOF\n'), { filename: 'x.pdf' });
    const before = await snap();
    expect((await publish(other.adminToken)).body).toMatchObject({ code: Code.Error, msg: `以下班级不存在或不是你负责的班级：${running}` });
    expect((await publish(admin, { attachments: [up.body.data.id] })).body).toMatchObject({ code: Code.Error, msg: '附件不存在，请重新上传' });
    expect((await publish(teacher, { class_ids: [second] })).body).toMatchObject({
      code: Code.Error,
      msg: `以下班级不存在或不是你负责的班级：${second}`,
    });
    expect((await publish(adviser, { scope: 'school', class_ids: undefined })).body).toMatchObject({
      code: Code.Error,
      msg: '只有校长（管理员）可以向全校发布通知',
    });
    expect(await snap()).toEqual(before);
  });
});

// --------------------------------------------------------------------------------------------------- lists and reading

describe('teacherInformList, headTeacherInformList, adminInformList, parentInformList', () => {
  it('sent and received boxes, filters, paging', async () => {
    const n = await published(adviser, { title: '教师会议', audience: 'staff' });
    const sent = await t.get('/api/index/headTeacherInformList?box=sent&limit=2', adviser);
    expect(sent.body.data).toMatchObject({ page: 1, limit: 2 });
    expect(sent.body.data.list[0]).toMatchObject({ id: n.id, title: '教师会议', author_name: '张班主任', recipients: 1, read_count: 0 });
    expect(sent.body.data.total).toBeGreaterThan(2);
    const received = await t.get('/api/index/teacherInformList?box=received', teacher);
    expect(received.body.data.list[0]).toMatchObject({ id: n.id, read_at: null });
    expect((await t.get(`/api/index/teacherInformList?box=received&keyword=${encodeURIComponent('教师会')}`, teacher)).body.data.total).toBe(1);
    expect((await t.get(`/api/index/headTeacherInformList?class_id=${second}`, adviser)).body.data.total).toBe(0);
    const mine = await t.get('/api/index/teacherInformList', teacher);
    expect(mine.body.data.list.every((x: { author_id: number }) => x.author_id === t.demo.users.teacher)).toBe(true);
  });

  it.each([
    ['/api/index/teacherInformList?box=inbox'],
    ['/api/index/headTeacherInformList?class_id=abc'],
    ['/api/index/headTeacherInformList?limit=1000'],
    ['/api/index/adminInformList?important=maybe'],
    ['/api/index/parentInformList?unread=2'],
  ])('bad input %s answers code 100', async (path) => {
    const token = path.includes('admin') ? admin : path.includes('parent') ? parent : adviser;
    const before = await snap();
    expect((await t.get(path, token)).body.code).toBe(Code.Error);
    expect(await snap()).toEqual(before);
  });

  it('wrong roles are refused', async () => {
    expect((await t.get('/api/index/teacherInformList', parent)).body).toEqual(expect.objectContaining(DENIED));
    expect((await t.get('/api/index/teacherInformList', admin)).body).toEqual(expect.objectContaining(DENIED));
    expect((await t.get('/api/index/headTeacherInformList', teacher)).body).toEqual(expect.objectContaining(DENIED));
    expect((await t.get('/api/index/adminInformList', adviser)).body).toEqual(expect.objectContaining(DENIED));
    expect((await t.get('/api/index/parentInformList', teacher)).body).toEqual(expect.objectContaining(DENIED));
  });

  it('another school sees none of these notices', async () => {
    const other = await t.otherSchool();
    const list = await t.get('/api/index/adminInformList', other.adminToken);
    expect(list.body.data).toMatchObject({ total: 0, list: [] });
    expect((await t.get(`/api/index/adminInformList?class_id=${running}`, other.adminToken)).body.data.total).toBe(0);
  });
});

describe('readInform and receipts', () => {
  it('the parent opens a notice: read once (twice, even at once, counts once); the receipt shows who and when', async () => {
    const n = await published(adviser, { title: '春游通知' });
    const unread0 = (await t.get('/api/index/parentInformList?unread=1', parent)).body.data;
    expect(unread0.list.some((x: { id: number }) => x.id === n.id)).toBe(true);
    const answers = await Promise.all([read(n.id), read(n.id), read(n.id)]);
    expect(answers.map((a) => a.body.code)).toEqual([Code.Ok, Code.Ok, Code.Ok]);
    expect(answers[0].body.data).toMatchObject({
      id: n.id,
      title: '春游通知',
      content: expect.stringContaining('提前一小时'),
      read_at: NOON.toISOString(),
    });
    expect((await read(n.id)).body.data.read_count).toBe(1);
    const got = await info(n.id, adviser, '&read=1');
    expect(got.notice.read_count).toBe(1);
    expect(got.receipts.list).toEqual([expect.objectContaining({ user_id: t.demo.users.parent, name: '陈家长', read_at: NOON.toISOString() })]);
    expect(got.unread).toBe(got.notice.recipients - 1);
    const unread1 = (await t.get('/api/index/parentInformList', parent)).body.data;
    expect(unread1.unread).toBe(unread0.unread - 1);
    expect(unread1.list.find((x: { id: number }) => x.id === n.id)).toMatchObject({ read_at: NOON.toISOString() });
  });

  it('a staff recipient reads it the same way', async () => {
    const n = await published(adviser, { audience: 'all' });
    expect((await read(n.id, teacher)).body).toMatchObject({ code: Code.Ok, data: { read_count: 1 } });
  });

  it('bad input, wrong role, not a recipient, another school: nothing written', async () => {
    const n = await published(adviser, { audience: 'staff' });
    const other = await t.otherSchool();
    const before = await snap();
    expect((await t.post('/api/index/readInform', parent).send({ id: 'x' })).body.code).toBe(Code.Error);
    expect((await t.post('/api/index/readInform', parent).send({})).body.code).toBe(Code.Error);
    expect((await read(n.id, admin)).body).toEqual(expect.objectContaining(DENIED));
    expect((await read(n.id, parent)).body).toMatchObject({ code: Code.Error, msg: '未找到该通知' });
    expect((await read(n.id, other.adminToken)).body).toEqual(expect.objectContaining(DENIED));
    expect(await snap()).toEqual(before);
  });
});

describe('headTeacherInformInfo', () => {
  it('only the author (or the admin) reads the receipts; bad ids answer 100; another school’s admin finds nothing', async () => {
    const n = await published(adviser);
    const other = await t.otherSchool();
    expect((await t.get(`/api/index/headTeacherInformInfo?id=${n.id}`, teacher)).body).toMatchObject({ code: Code.Error, msg: '未找到该通知' });
    expect((await t.get(`/api/index/headTeacherInformInfo?id=${n.id}`, parent)).body).toEqual(expect.objectContaining(DENIED));
    expect((await t.get(`/api/index/headTeacherInformInfo?id=abc`, adviser)).body.code).toBe(Code.Error);
    expect((await t.get(`/api/index/headTeacherInformInfo`, adviser)).body.code).toBe(Code.Error);
    expect((await t.get(`/api/index/adminInformInfo?id=${n.id}`, other.adminToken)).body).toMatchObject({ code: Code.Error, msg: '未找到该通知' });
    expect((await t.get(`/api/index/adminInformInfo?id=${n.id}`, admin)).body.code).toBe(Code.Ok);
  });
});

describe('a head teacher follows the notices others send to their class', () => {
  it('the class box lists them; their receipts are those of the guardians of the head teacher’s class only; reminding stays the author’s', async () => {
    const both = await published(admin, { class_ids: [running, second], title: '全年级家长会' });
    const onlySecond = await published(admin, { class_ids: [second], title: '二班春游' });
    const school = await published(admin, { scope: 'school', class_ids: [], title: '全校安全教育', audience: 'all' });
    const box = async (name: string) =>
      (await t.get(`/api/index/headTeacherInformList?box=${name}&limit=100`, adviser)).body.data.list.map((n: { id: number }) => n.id);
    const classBox = await box('class');
    expect(classBox).toEqual(expect.arrayContaining([both.id, school.id]));
    expect(classBox).not.toContain(onlySecond.id);
    expect(await box('sent')).not.toContain(both.id);

    const mine = await guardiansOf(running);
    const all = await guardiansOf(second);
    const seen = await info(both.id);
    expect(seen).toMatchObject({ class_only: true, unread: mine.users, receipts: { total: mine.users } });
    expect(seen.receipts.list.every((r) => r.kind === 'guardian')).toBe(true);
    const byAdmin: NoticeInfo = (await t.get(`/api/index/adminInformInfo?id=${both.id}`, admin)).body.data;
    expect(byAdmin.class_only).toBe(false);
    expect(byAdmin.receipts.total).toBe(mine.users + all.users);
    // a guardian of the class reads it: one fewer unread for the head teacher
    expect((await read(both.id)).body.code).toBe(Code.Ok);
    expect(await info(both.id)).toMatchObject({ unread: mine.users - 1 });
    // the whole school's notice: only the class's guardians, no staff
    expect(await info(school.id)).toMatchObject({ class_only: true, receipts: { total: mine.users } });

    const before = await snap();
    expect((await t.get(`/api/index/headTeacherInformInfo?id=${onlySecond.id}`, adviser)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该通知',
    });
    expect((await t.get(`/api/index/headTeacherInformInfo?id=${both.id}`, teacher)).body).toMatchObject({ code: Code.Error, msg: '未找到该通知' });
    expect((await t.post('/api/index/remindInform', adviser).send({ id: both.id })).body.code).toBe(Code.Error);
    expect((await t.get('/api/index/headTeacherInformList?box=inbox', adviser)).body.code).toBe(Code.Error);
    expect(await snap()).toEqual(before);
  });
});

// ------------------------------------------------------------------------------------------------------------ reminders

describe('remindInform', () => {
  it('texts the unread once per notice per hour: two reminders at once send once', async () => {
    const n = await published(adviser, { title: '缴费提醒' });
    await read(n.id);
    const { rows } = await t.sql.query(
      `select count(distinct u.mobile)::int as n from notice_receipts r join users u on u.id = r.user_id where r.notice_id = $1 and r.read_at is null`,
      [n.id],
    );
    const answers = await Promise.all([0, 1, 2].map(() => t.post('/api/index/remindInform', adviser).send({ id: n.id })));
    const ok = answers.filter((a) => a.body.code === Code.Ok);
    expect(ok).toHaveLength(1);
    expect(ok[0].body.data).toMatchObject({ id: n.id, reminded: rows[0].n, held: false });
    expect(answers.filter((a) => a.body.code === Code.Error).map((a) => a.body.msg)).toEqual(
      Array(2).fill('每条通知每小时最多提醒一次，请在 13:00 之后再试'),
    );
    const sent = (await texts('缴费提醒')).filter((j) => j.template === 'notice.remind');
    expect(sent).toHaveLength(rows[0].n);
    const { rows: reminders } = await t.sql.query(`select count(*)::int as n from notice_reminders where notice_id = $1`, [n.id]);
    expect(reminders[0].n).toBe(1);
    expect((await info(n.id)).next_remind_at).toBe(new Date(NOON.getTime() + 3_600_000).toISOString());

    // an hour later, at 22:00 school time, the reminder is held to 07:00
    clockAt = new Date('2026-11-23T14:00:00Z');
    const again = await t.post('/api/index/remindInform', adviser).send({ id: n.id });
    expect(again.body).toMatchObject({ code: Code.Ok, data: { held: true, sms_at: '2026-11-23T23:00:00.000Z' } });
    const held = (await texts('缴费提醒')).filter((j) => j.template === 'notice.remind' && j.delay === 9 * 3_600_000);
    expect(held).toHaveLength(rows[0].n);
  });

  it('nothing to remind when everyone read it', async () => {
    const n = await published(admin, { class_ids: [running], audience: 'staff' });
    await read(n.id, adviser);
    await read(n.id, teacher);
    expect((await t.post('/api/index/remindInform', admin).send({ id: n.id })).body).toMatchObject({
      code: Code.Error,
      msg: '所有接收人都已读，无需提醒',
    });
  });

  it('bad input, wrong role, not the author, another school: nothing written', async () => {
    const n = await published(adviser);
    const other = await t.otherSchool();
    const before = await snap();
    expect((await t.post('/api/index/remindInform', adviser).send({ id: 0 })).body.code).toBe(Code.Error);
    expect((await t.post('/api/index/remindInform', parent).send({ id: n.id })).body).toEqual(expect.objectContaining(DENIED));
    expect((await t.post('/api/index/remindInform', teacher).send({ id: n.id })).body).toMatchObject({ code: Code.Error, msg: '未找到该通知' });
    expect((await t.post('/api/index/remindInform', other.adminToken).send({ id: n.id })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该通知',
    });
    expect(await snap()).toEqual(before);
  });
});

describe('the texts of a notice through the sms queue', () => {
  it('a notice fan-out writes one message per mobile and one sms.send batch for them, once even when retried', async () => {
    const q = t.app.get(JobsService).queue('sms');
    const mobiles = ['13900000101', '13900000102', '13900000103'];
    const texts = mobiles.map((mobile) => ({
      school_id: t.demo.schoolId,
      mobile,
      kind: 'notice.important' as const,
      params: { school: '阳光', title: '扇出' },
      key: `n0-test-${mobile}`,
    }));
    expect(await t.app.get(SmsTexts).queue(texts)).toBe(3);
    expect(await t.app.get(SmsTexts).queue(texts)).toBe(0); // a retried fan-out: nothing new
    const { rows } = await t.sql.query(
      `select id::int, mobile, state, school_id from sms_messages where dedupe_key like 'n0-test-%' order by mobile`,
    );
    expect(rows.map((r) => [r.mobile, r.state, r.school_id])).toEqual(mobiles.map((m) => [m, 'queued', t.demo.schoolId]));
    // the outbox takes 1,000 a request: the three in one job (the retried queue() may add the same batch again; sms.send claims each message once)
    const sends = (await q.getJobs(['waiting', 'delayed', 'prioritized'])).filter(
      (j) => j.name === 'sms.send' && rows.some((r) => j.data.ids.includes(r.id)),
    );
    expect(sends.length).toBeGreaterThanOrEqual(1);
    expect([...new Set(sends.flatMap((j) => j.data.ids as number[]))].sort()).toEqual(rows.map((r) => r.id).sort());
    expect(sends[0].data.ids).toHaveLength(3);
  });
});

describe('delivery with the worker in-process (no Redis)', () => {
  let w: TestApp;
  beforeAll(async () => {
    // listening: the WeChat messages go to the API's own WeChat sandbox
    w = await startTestApp({ runJobs: true, redis: false, demoPeople: true, listen: true });
    jest.spyOn(w.app.get(NoticeClock), 'now').mockImplementation(() => NOON);
    w.app.get(MessagesClock).now = () => NOON;
  });
  afterAll(() => w.close());

  it('an important notice reaches every guardian’s phone once, through GuardianMessages then sms.send', async () => {
    const token = await w.login('adviser');
    const res = await w.post('/api/index/teacherAddInform', token).send({
      title: '明日停课',
      content: '<p>明日停课一天。</p>',
      scope: 'classes',
      class_ids: [w.demo.classes!.running],
      audience: 'guardians',
      important: true,
      request_id: rid(),
    });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { held: false } });
    const sent = await eventually(async () => {
      const { rows } = await w.sql.query(`select mobile, content from sms_outbox where template = 'notice.important'`);
      return rows.length >= res.body.data.sms_count ? rows : null;
    });
    expect(sent).toHaveLength(res.body.data.sms_count);
    expect(new Set(sent.map((r) => r.mobile)).size).toBe(sent.length);
    expect(sent[0].content).toContain('重要通知：“明日停课”');
  });

  it('a guardian bound to the official account gets the notice and its reminder in WeChat, the unbound ones by SMS', async () => {
    const parentId = w.demo.users.parent;
    const { rows: me } = await w.sql.query(`select mobile from users where id = $1`, [parentId]);
    const wx = await w.post('/api/dev/wechat/users').send({ name: '微信家长', subscribed: true });
    const openid = wx.body.data.openid as string;
    await w.sql.query(`insert into wechat_bindings (user_id, school_id, appid, openid) values ($1, $2, $3, $4)`, [
      parentId,
      w.demo.schoolId,
      w.app.get(WechatOa).appid,
      openid,
    ]);
    const token = await w.login('adviser');
    const title = '秋游报名';
    const res = await w.post('/api/index/teacherAddInform', token).send({
      title,
      content: '<p>周五秋游，请报名。</p>',
      scope: 'classes',
      class_ids: [w.demo.classes!.running],
      audience: 'guardians',
      important: true,
      request_id: rid(),
    });
    expect(res.body.code).toBe(Code.Ok);
    const id = res.body.data.id as number;
    const wechat = async (kind: string) =>
      (
        await w.sql.query(`select state, url, params from wechat_messages where user_id = $1 and kind = $2 and params->>'title' = $3`, [
          parentId,
          kind,
          title,
        ])
      ).rows;
    const [row] = await eventually(async () => (SENT.has((await wechat('notice.important'))[0]?.state) ? wechat('notice.important') : null));
    expect(row.url).toBe(`${w.config.webPublicUrl}/m/parent_notices`);
    const log = async () => {
      const r = await w.get(`/api/dev/wechat/messages?openid=${openid}`);
      return (r.body.data.list ?? r.body.data) as unknown[];
    };
    expect(JSON.stringify(await eventually(async () => ((await log()).length ? log() : null)))).toContain(title);
    // the others by SMS, and not the bound guardian
    const sms = await eventually(async () => {
      const { rows } = await w.sql.query(`select mobile from sms_outbox where template = 'notice.important' and content like $1`, [`%${title}%`]);
      return rows.length >= res.body.data.sms_count - 1 ? rows : null;
    });
    expect(sms).toHaveLength(res.body.data.sms_count - 1);
    expect(sms.map((r) => r.mobile)).not.toContain(me[0].mobile);

    // the reminder: the bound guardian (unread) in WeChat again
    const remind = await w.post('/api/index/remindInform', token).send({ id });
    expect(remind.body).toMatchObject({ code: Code.Ok, data: { reminded: res.body.data.sms_count, held: false } });
    await eventually(async () => (SENT.has((await wechat('notice.remind'))[0]?.state) ? true : null));
    const reminded = await eventually(async () => {
      const { rows } = await w.sql.query(`select mobile from sms_outbox where template = 'notice.remind' and content like $1`, [`%${title}%`]);
      return rows.length >= res.body.data.sms_count - 1 ? rows : null;
    });
    expect(reminded.map((r) => r.mobile)).not.toContain(me[0].mobile);
  });
});
