import { Code, type LessonPlanDetail, type LessonPlanRow } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { seedDemoCourseware, snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { RefundsService } from '../payments/refunds.service';

let t: TestApp;
let admin: string;
let teacher: string;
let adviser: string;
let parent: string;
let operator: string;
let other: { schoolId: number; adminToken: string };
const PWD = '135790';
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };
/** The demo school's classes made for these tests. */
const cls = { duty: 0, headed: 0, plain: 0, stopped: 0, teaching: 0, otherSchool: 0 };
/** Courseware files (courseware_files.id): of a bought courseware (two PDF sections), of one not bought. */
const file = { a: 0, b: 0, locked: 0 };
let boughtTradeNo = '';

/** Everything lesson plans write: a refused request changes none of it. */
async function written(): Promise<Record<string, unknown>> {
  const { rows } = await t.sql.query(
    `select (select count(*) from lesson_plans)::int as plans, (select coalesce(sum(version), 0) from lesson_plans)::int as versions,
            (select count(*) from lesson_plans where deleted_at is not null)::int as removed,
            (select count(*) from lesson_plan_items)::int as items, (select count(*) from lesson_plan_revisions)::int as revisions`,
  );
  return { ...rows[0], ...(await snapshot(t.sql)) };
}

const save = (token: string, body: object) => t.post('/api/index/prepareLessons', token).send(body);
const info = (token: string, id: number) => t.get(`/api/index/prepareLessonsInfo?id=${id}`, token);
const list = async (token: string, query = ''): Promise<{ list: LessonPlanRow[]; total: number }> =>
  (await t.get(`/api/index/prepareLessonsList?${query}`, token)).body.data;

const plan = (over: object = {}) => ({
  title: '倍的认识：第一课时',
  class_kind: 'care',
  class_id: cls.duty,
  lesson_date: '2026-11-24',
  objectives: '理解“倍”的含义，会求一个数是另一个数的几倍。',
  steps: [
    { title: '导入：摆小棒', minutes: 5, content: '两根一组摆小棒，说一说第二行是第一行的几倍。' },
    { title: '新授', minutes: 20 },
    { title: '练习与小结', minutes: 15, content: '课本练习 1-3 题。' },
  ],
  items: [
    { file_id: file.a, pages: [1, 3] },
    { file_id: file.b, note: '练习页' },
  ],
  ...over,
});

async function careClass(schoolId: number, name: string, head: number | null, status = 1): Promise<number> {
  const { rows } = await t.sql.query(
    `insert into care_classes (school_id, name, head_teacher_id, capacity, status) values ($1, $2, $3, 30, $4) returning id`,
    [schoolId, name, head, status],
  );
  return rows[0].id;
}

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, redis: false, listen: true });
  await seedDemoCourseware(t.app.get(DataSource), t.config.uploadDir);
  [admin, teacher, adviser, parent, operator] = await Promise.all(
    ['admin', 'teacher', 'adviser', 'parent', 'operator'].map((u) => t.login(u as 'admin')),
  );
  other = await t.otherSchool();
  const school = t.demo.schoolId;
  const u = t.demo.users;
  cls.duty = await careClass(school, '晚托一班', null);
  await t.sql.query(`insert into duty_assignments (school_id, class_id, teacher_id, duty) values ($1, $2, $3, 'tutor')`, [
    school,
    cls.duty,
    u.teacher,
  ]);
  cls.headed = await careClass(school, '晚托二班', u.adviser);
  cls.plain = await careClass(school, '晚托三班', null);
  cls.stopped = await careClass(school, '暑期班（已停）', null, 0);
  cls.otherSchool = await careClass(other.schoolId, '外校晚托班', null);
  const { rows: tc } = await t.sql.query(
    `insert into teaching_classes (school_id, name, subject, teacher_id, capacity, sessions_count) values ($1, '三年级数学提高班', '数学', $2, 20, 16) returning id`,
    [school, u.teacher],
  );
  cls.teaching = tc[0].id;

  // the school buys one courseware from its balance; another stays unbought
  await t.sql.query(
    `with s as (update schools set balance_fen = balance_fen + 1000000 where id = $1 returning balance_fen)
     insert into ledger_entries (school_id, type, amount_fen, balance_after_fen, ref_kind, idempotency_key)
     select $1, 'adjustment', 1000000, s.balance_fen, 'test', 'test:lesson-plans' from s`,
    [school],
  );
  expect((await t.post('/api/index/setDealPwd', admin).send({ deal_pwd: PWD, password: 'Demo@2026' })).body.code).toBe(Code.Ok);
  const files = async (title: string) =>
    (
      await t.sql.query(
        `select cf.id from courseware_files cf join courseware_sections s on s.id = cf.section_id join coursewares c on c.id = s.courseware_id
          where c.title = $1 and cf.kind = 'pdf' order by s.sort, s.id, cf.sort, cf.id`,
        [title],
      )
    ).rows.map((r) => r.id as number);
  const bought = (await t.sql.query(`select id from coursewares where title = '三年级数学上册专题精讲'`)).rows[0].id;
  expect((await t.post('/api/index/balancePayCourseware', admin).send({ id: bought, deal_pwd: PWD, request_id: 'lesson-plans-buy' })).body.code).toBe(
    Code.Ok,
  );
  boughtTradeNo = (await t.sql.query(`select out_trade_no from courseware_purchases where courseware_id = $1`, [bought])).rows[0].out_trade_no;
  [file.a, file.b] = await files('三年级数学上册专题精讲');
  [file.locked] = await files('八年级物理专题精讲');
}, 120_000);
afterAll(() => t.close());

