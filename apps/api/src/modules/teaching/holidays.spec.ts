import { addDays, Code, holidayYears, mondayOf, NATIONAL_HOLIDAYS, type HolidayImportPreview, type HolidayYear } from '@wantuo/shared';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

/**
 * 导入法定节假日 (issue 27, item 3). The real notices' days are behind today by now, so the app is started with
 * NATIONAL_HOLIDAYS_FILE pointing at a file that gives the year of two weeks ahead (the built-in year's festivals when
 * the table has it, as a school would copy them) one more festival ahead of today: two closed weekdays and a make-up
 * Saturday that the sessions and dinner bookings fall on. The file also adds a year the table does not hold (FAR).
 */

let t: TestApp;
let admin: string;
let teacher: string;
let parent: string;
let other: { schoolId: number; adminToken: string };
let today: string;
/** the test festival: Monday and Tuesday closed, the Saturday after works as Tuesday */
let mon: string;
let tue: string;
let wed: string;
let sat: string;
let year: number;
let dir: string;
const FAR = 2090;
const ids = {
  goods: 0,
  prevTue: 0,
  planned: 0,
  open: 0,
  held: 0,
  otherSession: 0,
  booked: 0,
  unpaid: 0,
  kept: 0,
  contract: 0,
  classId: 0,
  student: 0,
};

const YEARS = '/api/index/holidayYears';
const PREVIEW = '/api/index/holidayImportPreview';
const IMPORT = '/api/index/importHolidays';
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };

/** The school's today as the API's clock has it: the calendar day in Asia/Shanghai. */
function shanghaiToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
}

