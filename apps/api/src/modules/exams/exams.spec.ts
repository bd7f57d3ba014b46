import { Code, type Exam, type ExamScoreAnswer } from '@wantuo/shared';
import { Workbook } from 'exceljs';
import { peakRssGrowth, zipBombXlsx } from '../../../test/crafted-xlsx';
import { eventually, lastDaytime, snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { MessagesClock } from '../messages/guardian-messages.service';
import { WechatOa } from '../wechat/oa-client';

/** A WeChat message handed over: sent, or already delivered (the sandbox's push can come before the poll looks). */
const SENT = new Set(['sent', 'delivered']);

let t: TestApp;
let admin: string;
let teacher: string;
let adviser: string;
let parent: string;
/** the teacher's and adviser's class (阳光一班) and a class of another head teacher (阳光二班) */
let mine: number;
let other: number;
let mineStudents: Array<{ id: number; name: string }>;
let otherStudents: Array<{ id: number; name: string }>;
/** the demo parent's child (in 阳光一班) */
let child: number;
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };

beforeAll(async () => {
  // listening: a bound guardian's message goes to the API's own WeChat sandbox
  t = await startTestApp({ runJobs: true, redis: false, demoPeople: true, listen: true });
  // the guardians' messages are due at once whatever the hour CI runs at
  t.app.get(MessagesClock).now = () => lastDaytime();
  [admin, teacher, adviser, parent] = await Promise.all(['admin', 'teacher', 'adviser', 'parent'].map((u) => t.login(u as 'admin')));
  mine = t.demo.classes!.running;
  other = t.demo.classes!.second;
  const of = async (cls: number) =>
    (
      await t.sql.query(
        `select s.id, s.name from students s join care_class_students c on c.student_id = s.id where c.class_id = $1 and s.status = 1 order by s.id`,
        [cls],
      )
    ).rows;
  mineStudents = await of(mine);
  otherStudents = await of(other);
  const kid = await t.sql.query(
    `select s.id from students s join student_guardians g on g.student_id = s.id where g.user_id = $1 and s.status = 1 order by s.id limit 1`,
    [t.demo.users.parent],
  );
  child = kid.rows[0].id;
  expect(mineStudents.length).toBeGreaterThanOrEqual(4);
  expect(otherStudents.length).toBeGreaterThanOrEqual(1);
  expect(mineStudents.some((s) => s.id === child)).toBe(true);
});
afterAll(() => t.close());

/** Every row count and version this module writes, with the harness's tables. */
async function snap() {
  const { rows } = await t.sql.query(
    `select (select count(*) from exams)::int as exams, (select coalesce(sum(version + scores_version), 0) from exams)::int as versions,
            (select count(*) from exam_classes)::int as classes, (select count(*) from exam_scores)::int as scores,
            (select coalesce(sum(coalesce(score2, -1)), 0) from exam_scores)::int as score_sum,
            (select count(*) from exam_score_log)::int as log, (select count(*) from exam_texts)::int as texts`,
  );
  const { user_tokens: _t, user_activity: _a, flow_alerts: _f, ...rest } = await snapshot(t.sql);
  return { ...rest, ...rows[0] };
}

let n = 0;
const examBody = (over: Record<string, unknown> = {}) => ({
  name: `期中测验${n++}`,
  subject: '数学',
  exam_day: '2026-11-20',
  full_mark: 100,
  class_ids: [mine],
  ...over,
});
async function addExam(over: Record<string, unknown> = {}, token = admin, action = 'addExam'): Promise<Exam> {
  const res = await t.post(`/api/index/${action}`, token).send(examBody(over));
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data;
}
const scoresOf = async (examId: number, token = admin, action = 'examScore'): Promise<ExamScoreAnswer> => {
  const res = await t.get(`/api/index/${action}?exam_id=${examId}`, token);
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data;
};

// ---------------------------------------------------------------------------------------------------------------- exams