describe('the classes a plan may be for', () => {
  it('the admin: every running class; a teacher: the ones they teach; by keyword', async () => {
    const names = async (token: string, q = '') =>
      (await t.get(`/api/index/prepareLessonsClasses${q}`, token)).body.data.map((c: { name: string }) => c.name);
    expect(await names(admin)).toEqual(['晚托一班', '晚托二班', '晚托三班', '三年级数学提高班']);
    expect(await names(teacher)).toEqual(['晚托一班', '三年级数学提高班']);
    expect(await names(adviser)).toEqual(['晚托二班']);
    expect(await names(admin, `?keyword=${encodeURIComponent('数学')}`)).toEqual(['三年级数学提高班']);
    expect(await names(other.adminToken)).toEqual(['外校晚托班']);
    expect((await t.get('/api/index/prepareLessonsClasses?keyword=%3Cb%3E', admin)).body.code).toBe(Code.Error);
    for (const tk of [parent, operator]) expect((await t.get('/api/index/prepareLessonsClasses', tk)).body).toMatchObject(DENIED);
  });
});

describe('saving and opening a plan', () => {
  it('the admin saves a plan from owned courseware; it opens with its steps and each file behind a signed URL; its history has one version', async () => {
    const res = await save(admin, plan());
    expect(res.body).toMatchObject({ code: Code.Ok, data: { version: 1, slides: 2 + 5 } });
    const id = res.body.data.id;
    const p: LessonPlanDetail = (await info(admin, id)).body.data;
    expect(p).toMatchObject({
      id,
      title: '倍的认识：第一课时',
      class_kind: 'care',
      class_name: '晚托一班',
      lesson_date: '2026-11-24',
      items: 2,
      slides: 7,
      editable: true,
      author_name: expect.any(String),
    });
    expect(p.steps).toEqual(plan().steps);
    expect(p.items_list.map((i) => [i.file_id, i.pages, i.total_pages, i.kind, i.open, i.note])).toEqual([
      [file.a, [1, 3], 5, 'pdf', true, ''],
      [file.b, null, 5, 'pdf', true, '练习页'],
    ]);
    expect(p.items_list[0]).toMatchObject({ courseware_title: '三年级数学上册专题精讲', section_title: '万以内的加法和减法' });
    const pdf = await t.get(p.items_list[0].url!);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const { rows } = await t.sql.query(`select version, action, plan->'items' as items from lesson_plan_revisions where plan_id = $1`, [id]);
    expect(rows).toEqual([
      {
        version: 1,
        action: 'create',
        items: [
          { file_id: file.a, pages: [1, 3], note: '' },
          { file_id: file.b, pages: null, note: '练习页' },
        ],
      },
    ]);
  });

  it('an edit carries the version read: a stale one is refused, two at once save once, every version is kept', async () => {
    const id = (await save(admin, plan({ title: '并发测试' }))).body.data.id;
    expect((await save(admin, plan({ id, version: 1, title: '第二版', items: [{ file_id: file.b, pages: [5, 4] }] }))).body).toMatchObject({
      code: Code.Ok,
      data: { id, version: 2, slides: 2 },
    });
    const before = await written();
    expect((await save(admin, plan({ id, version: 1, title: '旧版本' }))).body).toMatchObject({
      code: Code.Error,
      msg: '教案已被他人修改，请刷新后重试',
    });
    expect(await written()).toEqual(before);
    const both = await Promise.all([save(admin, plan({ id, version: 2, title: '甲' })), save(teacher, plan({ id, version: 2, title: '乙' }))]);
    // the teacher is not its author: refused as such; so race the admin against itself too
    expect(both.map((r) => r.body.code).sort()).toEqual([Code.Error, Code.Ok]);
    const race = await Promise.all([save(admin, plan({ id, version: 3, title: '丙' })), save(admin, plan({ id, version: 3, title: '丁' }))]);
    expect(race.map((r) => r.body.code).sort()).toEqual([Code.Error, Code.Ok]);
    expect(race.find((r) => r.body.code === Code.Error)!.body.msg).toBe('教案已被他人修改，请刷新后重试');
    const { rows } = await t.sql.query(
      `select version, action, plan->>'title' as title from lesson_plan_revisions where plan_id = $1 order by version`,
      [id],
    );
    const winner = race.find((r) => r.body.code === Code.Ok)!.body.data;
    expect(winner.version).toBe(4);
    expect(rows.map((r) => [r.version, r.action])).toEqual([
      [1, 'create'],
      [2, 'edit'],
      [3, 'edit'],
      [4, 'edit'],
    ]);
    expect(rows.map((r) => r.title).slice(0, 3)).toEqual(['并发测试', '第二版', '甲']);
    expect((await info(admin, id)).body.data.items_list).toHaveLength(2);
  });

  it('bad input is refused with a clear message and writes nothing', async () => {
    // a long PDF of the bought courseware (its page count is what the bound is checked against)
    const { rows } = await t.sql.query(
      `insert into courseware_files (section_id, kind, file_id, name, pages, sort) select section_id, 'pdf', file_id, '长讲义', 200, 8 from courseware_files where id = $1 returning id`,
      [file.a],
    );
    const long = rows[0].id as number;
    const before = await written();
    const cases: Array<[object, string | RegExp]> = [
      [plan({ title: '' }), '请填写标题'],
      [plan({ title: '<script>x</script>' }), /./],
      [plan({ lesson_date: '2026-02-30' }), '上课日期无效，格式为 YYYY-MM-DD'],
      [plan({ class_kind: 'school' }), '请选择班级'],
      [plan({ class_id: 0 }), '请选择班级'],
      [plan({ steps: Array.from({ length: 21 }, () => ({ title: '环节' })) }), '教学环节最多 20 个'],
      [plan({ steps: [{ title: '环节', minutes: 300 }] }), '环节时长为 0-240 分钟'],
      [plan({ items: [{ file_id: file.a, pages: [0] }] }), '页码须为不重复的正整数，每项最多 500 页'],
      [plan({ items: [{ file_id: file.a, pages: [2, 2] }] }), '页码须为不重复的正整数，每项最多 500 页'],
      [plan({ items: Array.from({ length: 41 }, () => ({ file_id: file.a })) }), '每份教案最多引用 40 个课件文件'],
      [plan({ id: 1 }), '修改教案须同时提供编号与版本号'],
      [plan({ extra: 1 }), /./],
      // the rules
      [plan({ class_id: cls.otherSchool }), '未找到该班级，或不是你任教的班级'],
      [plan({ class_kind: 'teaching', class_id: cls.teaching + 1000 }), '未找到该班级，或不是你任教的班级'],
      [plan({ class_id: cls.stopped }), '未找到该班级，或不是你任教的班级'],
      [plan({ items: [{ file_id: file.a }, { file_id: file.locked }] }), '第 2 项课件文件不存在或机构尚未购买'],
      [plan({ items: [{ file_id: 2_000_000_000 }] }), '第 1 项课件文件不存在或机构尚未购买'],
      [plan({ items: [{ file_id: file.a, pages: [1, 6] }] }), '第 1 项的页码超出范围：该 PDF 共 5 页'],
      [plan({ items: [{ file_id: long }, { file_id: long }] }), '教案最多 300 页，当前 400 页'],
    ];
    for (const [body, msg] of cases) {
      const res = await save(admin, body);
      expect({ body, code: res.body.code, msg: res.body.msg }).toEqual({ body, code: Code.Error, msg: expect.stringMatching(msg) });
    }
    for (const q of ['id=0', 'id=x', ''])
      expect((await t.get(`/api/index/prepareLessonsInfo?${q}`, admin)).body).toMatchObject({ code: Code.Error, msg: '教案编号无效' });
    for (const q of ['from=2026-13-01', 'class_kind=x', 'mine=maybe', 'limit=500'])
      expect((await t.get(`/api/index/prepareLessonsList?${q}`, admin)).body.code).toBe(Code.Error);
    expect((await t.post('/api/index/delPrepareLessons', admin).send({ id: 1 })).body).toMatchObject({ code: Code.Error, msg: '版本号无效' });
    expect(await written()).toEqual(before);
  });

  it('a non-PDF takes no pages; a video is one slide', async () => {
    const { rows } = await t.sql.query(
      `insert into courseware_files (section_id, kind, video_url, name, sort) select section_id, 'video', 'https://video.example.cn/bei.mp4', '倍的认识（视频）', 9
         from courseware_files where id = $1 returning id`,
      [file.a],
    );
    const video = rows[0].id;
    expect((await save(admin, plan({ items: [{ file_id: video, pages: [1] }] }))).body).toMatchObject({
      code: Code.Error,
      msg: '第 1 项不是 PDF，不能指定页码',
    });
    const res = await save(admin, plan({ title: '视频课', items: [{ file_id: video }, { file_id: file.a, pages: [2] }] }));
    expect(res.body).toMatchObject({ code: Code.Ok, data: { slides: 2 } });
    const p: LessonPlanDetail = (await info(admin, res.body.data.id)).body.data;
    expect(p.items_list[0]).toMatchObject({ kind: 'video', url: 'https://video.example.cn/bei.mp4', expires_at: null, open: true });
  });
});

