import { addDays, Code, mondayOf, type Clash, type TeachingClass } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

/** editTeachingClass: a teaching class's details on the version read, a new teacher or room checked for clashes. */

let t: TestApp;
let admin: string;
let teacherToken: string;
let other: { schoolId: number; adminToken: string };
let term: string;

const api = (action: string) => `/api/index/${action}`;
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };
let seq = 0;
const uniq = (p: string) => `${p}${++seq}`;

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, redis: false, demoPeople: true });
  admin = await t.login('admin');
  teacherToken = await t.login('teacher');
  other = await t.otherSchool();
  const today = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as d`)).rows[0].d;
  term = addDays(mondayOf(today), 21);
});
afterAll(() => t.close());

async function snap() {
  const { rows } = await t.sql.query(
    `select (select coalesce(sum(version), 0) from teaching_classes)::int as class_versions, (select string_agg(name || teacher_id || coalesce(room_id, 0), ',' order by id) from teaching_classes) as classes,
            (select coalesce(sum(version), 0) from class_sessions)::int as session_versions, (select coalesce(sum(teacher_id + coalesce(room_id, 0)), 0) from class_sessions)::int as session_who`,
  );
  return { ...(await snapshot(t.sql)), ...rows[0] };
}

async function newTeacher(): Promise<number> {
  const { rows } = await t.sql.query(
    `insert into users (school_id, role, username, name, nickname, mobile, password_hash) select school_id, 2, $2, $3, $3, null, password_hash from users where id = $1 returning id`,
    [t.demo.users.teacher, uniq('tce_'), uniq('编辑老师')],
  );
  return rows[0].id;
}

async function newRoom(): Promise<number> {
  const res = await t.post(api('addRoom'), admin).send({ name: uniq('教室') });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data.id;
}

/** A class of `teacher` in `room` with its Monday `start`..+1h sessions over two weeks of the term. */
async function scheduled(teacher: number, room: number | null, start = '16:00'): Promise<TeachingClass> {
  const c = await t
    .post(api('addTeachingClass'), admin)
    .send({ name: uniq('编辑班'), subject: '数学', teacher_id: teacher, room_id: room, capacity: 10, sessions_count: 20, fee_fen: 1000 });
  expect(c.body).toMatchObject({ code: Code.Ok });
  const end = `${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}${start.slice(2)}`;
  const g = await t
    .post(api('teachingClassCourseScheduling'), admin)
    .send({ class_id: c.body.data.id, from: term, to: addDays(term, 13), pattern: [{ weekday: 1, start_time: start, end_time: end }] });
  expect(g.body).toMatchObject({ code: Code.Ok });
  return (await t.get(`${api('teachingClassInfo')}?id=${c.body.data.id}`, admin)).body.data;
}

const details = (c: TeachingClass, over: Record<string, unknown> = {}) => ({
  id: c.id,
  version: c.version,
  name: c.name,
  subject: c.subject,
  teacher_id: c.teacher_id,
  room_id: c.room_id,
  capacity: c.capacity,
  sessions_count: c.sessions_count,
  fee_fen: c.fee_fen,
  ...over,
});

describe('editTeachingClass', () => {
  it('edits the details on the version read; the planned sessions follow a new teacher and room', async () => {
    const c = await scheduled(await newTeacher(), await newRoom());
    const teacher = await newTeacher();
    const room = await newRoom();
    const res = await t
      .post(api('editTeachingClass'), admin)
      .send(
        details(c, { name: uniq('改名班'), subject: '英语', teacher_id: teacher, room_id: room, capacity: 12, sessions_count: 24, fee_fen: 2000 }),
      );
    expect(res.body.data).toMatchObject({
      id: c.id,
      subject: '英语',
      teacher_id: teacher,
      room_id: room,
      capacity: 12,
      sessions_count: 24,
      fee_fen: 2000,
      version: c.version + 1,
    });
    const sessions = (await t.sql.query(`select teacher_id, room_id from class_sessions where kind = 'teaching' and class_id = $1`, [c.id])).rows;
    expect(sessions).toEqual([
      { teacher_id: teacher, room_id: room },
      { teacher_id: teacher, room_id: room },
    ]);
    // room_id omitted keeps the room
    const kept = await t.post(api('editTeachingClass'), admin).send({ ...details(res.body.data, { room_id: undefined }), capacity: 11 });
    expect(kept.body.data).toMatchObject({ room_id: room, capacity: 11 });
  });

  it('refuses a new teacher or room busy at a planned session, with the clash list, writing nothing', async () => {
    const busyTeacher = await newTeacher();
    const busyRoom = await newRoom();
    const blocker = await scheduled(busyTeacher, busyRoom, '16:30');
    const c = await scheduled(await newTeacher(), null);
    const s = await snap();
    const byTeacher = await t.post(api('editTeachingClass'), admin).send(details(c, { teacher_id: busyTeacher }));
    expect(byTeacher.body).toMatchObject({ code: Code.Error });
    expect(byTeacher.body.msg).toContain(blocker.name);
    expect(byTeacher.body.data.clashes as Clash[]).toEqual([
      expect.objectContaining({ kind: 'teacher', who: busyTeacher, day: term }),
      expect.objectContaining({ kind: 'teacher', who: busyTeacher, day: addDays(term, 7) }),
    ]);
    const byRoom = await t.post(api('editTeachingClass'), admin).send(details(c, { room_id: busyRoom }));
    expect(byRoom.body.data.clashes as Clash[]).toEqual([
      expect.objectContaining({ kind: 'room', who: busyRoom }),
      expect.objectContaining({ kind: 'room', who: busyRoom }),
    ]);
    expect(await snap()).toEqual(s);
  });

  it('bad input, stale, limits, a teacher and another school write nothing', async () => {
    const c = await scheduled(await newTeacher(), null);
    const members: number[] = [];
    for (const name of ['编辑生甲', '编辑生乙'])
      members.push((await t.sql.query(`insert into students (school_id, name) values ($1, $2) returning id`, [t.demo.schoolId, name])).rows[0].id);
    expect((await t.post(api('addTeachingClassStudent'), admin).send({ class_id: c.id, student_ids: members })).body).toMatchObject({
      code: Code.Ok,
    });
    const taken = await scheduled(await newTeacher(), null, '18:00');
    const fresh: TeachingClass = (await t.get(`${api('teachingClassInfo')}?id=${c.id}`, admin)).body.data;
    const otherTeacher = (await t.sql.query(`select id from users where school_id = $1 limit 1`, [other.schoolId])).rows[0].id;
    const s = await snap();
    for (const over of [
      { name: '' },
      { capacity: 0 },
      { fee_fen: -1 },
      { sessions_count: 'x' },
      { version: undefined },
      { teacher_id: 0 },
      { extra: 1 },
    ]) {
      expect((await t.post(api('editTeachingClass'), admin).send(details(fresh, over))).body.code).toBe(Code.Error);
    }
    expect((await t.post(api('editTeachingClass'), admin).send(details(fresh, { version: fresh.version + 1 }))).body).toMatchObject({
      code: Code.Error,
      msg: '教学班已被他人修改，请刷新后重试',
    });
    expect((await t.post(api('editTeachingClass'), admin).send(details(fresh, { sessions_count: 1 }))).body).toMatchObject({
      code: Code.Error,
      msg: '课次数不能少于已排的 2 次课',
    });
    expect((await t.post(api('editTeachingClass'), admin).send(details(fresh, { teacher_id: otherTeacher }))).body).toMatchObject({
      code: Code.Error,
      msg: '授课教师须是本机构在职的老师',
    });
    expect((await t.post(api('editTeachingClass'), teacherToken).send(details(fresh))).body).toMatchObject(DENIED);
    expect((await t.post(api('editTeachingClass'), other.adminToken).send(details(fresh))).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该教学班',
    });
    expect((await t.post(api('editTeachingClass'), admin).send(details(fresh, { capacity: 1 }))).body).toMatchObject({
      code: Code.Error,
      msg: '容量不能少于班里已有的 2 名学生',
    });
    expect((await t.post(api('editTeachingClass'), admin).send(details(fresh, { name: taken.name }))).body).toMatchObject({
      code: Code.Error,
      msg: '已有同名教学班',
    });
    expect(await snap()).toEqual(s);
  });
});