describe('addExam, studentExamList, editExam, delExam', () => {
  it('the admin creates an exam for two classes; the GET and POST lists filter it; examScore lists every student', async () => {
    const e = await addExam({ name: '十一月月考', subject: '语文', class_ids: [mine, other], pass_mark: 72 });
    expect(e).toMatchObject({
      name: '十一月月考',
      subject: '语文',
      exam_day: '2026-11-20',
      full_mark: 100,
      pass_mark: 72,
      pass_mark_given: true,
      scored: 0,
      version: 1,
      published_at: null,
    });
    expect(e.classes.map((c) => c.id).sort()).toEqual([mine, other].sort());
    const get = await t.get(
      `/api/index/studentExamList?class_id=${other}&subject=${encodeURIComponent('语文')}&date_from=2026-11-01&date_to=2026-11-30`,
      admin,
    );
    expect(get.body.data.list.map((x: Exam) => x.id)).toContain(e.id);
    const post = await t.post('/api/index/studentExamList', admin).send({ class_ids: [mine, other], subjects: ['语文', '英语'], page: 1, limit: 5 });
    expect(post.body.data).toMatchObject({ page: 1, limit: 5 });
    expect(post.body.data.list.map((x: Exam) => x.id)).toContain(e.id);
    const none = await t.post('/api/index/studentExamList', admin).send({ subjects: ['英语'] });
    expect(none.body.data.list.map((x: Exam) => x.id)).not.toContain(e.id);
    const s = await scoresOf(e.id);
    expect(s.list).toHaveLength(mineStudents.length + otherStudents.length);
    expect(s.list.every((r) => r.score === null && !r.absent && r.class_rank === null)).toBe(true);
    expect(s.stats).toMatchObject({ students: mineStudents.length + otherStudents.length, count: 0, average: null });
  });

  it('bad input writes nothing and answers code 100', async () => {
    const before = await snap();
    for (const bad of [
      { full_mark: 0 },
      { class_ids: [] },
      { pass_mark: 120 },
      { pass_mark: 60.3 },
      { exam_day: '2026-02-30' },
      { name: '' },
      { class_ids: [mine, mine] },
    ]) {
      const res = await t.post('/api/index/addExam', admin).send(examBody(bad));
      expect(res.body.code).toBe(Code.Error);
    }
    const e = await addExam();
    const del = await t.post('/api/index/delExam', admin).send({ id: e.id, version: e.version });
    expect(del.body).toMatchObject({ code: Code.Error, msg: '删除考试会同时删除其全部成绩，请确认' });
    const edit = await t.post('/api/index/editExam', admin).send({ id: e.id, version: e.version, ...examBody({ full_mark: 1001 }) });
    expect(edit.body.code).toBe(Code.Error);
    const listBad = await t.get('/api/index/studentExamList?date_from=bad', admin);
    expect(listBad.body.code).toBe(Code.Error);
    // the same for the other actions, the teacher's versions included
    const refused = [
      await t.post('/api/index/studentExamList', admin).send({ class_ids: ['x'] }),
      await t.post('/api/index/studentExamList', admin).send({ date_from: '2026-12-01', date_to: '2026-11-01' }),
      await t.get('/api/index/teacherStudentExamList?published=2', teacher),
      await t.get('/api/index/examScore?exam_id=abc', admin),
      await t.get('/api/index/teacherExamScore', teacher),
      await t.post('/api/index/teacherAddExam', teacher).send(examBody({ full_mark: 1.5 })),
      await t.post('/api/index/teacherEditExam', teacher).send({ id: e.id, ...examBody() }),
      await t.post('/api/index/addExamScore', admin).send({ exam_id: e.id, rows: 'x' }),
      await t.post('/api/index/teacherAddExamScore', teacher).send({ exam_id: e.id, rows: [{ student_id: mineStudents[0].id, score: 200 }] }),
      await t.post('/api/index/delExamScore', admin).send({ exam_id: e.id }),
      await t.post('/api/index/teacherDelExamScore', teacher).send({ exam_id: 'x', student_id: 1 }),
      await t.post('/api/index/publishExamScores', admin).send({ exam_id: e.id, version: 0 }),
      await t.get(`/api/index/examScoreExport?exam_id=0`, admin),
    ];
    for (const r of refused) expect(r.body.code).toBe(Code.Error);
    const after = await snap();
    expect(after).toEqual({ ...before, exams: before.exams + 1, classes: before.classes + 1, versions: before.versions + 1 });
  });

  it('wrong roles are refused', async () => {
    const e = await addExam();
    const before = await snap();
    expect((await t.post('/api/index/addExam', teacher).send(examBody())).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/addExam', parent).send(examBody())).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/editExam', adviser).send({ id: e.id, version: 1, ...examBody() })).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/delExam', teacher).send({ id: e.id, version: 1, confirm: true })).body).toMatchObject(DENIED);
    expect((await t.get('/api/index/studentExamList', teacher)).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/studentExamList', parent).send({})).body).toMatchObject(DENIED);
    expect((await t.get(`/api/index/examScore?exam_id=${e.id}`, parent)).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/addExamScore', teacher).send({ exam_id: e.id, rows: [{ student_id: child, score: 90 }] })).body).toMatchObject(
      DENIED,
    );
    expect((await t.post('/api/index/delExamScore', adviser).send({ exam_id: e.id, student_id: child })).body).toMatchObject(DENIED);
    expect((await t.get('/api/index/teacherStudentExamList', admin)).body).toMatchObject(DENIED);
    expect((await t.get(`/api/index/teacherExamScore?exam_id=${e.id}`, parent)).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/teacherAddExam', admin).send(examBody())).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/teacherEditExam', parent).send({ id: e.id, version: 1, ...examBody() })).body).toMatchObject(DENIED);
    expect(
      (await t.post('/api/index/teacherAddExamScore', admin).send({ exam_id: e.id, rows: [{ student_id: child, score: 90 }] })).body,
    ).toMatchObject(DENIED);
    expect((await t.post('/api/index/teacherDelExamScore', parent).send({ exam_id: e.id, student_id: child })).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/publishExamScores', parent).send({ exam_id: e.id, version: 1 })).body).toMatchObject(DENIED);
    expect((await t.get(`/api/index/parentExamScores?student_id=${child}`, admin)).body).toMatchObject(DENIED);
    expect((await t.get(`/api/index/examScoreExport?exam_id=${e.id}`, parent)).body).toMatchObject(DENIED);
    expect(await snap()).toEqual(before);
  });

  it("another school's ids are unknown, and nothing is written", async () => {
    const e = await addExam();
    await t.post('/api/index/addExamScore', admin).send({ exam_id: e.id, rows: [{ student_id: child, score: 80 }] });
    const o = await t.otherSchool();
    const before = await snap();
    const notFound = { code: Code.Error, msg: '未找到该考试，或不是你负责的班级的考试' };
    expect((await t.get(`/api/index/examScore?exam_id=${e.id}`, o.adminToken)).body).toMatchObject(notFound);
    expect((await t.post('/api/index/editExam', o.adminToken).send({ id: e.id, version: 1, ...examBody() })).body).toMatchObject({
      code: Code.Error,
    });
    expect((await t.post('/api/index/delExam', o.adminToken).send({ id: e.id, version: 1, confirm: true })).body).toMatchObject(notFound);
    expect(
      (await t.post('/api/index/addExamScore', o.adminToken).send({ exam_id: e.id, rows: [{ student_id: child, score: 90 }] })).body,
    ).toMatchObject(notFound);
    expect((await t.post('/api/index/delExamScore', o.adminToken).send({ exam_id: e.id, student_id: child })).body).toMatchObject(notFound);
    expect((await t.post('/api/index/publishExamScores', o.adminToken).send({ exam_id: e.id, version: 1 })).body).toMatchObject(notFound);
    expect((await t.get(`/api/index/examScoreExport?exam_id=${e.id}`, o.adminToken)).body).toMatchObject(notFound);
    const add = await t.post('/api/index/addExam', o.adminToken).send(examBody());
    expect(add.body).toMatchObject({ code: Code.Error, msg: `以下班级不存在或不是你负责的班级：${mine}` });
    const list = await t.get('/api/index/studentExamList', o.adminToken);
    expect(list.body.data).toMatchObject({ total: 0, list: [] });
    expect(await snap()).toEqual(before);
    // our admin cannot put another school's student in a batch either
    const [stranger] = (await t.sql.query(`insert into students (school_id, name) values ($1, '外校学生') returning id`, [o.schoolId])).rows;
    const before2 = await snap();
    const res = await t.post('/api/index/addExamScore', admin).send({ exam_id: e.id, rows: [{ student_id: stranger.id, score: 90 }] });
    expect(res.body.msg).toContain(`第 1 行（#${stranger.id}）：该学生不在本次考试的班级中`);
    expect(await snap()).toEqual(before2);
  });

  it('edits on the version read: not below a score entered, a class with scores stays; deletes with the scores', async () => {
    const e = await addExam({ class_ids: [mine, other] });
    await t.post('/api/index/addExamScore', admin).send({ exam_id: e.id, rows: [{ student_id: mineStudents[0].id, score: 95 }] });
    const edit = (over: Record<string, unknown>, version = e.version) =>
      t.post('/api/index/editExam', admin).send({ id: e.id, version, ...examBody({ name: e.name, class_ids: [mine, other], ...over }) });
    const before = await snap();
    expect((await edit({ full_mark: 90 })).body).toMatchObject({ code: Code.Error, msg: '已有成绩最高 95 分，满分不能低于它' });
    expect((await edit({ class_ids: [other] })).body).toMatchObject({
      code: Code.Error,
      msg: '班级「阳光一班」已有成绩，不能从考试中移除（请先删除其成绩）',
    });
    expect((await edit({}, e.version + 1)).body).toMatchObject({ code: Code.Error, msg: '该考试已被他人修改，请刷新后重试' });
    expect(await snap()).toEqual(before);
    const ok = await edit({ full_mark: 120, class_ids: [mine], subject: '英语' });
    expect(ok.body.data).toMatchObject({
      full_mark: 120,
      subject: '英语',
      pass_mark: 72,
      pass_mark_given: false,
      version: 2,
      classes: [{ id: mine, name: '阳光一班' }],
    });
    const del = await t.post('/api/index/delExam', admin).send({ id: e.id, version: 2, confirm: true });
    expect(del.body.data).toEqual({ id: e.id, scores: 1 });
    const { rows } = await t.sql.query(
      `select (select count(*) from exam_scores where exam_id = $1)::int as s, (select count(*) from exams where id = $1)::int as e`,
      [e.id],
    );
    expect(rows[0]).toEqual({ s: 0, e: 0 });
  });
});