describe('who may do what', () => {
  it('parents and the operator may not touch plans', async () => {
    const id = (await save(admin, plan({ title: '角色测试' }))).body.data.id;
    const before = await written();
    for (const tk of [parent, operator]) {
      expect((await save(tk, plan())).body).toMatchObject(DENIED);
      expect((await info(tk, id)).body).toMatchObject(DENIED);
      expect((await t.get('/api/index/prepareLessonsList', tk)).body).toMatchObject(DENIED);
      expect((await t.post('/api/index/delPrepareLessons', tk).send({ id, version: 1 })).body).toMatchObject(DENIED);
    }
    expect((await t.post('/api/index/prepareLessons').send(plan())).body.code).toBe(Code.Untoken);
    expect(await written()).toEqual(before);
  });

  it('another school sees none of it: its plans, classes and files are not found', async () => {
    const id = (await save(admin, plan({ title: '本校教案' }))).body.data.id;
    const before = await written();
    expect((await info(other.adminToken, id)).body).toMatchObject({ code: Code.Error, msg: '未找到该教案' });
    expect((await save(other.adminToken, plan({ id, version: 1 }))).body.code).toBe(Code.Error);
    expect((await save(other.adminToken, plan({ id, version: 1, class_id: cls.otherSchool, items: [] }))).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该教案',
    });
    expect((await t.post('/api/index/delPrepareLessons', other.adminToken).send({ id, version: 1 })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该教案',
    });
    expect((await list(other.adminToken)).total).toBe(0);
    // the other school has not bought the courseware: its files are not for its plans
    expect((await save(other.adminToken, plan({ class_id: cls.otherSchool }))).body).toMatchObject({
      code: Code.Error,
      msg: '第 1 项课件文件不存在或机构尚未购买',
    });
    expect(await written()).toEqual(before);
  });

  it('a teacher plans for the classes they teach, reads their own and their classes’ plans, edits only their own', async () => {
    const before = await written();
    expect((await save(teacher, plan({ class_id: cls.plain }))).body).toMatchObject({ code: Code.Error, msg: '未找到该班级，或不是你任教的班级' });
    expect(await written()).toEqual(before);
    const mine = (await save(teacher, plan({ title: '教师自己的教案', class_kind: 'teaching', class_id: cls.teaching }))).body.data;
    expect(mine.version).toBe(1);
    const forDuty = (await save(admin, plan({ title: '管理员为晚托一班备课', class_id: cls.duty }))).body.data;
    const forPlain = (await save(admin, plan({ title: '管理员为晚托三班备课', class_id: cls.plain }))).body.data;

    // the teacher reads their own and the plan of a class they are on duty in, not the other class's
    expect((await info(teacher, mine.id)).body.data).toMatchObject({ editable: true, class_name: '三年级数学提高班' });
    expect((await info(teacher, forDuty.id)).body.data).toMatchObject({ editable: false });
    expect((await info(teacher, forPlain.id)).body).toMatchObject({ code: Code.Error, msg: '未找到该教案' });
    const titles = (await list(teacher)).list.map((p) => p.title);
    expect(titles).toContain('教师自己的教案');
    expect(titles).toContain('管理员为晚托一班备课');
    expect(titles).not.toContain('管理员为晚托三班备课');
    expect((await list(teacher, 'mine=1')).list.map((p) => p.title)).toEqual(['教师自己的教案']);
    // the head teacher of another class sees neither
    expect((await info(adviser, mine.id)).body).toMatchObject({ code: Code.Error, msg: '未找到该教案' });
    expect((await list(adviser)).total).toBe(0);

    const mid = await written();
    expect((await save(teacher, plan({ id: forDuty.id, version: forDuty.version, title: '改别人的' }))).body).toMatchObject({
      code: Code.Error,
      msg: '只能修改自己编写的教案',
    });
    expect((await t.post('/api/index/delPrepareLessons', teacher).send({ id: forDuty.id, version: forDuty.version })).body).toMatchObject({
      code: Code.Error,
      msg: '只能修改自己编写的教案',
    });
    expect(await written()).toEqual(mid);
    // the admin edits the teacher's plan; the teacher then edits on the new version
    expect(
      (await save(admin, plan({ id: mine.id, version: 1, class_kind: 'teaching', class_id: cls.teaching, title: '管理员修订' }))).body.data.version,
    ).toBe(2);
    expect(
      (await save(teacher, plan({ id: mine.id, version: 2, class_kind: 'teaching', class_id: cls.teaching, title: '教师再修订' }))).body.data.version,
    ).toBe(3);
    expect((await list(admin, `class_kind=teaching&class_id=${cls.teaching}`)).list.map((p) => [p.title, p.author_id])).toEqual([
      ['教师再修订', t.demo.users.teacher],
    ]);
  });
});

