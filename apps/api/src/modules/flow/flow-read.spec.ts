import { Code, Role, type FlowCommand } from '@wantuo/shared';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { FlowService } from './flow.service';
import { rebuildProjection } from './rebuild';

let t: TestApp;
let teacher: string;
let adviser: string;
let admin: string;
let parent: string;
let flow: FlowService;
let kids: Array<{ id: number; name: string; needs_shuttle: boolean; pickups: number[] }>;
let second: number[];
let today: string;
let other: { schoolId: number; adminToken: string };
let outsider: number;
let otherClass: number;

const FORBIDDEN = '当前账号没有权限执行此操作';
const VOID = '/api/index/voidFlowEvent';
const INFO = '/api/index/clockingInInfo';
const LIST = '/api/index/clockingInList';
const COUNT = '/api/index/studentClockingInCount';
/** a Monday and the Saturday of the same week, long past */
const MON = '2025-03-03';
const TUE = '2025-03-04';
const SAT = '2025-03-08';
const SUN = '2025-03-09';

const as = (role: 'adviser' | 'teacher' | 'admin'): SchoolCaller => ({
  id: t.demo.users[role],
  role: role === 'adviser' ? Role.HeadTeacher : role === 'teacher' ? Role.Teacher : Role.Admin,
  schoolId: t.demo.schoolId,
  name: role,
  nickname: role,
  lang: 'zh-CN',
  tokenId: 0,
});

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true });
  [teacher, adviser, admin, parent] = await Promise.all([t.login('teacher'), t.login('adviser'), t.login('admin'), t.login('parent')]);
  flow = t.app.get(FlowService);
  const { rows } = await t.sql.query(
    `select s.id, s.name, s.needs_shuttle, array(select p.id from pickup_people p where p.student_id = s.id order by p.id) as pickups
       from care_class_students ccs join students s on s.id = ccs.student_id where ccs.class_id = $1 order by s.id`,
    [t.demo.classes!.running],
  );
  kids = rows;
  second = (
    await t.sql.query(`select student_id from care_class_students where class_id = $1 order by student_id`, [t.demo.classes!.second])
  ).rows.map((r) => r.student_id);
  today = (await t.sql.query(`select (now() at time zone 'Asia/Shanghai')::date::text as d`)).rows[0].d;
  other = await t.otherSchool();
  outsider = (await t.sql.query(`insert into students (school_id, name) values ($1, '外校学生') returning id`, [other.schoolId])).rows[0].id;
  otherClass = (await t.sql.query(`insert into care_classes (school_id, name, capacity) values ($1, '外校班', 10) returning id`, [other.schoolId]))
    .rows[0].id;
  await t.sql.query(`insert into care_class_students (school_id, class_id, student_id) values ($1, $2, $3)`, [other.schoolId, otherClass, outsider]);
});
afterAll(() => t.close());

async function run(user: SchoolCaller, ids: number[], cmd: FlowCommand, day?: string) {
  const out = await flow.command(user, ids, cmd, { day, system: cmd.type === 'markLeave' || cmd.type === 'cancelLeave' });
  for (const r of out.results) expect({ id: r.student_id, error: r.error }).toEqual({ id: r.student_id, error: undefined });
  return out.results;
}

async function lastEventId(studentId: number, day: string) {
  const { rows } = await t.sql.query(`select event_id from flow_events where student_id = $1 and day = $2 order by version desc limit 1`, [
    studentId,
    day,
  ]);
  return rows[0].event_id as string;
}

