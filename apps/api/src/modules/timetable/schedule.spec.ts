import { addDays, Code, mondayOf, type ClassScheduleAnswer, type SchoolTeachingScheduleAnswer, type TeacherScheduleAnswer } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let admin: string;
let teacher: string;
let adviser: string;
let parent: string;
let other: { schoolId: number; adminToken: string };
/** a Monday four weeks ahead: a holiday on its Wednesday, its Saturday a make-up day running as Monday */
let week: string;
let roomId: number;
/** the demo teacher's class in the room (Monday and Wednesday 10:00-11:00), another teacher's class without a room */
let mathId: number;
let artId: number;
/** the demo's care classes: the adviser heads the running one (16:00-19:30 weekdays; the teacher is on duty there) */
let running: number;
let second: number;
let otherCare: number;
let otherSession: number;

const api = (action: string) => `/api/index/${action}`;
const CLASS = api('classSchedule');
const SCHOOL = api('schoolTeachingSchedule');
const TEACHER = api('teacherSchedule');
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, redis: false, demoPeople: true });
  [admin, teacher, adviser, parent] = await Promise.all([t.login('admin'), t.login('teacher'), t.login('adviser'), t.login('parent')]);
  other = await t.otherSchool();
  running = t.demo.classes!.running;
  second = t.demo.classes!.second;
  const today = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as d`)).rows[0].d;
  week = addDays(mondayOf(today), 28);
  const ok = async (res: { body: { code: number; data: unknown } }) => {
    expect(res.body).toMatchObject({ code: Code.Ok });
    return res.body.data as { id: number };
  };
  await ok(await t.post(api('setSchoolCalendarDay'), admin).send({ day: addDays(week, 2), kind: 'holiday', note: '校庆' }));
  await ok(await t.post(api('setSchoolCalendarDay'), admin).send({ day: addDays(week, 5), kind: 'makeup', works_as: 1, note: '调休' }));
  roomId = (await ok(await t.post(api('addRoom'), admin).send({ name: '201 教室' }))).id;
  await ok(await t.post(api('addRoom'), admin).send({ name: '空教室' }));
  const base = { subject: '数学', capacity: 10, sessions_count: 40, fee_fen: 0 };
  mathId = (
    await ok(await t.post(api('addTeachingClass'), admin).send({ ...base, name: '奥数班', teacher_id: t.demo.users.teacher, room_id: roomId }))
  ).id;
  const {
    rows: [art],
  } = await t.sql.query(
    `insert into users (school_id, role, username, name, nickname, mobile, password_hash) select school_id, 2, 'tt_art', '美术老师', '美术老师', null, password_hash from users where id = $1 returning id`,
    [t.demo.users.teacher],
  );
  artId = (await ok(await t.post(api('addTeachingClass'), admin).send({ ...base, subject: '美术', name: '美术班', teacher_id: art.id }))).id;
  const generate = (classId: number, pattern: unknown[]) =>
    t.post(api('teachingClassCourseScheduling'), admin).send({ class_id: classId, from: week, to: addDays(week, 6), pattern });
  await ok(
    await generate(mathId, [
      { weekday: 1, start_time: '10:00', end_time: '11:00' },
      { weekday: 3, start_time: '10:00', end_time: '11:00' },
    ]),
  );
  await ok(await generate(artId, [{ weekday: 2, start_time: '14:00', end_time: '15:30' }]));
  // the Monday session was held
  await t.sql.query(`update class_sessions set state = 'held' where kind = 'teaching' and class_id = $1 and day = $2`, [mathId, week]);
  // another school: a care class and a session of its own in the same week
  const {
    rows: [oc],
  } = await t.sql.query(`insert into care_classes (school_id, name, capacity) values ($1, '外校班', 10) returning id`, [other.schoolId]);
  otherCare = oc.id;
  const {
    rows: [ou],
  } = await t.sql.query(`select id from users where school_id = $1`, [other.schoolId]);
  const {
    rows: [otc],
  } = await t.sql.query(
    `insert into teaching_classes (school_id, name, subject, teacher_id, capacity, sessions_count) values ($1, '外校教学班', '英语', $2, 10, 10) returning id`,
    [other.schoolId, ou.id],
  );
  const {
    rows: [os],
  } = await t.sql.query(
    `insert into class_sessions (school_id, kind, class_id, day, start_min, end_min, teacher_id) values ($1, 'teaching', $2, $3, 600, 660, $4) returning id`,
    [other.schoolId, otc.id, addDays(week, 1), ou.id],
  );
  otherSession = os.id;
});
afterAll(() => t.close());

/** Row counts and versions of what the timetable actions write, with the harness's tables. */
async function snap() {
  const { rows } = await t.sql.query(
    `select (select count(*) from teacher_availability)::int as availability, (select coalesce(sum(version), 0) from teacher_availability)::int as availability_versions,
            (select count(*) from class_sessions)::int as sessions, (select coalesce(sum(version), 0) from class_sessions)::int as session_versions`,
  );
  const { user_tokens: _t, user_activity: _a, ...rest } = await snapshot(t.sql);
  return { ...rest, ...rows[0] };
}

async function expectRefused(send: () => Promise<{ body: { code: number; msg: string } }>, msg?: string) {
  const before = await snap();
  const res = await send();
  expect(res.body.code).toBe(Code.Error);
  if (msg) expect(res.body.msg).toBe(msg);
  expect(await snap()).toEqual(before);
}

const times = (list: Array<{ start_time: string; end_time: string }>) => list.map((e) => `${e.start_time}-${e.end_time}`);

describe('classSchedule', () => {
  it('a care class week: its slot on the weekdays, none on the holiday, the Monday slot on the make-up Saturday', async () => {
    const res = await t.get(`${CLASS}?kind=care&class_id=${running}&week=${addDays(week, 3)}`, admin);
    expect(res.body.code).toBe(Code.Ok);
    const data = res.body.data as ClassScheduleAnswer;
    expect(data.week).toBe(week);
    expect(data.class).toMatchObject({
      kind: 'care',
      id: running,
      name: '阳光一班',
      teacher_id: t.demo.users.adviser,
      time_slot: { start_time: '16:00', end_time: '19:30', weekdays: [1, 2, 3, 4, 5] },
    });
    expect(data.days.map((d) => d.day)).toEqual(Array.from({ length: 7 }, (_, i) => addDays(week, i)));
    expect(data.days.map((d) => d.sessions.length)).toEqual([1, 1, 0, 1, 1, 1, 0]);
    expect(data.days[2]).toMatchObject({ weekday: 3, runs_as: null, calendar: { kind: 'holiday', note: '校庆' } });
    expect(data.days[5]).toMatchObject({ weekday: 6, runs_as: 1, calendar: { kind: 'makeup', works_as: 1 } });
    expect(data.days[5].sessions[0]).toMatchObject({
      id: null,
      kind: 'care',
      day: addDays(week, 5),
      start_time: '16:00',
      end_time: '19:30',
      teacher_name: expect.any(String),
      state: 'planned',
      makeup: true,
    });
    expect(data.days[0].sessions[0]).not.toHaveProperty('makeup');
  });

  it('a teaching class week: its sessions with teacher, room and state; the holiday skipped and the make-up Saturday run as Monday', async () => {
    const res = await t.get(`${CLASS}?kind=teaching&class_id=${mathId}&week=${week}`, admin);
    expect(res.body.code).toBe(Code.Ok);
    const data = res.body.data as ClassScheduleAnswer;
    expect(data.class).toMatchObject({
      kind: 'teaching',
      id: mathId,
      name: '奥数班',
      teacher_id: t.demo.users.teacher,
      room_id: roomId,
      room_name: '201 教室',
      time_slot: null,
    });
    expect(data.days.map((d) => d.sessions.length)).toEqual([1, 0, 0, 0, 0, 1, 0]);
    expect(data.days[0].sessions[0]).toMatchObject({
      id: expect.any(Number),
      kind: 'teaching',
      class_name: '奥数班',
      start_time: '10:00',
      end_time: '11:00',
      room_name: '201 教室',
      state: 'held',
    });
    expect(data.days[5].sessions[0]).toMatchObject({ day: addDays(week, 5), state: 'planned' });
    // no week: the school's current week, empty for this class
    const now = await t.get(`${CLASS}?kind=teaching&class_id=${mathId}`, admin);
    expect(now.body.data.week).toBe(addDays(week, -28));
    expect(now.body.data.days.flatMap((d: { sessions: unknown[] }) => d.sessions)).toEqual([]);
  });

  it('a head teacher sees the care class they head, not another head teacher’s class nor a teaching class they do not teach', async () => {
    expect((await t.get(`${CLASS}?kind=care&class_id=${running}&week=${week}`, adviser)).body.code).toBe(Code.Ok);
    expect((await t.get(`${CLASS}?kind=care&class_id=${second}&week=${week}`, adviser)).body).toMatchObject({
      code: Code.Error,
      msg: '只能查看自己所带班级的课表',
    });
    expect((await t.get(`${CLASS}?kind=teaching&class_id=${mathId}&week=${week}`, adviser)).body).toMatchObject({
      code: Code.Error,
      msg: '只能查看自己所带班级的课表',
    });
  });

  it('bad input answers code 100 and writes nothing', async () => {
    for (const q of [
      '',
      'kind=care',
      `class_id=${running}`,
      `kind=x&class_id=${running}`,
      'kind=care&class_id=0',
      'kind=care&class_id=abc',
      'kind=care&class_id=99999999999',
      `kind=care&class_id=${running}&week=2026-02-30`,
      `kind=care&class_id=${running}&week=tomorrow`,
      `kind=care&class_id=${running}&school_id=1`,
      'kind=care&class_id=1%27%20or%201=1',
    ]) {
      await expectRefused(() => t.get(`${CLASS}?${q}`, admin));
    }
    const res = await t.get(`${CLASS}?kind=tutoring&class_id=${running}`, admin);
    expect(res.body.msg).toBe('班级类型应为 care（晚托班）或 teaching（教学班）');
  });

  it('a teacher or a parent may not read a class timetable', async () => {
    expect((await t.get(`${CLASS}?kind=care&class_id=${running}`, teacher)).body).toMatchObject(DENIED);
    expect((await t.get(`${CLASS}?kind=care&class_id=${running}`, parent)).body).toMatchObject(DENIED);
  });

  it('another school’s class is not found, either way', async () => {
    expect((await t.get(`${CLASS}?kind=care&class_id=${otherCare}`, admin)).body).toMatchObject({ code: Code.Error, msg: '未找到该班级' });
    expect((await t.get(`${CLASS}?kind=care&class_id=${running}`, other.adminToken)).body).toMatchObject({ code: Code.Error, msg: '未找到该班级' });
    expect((await t.get(`${CLASS}?kind=teaching&class_id=${mathId}`, other.adminToken)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该班级',
    });
    // a care class id asked as a teaching class is another class (or none)
    expect((await t.get(`${CLASS}?kind=teaching&class_id=${otherCare + 100000}`, admin)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该班级',
    });
  });
});

describe('schoolTeachingSchedule', () => {
  it('the school’s week as rooms x days, every room listed, sessions without a room apart', async () => {
    const res = await t.get(`${SCHOOL}?week=${addDays(week, 6)}`, admin);
    expect(res.body.code).toBe(Code.Ok);
    const data = res.body.data as SchoolTeachingScheduleAnswer;
    expect(data.week).toBe(week);
    expect(data.sessions).toBe(3);
    expect(data.days.map((d) => d.runs_as)).toEqual([1, 2, null, 4, 5, 1, 7]);
    expect(data.rooms.map((r) => r.name)).toEqual(['201 教室', '空教室']);
    const room = data.rooms[0];
    expect(room.days.map((d) => d.length)).toEqual([1, 0, 0, 0, 0, 1, 0]);
    expect(room.days[0][0]).toMatchObject({
      kind: 'teaching',
      class_id: mathId,
      class_name: '奥数班',
      teacher_name: expect.any(String),
      start_time: '10:00',
      end_time: '11:00',
      state: 'held',
    });
    expect(data.rooms[1].days.flat()).toEqual([]);
    expect(data.no_room.map((d) => d.length)).toEqual([0, 1, 0, 0, 0, 0, 0]);
    expect(data.no_room[1][0]).toMatchObject({
      class_id: artId,
      class_name: '美术班',
      teacher_name: '美术老师',
      start_time: '14:00',
      end_time: '15:30',
      state: 'planned',
    });
    expect(data.no_room[1][0]).not.toHaveProperty('room_id');
  });

  it('bad input answers code 100 and writes nothing', async () => {
    for (const q of ['week=2026-13-01', 'week=x', `week=${'9'.repeat(300)}`, 'page=1', 'school_id=1'])
      await expectRefused(() => t.get(`${SCHOOL}?${q}`, admin));
  });

  it('only the admin reads the school’s week', async () => {
    for (const token of [teacher, adviser, parent]) expect((await t.get(`${SCHOOL}?week=${week}`, token)).body).toMatchObject(DENIED);
  });

  it('another school sees its own sessions only', async () => {
    const mine = (await t.get(`${SCHOOL}?week=${week}`, admin)).body.data as SchoolTeachingScheduleAnswer;
    expect([...mine.rooms.flatMap((r) => r.days.flat()), ...mine.no_room.flat()].map((e) => e.id)).not.toContain(otherSession);
    const theirs = (await t.get(`${SCHOOL}?week=${week}`, other.adminToken)).body.data as SchoolTeachingScheduleAnswer;
    expect(theirs.rooms).toEqual([]);
    expect(theirs.sessions).toBe(1);
    expect(theirs.no_room[1].map((e) => e.id)).toEqual([otherSession]);
  });
});

describe('teacherSchedule', () => {
  it('the teacher’s week: the sessions they teach, their care duties, no availability saved yet', async () => {
    const res = await t.get(`${TEACHER}?week=${week}`, teacher);
    expect(res.body.code).toBe(Code.Ok);
    const data = res.body.data as TeacherScheduleAnswer;
    expect(data.week).toBe(week);
    expect(data.days.map((d) => times(d.sessions))).toEqual([['10:00-11:00'], [], [], [], [], ['10:00-11:00'], []]);
    expect(data.days[0].sessions[0]).toMatchObject({ class_name: '奥数班', room_name: '201 教室', state: 'held' });
    // on duty (shuttle, tutor) in the running care class: its slot on the days it runs, the make-up Saturday too
    expect(data.days.map((d) => d.care.map((c) => `${c.class_name} ${c.duty}`))).toEqual([
      ['阳光一班 duty'],
      ['阳光一班 duty'],
      [],
      ['阳光一班 duty'],
      ['阳光一班 duty'],
      ['阳光一班 duty'],
      [],
    ]);
    expect(data.availability).toEqual({ windows: [], note: '', version: 0, updated_at: null });
    // every running class of theirs, whichever week is asked (this week 奥数班 has no session)
    const thisWeek = (await t.get(TEACHER, teacher)).body.data as TeacherScheduleAnswer;
    expect(thisWeek.days.flatMap((d) => d.sessions)).toEqual([]);
    for (const d of [data, thisWeek])
      expect(d.classes).toEqual([
        { kind: 'care', id: running, name: '阳光一班', duty: 'duty' },
        { kind: 'teaching', id: mathId, name: '奥数班', duty: 'teach' },
      ]);
  });

  it('the head teacher’s week shows the care class they head', async () => {
    const data = (await t.get(`${TEACHER}?week=${week}`, adviser)).body.data as TeacherScheduleAnswer;
    expect(data.days[0].care).toEqual([expect.objectContaining({ class_id: running, duty: 'head', start_time: '16:00', end_time: '19:30' })]);
    expect(data.days[2].care).toEqual([]);
    expect(data.days.flatMap((d) => d.sessions)).toEqual([]);
    expect(data.classes).toEqual([{ kind: 'care', id: running, name: '阳光一班', duty: 'head' }]);
  });

  it('saves the availability on the version read: sorted windows and a note; a stale version is a conflict', async () => {
    const first = await t.post(TEACHER, teacher).send({
      windows: [
        { weekday: 3, start_time: '14:00', end_time: '17:00' },
        { weekday: 1, start_time: '08:00', end_time: '12:00' },
      ],
      note: '周五下午请勿排课',
      version: 0,
    });
    expect(first.body).toMatchObject({
      code: Code.Ok,
      data: {
        windows: [
          { weekday: 1, start_time: '08:00', end_time: '12:00' },
          { weekday: 3, start_time: '14:00', end_time: '17:00' },
        ],
        note: '周五下午请勿排课',
        version: 1,
      },
    });
    const read = (await t.get(`${TEACHER}?week=${week}`, teacher)).body.data as TeacherScheduleAnswer;
    expect(read.availability).toMatchObject({
      windows: first.body.data.windows,
      note: '周五下午请勿排课',
      version: 1,
      updated_at: expect.any(String),
    });
    const second = await t.post(TEACHER, teacher).send({
      windows: [
        { weekday: 1, start_time: '08:00', end_time: '09:00' },
        { weekday: 1, start_time: '09:00', end_time: '10:00' },
      ],
      version: 1,
    });
    expect(second.body).toMatchObject({ code: Code.Ok, data: { note: '', version: 2 } });
    await expectRefused(() => t.post(TEACHER, teacher).send({ windows: [], version: 1 }), '数据已被他人修改，请刷新后重试');
    await expectRefused(() => t.post(TEACHER, teacher).send({ windows: [], version: 0 }), '数据已被他人修改，请刷新后重试');
    // the head teacher's first save claims a version never read
    await expectRefused(() => t.post(TEACHER, adviser).send({ windows: [], version: 3 }), '数据已被他人修改，请刷新后重试');
    const { rows } = await t.sql.query(`select school_id, version, windows from teacher_availability where user_id = $1`, [t.demo.users.teacher]);
    expect(rows).toEqual([{ school_id: t.demo.schoolId, version: 2, windows: second.body.data.windows }]);
  });

  it('bad input answers code 100 and writes nothing', async () => {
    await expectRefused(() => t.get(`${TEACHER}?week=2026-02-29`, teacher));
    await expectRefused(() => t.get(`${TEACHER}?teacher_id=1`, teacher));
    const w = (weekday: unknown, start_time: unknown, end_time: unknown) => ({ weekday, start_time, end_time });
    const bodies: Array<[Record<string, unknown>, string?]> = [
      [{ windows: [w(1, '16:00', '17:00'), w(1, '16:30', '18:00')], version: 0 }, '可用时间 16:30-18:00 与同一天的另一段重叠'],
      [{ windows: [w(2, '18:00', '16:00')], version: 0 }, '可用时间的开始时间需早于结束时间'],
      [{ windows: [w(8, '16:00', '17:00')], version: 0 }, '星期应为 1（周一）到 7（周日）'],
      [{ windows: [w(1, '16:00', '24:00')], version: 0 }, '时间格式应为 HH:MM（00:00-23:59）'],
      [
        {
          windows: Array.from({ length: 51 }, (_, i) =>
            w((i % 7) + 1, `${String(Math.floor(i / 7)).padStart(2, '0')}:00`, `${String(Math.floor(i / 7)).padStart(2, '0')}:30`),
          ),
          version: 0,
        },
        '每周最多 50 个可用时间段',
      ],
      [{ windows: [], note: 'x'.repeat(501), version: 0 }],
      [{ windows: [], note: '<script>alert(1)</script>', version: 0 }],
      [{ windows: [] }],
      [{ windows: [], version: -1 }],
      [{ windows: [], version: '0' }],
      [{ windows: '1,16:00,17:00', version: 0 }],
      [{ windows: [{ ...w(1, '16:00', '17:00'), extra: 1 }], version: 0 }],
      [{ windows: [], version: 0, user_id: t.demo.users.adviser }],
      [{ windows: [], version: 0, school_id: other.schoolId }],
    ];
    for (const [body, msg] of bodies) await expectRefused(() => t.post(TEACHER, adviser).send(body), msg);
    const en = await t
      .post(TEACHER, adviser)
      .set('lang', 'en')
      .send({ windows: [w(1, '16:00', '17:00'), w(1, '16:30', '18:00')], version: 0 });
    expect(en.body.msg).toBe('The available window 16:30-18:00 overlaps another one on the same day');
  });

  it('the admin and parents have no teacher timetable', async () => {
    for (const token of [admin, parent]) {
      expect((await t.get(`${TEACHER}?week=${week}`, token)).body).toMatchObject(DENIED);
      await expectRefused(() => t.post(TEACHER, token).send({ windows: [], version: 0 }), DENIED.msg);
    }
  });

  it('tutoring sessions the teacher gives show on their week and in the school’s week with their class', async () => {
    const {
      rows: [type],
    } = await t.sql.query(`insert into tutoring_types (school_id, name) values ($1, '一对一') returning id`, [t.demo.schoolId]);
    const {
      rows: [tc],
    } = await t.sql.query(
      `insert into tutoring_classes (school_id, type_id, name, teacher_id, capacity, duration_min, pattern, from_day, to_day)
       values ($1, $2, '作文辅导', $3, 1, 60, '[]', $4, $4) returning id`,
      [t.demo.schoolId, type.id, t.demo.users.teacher, addDays(week, 3)],
    );
    const {
      rows: [s],
    } = await t.sql.query(
      `insert into class_sessions (school_id, kind, class_id, day, start_min, end_min, teacher_id) values ($1, 'tutoring', $2, $3, 480, 540, $4) returning id`,
      [t.demo.schoolId, tc.id, addDays(week, 3), t.demo.users.teacher],
    );
    try {
      const mine = (await t.get(`${TEACHER}?week=${week}`, teacher)).body.data as TeacherScheduleAnswer;
      expect(mine.days[3].sessions).toEqual([
        expect.objectContaining({
          id: s.id,
          kind: 'tutoring',
          class_id: tc.id,
          class_name: '作文辅导',
          start_time: '08:00',
          end_time: '09:00',
          room_id: null,
        }),
      ]);
      const school = (await t.get(`${SCHOOL}?week=${week}`, admin)).body.data as SchoolTeachingScheduleAnswer;
      expect(school.no_room[3]).toEqual([expect.objectContaining({ id: s.id, kind: 'tutoring', class_name: '作文辅导' })]);
    } finally {
      await t.sql.query(`delete from class_sessions where id = $1`, [s.id]);
    }
  });

  it('another school’s sessions never show on a teacher’s week', async () => {
    // a session of another school given (wrongly) to this school's teacher: the week reads the caller's school only
    const {
      rows: [s],
    } = await t.sql.query(
      `insert into class_sessions (school_id, kind, class_id, day, start_min, end_min, teacher_id) values ($1, 'teaching', 1, $2, 1200, 1260, $3) returning id`,
      [other.schoolId, addDays(week, 3), t.demo.users.teacher],
    );
    const data = (await t.get(`${TEACHER}?week=${week}`, teacher)).body.data as TeacherScheduleAnswer;
    expect(data.days.flatMap((d) => d.sessions).map((e) => e.id)).not.toContain(s.id);
    await t.sql.query(`delete from class_sessions where id = $1`, [s.id]);
  });
});