describe('lists and removal', () => {
  it('the list filters by class, days and keyword, and pages on the server', async () => {
    for (const [d, title] of [
      ['2026-12-01', '十二月第一课'],
      ['2026-12-02', '十二月第二课'],
      ['2026-12-03', '十二月第三课'],
    ]) {
      expect((await save(admin, plan({ title, lesson_date: d, class_id: cls.headed, items: [] }))).body.code).toBe(Code.Ok);
    }
    const page1 = await list(admin, `class_kind=care&class_id=${cls.headed}&limit=2`);
    expect(page1.total).toBe(3);
    expect(page1.list.map((p) => p.title)).toEqual(['十二月第三课', '十二月第二课']);
    expect((await list(admin, `class_kind=care&class_id=${cls.headed}&limit=2&page=2`)).list.map((p) => p.title)).toEqual(['十二月第一课']);
    expect((await list(admin, 'from=2026-12-02&to=2026-12-02')).list.map((p) => p.title)).toEqual(['十二月第二课']);
    expect((await list(admin, `keyword=${encodeURIComponent('第三')}`)).list.map((p) => p.title)).toEqual(['十二月第三课']);
    // the head teacher of 晚托二班 reads them
    expect((await list(adviser)).total).toBe(3);
    expect((await list(admin, 'from=2026-12-01')).list[0]).toMatchObject({ class_name: '晚托二班', items: 0, slides: 0, editable: true });
  });

  it('a class stopped since keeps its plans: they can still be edited, not moved to another stopped class', async () => {
    const closing = await careClass(t.demo.schoolId, '即将结课班', null);
    const saved = (await save(admin, plan({ title: '结课前', class_id: closing, items: [] }))).body.data;
    await t.sql.query(`update care_classes set status = 0 where id = $1`, [closing]);
    expect((await save(admin, plan({ id: saved.id, version: 1, title: '结课后补记', class_id: closing, items: [] }))).body).toMatchObject({
      code: Code.Ok,
      data: { version: 2 },
    });
    expect((await save(admin, plan({ id: saved.id, version: 2, class_id: cls.stopped, items: [] }))).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该班级，或不是你任教的班级',
    });
    expect((await save(admin, plan({ class_id: closing, items: [] }))).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该班级，或不是你任教的班级',
    });
  });

  it('removing a plan keeps its row and history; it is gone from the list and cannot be opened', async () => {
    const saved = (await save(teacher, plan({ title: '将被删除' }))).body.data;
    expect((await t.post('/api/index/delPrepareLessons', teacher).send({ id: saved.id, version: 9 })).body).toMatchObject({
      code: Code.Error,
      msg: '教案已被他人修改，请刷新后重试',
    });
    expect((await t.post('/api/index/delPrepareLessons', teacher).send({ id: saved.id, version: 1 })).body).toMatchObject({
      code: Code.Ok,
      data: { id: saved.id },
    });
    expect((await info(teacher, saved.id)).body).toMatchObject({ code: Code.Error, msg: '未找到该教案' });
    expect((await list(teacher)).list.map((p) => p.title)).not.toContain('将被删除');
    expect((await t.post('/api/index/delPrepareLessons', teacher).send({ id: saved.id, version: 2 })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该教案',
    });
    const { rows } = await t.sql.query(
      `select p.deleted_by, (select array_agg(action order by version) from lesson_plan_revisions r where r.plan_id = p.id) as actions from lesson_plans p where p.id = $1`,
      [saved.id],
    );
    expect(rows[0]).toEqual({ deleted_by: t.demo.users.teacher, actions: ['create', 'delete'] });
  });
});

describe('a refund locks the plan’s files', () => {
  it('after the courseware is refunded its items open locked, its old URLs are refused, and it cannot be saved with them', async () => {
    const saved = (await save(admin, plan({ title: '退款前的教案' }))).body.data;
    const url = (await info(admin, saved.id)).body.data.items_list[0].url;
    expect((await t.get(url)).status).toBe(200);
    await t.app
      .get(RefundsService)
      .refund({ schoolId: t.demo.schoolId, outTradeNo: boughtTradeNo, reason: '测试退款', requestKey: 'lesson-plans', actorId: null });
    const p: LessonPlanDetail = (await info(admin, saved.id)).body.data;
    expect(p.items_list.map((i) => [i.open, i.url])).toEqual([
      [false, null],
      [false, null],
    ]);
    expect((await t.get(url)).status).toBe(403);
    expect((await save(admin, plan({ id: saved.id, version: saved.version }))).body).toMatchObject({
      code: Code.Error,
      msg: '第 1 项课件文件不存在或机构尚未购买',
    });
    // without the locked items it saves
    expect((await save(admin, plan({ id: saved.id, version: saved.version, items: [] }))).body.code).toBe(Code.Ok);
  });
});