describe('voidFlowEvent', () => {
  it("the head teacher takes back a student's latest step with a reason; history keeps both events", async () => {
    const id = kids[0].id;
    await run(as('teacher'), [id], { type: 'enter' });
    await run(as('teacher'), [id], { type: 'dinner' });
    const dinner = await lastEventId(id, today);
    const res = await t.post(VOID, adviser).send({ student_id: id, event_id: dinner, reason: '误点了晚餐' });
    expect(res.body.code).toBe(Code.Ok);
    expect(res.body.data).toMatchObject({ student_id: id, date: today, state: 'in_centre', version: 3 });
    expect(res.body.data.steps.dinner).toBeUndefined();
    expect(res.body.data.steps.entered).toMatchObject({ by: t.demo.users.teacher, by_name: expect.any(String) });
    expect(res.body.data.events.map((e: { type: string; voided: boolean }) => [e.type, e.voided])).toEqual([
      ['student.entered', false],
      ['student.dinner_confirmed', true],
      ['event.voided', false],
    ]);
    expect(res.body.data.events[2]).toMatchObject({
      actor: t.demo.users.adviser,
      payload: { voided_event_id: dinner, voided_type: 'student.dinner_confirmed', reason: '误点了晚餐' },
    });
    const { rows } = await t.sql.query(`select dinner_at, dinner_by, version, state from student_days where student_id = $1 and day = $2`, [
      id,
      today,
    ]);
    expect(rows[0]).toEqual({ dinner_at: null, dinner_by: null, version: 3, state: 'in_centre' });
    // dinner can be confirmed again now
    expect((await flow.command(as('teacher'), [id], { type: 'dinner' })).results[0].ok).toBe(true);
  });

  it('only the latest step can be voided; a past day is named by date', async () => {
    const id = kids[1].id;
    await run(as('teacher'), [id], { type: 'enter' }, MON);
    const entered = await lastEventId(id, MON);
    await run(as('teacher'), [id], { type: 'startTutor' }, MON);
    const before = await snapshot(t.sql);
    const res = await t.post(VOID, adviser).send({ student_id: id, event_id: entered, reason: '补录错误', date: MON });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '只能撤销该学生当天最近的一条记录' });
    const unknown = await t.post(VOID, adviser).send({ student_id: id, event_id: randomUUID(), reason: '补录错误', date: MON });
    expect(unknown.body).toMatchObject({ code: Code.Error, msg: '只能撤销该学生当天最近的一条记录' });
    expect(await snapshot(t.sql)).toEqual(before);
    const tutor = await lastEventId(id, MON);
    const ok = await t.post(VOID, adviser).set('lang', 'en').send({ student_id: id, event_id: tutor, reason: '补录错误', date: MON });
    expect(ok.body.data).toMatchObject({ date: MON, state: 'in_centre', version: 3 });
    // voiding the void is not possible: the latest step is the entry again
    const again = await t.post(VOID, adviser).set('lang', 'en').send({ student_id: id, event_id: tutor, reason: 'again', date: MON });
    expect(again.body).toMatchObject({ code: Code.Error, msg: "Only the student's latest record of the day can be voided" });
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const id = kids[2].id;
    await run(as('teacher'), [id], { type: 'enter' });
    const event_id = await lastEventId(id, today);
    const long = 'x'.repeat(10_000);
    const good = { student_id: id, event_id, reason: '误操作' };
    const inputs: Record<string, unknown>[] = [
      {},
      { student_id: id, event_id },
      { student_id: id, reason: '误操作' },
      { event_id, reason: '误操作' },
      { ...good, student_id: String(id) },
      { ...good, student_id: 0 },
      { ...good, student_id: `${id} or 1=1` },
      { ...good, event_id: 'abc' },
      { ...good, event_id: `${event_id}' or '1'='1` },
      { ...good, event_id: long },
      { ...good, reason: '' },
      { ...good, reason: '   ' },
      { ...good, reason: long },
      { ...good, reason: '<script>alert(1)</script>' },
      { ...good, reason: 7 },
      { ...good, date: '2025-02-30' },
      { ...good, date: 'yesterday' },
      { ...good, date: long },
      { ...good, date: "2025-03-03'; drop table flow_events; --" },
      { ...good, school_id: 1 },
    ];
    for (const input of inputs) {
      const before = await snapshot(t.sql);
      const res = await t.post(VOID, adviser).send(input);
      expect({ input, code: res.body.code }).toEqual({ input, code: Code.Error });
      expect(await snapshot(t.sql)).toEqual(before);
    }
    expect((await t.post(VOID, adviser).send({ ...good, reason: '' })).body.msg).toBe('请填写撤销原因');
  });

  it('a wrong role gets "no permission"', async () => {
    const id = kids[3].id;
    await run(as('teacher'), [id], { type: 'enter' });
    const body = { student_id: id, event_id: await lastEventId(id, today), reason: '误操作' };
    const before = await snapshot(t.sql);
    for (const token of [teacher, admin, parent]) {
      const res = await t.post(VOID, token).send(body);
      expect({ code: res.body.code, msg: res.body.msg }).toEqual({ code: Code.Error, msg: FORBIDDEN });
    }
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it("another school's student, or a student of a class the head teacher has nothing to do with, is not found", async () => {
    const liu = { ...as('adviser'), id: (await t.sql.query(`select id from users where username = 'demo_liu'`)).rows[0].id };
    await run(liu, [second[0]], { type: 'enter' });
    const event_id = await lastEventId(second[0], today);
    const before = await snapshot(t.sql);
    for (const student_id of [second[0], outsider, 999_999]) {
      const res = await t.post(VOID, adviser).send({ student_id, event_id, reason: '误操作' });
      expect({ student_id, body: res.body }).toMatchObject({ student_id, body: { code: Code.Error, msg: '该学生不存在' } });
    }
    expect(await snapshot(t.sql)).toEqual(before);
  });
});

