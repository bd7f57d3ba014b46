import { Code } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { lastDaytime, snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { MessagesClock } from '../messages/guardian-messages.service';
import { rebuildReports } from './report-projection';
import { ReportsListener } from './reports.listener';

/**
 * The child's daily report (issue 27 item 2): the projection daily_reports after the flow's commands, the homework with
 * its photo, the points, the teacher's comment (presets, free text, optimistic concurrency, history), the report's
 * message to the guardians once at departure, rebuild equal to the live projection, and who may read and write what.
 */
let t: TestApp;
let admin: string, teacher: string, adviser: string, parent: string;
let child: number, sibling: number, outsider: number;
let pickup: { id: number; name: string };
let today: string;
let seq = 0;
const rid = () => `rp-${Date.now().toString(36)}-${seq++}`;
const api = (a: string) => `/api/index/${a}`;
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, redis: false, demoPeople: true });
  t.app.get(MessagesClock).now = () => lastDaytime();
  [admin, teacher, adviser, parent] = await Promise.all([t.login('admin'), t.login('teacher'), t.login('adviser'), t.login('parent')]);
  today = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as d`)).rows[0].d;
  const mine = await t.sql.query(
    `select s.id from students s join student_guardians g on g.student_id = s.id
       join care_class_students c on c.student_id = s.id and c.class_id = $2
      where g.user_id = $1 and s.status = 1 order by s.id`,
    [t.demo.users.parent, t.demo.classes!.running],
  );
  [child, sibling] = mine.rows.map((r) => r.id as number);
  outsider = (
    await t.sql.query(
      `select c.student_id from care_class_students c join students s on s.id = c.student_id where c.class_id = $1 and s.status = 1 order by 1 limit 1`,
      [t.demo.classes!.second],
    )
  ).rows[0].student_id;
  pickup = (await t.sql.query(`select id, name from pickup_people where student_id = $1 and deleted_at is null order by id limit 1`, [child]))
    .rows[0];
});
afterAll(() => t.close());

const settled = () => t.app.get(ReportsListener).settled();
const step = async (action: string, ids: number[], over: Record<string, unknown> = {}) => {
  const res = await t.post(api(action), teacher).send({ student_ids: ids, ...over });
  expect(res.body.code).toBe(Code.Ok);
  await settled();
};
const report = (student: number, token = parent, day = today) => t.get(api(`dailyReport?student_id=${student}&day=${day}`), token);
const comment = (body: Record<string, unknown>, token = teacher) => t.post(api('saveDailyComment'), token).send({ student_id: child, ...body });
const rows = async () =>
  (
    await t.sql.query(
      `select student_id, to_char(day, 'YYYY-MM-DD') as day, school_id, class_id, state, on_leave, picked_up_at, arrived_at, arrived_by, dinner_at,
              tutor_started_at, tutor_ended_at, left_at, left_by, pickup, comment, last_position::text, sent_at
         from daily_reports order by student_id, day`,
    )
  ).rows;
async function snap() {
  const { rows: r } = await t.sql.query(
    `select (select count(*) from daily_comments)::int as comments, (select coalesce(sum(version), 0) from daily_comments)::int as comment_versions,
            (select count(*) from daily_comment_versions)::int as history, (select count(*) from daily_reports)::int as reports`,
  );
  const { user_tokens: _t, user_activity: _a, ...rest } = await snapshot(t.sql);
  return { ...rest, ...r[0] };
}
const reportMessages = async () =>
  (
    await t.sql.query(
      `select kind, url, params from wechat_messages where kind = 'report.daily'
       union all select kind, null, params from sms_messages where kind = 'report.daily'`,
    )
  ).rows as Array<{ kind: string; url: string | null; params: Record<string, string> }>;

it('projects the day after enter, dinner and tutoring; homework with its photo, points and the comment show up; the report goes out once at departure', async () => {
  await step('studentEnter', [child, sibling]);
  let r = (await report(child)).body;
  expect(r).toMatchObject({ code: Code.Ok, data: { student_id: child, day: today, state: 'in_centre', left_at: null, sent_at: null } });
  expect(r.data.arrived_at).toEqual(expect.any(String));
  expect(r.data.arrived_by_name).toEqual(expect.any(String));
  expect(r.data.lacks).toEqual(['comment', 'departure']);
  // set-based per command: both children of the command are projected
  expect(
    (await t.sql.query(`select count(*)::int as n from daily_reports where day = $1 and student_id = any($2::int[])`, [today, [child, sibling]]))
      .rows[0].n,
  ).toBe(2);

  await step('teacherStudentDinner', [child]);
  await step('teacherStudentStartTutor', [child]);
  // homework of the day, done at home with a photo by the guardian, then checked with a note by the teacher
  const hw = await t.post(api('issueHomeWork'), teacher).send({
    kind: 'care',
    class_id: t.demo.classes!.running,
    title: '口算练习',
    content: '第 3 页',
    attachments: [],
    due_day: today,
    request_id: rid(),
  });
  expect(hw.body.code).toBe(Code.Ok);
  const done = await t
    .post(api('parentDoneHomeWork'), parent)
    .send({ homework_id: hw.body.data.id, student_id: child, photo_url: '/uploads/2026/11/kousuan.jpg', request_id: rid() });
  expect(done.body.code).toBe(Code.Ok);
  expect((await report(child)).body.data.lacks).toEqual(['comment', 'departure', 'homework_unchecked']);
  const checked = await t
    .post(api('markHomeWork'), teacher)
    .send({ homework_id: hw.body.data.id, student_ids: [child], state: 'checked', note: '全对', request_id: rid() });
  expect(checked.body.code).toBe(Code.Ok);
  const award = await t.post(api('awardPoints'), teacher).send({ student_ids: [child], points: 3, reason: '专注', request_id: rid() });
  expect(award.body.code).toBe(Code.Ok);
  await step('teacherStudentEndTutor', [child]);

  // the comment: presets and free text, a photo taken during tutoring
  const saved = await comment({ presets: ['happy', 'focused'], text: '今天很棒', photos: ['/uploads/2026/11/tutor.jpg'], version: 0 });
  expect(saved.body).toMatchObject({
    code: Code.Ok,
    data: { student_id: child, day: today, presets: ['focused', 'happy'], text: '今天很棒', version: 1 },
  });

  r = (await report(child)).body.data;
  expect(r.dinner_at).toEqual(expect.any(String));
  expect(r.tutor_started_at).toEqual(expect.any(String));
  expect(r.tutor_ended_at).toEqual(expect.any(String));
  const item = r.homework.find((h: { homework_id: number }) => h.homework_id === hw.body.data.id);
  expect(item).toMatchObject({ title: '口算练习', done: true, marked: true, note: '全对', photos: ['/uploads/2026/11/kousuan.jpg'] });
  expect(r.points).toBe(3);
  expect(r.points_entries).toEqual([expect.objectContaining({ delta: 3, reason: '专注' })]);
  expect(r.comment).toMatchObject({ presets: ['focused', 'happy'], text: '今天很棒', photos: ['/uploads/2026/11/tutor.jpg'], version: 1 });
  expect(r.lacks).toEqual(['departure']);
  expect(await reportMessages()).toEqual([]);

  // 离园 with the pick-up person: the report goes to the guardian with its link, once
  await step('studentLiyuan', [child], { picked_up_by: pickup.id });
  r = (await report(child)).body.data;
  expect(r).toMatchObject({ state: 'left', pickup: { person: pickup.id, name: pickup.name, how: 'manual' }, lacks: [] });
  expect(r.sent_at).toEqual(expect.any(String));
  const sent = await reportMessages();
  expect(sent.length).toBeGreaterThanOrEqual(1);
  expect(sent[0].params).toMatchObject({ day: today });
  const wx = sent.find((m) => m.url);
  if (wx) expect(wx.url).toContain(`/parent_report?student=${child}&day=${today}`);
  // the head teacher voids the departure and it is recorded again: still one report message
  const { rows: ev } = await t.sql.query(`select event_id from flow_events where student_id = $1 and day = $2 order by version desc limit 1`, [
    child,
    today,
  ]);
  expect((await t.post(api('voidFlowEvent'), adviser).send({ student_id: child, event_id: ev[0].event_id, reason: '点错了' })).body.code).toBe(
    Code.Ok,
  );
  await settled();
  expect((await report(child)).body.data).toMatchObject({ state: 'in_centre', left_at: null, pickup: null });
  await step('studentLiyuan', [child], { picked_up_by: pickup.id });
  expect((await reportMessages()).length).toBe(sent.length);

  // a comment written after the report went out: the page shows the latest (optimistic concurrency on version)
  expect((await comment({ presets: ['calm'], text: '', version: 0 })).body).toMatchObject({
    code: Code.Error,
    msg: '评语已被他人修改，请刷新后重试',
  });
  expect((await comment({ presets: ['calm'], text: '补充：情绪平稳', version: 1 }, adviser)).body).toMatchObject({
    code: Code.Ok,
    data: { version: 2 },
  });
  expect((await report(child)).body.data.comment).toMatchObject({ presets: ['calm'], text: '补充：情绪平稳', version: 2 });
  expect((await t.sql.query(`select version from daily_comment_versions where student_id = $1 order by version`, [child])).rows).toEqual([
    { version: 1 },
    { version: 2 },
  ]);

  // history, newest first; the head teacher's status
  const days = (await t.get(api(`dailyReportDays?student_id=${child}`), parent)).body;
  expect(days).toMatchObject({ code: Code.Ok, data: { student_id: child, total: 1, list: [{ day: today, has_comment: true, points: 3 }] } });
  const status = (await t.get(api(`classReportStatus?class_id=${t.demo.classes!.running}&day=${today}`), adviser)).body;
  expect(status.code).toBe(Code.Ok);
  const mineRow = status.data.list.find((x: { student_id: number }) => x.student_id === child);
  const sibRow = status.data.list.find((x: { student_id: number }) => x.student_id === sibling);
  expect(mineRow).toMatchObject({ has_comment: true, lacks: [] });
  expect(mineRow.sent_at).toEqual(expect.any(String));
  expect(sibRow).toMatchObject({ has_comment: false, sent_at: null, lacks: ['comment', 'departure'] });
  expect(status.data.counts.sent).toBeGreaterThanOrEqual(1);
  expect((await t.get(api(`classReportStatus?day=${today}`), admin)).body.code).toBe(Code.Ok);
});

it('rebuild from the events gives the same rows as the live projection', async () => {
  const live = await rows();
  expect(live.length).toBeGreaterThanOrEqual(2);
  const ds = new DataSource({ type: 'postgres', url: t.config.databaseUrl });
  await ds.initialize();
  try {
    // a wrong row, a row no event backs: the rebuild corrects and drops them
    await t.sql.query(`update daily_reports set state = 'expected', pickup = null, comment = null where student_id = $1`, [child]);
    await t.sql.query(`insert into daily_reports (student_id, day, school_id) values ($1, '2020-01-01', $2)`, [outsider, t.demo.schoolId]);
    const done = await rebuildReports(ds);
    expect(done.days).toBe(live.length);
  } finally {
    await ds.destroy();
  }
  expect(await rows()).toEqual(live);
});

it('a guardian reads only an own child; a teacher of another class cannot comment; bad input is code 100 and writes nothing', async () => {
  const other = await t.otherSchool();
  const before = await snap();
  expect((await report(outsider)).body).toMatchObject({ code: Code.Error, msg: '学生不存在或不是你可查看的学生' });
  expect((await t.get(api(`dailyReportDays?student_id=${outsider}`), parent)).body.code).toBe(Code.Error);
  // the demo teacher has no duty in the second class
  expect((await comment({ student_id: outsider, presets: ['calm'], version: 0 })).body).toMatchObject({
    code: Code.Error,
    msg: '只能给自己带的班级或任教班级的学生写评语',
  });
  expect((await comment({ presets: ['calm'], version: 0 }, parent)).body).toMatchObject(DENIED);
  expect((await comment({ presets: ['calm'], version: 0 }, admin)).body).toMatchObject(DENIED);
  expect((await t.get(api(`classReportStatus?class_id=${t.demo.classes!.running}`), parent)).body).toMatchObject(DENIED);
  expect((await t.get(api(`classReportStatus?class_id=${t.demo.classes!.second}`), teacher)).body).toMatchObject({
    code: Code.Error,
    msg: '班级不存在或不是你负责的班级',
  });
  for (const body of [
    { presets: [], text: '', version: 0 },
    { presets: ['nope'], version: 0 },
    { presets: ['calm', 'calm'], version: 0 },
    { text: 'x'.repeat(201), version: 0 },
    { text: '<script>alert(1)</script>', version: 0 },
    { presets: ['calm'], version: -1 },
    { presets: ['calm'] },
    { presets: ['calm'], version: 0, photos: ['file:///etc/passwd'] },
    { presets: ['calm'], version: 0, day: '2026-13-01' },
    { presets: ['calm'], version: 0, extra: 1 },
    { student_id: 'x', presets: ['calm'], version: 0 },
  ]) {
    expect((await comment(body)).body.code).toBe(Code.Error);
  }
  expect((await t.get(api('dailyReport?student_id=abc'), parent)).body.code).toBe(Code.Error);
  expect((await t.get(api(`dailyReport?student_id=${child}&day=2026-02-30`), parent)).body.code).toBe(Code.Error);
  // another school's admin does not know the demo school's child
  expect((await report(child, other.adminToken)).body).toMatchObject({ code: Code.Error, msg: '学生不存在或不是你可查看的学生' });
  expect(await snap()).toEqual(before);
});