// ---------------------------------------------------------------------------------------------------------------- scores

describe('addExamScore, examScore, delExamScore', () => {
  it('ranks with ties (1, 1, 3), half points, absent, stats and bands', async () => {
    const e = await addExam({ class_ids: [mine, other] });
    const [a, b, c, d] = mineStudents;
    const res = await t.post('/api/index/addExamScore', admin).send({
      exam_id: e.id,
      scores_version: 0,
      rows: [
        { student_id: a.id, score: 90 },
        { student_id: b.id, score: '90' },
        { student_id: c.id, score: '59.5' },
        { student_id: d.id, absent: true },
        { student_id: otherStudents[0].id, score: 100 },
      ],
    });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { saved: 5, scores_version: 1 } });
    const s = await scoresOf(e.id);
    const row = (id: number) => s.list.find((r) => r.student_id === id)!;
    expect([row(a.id), row(b.id), row(c.id)].map((r) => [r.score, r.class_rank, r.school_rank])).toEqual([
      [90, 1, 2],
      [90, 1, 2],
      [59.5, 3, 4],
    ]);
    expect(row(d.id)).toMatchObject({ absent: true, score: null, class_rank: null, school_rank: null });
    expect(row(otherStudents[0].id)).toMatchObject({ score: 100, class_rank: 1, school_rank: 1 });
    expect(s.stats).toMatchObject({ count: 4, absent: 1, average: 84.9, highest: 100, lowest: 59.5, passed: 3, pass_rate: 75 });
    expect(s.bands.map((x) => x.count)).toEqual([1, 0, 0, 0, 3]);
    expect(s.classes.find((x) => x.class_id === mine)).toMatchObject({ count: 3, absent: 1, average: 79.8, highest: 90, lowest: 59.5 });
    expect(s.exam).toMatchObject({ scored: 4, absent: 1, average: 84.9, scores_version: 1 });
    // a second batch changes a score (ranks follow) and the log keeps both
    await t.post('/api/index/addExamScore', admin).send({ exam_id: e.id, rows: [{ student_id: b.id, score: 89.5 }] });
    const s2 = await scoresOf(e.id);
    expect(s2.list.find((r) => r.student_id === b.id)).toMatchObject({ score: 89.5, class_rank: 2 });
    const log = await t.sql.query(`select count(*)::int as n from exam_score_log where exam_id = $1 and student_id = $2`, [e.id, b.id]);
    expect(log.rows[0].n).toBe(2);
  });

  it('a batch with one bad score writes nothing and names the row', async () => {
    const e = await addExam();
    const [a, b, c] = mineStudents;
    const before = await snap();
    const res = await t.post('/api/index/addExamScore', admin).send({
      exam_id: e.id,
      rows: [
        { student_id: a.id, score: 88 },
        { student_id: b.id, score: 101 },
        { student_id: c.id, score: 77.5 },
      ],
    });
    expect(res.body.code).toBe(Code.Error);
    expect(res.body.msg).toBe(`成绩未保存，请修改以下行：第 2 行（${b.name}）：成绩须在 0 到满分之间`);
    expect(res.body.data.rows).toEqual([{ row: 2, student_id: b.id, student_name: b.name, message: '成绩须在 0 到满分之间' }]);
    // several problems at once, each named
    const many = await t.post('/api/index/addExamScore', admin).send({
      exam_id: e.id,
      rows: [
        { student_id: a.id, score: '8x' },
        { student_id: a.id, score: 80 },
        { student_id: b.id, score: 80.25 },
        { student_id: c.id },
        { student_id: otherStudents[0].id, score: 80 },
      ],
    });
    expect(many.body.data.rows.map((r: { row: number }) => r.row)).toEqual([1, 2, 3, 4, 5]);
    expect(many.body.msg).toContain('第 3 行');
    expect(many.body.msg).toContain('成绩只能是整数或 .5');
    expect((await t.post('/api/index/addExamScore', admin).send({ exam_id: e.id, rows: [] })).body.code).toBe(Code.Error);
    expect((await t.post('/api/index/addExamScore', admin).send({ exam_id: e.id, rows: [{ student_id: 'x', score: 1 }] })).body.code).toBe(
      Code.Error,
    );
    expect(await snap()).toEqual(before);
    // fixed, it saves; a batch on an old scores_version is refused
    const ok = await t.post('/api/index/addExamScore', admin).send({
      exam_id: e.id,
      scores_version: 0,
      rows: [
        { student_id: a.id, score: 88 },
        { student_id: b.id, score: 100 },
      ],
    });
    expect(ok.body.data).toEqual({ saved: 2, scores_version: 1 });
    const stale = await t.post('/api/index/addExamScore', admin).send({ exam_id: e.id, scores_version: 0, rows: [{ student_id: c.id, score: 60 }] });
    expect(stale.body).toMatchObject({ code: Code.Error, msg: '成绩已被他人修改，请刷新后再保存' });
  });

  it('delExamScore deletes one score (logged); an unknown one is refused', async () => {
    const e = await addExam();
    await t.post('/api/index/addExamScore', admin).send({ exam_id: e.id, rows: [{ student_id: child, score: 70 }] });
    const before = await snap();
    expect(
      (await t.post('/api/index/delExamScore', admin).send({ exam_id: e.id, student_id: mineStudents.find((s) => s.id !== child)!.id })).body,
    ).toMatchObject({ code: Code.Error, msg: '该学生还没有成绩' });
    expect((await t.post('/api/index/delExamScore', admin).send({ exam_id: e.id, student_id: 0 })).body.code).toBe(Code.Error);
    expect(await snap()).toEqual(before);
    const res = await t.post('/api/index/delExamScore', admin).send({ exam_id: e.id, student_id: child });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { scores_version: 2 } });
    const { rows } = await t.sql.query(`select action from exam_score_log where exam_id = $1 order by id`, [e.id]);
    expect(rows.map((r) => r.action)).toEqual(['set', 'delete']);
    expect((await scoresOf(e.id)).list.find((r) => r.student_id === child)).toMatchObject({ absent: false, score: null });
  });
});