describe('clockingInInfo', () => {
  it('a day without records is expected with an empty timeline', async () => {
    const res = await t.get(`${INFO}?student_id=${kids[4].id}&date=${SUN}`, admin);
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: {
        student_id: kids[4].id,
        student_name: kids[4].name,
        date: SUN,
        class_id: t.demo.classes!.running,
        state: 'expected',
        on_leave: false,
        steps: {},
        left_with: null,
        version: 0,
        events: [],
      },
    });
  });

  it('the admin, the head teacher and the parent of the child read it; events carry position, id, actor and payload', async () => {
    const child = kids.find((k) => k.name.startsWith('陈'))!;
    await run(as('adviser'), [child.id], { type: 'enter', note: '准时到' }, TUE);
    await run(as('adviser'), [child.id], { type: 'leave', picked_up_by: child.pickups[1] }, TUE);
    for (const token of [admin, adviser, parent]) {
      const res = await t.get(`${INFO}?student_id=${child.id}&date=${TUE}`, token);
      expect(res.body.code).toBe(Code.Ok);
      expect(res.body.data).toMatchObject({ state: 'left', version: 2, left_with: { id: child.pickups[1], name: expect.stringMatching(/奶奶$/) } });
      expect(res.body.data.events).toEqual([
        {
          position: expect.any(Number),
          event_id: expect.any(String),
          type: 'student.entered',
          at: expect.any(String),
          actor: t.demo.users.adviser,
          actor_name: expect.any(String),
          payload: { note: '准时到' },
          voided: false,
        },
        {
          position: expect.any(Number),
          event_id: expect.any(String),
          type: 'student.left',
          at: expect.any(String),
          actor: t.demo.users.adviser,
          actor_name: expect.any(String),
          payload: { picked_up_by: child.pickups[1] },
          voided: false,
        },
      ]);
    }
  });

  it("a parent only for own children, a head teacher only for own classes, another school's student never", async () => {
    const notMine = kids.find((k) => !k.name.startsWith('陈'))!;
    const cases: Array<[string, number]> = [
      [parent, notMine.id],
      [adviser, second[0]],
      [admin, outsider],
      [other.adminToken, kids[0].id],
      [admin, 999_999],
    ];
    for (const [token, id] of cases) {
      const res = await t.get(`${INFO}?student_id=${id}&date=${today}`, token);
      expect({ id, body: res.body }).toMatchObject({ id, body: { code: Code.Error, msg: '该学生不存在' } });
    }
  });

  it('bad input answers code 100; a wrong role "no permission"', async () => {
    const id = kids[0].id;
    const queries = [
      '',
      `student_id=${id}`,
      `date=${today}`,
      `student_id=abc&date=${today}`,
      `student_id=0&date=${today}`,
      `student_id=${id}%20or%201%3D1&date=${today}`,
      `student_id=${id}&date=2025-13-01`,
      `student_id=${id}&date=20250301`,
      `student_id=${id}&date=${'9'.repeat(10_000)}`,
      `student_id=${id}&date=${today}'%3Bdrop%20table%20students%3B--`,
      `student_id=${id}&date=${today}&school_id=1`,
    ];
    for (const q of queries) {
      const res = await t.get(`${INFO}?${q}`, admin);
      expect({ q, code: res.body.code }).toEqual({ q, code: Code.Error });
    }
    expect((await t.get(`${INFO}?student_id=${id}&date=2025-02-30`, admin)).body.msg).toContain('YYYY-MM-DD');
    for (const token of [teacher, await t.login('operator')]) {
      const res = await t.get(`${INFO}?student_id=${id}&date=${today}`, token);
      expect({ code: res.body.code, msg: res.body.msg }).toEqual({ code: Code.Error, msg: FORBIDDEN });
    }
  });
});