beforeAll(async () => {
  // the file is written before the app starts: the API reads it at start
  mon = addDays(mondayOf(shanghaiToday()), 14);
  [tue, wed, sat] = [addDays(mon, 1), addDays(mon, 2), addDays(mon, 5)];
  year = Number(mon.slice(0, 4));
  const base: HolidayYear = NATIONAL_HOLIDAYS[year] ?? { year, notice: '测试通知〔测试〕1号', issued: shanghaiToday(), festivals: [] };
  const file: HolidayYear[] = [
    { ...base, festivals: [...base.festivals, { name: '测试节', from: mon, to: tue, makeup: [{ day: sat, works_as: 2 }] }] },
    {
      year: FAR,
      notice: '测试通知〔远期〕1号',
      issued: '2089-11-01',
      festivals: [{ name: '元旦', from: '2090-01-01', to: '2090-01-01', makeup: [] }],
    },
  ];
  dir = mkdtempSync(join(tmpdir(), 'wantuo-holidays-'));
  writeFileSync(join(dir, 'holidays.json'), JSON.stringify(file));
  t = await startTestApp({ runJobs: false, redis: false, demoPeople: true, env: { NATIONAL_HOLIDAYS_FILE: join(dir, 'holidays.json') } });
  [admin, teacher, parent] = await Promise.all([t.login('admin'), t.login('teacher'), t.login('parent')]);
  other = await t.otherSchool();
  today = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as d`)).rows[0].d;

  const school = t.demo.schoolId;
  const teacherId = t.demo.users.teacher;
  const c = await t
    .post('/api/index/addTeachingClass', admin)
    .send({ name: '假日班', subject: '数学', teacher_id: teacherId, capacity: 10, sessions_count: 40, fee_fen: 0 });
  expect(c.body).toMatchObject({ code: Code.Ok });
  ids.classId = c.body.data.id;
  const session = async (schoolId: number, classId: number, day: string, state: string, teacherOf: number) =>
    (
      await t.sql.query(
        `insert into class_sessions (school_id, kind, class_id, day, start_min, end_min, teacher_id, state) values ($1, 'teaching', $2, $3, 960, 1020, $4, $5) returning id`,
        [schoolId, classId, day, teacherOf, state],
      )
    ).rows[0].id as number;
  ids.planned = await session(school, ids.classId, mon, 'planned', teacherId);
  ids.held = await session(school, ids.classId, tue, 'held', teacherId);
  ids.open = await session(school, ids.classId, wed, 'planned', teacherId);
  ids.prevTue = await session(school, ids.classId, addDays(tue, -7), 'planned', teacherId);
  // another school's session on the closed Monday
  const ou = (await t.sql.query(`select id from users where school_id = $1 order by id limit 1`, [other.schoolId])).rows[0].id;
  const oc = (
    await t.sql.query(
      `insert into teaching_classes (school_id, name, subject, teacher_id, capacity, sessions_count) values ($1, '别校班', '语文', $2, 5, 5) returning id`,
      [other.schoolId, ou],
    )
  ).rows[0].id;
  ids.otherSession = await session(other.schoolId, oc, mon, 'planned', ou);

  ids.student = (
    await t.sql.query(`select student_id from care_class_students where class_id = $1 order by student_id limit 1`, [t.demo.classes!.running])
  ).rows[0].student_id;
  const goods = (ids.goods = (
    await t.sql.query(`insert into meal_goods (school_id, name, price_fen) values ($1, '假日套餐', 1500) returning id`, [school])
  ).rows[0].id);
  const booking = async (day: string, status: string, payFrom: string | null) =>
    (
      await t.sql.query(
        `insert into meal_bookings (school_id, student_id, day, goods_id, price_fen, status, pay_from) values ($1, $2, $3, $4, 1500, $5, $6) returning id`,
        [school, ids.student, day, goods, status, payFrom],
      )
    ).rows[0].id as number;
  ids.booked = await booking(mon, 'booked', 'school');
  ids.unpaid = await booking(tue, 'unpaid', null);
  ids.kept = await booking(wed, 'booked', 'school');

  const pkg = (
    await t.sql.query(
      `insert into contract_packages (school_id, name, kind, length, valid_months, price_fen) values ($1, '二十天卡（假日）', 'days', 20, 6, 160000) returning id`,
      [school],
    )
  ).rows[0].id;
  ids.contract = (
    await t.sql.query(
      `insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, units_total, units_used, list_price_fen, price_fen, status)
       values ($1, 'HOL1', $2, $3, 'days', $4::date - 30, $4::date + 60, 20, 0, 160000, 160000, 'active') returning id`,
      [school, ids.student, pkg, today],
    )
  ).rows[0].id;

  // the school's own day: it runs 2026-10-10 as a Friday, not as the notice's Wednesday
  const own = await t.post('/api/index/setSchoolCalendarDay', admin).send({ day: '2026-10-10', kind: 'makeup', works_as: 5, note: '本校安排' });
  expect(own.body.code).toBe(Code.Ok);
});

afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const sessionState = async (id: number) => (await t.sql.query(`select state, cancel_reason from class_sessions where id = $1`, [id])).rows[0];
const bookingRow = async (id: number) =>
  (await t.sql.query(`select status, cancel_cause, cancelled_by from meal_bookings where id = $1`, [id])).rows[0];
const calendar = async (schoolId: number) =>
  (
    await t.sql.query(`select to_char(day, 'YYYY-MM-DD') as day, kind, works_as from school_calendar_days where school_id = $1 order by day`, [
      schoolId,
    ])
  ).rows;

it('holidayYears lists the built-in years and the file’s, each with its notice and where it came from', async () => {
  const res = await t.get(YEARS, admin);
  expect(res.body.code).toBe(Code.Ok);
  const want = [...new Set([...holidayYears(), year, FAR])].sort((a, b) => a - b);
  expect(res.body.data.list.map((y: { year: number }) => y.year)).toEqual(want);
  for (const y of res.body.data.list as Array<{ year: number; notice: string; issued: string; from_file: boolean }>) {
    expect(y.from_file).toBe(y.year === year || y.year === FAR);
    if (!y.from_file) expect(y).toMatchObject({ notice: NATIONAL_HOLIDAYS[y.year].notice, issued: NATIONAL_HOLIDAYS[y.year].issued });
  }
  expect(res.body.data.list.find((y: { year: number }) => y.year === FAR)).toEqual({
    year: FAR,
    notice: '测试通知〔远期〕1号',
    issued: '2089-11-01',
    from_file: true,
  });
  // the built-in table itself is untouched: the file's years live in the API's config
  expect(NATIONAL_HOLIDAYS[FAR]).toBeUndefined();
  expect(NATIONAL_HOLIDAYS[year]?.festivals.some((f) => f.name === '测试节') ?? false).toBe(false);
});

it('a year only the file holds previews as any other', async () => {
  const res = await t.get(PREVIEW, admin).query({ year: FAR });
  expect(res.body.code).toBe(Code.Ok);
  expect(res.body.data).toMatchObject({
    year: FAR,
    notice: '测试通知〔远期〕1号',
    set: [{ day: '2090-01-01', kind: 'holiday', works_as: null, note: '元旦' }],
  });
});

it('refuses another role', async () => {
  expect((await t.get(YEARS, teacher)).body).toMatchObject(DENIED);
  expect((await t.get(YEARS, parent)).body).toMatchObject(DENIED);
  expect((await t.get(PREVIEW, teacher).query({ year })).body).toMatchObject(DENIED);
  expect((await t.post(IMPORT, parent).send({ year, fingerprint: '0123456789abcdef' })).body).toMatchObject(DENIED);
});

it.each([
  ['a year without a table', { year: 1999, fingerprint: '0123456789abcdef' }],
  ['a year that is not a number', { year: 'abc', fingerprint: '0123456789abcdef' }],
  ['no fingerprint', { year: 2026 }],
  ['a fingerprint that is not one', { year: 2026, fingerprint: 'x' }],
  ['an unknown field', { year: 2026, fingerprint: '0123456789abcdef', force: true }],
])('bad input (%s): code 100, nothing written', async (_what, body) => {
  const before = await snapshot(t.sql);
  const res = await t.post(IMPORT, admin).send(body);
  expect(res.body.code).toBe(Code.Error);
  expect(await snapshot(t.sql)).toEqual(before);
});

it('a preview or an import of a year without a table is code 100, nothing written', async () => {
  const before = await snapshot(t.sql);
  expect((await t.get(PREVIEW, admin).query({ year: 2099 })).body).toMatchObject({ code: Code.Error, msg: '没有该年份的法定节假日安排' });
  expect((await t.post(IMPORT, admin).send({ year: 2098, fingerprint: '0123456789abcdef' })).body).toMatchObject({
    code: Code.Error,
    msg: '没有该年份的法定节假日安排',
  });
  expect((await t.get(YEARS, admin).query({ year: 2026 })).body.code).toBe(Code.Error); // holidayYears takes no parameter
  expect(await snapshot(t.sql)).toEqual(before);
});

it('previews, then imports exactly what it showed; the school’s own day wins; a second import changes nothing', async () => {
  const before = await snapshot(t.sql);
  const p = await t.get(PREVIEW, admin).query({ year });
  expect(p.body.code).toBe(Code.Ok);
  const preview = p.body.data as HolidayImportPreview;
  expect(await snapshot(t.sql)).toEqual(before); // a preview writes nothing

  expect(preview).toMatchObject({ year, today });
  expect(preview.set).toEqual(
    expect.arrayContaining([
      { day: mon, kind: 'holiday', works_as: null, note: '测试节' },
      { day: tue, kind: 'holiday', works_as: null, note: '测试节' },
      { day: sat, kind: 'makeup', works_as: 2, note: '测试节调休' },
    ]),
  );
  if (year === 2026) {
    expect(preview.notice).toBe('国办发明电〔2025〕7号');
    expect(preview.skipped).toEqual([{ day: '2026-10-10', kind: 'makeup', works_as: 3, note: '国庆节调休', own: { kind: 'makeup', works_as: 5 } }]);
    expect(preview.set.map((d) => d.day)).not.toContain('2026-10-10');
  }
  // only the planned session of a closed day of this school; the held one and Wednesday's stay
  expect(preview.sessions).toEqual([
    {
      id: ids.planned,
      kind: 'teaching',
      class_id: ids.classId,
      class_name: '假日班',
      day: mon,
      start_time: '16:00',
      end_time: '17:00',
      teacher_name: expect.any(String),
    },
  ]);
  expect(preview.bookings.count).toBe(2);
  expect(preview.bookings.list.map((b) => [b.id, b.day, b.status, b.student_id])).toEqual([
    [ids.booked, mon, 'booked', ids.student],
    [ids.unpaid, tue, 'unpaid', ids.student],
  ]);
  const made = preview.makeup.find((m) => m.day === sat)!;
  expect(made).toMatchObject({ works_as: 2 });
  // the class meets on Tuesdays (the week before; this week's Tuesday closes): the Saturday runs its Tuesday timetable
  expect(made.classes).toEqual([{ kind: 'teaching', class_id: ids.classId, class_name: '假日班' }]);
  expect(made.care_students).toBeGreaterThan(0);
  // and the import gives the Saturday the Tuesday's session (the nearest Tuesday that is not closed: the week before)
  expect(preview.makeup_sessions).toEqual([
    {
      kind: 'teaching',
      class_id: ids.classId,
      class_name: '假日班',
      day: sat,
      works_as: 2,
      from_day: addDays(tue, -7),
      start_time: '16:00',
      end_time: '17:00',
      teacher_name: expect.any(String),
    },
  ]);
  // the day contracts whose period holds the closed days (the demo's own too); no other kind, no other school
  expect(preview.contracts).toEqual(
    expect.arrayContaining([expect.objectContaining({ id: ids.contract, no: 'HOL1', student_id: ids.student, closed_days: 2 })]),
  );
  const kinds = await t.sql.query(`select distinct kind, school_id from contracts where id = any($1::int[])`, [preview.contracts.map((k) => k.id)]);
  expect(kinds.rows).toEqual([{ kind: 'days', school_id: t.demo.schoolId }]);

  // the plan changed since the preview: refused, nothing written
  const stale = await t.post(IMPORT, admin).send({ year, fingerprint: '0123456789abcdef' });
  expect(stale.body).toMatchObject({ code: Code.Error, msg: '校历或课次在预览后有变动，请重新预览后再导入' });
  expect(await snapshot(t.sql)).toEqual(before);

  const otherBefore = await calendar(other.schoolId);
  const res = await t.post(IMPORT, admin).send({ year, fingerprint: preview.fingerprint });
  expect(res.body.code).toBe(Code.Ok);
  expect(res.body.data).toEqual({
    year,
    set: preview.set.length,
    same: preview.same.length,
    skipped: preview.skipped.length,
    sessions_cancelled: 1,
    sessions_created: 1,
    bookings_cancelled: 2,
  });
  const cal = await calendar(t.demo.schoolId);
  expect(cal).toEqual(
    expect.arrayContaining([
      { day: mon, kind: 'holiday', works_as: null },
      { day: sat, kind: 'makeup', works_as: 2 },
    ]),
  );
  expect(cal.find((d: { day: string }) => d.day === '2026-10-10')).toEqual({ day: '2026-10-10', kind: 'makeup', works_as: 5 });
  expect(await sessionState(ids.planned)).toEqual({ state: 'cancelled', cancel_reason: expect.stringContaining('法定节假日') });
  expect((await sessionState(ids.held)).state).toBe('held');
  expect((await sessionState(ids.open)).state).toBe('planned');
  expect((await sessionState(ids.prevTue)).state).toBe('planned');
  const onSaturday = async () =>
    (
      await t.sql.query(
        `select kind, class_id, start_min, end_min, teacher_id, room_id, state, created_by from class_sessions where school_id = $1 and day = $2`,
        [t.demo.schoolId, sat],
      )
    ).rows;
  expect(await onSaturday()).toEqual([
    {
      kind: 'teaching',
      class_id: ids.classId,
      start_min: 960,
      end_min: 1020,
      teacher_id: t.demo.users.teacher,
      room_id: null,
      state: 'planned',
      created_by: t.demo.users.admin,
    },
  ]);
  expect(await bookingRow(ids.booked)).toEqual({ status: 'cancelled', cancel_cause: 'user', cancelled_by: t.demo.users.admin });
  expect((await bookingRow(ids.unpaid)).status).toBe('cancelled');
  expect((await bookingRow(ids.kept)).status).toBe('booked');
  // another school: untouched
  expect((await sessionState(ids.otherSession)).state).toBe('planned');
  expect(await calendar(other.schoolId)).toEqual(otherBefore);
  // a guardian's new booking follows the calendar now: the Monday is a holiday
  const child = (await t.sql.query(`select student_id from student_guardians where user_id = $1 order by student_id limit 1`, [t.demo.users.parent]))
    .rows[0].student_id;
  const book = await t
    .post('/api/index/bookDinner', parent)
    .send({ student_id: child, goods_id: ids.goods, day: mon, request_id: '4b8f3f7e-51b7-4f3b-9a53-0d3c0a3a3a3b' });
  expect(book.body).toMatchObject({ code: Code.Error, msg: '当天学校放假，不能订餐' });

  // again: nothing to set, nothing changes
  const after = await snapshot(t.sql);
  const again = await t.post(IMPORT, admin).send({ year, fingerprint: preview.fingerprint });
  expect(again.body.data).toMatchObject({
    set: 0,
    sessions_cancelled: 0,
    sessions_created: 0,
    bookings_cancelled: 0,
    same: preview.set.length + preview.same.length,
  });
  expect(await snapshot(t.sql)).toEqual(after);
  // a new preview has nothing left to create: the Saturday is set and has its session
  expect((await t.get(PREVIEW, admin).query({ year })).body.data).toMatchObject({ set: [], makeup: [], makeup_sessions: [] });
});

it('after the import the flow expects nobody on the closed days and the running class on the make-up Saturday', async () => {
  const res = await t.get('/api/index/studentClockingInCount', admin).query({ date_from: mon, date_to: sat });
  expect(res.body.code).toBe(Code.Ok);
  const rows = (res.body.data.list as Array<{ day: string; class_id: number; total: number; expected: number }>).filter(
    (r) => r.class_id === t.demo.classes!.running,
  );
  const weekdays: number[] = (
    await t.sql.query(`select ct.weekdays::int[] as w from care_classes c join class_times ct on ct.id = c.class_time_id where c.id = $1`, [
      t.demo.classes!.running,
    ])
  ).rows[0].w;
  expect(rows.filter((r) => r.day === mon || r.day === tue)).toEqual([]);
  if (weekdays.includes(2)) expect(rows.find((r) => r.day === sat)?.expected).toBeGreaterThan(0);
  if (weekdays.includes(3)) expect(rows.find((r) => r.day === wed)?.expected).toBeGreaterThan(0);
});