// ---------------------------------------------------------------------------------------------------------------- teachers

describe('the teacher versions', () => {
  it('a teacher creates, edits, scores and deletes scores of an exam of an own class', async () => {
    const e = await addExam({}, teacher, 'teacherAddExam');
    expect(e.classes).toEqual([{ id: mine, name: '阳光一班' }]);
    const list = await t.get('/api/index/teacherStudentExamList', teacher);
    expect(list.body.data.list.map((x: Exam) => x.id)).toContain(e.id);
    const ed = await t
      .post('/api/index/teacherEditExam', adviser)
      .send({ id: e.id, version: 1, ...examBody({ name: '单元测验', class_ids: [mine] }) });
    expect(ed.body.data).toMatchObject({ name: '单元测验', version: 2 });
    const add = await t.post('/api/index/teacherAddExamScore', teacher).send({ exam_id: e.id, rows: [{ student_id: child, score: 99 }] });
    expect(add.body.data).toMatchObject({ saved: 1 });
    expect((await scoresOf(e.id, adviser, 'teacherExamScore')).list.find((r) => r.student_id === child)).toMatchObject({ score: 99, class_rank: 1 });
    const del = await t.post('/api/index/teacherDelExamScore', teacher).send({ exam_id: e.id, student_id: child });
    expect(del.body.code).toBe(Code.Ok);
  });

  it("a teacher cannot touch another class's exam, nor create one for another class (nothing written)", async () => {
    const theirs = await addExam({ class_ids: [other] });
    const mixed = await addExam({ class_ids: [mine, other] });
    const before = await snap();
    const notFound = { code: Code.Error, msg: '未找到该考试，或不是你负责的班级的考试' };
    expect((await t.get(`/api/index/teacherExamScore?exam_id=${theirs.id}`, teacher)).body).toMatchObject(notFound);
    expect(
      (await t.post('/api/index/teacherEditExam', teacher).send({ id: theirs.id, version: 1, ...examBody({ class_ids: [mine] }) })).body,
    ).toMatchObject(notFound);
    expect(
      (await t.post('/api/index/teacherAddExamScore', teacher).send({ exam_id: theirs.id, rows: [{ student_id: otherStudents[0].id, score: 90 }] }))
        .body,
    ).toMatchObject(notFound);
    expect(
      (await t.post('/api/index/teacherDelExamScore', adviser).send({ exam_id: theirs.id, student_id: otherStudents[0].id })).body,
    ).toMatchObject(notFound);
    expect((await t.post('/api/index/publishExamScores', teacher).send({ exam_id: theirs.id, version: 1 })).body).toMatchObject(notFound);
    expect((await t.post('/api/index/teacherAddExam', teacher).send(examBody({ class_ids: [other] }))).body).toMatchObject({
      code: Code.Error,
      msg: `以下班级不存在或不是你负责的班级：${other}`,
    });
    // an exam of an own class and another: the own class's students only, no edit, no publish
    const s = await scoresOf(mixed.id, teacher, 'teacherExamScore');
    expect(s.list.map((r) => r.student_id).sort()).toEqual(mineStudents.map((x) => x.id).sort());
    expect(s.can_manage).toBe(false);
    expect(
      (await t.post('/api/index/teacherEditExam', teacher).send({ id: mixed.id, version: 1, ...examBody({ class_ids: [mine, other] }) })).body,
    ).toMatchObject({ code: Code.Error, msg: '只能操作自己负责的班级的考试和学生' });
    expect((await t.post('/api/index/publishExamScores', adviser).send({ exam_id: mixed.id, version: 1 })).body).toMatchObject({
      code: Code.Error,
      msg: '只能操作自己负责的班级的考试和学生',
    });
    const bad = await t.post('/api/index/teacherAddExamScore', teacher).send({
      exam_id: mixed.id,
      rows: [
        { student_id: child, score: 90 },
        { student_id: otherStudents[0].id, score: 90 },
      ],
    });
    expect(bad.body.msg).toBe(`成绩未保存，请修改以下行：第 2 行（${otherStudents[0].name}）：只能操作自己负责的班级的考试和学生`);
    const list = await t.get('/api/index/teacherStudentExamList', teacher);
    expect(list.body.data.list.map((x: Exam) => x.id)).not.toContain(theirs.id);
    expect(await snap()).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------------------- publishing and guardians

describe('publishExamScores and parentExamScores', () => {
  it('guardians see published scores only, with rank in class and class average; one text per guardian and exam', async () => {
    const e = await addExam({ name: '期末考试', subject: '英语' });
    const others = mineStudents.filter((s) => s.id !== child);
    await t.post('/api/index/addExamScore', admin).send({
      exam_id: e.id,
      rows: [
        { student_id: child, score: 85 },
        { student_id: others[0].id, score: 95 },
        { student_id: others[1].id, score: 85 },
      ],
    });
    const before = await t.get(`/api/index/parentExamScores?student_id=${child}`, parent);
    expect(before.body.data.list.map((x: { exam_id: number }) => x.exam_id)).not.toContain(e.id);

    const pub = await t.post('/api/index/publishExamScores', admin).send({ exam_id: e.id, version: 1 });
    expect(pub.body).toMatchObject({ code: Code.Ok, data: { version: 2 } });
    expect(pub.body.data.texted).toBeGreaterThanOrEqual(2);
    const res = await t.get(`/api/index/parentExamScores?student_id=${child}`, parent);
    expect(res.body.data.list.find((x: { exam_id: number }) => x.exam_id === e.id)).toMatchObject({
      name: '期末考试',
      subject: '英语',
      score: 85,
      absent: false,
      class_rank: 2,
      class_count: 3,
      class_average: 88.3,
      full_mark: 100,
      pass_mark: 60,
      class_name: '阳光一班',
    });
    // the texts: once per guardian (the demo parent's twins in one text), not again on a second publish
    await new Promise((r) => setTimeout(r, 300));
    const sms = await t.sql.query(`select content from sms_outbox where template = 'exam.published' and mobile = '13800000006'`);
    expect(sms.rows).toHaveLength(1);
    expect(sms.rows[0].content).toContain('“期末考试”（英语）成绩已发布');
    const again = await t.post('/api/index/publishExamScores', admin).send({ exam_id: e.id, version: 2 });
    expect(again.body.data).toMatchObject({ texted: 0, published_at: pub.body.data.published_at });
    const texts = await t.sql.query(`select count(*)::int as n from exam_texts where exam_id = $1`, [e.id]);
    expect(texts.rows[0].n).toBe(pub.body.data.texted);
  });

  it('a guardian bound to the official account is told in WeChat (linked to /parent_scores), the others by SMS', async () => {
    const wx = await t.post('/api/dev/wechat/users').send({ name: '微信家长', subscribed: true });
    const openid = wx.body.data.openid as string;
    await t.sql.query(`insert into wechat_bindings (user_id, school_id, appid, openid) values ($1, $2, $3, $4)`, [
      t.demo.users.parent,
      t.demo.schoolId,
      t.app.get(WechatOa).appid,
      openid,
    ]);
    try {
      const e = await addExam({ name: '单元测验', subject: '数学' });
      const others = mineStudents.filter((s) => s.id !== child);
      await t.post('/api/index/addExamScore', admin).send({
        exam_id: e.id,
        rows: [
          { student_id: child, score: 90 },
          { student_id: others[0].id, score: 80 },
        ],
      });
      const pub = await t.post('/api/index/publishExamScores', admin).send({ exam_id: e.id, version: 1 });
      expect(pub.body).toMatchObject({ code: Code.Ok });
      const rows = async () =>
        (
          await t.sql.query(
            `select state, url, params from wechat_messages where user_id = $1 and kind = 'exam.published' and params->>'exam' = '单元测验'`,
            [t.demo.users.parent],
          )
        ).rows;
      const [row] = await eventually(async () => (SENT.has((await rows())[0]?.state) ? rows() : null));
      expect(row.url).toBe(`${t.config.webPublicUrl}/m/parent_scores`);
      const log = await eventually(async () => {
        const r = await t.get(`/api/dev/wechat/messages?openid=${openid}`);
        const list = (r.body.data.list ?? r.body.data) as unknown[];
        return list.length ? list : null;
      });
      expect(JSON.stringify(log)).toContain('单元测验');
      // the other student's guardians by SMS; the bound guardian not
      const { rows: guardians } = await t.sql.query(
        `select u.mobile from student_guardians g join users u on u.id = g.user_id where g.student_id = $1 and u.id <> $2 and u.mobile is not null`,
        [others[0].id, t.demo.users.parent],
      );
      const sms = async () =>
        (await t.sql.query(`select mobile from sms_outbox where template = 'exam.published' and content like '%单元测验%'`)).rows.map(
          (r) => r.mobile,
        );
      if (guardians.length) await eventually(async () => ((await sms()).length >= guardians.length ? true : null));
      await new Promise((r) => setTimeout(r, 200));
      expect((await sms()).sort()).toEqual(guardians.map((g) => g.mobile).sort());
      expect(pub.body.data.texted).toBe(1 + guardians.length);
    } finally {
      await t.sql.query(`update wechat_bindings set unbound_at = now() where user_id = $1 and unbound_at is null`, [t.demo.users.parent]);
    }
  });

  it('a guardian cannot read another child; bad input; a stale version is refused', async () => {
    const stranger = mineStudents.find((s) => s.id !== child)!;
    const guarded = await t.sql.query(`select 1 from student_guardians where student_id = $1 and user_id = $2`, [stranger.id, t.demo.users.parent]);
    if (!guarded.rowCount) {
      expect((await t.get(`/api/index/parentExamScores?student_id=${stranger.id}`, parent)).body).toMatchObject({
        code: Code.Error,
        msg: '未找到该学生，或不是你的孩子',
      });
    }
    expect((await t.get('/api/index/parentExamScores?student_id=abc', parent)).body.code).toBe(Code.Error);
    const e = await addExam();
    const before = await snap();
    expect((await t.post('/api/index/publishExamScores', admin).send({ exam_id: e.id, version: 9 })).body).toMatchObject({
      code: Code.Error,
      msg: '该考试已被他人修改，请刷新后重试',
    });
    expect((await t.post('/api/index/publishExamScores', admin).send({ exam_id: e.id })).body.code).toBe(Code.Error);
    expect(await snap()).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------------------- xlsx

describe('examScoreExport and examScoreImport', () => {
  it('exports the sheet; the import checks every row like a batch, then saves all or none', async () => {
    const e = await addExam();
    await t.post('/api/index/addExamScore', admin).send({ exam_id: e.id, rows: [{ student_id: child, score: 66 }] });
    const file = await t
      .get(`/api/index/examScoreExport?exam_id=${e.id}`, admin)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(file.headers['content-type']).toContain('spreadsheetml');
    const wb = new Workbook();
    await wb.xlsx.load(file.body as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).values).toEqual([undefined, '学生编号', '姓名', '班级', '成绩', '班级排名', '全校排名']);
    expect(ws.rowCount).toBe(mineStudents.length + 1);
    const rowOf = (id: number) => [...Array(ws.rowCount).keys()].map((i) => ws.getRow(i + 1)).find((r) => r.getCell(1).value === id)!;
    expect(rowOf(child).getCell(4).value).toBe(66);
    expect([ws.getColumn(1).width, ws.getColumn(3).width]).toEqual([10, 14]);
    // the second sheet: the exam's details, label and value
    const info = wb.getWorksheet('考试信息')!;
    expect(info.getRow(1).values).toEqual([undefined, '考试', e.name]);
    expect(info.getRow(4).values).toEqual([undefined, '满分', e.full_mark]);
    expect(info.getRow(11).getCell(1).value).toBe('说明');
    expect(info.getColumn(2).width).toBe(60);
    const [a, b] = mineStudents.filter((s) => s.id !== child);
    rowOf(a.id).getCell(4).value = '缺考';
    rowOf(b.id).getCell(4).value = 130;
    const upload = async (dry: '1' | '0') => {
      const buf = Buffer.from(await wb.xlsx.writeBuffer());
      return t.post('/api/index/examScoreImport', admin).field('exam_id', String(e.id)).field('dry_run', dry).attach('file', buf, 'scores.xlsx');
    };
    const before = await snap();
    const dry = await upload('0');
    expect(dry.body.data).toMatchObject({
      dry_run: false,
      saved: 0,
      problems: [{ row: rowOf(b.id).number, column: '成绩', message: `${b.name}：成绩须在 0 到满分之间` }],
    });
    expect(await snap()).toEqual(before);
    rowOf(b.id).getCell(4).value = '92.5';
    expect((await upload('1')).body.data).toMatchObject({ dry_run: true, saved: 0, problems: [] });
    expect(await snap()).toEqual(before);
    const ok = await upload('0');
    expect(ok.body.data).toMatchObject({ dry_run: false, rows: 3, saved: 3, problems: [] });
    const s = await scoresOf(e.id);
    expect(s.list.find((r) => r.student_id === b.id)).toMatchObject({ score: 92.5, class_rank: 1 });
    expect(s.list.find((r) => r.student_id === a.id)).toMatchObject({ absent: true });
    // not a sheet
    const junk = await t
      .post('/api/index/examScoreImport', admin)
      .field('exam_id', String(e.id))
      .field('dry_run', '1')
      .attach('file', Buffer.from('hello'), 'x.xlsx');
    expect(junk.body).toMatchObject({ code: Code.Error, msg: '无法读取该文件，请使用导出的成绩表（.xlsx）' });
  });

  it('a small zip that unpacks to 200 MB is refused at once, before the workbook is loaded; ids as typed are read', async () => {
    const e = await addExam();
    const sheet = async (rows: unknown[][]) => {
      const wb = new Workbook();
      const ws = wb.addWorksheet('成绩');
      ws.addRow(['学生编号', '姓名', '班级', '成绩']);
      ws.addRows(rows);
      return Buffer.from(await wb.xlsx.writeBuffer());
    };
    const upload = (buf: Buffer, dry: '1' | '0') =>
      t.post('/api/index/examScoreImport', admin).field('exam_id', String(e.id)).field('dry_run', dry).attach('file', buf, 'scores.xlsx');
    const bomb = await zipBombXlsx(await sheet([[child, '', '', 90]]), 200 * 1024 * 1024, 'lie');
    const before = await snap();
    const { result: res, growth, ms } = await peakRssGrowth(() => upload(bomb, '0'));
    expect(res.body).toMatchObject({ code: Code.Error, msg: '文件解压后超过 40 MB，无法读取：请使用导出的成绩表，删除多余的行、图片和格式后重试' });
    expect(ms).toBeLessThan(3000);
    expect(growth).toBeLessThan(64 * 1024 * 1024);
    expect(await snap()).toEqual(before);
    // an id typed with full-width digits or spaces, or kept as text with a trailing space
    const [a, b] = mineStudents;
    const wide = String(a.id).replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
    const ok = await upload(
      await sheet([
        [` ${wide} `, a.name, '', '88'],
        [`${b.id} `, b.name, '', 77.5],
      ]),
      '0',
    );
    expect(ok.body.data).toMatchObject({ dry_run: false, rows: 2, saved: 2, problems: [] });
    const s = await scoresOf(e.id);
    expect(s.list.find((r) => r.student_id === a.id)).toMatchObject({ score: 88 });
    expect(s.list.find((r) => r.student_id === b.id)).toMatchObject({ score: 77.5 });
  });
});