describe('clockingInList and studentClockingInCount', () => {
  /** the Monday of the week: running class 3 in the centre, 1 left, 1 picked up, 1 on leave, 4 expected */
  beforeAll(async () => {
    const ids = kids.map((k) => k.id);
    await t.sql.query(`delete from student_days where day in ($1, $2, $3)`, [MON, SAT, SUN]);
    await t.sql.query(`delete from flow_events where day in ($1, $2, $3)`, [MON, SAT, SUN]);
    const shuttled = kids.filter((k) => k.needs_shuttle);
    await run(as('teacher'), [shuttled[0].id], { type: 'shuttle' }, MON);
    const walkers = ids.filter((id) => id !== shuttled[0].id);
    await run(as('teacher'), walkers.slice(0, 4), { type: 'enter' }, MON);
    const leaver = kids.find((k) => k.id === walkers[3])!;
    await run(as('teacher'), [leaver.id], { type: 'leave', picked_up_by: leaver.pickups[0] }, MON);
    await run(as('admin'), [walkers[4]], { type: 'markLeave', leave_id: 1 }, MON);
    // a Saturday record (no class meets): the child still shows that day
    await run(as('adviser'), [walkers[0]], { type: 'enter', override: '周六补课' }, SAT);
  });

  it('counts per day and class: days the class meets, plus days with records', async () => {
    const res = await t.get(`${COUNT}?date_from=${MON}&date_to=${SUN}`, admin);
    expect(res.body.code).toBe(Code.Ok);
    const list = res.body.data.list as Array<Record<string, unknown>>;
    const running = t.demo.classes!.running;
    const mon = list.find((r) => r.day === MON && r.class_id === running);
    expect(mon).toEqual({
      id: `${MON}:${running}`,
      day: MON,
      class_id: running,
      class_name: '阳光一班',
      total: 10,
      expected: 4,
      picked_up: 1,
      in_centre: 3,
      left: 1,
      on_leave: 1,
    });
    expect(list.find((r) => r.day === MON && r.class_id === t.demo.classes!.second)).toMatchObject({ total: second.length, expected: second.length });
    expect(list.filter((r) => r.class_id === running).map((r) => r.day)).toEqual([SAT, '2025-03-07', '2025-03-06', '2025-03-05', TUE, MON]);
    expect(list.find((r) => r.day === SAT)).toMatchObject({ total: 1, in_centre: 1 });
    expect(list.some((r) => r.day === SUN)).toBe(false);
    // the head teacher sees only the running class
    const head = await t.get(`${COUNT}?date_from=${MON}&date_to=${MON}`, adviser);
    expect(head.body.data.list).toEqual([mon]);
    const byClass = await t.get(`${COUNT}?date_from=${MON}&date_to=${MON}&class_id=${running}`, admin);
    expect(byClass.body.data.list).toEqual([mon]);
  });

  it("groups by week and month (each row named by its period's first day), as the sum of its days", async () => {
    const running = t.demo.classes!.running;
    const days = (await t.get(`${COUNT}?date_from=${MON}&date_to=${SUN}&class_id=${running}`, admin)).body.data.list as Array<Record<string, number>>;
    const sum = (k: string) => days.reduce((n, r) => n + r[k], 0);
    const week = await t.get(`${COUNT}?date_from=${MON}&date_to=${SUN}&class_id=${running}&group=week`, admin);
    expect(week.body.data.list).toEqual([
      {
        id: `${MON}:${running}`,
        day: MON,
        class_id: running,
        class_name: '阳光一班',
        total: sum('total'),
        expected: sum('expected'),
        picked_up: sum('picked_up'),
        in_centre: sum('in_centre'),
        left: sum('left'),
        on_leave: sum('on_leave'),
      },
    ]);
    // a month: 2025-03-01 is a Saturday; the week of the 3rd reaches into it
    const month = await t.get(`${COUNT}?date_from=2025-02-20&date_to=2025-03-09&class_id=${running}&group=month`, adviser);
    expect((month.body.data.list as Array<{ day: string }>).map((r) => r.day)).toEqual(['2025-03-01', '2025-02-01']);
    expect(month.body.data.list[0]).toMatchObject({ in_centre: sum('in_centre'), left: sum('left'), on_leave: sum('on_leave') });
    // a long range is fine by month, not by day
    expect((await t.get(`${COUNT}?date_from=2024-12-01&date_to=2025-11-30&group=month`, admin)).body.code).toBe(Code.Ok);
    const tooLong = await t.get(`${COUNT}?date_from=2024-12-01&date_to=2025-11-30&group=day`, admin);
    expect(tooLong.body).toMatchObject({ code: Code.Error, msg: expect.stringContaining('按日最多查询 62 天') });
    expect((await t.get(`${COUNT}?date_from=${MON}&date_to=${SUN}&group=year`, admin)).body).toMatchObject({
      code: Code.Error,
      msg: expect.stringContaining('按日、按周或按月'),
    });
  });

  it('exports the same numbers as .xlsx with a total row; the head teacher only their class; teachers and parents refused', async () => {
    const running = t.demo.classes!.running;
    const res = await t
      .get(`/api/index/studentClockingInExport?date_from=${MON}&date_to=${SUN}&group=week`, adviser)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const { Workbook } = await import('exceljs');
    const wb = new Workbook();
    await wb.xlsx.load(res.body as ArrayBuffer);
    const rows = wb.worksheets[0]
      .getSheetValues()
      .filter(Boolean)
      .map((r) => (r as unknown[]).slice(1));
    const week = (await t.get(`${COUNT}?date_from=${MON}&date_to=${SUN}&group=week&class_id=${running}`, adviser)).body.data.list[0];
    expect(rows[0]).toEqual(['周（周一）', '班级', '应到人次', '已离园', '在园', '已接到', '未到', '请假']);
    expect(rows[1]).toEqual([MON, '阳光一班', week.total, week.left, week.in_centre, week.picked_up, week.expected, week.on_leave]);
    expect(rows[rows.length - 1][0]).toBe('合计');
    expect(rows).toHaveLength(3);
    for (const token of [teacher, parent]) {
      expect((await t.get(`/api/index/studentClockingInExport?date_from=${MON}&date_to=${SUN}`, token)).body).toMatchObject({
        code: Code.Error,
        msg: FORBIDDEN,
      });
    }
    expect((await t.get(`/api/index/studentClockingInExport?date_from=${MON}&date_to=${SUN}&class_id=${otherClass}`, admin)).body.code).toBe(
      Code.Error,
    );
    expect((await t.get(`/api/index/studentClockingInExport?date_from=${SUN}&date_to=${MON}`, admin)).body.code).toBe(Code.Error);
  });

  it('lists student-days, filtered by class and board state, paged', async () => {
    const running = t.demo.classes!.running;
    const all = await t.get(`${LIST}?date_from=${MON}&date_to=${MON}&class_id=${running}&limit=100`, adviser);
    expect(all.body.data).toMatchObject({ total: 10, page: 1, limit: 100 });
    const states = (all.body.data.list as Array<{ state: string }>).map((r) => r.state).sort();
    expect(states).toEqual(['expected', 'expected', 'expected', 'expected', 'in_centre', 'in_centre', 'in_centre', 'left', 'on_leave', 'picked_up']);
    const inCentre = await t.get(`${LIST}?date_from=${MON}&date_to=${MON}&state=in_centre`, adviser);
    expect(inCentre.body.data.total).toBe(3);
    expect(inCentre.body.data.list[0]).toEqual({
      id: expect.stringMatching(new RegExp(`^${MON}:\\d+$`)),
      day: MON,
      student_id: expect.any(Number),
      student_name: expect.any(String),
      class_id: running,
      class_name: '阳光一班',
      state: 'in_centre',
      on_leave: false,
      picked_up_at: null,
      entered_at: expect.any(String),
      dinner_at: null,
      tutor_started_at: null,
      tutor_ended_at: null,
      left_at: null,
      left_with_name: null,
      pickup_verified: null,
      pickup_override: null,
      version: 1,
    });
    const left = await t.get(`${LIST}?date_from=${MON}&date_to=${MON}&state=left`, admin);
    expect(left.body.data.list[0]).toMatchObject({ state: 'left', left_with_name: expect.any(String), version: 2 });
    const page2 = await t.get(`${LIST}?date_from=${MON}&date_to=${MON}&class_id=${running}&limit=4&page=3`, adviser);
    expect(page2.body.data).toMatchObject({ total: 10, page: 3, limit: 4 });
    expect(page2.body.data.list).toHaveLength(2);
    const past = await t.get(`${LIST}?date_from=${MON}&date_to=${MON}&page=100`, admin);
    expect(past.body.data).toMatchObject({ list: [], total: 10 + second.length });
    const week = await t.get(`${LIST}?date_from=${MON}&date_to=${SUN}&limit=1`, admin);
    expect(week.body.data.total).toBe(5 * (10 + second.length) + 1);
    expect(week.body.data.list[0].day).toBe(SAT);
  });

  it("departures carry the verified pick-up person or the head teacher's manual reason (clockingInList and flowBoard); a voided one none", async () => {
    const WED = '2025-03-12';
    const [verified, manual, plain] = kids.slice(0, 3);
    await t.sql.query(`delete from student_days where day = $1`, [WED]);
    await t.sql.query(`delete from flow_events where day = $1`, [WED]);
    await run(as('teacher'), [verified.id, manual.id, plain.id], { type: 'enter' }, WED);
    const pv = { person: 'g1', name: '王芳', relation: '妈妈', code_id: randomUUID(), offline: true };
    await run(as('teacher'), [verified.id], { type: 'leave', picked_up_by: null, pickup_verified: pv }, WED);
    await run(as('adviser'), [manual.id], { type: 'leave', picked_up_by: null, override: '舅舅接，已电话确认' }, WED);
    await run(as('teacher'), [plain.id], { type: 'leave', picked_up_by: plain.pickups[0] }, WED);
    const list = (await t.get(`${LIST}?date_from=${WED}&date_to=${WED}&state=left&limit=100`, adviser)).body.data.list as Array<
      Record<string, unknown>
    >;
    const row = (id: number) => list.find((r) => r.student_id === id);
    expect(row(verified.id)).toMatchObject({ pickup_verified: { name: '王芳', relation: '妈妈', offline: true }, pickup_override: null });
    expect(row(manual.id)).toMatchObject({ pickup_verified: null, pickup_override: '舅舅接，已电话确认' });
    expect(row(plain.id)).toMatchObject({ pickup_verified: null, pickup_override: null, left_with_name: expect.any(String) });
    const board = (await t.get(`/api/index/flowBoard?date=${WED}`, adviser)).body.data.students as Array<Record<string, unknown>>;
    const chip = (id: number) => board.find((r) => r.id === id);
    expect(chip(verified.id)).toMatchObject({
      state: 'left',
      pickup_verified: { name: '王芳', relation: '妈妈', offline: true },
      pickup_override: null,
    });
    expect(chip(manual.id)).toMatchObject({ pickup_verified: null, pickup_override: '舅舅接，已电话确认' });
    expect(chip(kids[3].id)).toMatchObject({ state: 'expected', pickup_verified: null, pickup_override: null });
    // the departure taken back: the child is in the centre again and no pick-up shows
    const left = await lastEventId(verified.id, WED);
    expect((await t.post(VOID, adviser).send({ student_id: verified.id, event_id: left, reason: '点错了', date: WED })).body.code).toBe(Code.Ok);
    const after = (await t.get(`${LIST}?date_from=${WED}&date_to=${WED}&limit=100`, adviser)).body.data.list as Array<Record<string, unknown>>;
    expect(after.find((r) => r.student_id === verified.id)).toMatchObject({ state: 'in_centre', pickup_verified: null, pickup_override: null });
  });

  it('bad input answers code 100', async () => {
    const queries = [
      '',
      `date_from=${MON}`,
      `date_to=${MON}`,
      `date_from=${TUE}&date_to=${MON}`,
      `date_from=2025-01-01&date_to=2025-02-01`,
      `date_from=2025-02-29&date_to=2025-03-01`,
      `date_from=${MON}&date_to=${MON}&class_id=abc`,
      `date_from=${MON}&date_to=${MON}&class_id=-1`,
      `date_from=${MON}&date_to=${MON}&class_id=1%20or%201%3D1`,
      `date_from=${MON}'%3Bdrop%20table%20student_days%3B--&date_to=${MON}`,
      `date_from=${'2'.repeat(10_000)}&date_to=${MON}`,
      `date_from=${MON}&date_to=${MON}&school_id=1`,
    ];
    for (const url of [LIST, COUNT]) {
      for (const q of queries) {
        const res = await t.get(`${url}?${q}`, admin);
        expect({ url, q, code: res.body.code }).toEqual({ url, q, code: Code.Error });
      }
    }
    for (const q of ['state=gone', 'state=%3Cscript%3E', 'limit=1000', 'page=0']) {
      const res = await t.get(`${LIST}?date_from=${MON}&date_to=${MON}&${q}`, admin);
      expect({ q, code: res.body.code }).toEqual({ q, code: Code.Error });
    }
    const range = await t.get(`${COUNT}?date_from=2025-01-01&date_to=2025-02-01`, admin);
    expect(range.body.msg).toBe('结束日期不能早于开始日期，且最多查询 31 天');
  });

  it('a wrong role gets "no permission"', async () => {
    for (const url of [LIST, COUNT]) {
      for (const token of [teacher, parent]) {
        const res = await t.get(`${url}?date_from=${MON}&date_to=${MON}`, token);
        expect({ url, code: res.body.code, msg: res.body.msg }).toEqual({ url, code: Code.Error, msg: FORBIDDEN });
      }
    }
  });

  it("another school's class, or a class the head teacher has nothing to do with, is not found; another school sees none of ours", async () => {
    for (const url of [LIST, COUNT]) {
      for (const [token, classId] of [
        [admin, otherClass],
        [adviser, t.demo.classes!.second],
        [admin, 999_999],
      ] as const) {
        const res = await t.get(`${url}?date_from=${MON}&date_to=${MON}&class_id=${classId}`, token);
        expect({ url, classId, body: res.body }).toMatchObject({ url, classId, body: { code: Code.Error, msg: '该晚托班不存在' } });
      }
      const theirs = await t.get(`${url}?date_from=${MON}&date_to=${MON}`, other.adminToken);
      expect(theirs.body.code).toBe(Code.Ok);
      const ids = (theirs.body.data.list as Array<{ class_id: number }>).map((r) => r.class_id);
      expect(ids.every((c) => c === otherClass)).toBe(true);
    }
  });
});

describe('rebuildProjection', () => {
  const rows = async () => (await t.sql.query(`select *, day::text as day from student_days order by student_id, 3`)).rows;

  it('rebuilding from flow_events gives exactly the live projection', async () => {
    // a realistic mix over two days: steps, refusals, a leave day with an override, voids, unauthorised pick-up with override
    const [a, b, c, d, e] = kids;
    const T = as('teacher');
    const H = as('adviser');
    for (const day of ['2025-04-07', '2025-04-08']) {
      await flow.command(
        T,
        [a.id, c.id].filter((_, i) => i === 0 || a.needs_shuttle),
        { type: 'shuttle' },
        { day },
      );
      await flow.command(
        T,
        kids.map((k) => k.id),
        { type: 'enter' },
        { day },
      );
      await flow.command(H, [a.id, b.id, c.id], { type: 'dinner' }, { day });
      await flow.command(T, [a.id, b.id], { type: 'startTutor' }, { day });
      await flow.command(H, [b.id], { type: 'void', event_id: await lastEventId(b.id, day), reason: '点错了' }, { day });
      await flow.command(T, [a.id], { type: 'endTutor' }, { day });
      await flow.command(T, [a.id], { type: 'leave', picked_up_by: a.pickups[0] }, { day });
      await flow.command(H, [a.id], { type: 'void', event_id: await lastEventId(a.id, day), reason: '家长还没到' }, { day });
      await flow.command(H, [c.id], { type: 'leave', picked_up_by: null, override: '舅舅接，已电话确认' }, { day });
      await flow.command(as('admin'), [d.id], { type: 'markLeave', leave_id: 9 }, { day, system: true });
      await flow.command(H, [e.id], { type: 'markLeave', leave_id: 10 }, { day, system: true });
      await flow.command(H, [e.id], { type: 'cancelLeave', leave_id: 10 }, { day, system: true });
    }
    await flow.command(as('admin'), [kids[6].id], { type: 'markLeave', leave_id: 11 }, { day: '2025-04-09', system: true });
    await flow.command(H, [kids[6].id], { type: 'enter', override: '临时来了' }, { day: '2025-04-09' });

    const live = await rows();
    const { rows: counts } = await t.sql.query(`select count(*)::int as n from flow_events`);
    expect(live.length).toBeGreaterThan(20);
    expect(live.some((r) => r.on_leave)).toBe(true);
    const ds = t.app.get(DataSource);
    const done = await rebuildProjection(ds);
    expect(done).toEqual({ events: counts[0].n, days: live.length });
    expect(await rows()).toEqual(live);

    // from nothing, and for one school only
    await t.sql.query(`delete from student_days`);
    await rebuildProjection(ds, { schoolId: other.schoolId });
    expect(await rows()).toEqual([]);
    await rebuildProjection(ds, { schoolId: t.demo.schoolId });
    expect(await rows()).toEqual(live);
  });

  it('a projection row that drifted is put right', async () => {
    const before = await rows();
    await t.sql.query(`update student_days set state = 'left', version = 99 where student_id = $1`, [kids[1].id]);
    await rebuildProjection(t.app.get(DataSource), { schoolId: t.demo.schoolId });
    expect(await rows()).toEqual(before);
  });
});
