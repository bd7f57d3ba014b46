import { Code, t as msg } from '@wantuo/shared';
import { randomUUID } from 'node:crypto';
import { DomainEvents, type DomainEventMap } from '../../core/events/domain-events';
import { schoolCaller, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { Client, type QueryConfig } from 'pg';
import { SessionService } from '../../core/auth/session.service';
import { APPEND_SQL } from './flow-store';
import { deriveEventId, FlowService } from './flow.service';

let t: TestApp;
let teacher: string;
let adviser: string;
let admin: string;
let parent: string;
/** the running class's students, in id order, with their pick-up people */
let kids: Array<{ id: number; name: string; needs_shuttle: boolean; pickups: number[] }>;
/** a student of the second class (the demo teacher has no duty there) */
let stranger: number;
let today: string;

const FORBIDDEN = '当前账号没有权限执行此操作';
const STEPS = {
  shuttleStudent: 'shuttle',
  studentEnter: 'enter',
  teacherStudentDinner: 'dinner',
  teacherStudentStartTutor: 'startTutor',
  teacherStudentEndTutor: 'endTutor',
  studentLiyuan: 'leave',
} as const;
type StepAction = keyof typeof STEPS;
const path = (a: string) => `/api/index/${a}`;

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true });
  [teacher, adviser, admin, parent] = await Promise.all([t.login('teacher'), t.login('adviser'), t.login('admin'), t.login('parent')]);
  const { rows } = await t.sql.query(
    `select s.id, s.name, s.needs_shuttle, array(select p.id from pickup_people p where p.student_id = s.id order by p.id) as pickups
       from care_class_students ccs join students s on s.id = ccs.student_id where ccs.class_id = $1 order by s.id`,
    [t.demo.classes!.running],
  );
  kids = rows;
  const other = await t.sql.query(`select student_id from care_class_students where class_id = $1 limit 1`, [t.demo.classes!.second]);
  stranger = other.rows[0].student_id;
  today = (await t.sql.query(`select (now() at time zone 'Asia/Shanghai')::date::text as d`)).rows[0].d;
});
afterAll(() => t.close());
beforeEach(() => reset());

async function reset() {
  await t.sql.query(`delete from student_days; delete from flow_events`);
}

async function send(action: StepAction, token: string, body: Record<string, unknown>) {
  const res = await t.post(path(action), token).send(body);
  expect(res.status).toBe(200);
  return res.body as {
    code: number;
    msg: string;
    data: { results: Array<{ student_id: number; ok: boolean; state?: string; error?: string; event_id?: string }> };
  };
}

async function ok(action: StepAction, token: string, ids: number[], extra: Record<string, unknown> = {}) {
  const body = await send(action, token, { student_ids: ids, ...extra });
  expect(body.code).toBe(Code.Ok);
  for (const r of body.data.results) expect({ id: r.student_id, ok: r.ok, error: r.error }).toEqual({ id: r.student_id, ok: true, error: undefined });
  return body.data.results;
}

async function events(studentId?: number) {
  const { rows } = await t.sql.query(
    `select event_id, student_id, day::text as day, version, type, payload, class_id, state_after, actor_id from flow_events
      where $1::int is null or student_id = $1 order by global_position`,
    [studentId ?? null],
  );
  return rows;
}

/** the session user of a token, as the guard resolves it */
async function sessionOf(token: string): Promise<SchoolCaller> {
  return schoolCaller((await t.app.get(SessionService).resolve(token))!);
}

async function dayRow(studentId: number) {
  const { rows } = await t.sql.query(`select *, day::text as day from student_days where student_id = $1`, [studentId]);
  return rows[0];
}

/** the body of a step action for the first running student, with a valid pick-up person where needed */
const bodyFor = (action: StepAction, over: Record<string, unknown> = {}) => ({
  student_ids: [kids[0].id],
  ...(action === 'studentLiyuan' ? { picked_up_by: kids[0].pickups[0] } : {}),
  ...over,
});

/** brings the first running student to just before the action */
async function prepare(action: StepAction) {
  const id = kids[0].id;
  if (action === 'shuttleStudent' || action === 'studentEnter') return;
  await ok('studentEnter', teacher, [id]);
  if (action === 'teacherStudentEndTutor') await ok('teacherStudentStartTutor', teacher, [id]);
}

describe('a whole afternoon of the running class through the API', () => {
  it('shuttle, enter, dinner, tutoring and leaving: states, projection, timeline', async () => {
    const ids = kids.map((k) => k.id);
    const shuttled = kids.filter((k) => k.needs_shuttle).map((k) => k.id);
    const walkers = kids.filter((k) => !k.needs_shuttle).map((k) => k.id);
    expect(shuttled.length).toBeGreaterThan(0);
    expect(walkers.length).toBeGreaterThan(0);

    // the shuttle teacher picks up the shuttle children; a walker cannot be shuttled
    const picked = await ok('shuttleStudent', teacher, shuttled);
    expect(picked.map((r) => r.state)).toEqual(shuttled.map(() => 'picked_up'));
    const walker = await send('shuttleStudent', teacher, { student_ids: [walkers[0]] });
    expect(walker.data.results).toEqual([{ student_id: walkers[0], ok: false, error: '该学生不需要接送' }]);

    // everyone enters; dinner, tutoring
    expect((await ok('studentEnter', teacher, ids)).every((r) => r.state === 'in_centre')).toBe(true);
    await ok('teacherStudentDinner', adviser, ids);
    await ok('teacherStudentStartTutor', teacher, ids);
    await ok('teacherStudentEndTutor', teacher, ids);
    // dinner twice is refused, per student, with the reason
    const again = await send('teacherStudentDinner', teacher, { student_ids: ids.slice(0, 2) });
    expect(again.data.results.map((r) => r.error)).toEqual(['已确认晚餐', '已确认晚餐']);

    // each child leaves with their own pick-up person
    for (const k of kids) {
      const [r] = await ok('studentLiyuan', teacher, [k.id], { picked_up_by: k.pickups[0], note: '妈妈接走' });
      expect(r.state).toBe('left');
    }
    const after = await send('studentEnter', teacher, { student_ids: [ids[0]] });
    expect(after.data.results[0]).toMatchObject({ ok: false, error: '已离园，当天不能再记录' });

    const all = await events();
    expect(all).toHaveLength(shuttled.length + ids.length * 5);
    expect(new Set(all.map((e) => e.day))).toEqual(new Set([today]));
    expect(all.every((e) => e.class_id === t.demo.classes!.running)).toBe(true);
    const first = await dayRow(shuttled[0]);
    expect(first).toMatchObject({
      school_id: t.demo.schoolId,
      day: today,
      class_id: t.demo.classes!.running,
      state: 'left',
      on_leave: false,
      picked_up_by: t.demo.users.teacher,
      entered_by: t.demo.users.teacher,
      dinner_by: t.demo.users.adviser,
      tutor_started_by: t.demo.users.teacher,
      tutor_ended_by: t.demo.users.teacher,
      left_by: t.demo.users.teacher,
      left_with: kids.find((k) => k.id === shuttled[0])!.pickups[0],
      version: 6,
    });
    for (const c of ['picked_up_at', 'entered_at', 'dinner_at', 'tutor_started_at', 'tutor_ended_at', 'left_at'])
      expect(first[c]).toBeInstanceOf(Date);
    expect((await dayRow(walkers[0])).picked_up_at).toBeNull();

    // the head teacher reads the timeline
    const info = await t.get(`${path('clockingInInfo')}?student_id=${shuttled[0]}&date=${today}`, adviser);
    expect(info.body.code).toBe(Code.Ok);
    expect(info.body.data).toMatchObject({ student_id: shuttled[0], date: today, state: 'left', on_leave: false, version: 6 });
    expect(info.body.data.events.map((e: { type: string }) => e.type)).toEqual([
      'student.picked_up',
      'student.entered',
      'student.dinner_confirmed',
      'student.tutoring_started',
      'student.tutoring_ended',
      'student.left',
    ]);
    expect(info.body.data.events[5]).toMatchObject({ actor: t.demo.users.teacher, actor_name: expect.any(String), payload: { note: '妈妈接走' } });
    expect(info.body.data.left_with).toMatchObject({ id: kids.find((k) => k.id === shuttled[0])!.pickups[0] });
  });
});

describe.each(Object.keys(STEPS) as StepAction[])('%s', (action) => {
  it('happy path: the step is recorded for the student and the answer carries the state and event id', async () => {
    await prepare(action);
    const id = kids[0].id;
    const before = (await events(id)).length;
    const eventId = randomUUID();
    const [r] = await ok(
      action,
      action === 'teacherStudentDinner' ? adviser : teacher,
      [id],
      bodyFor(action, { event_id: eventId, note: '备注 & <3' }),
    );
    expect(r).toEqual({ student_id: id, ok: true, state: expect.any(String), event_id: eventId });
    const mine = await events(id);
    expect(mine).toHaveLength(before + 1);
    expect(mine[mine.length - 1]).toMatchObject({ event_id: eventId, version: before + 1, state_after: r.state, payload: { note: '备注 & <3' } });
    expect(await dayRow(id)).toMatchObject({ version: before + 1, state: r.state === 'on_leave' ? 'expected' : r.state });
  });

  it('bad input answers code 100 and writes nothing', async () => {
    await prepare(action);
    const id = kids[0].id;
    const long = 'x'.repeat(10_000);
    const inputs: Record<string, unknown>[] = [
      {},
      { student_ids: [] },
      { student_ids: id },
      { student_ids: [String(id)] },
      { student_ids: [0] },
      { student_ids: [-1] },
      { student_ids: [1.5] },
      { student_ids: [null] },
      { student_ids: Array.from({ length: 101 }, (_, i) => i + 1) },
      { student_ids: [`${id} or 1=1`] },
      { student_ids: ['1; delete from flow_events; --'] },
      bodyFor(action, { event_id: 'not-a-uuid' }),
      bodyFor(action, { event_id: `${randomUUID()}'; drop table flow_events; --` }),
      bodyFor(action, { event_id: long }),
      bodyFor(action, { note: long }),
      bodyFor(action, { note: 'x'.repeat(201) }),
      bodyFor(action, { note: '<script>alert(1)</script>' }),
      bodyFor(action, { note: 42 }),
      bodyFor(action, { override: long }),
      bodyFor(action, { override: '' }),
      bodyFor(action, { override: '<img src=x onerror=alert(1)>' }),
      bodyFor(action, { school_id: 1 }),
      bodyFor(action, { day: '2020-01-01' }),
      ...(action === 'studentLiyuan'
        ? [
            { student_ids: [id] },
            bodyFor(action, { picked_up_by: String(kids[0].pickups[0]) }),
            bodyFor(action, { picked_up_by: 0 }),
            bodyFor(action, { picked_up_by: long }),
          ]
        : [bodyFor(action, { picked_up_by: 1 })]),
    ];
    for (const input of inputs) {
      const before = await snapshot(t.sql);
      const res = await t.post(path(action), teacher).send(input);
      expect({ input, code: res.body.code }).toEqual({ input, code: Code.Error });
      expect(typeof res.body.msg).toBe('string');
      expect(await snapshot(t.sql)).toEqual(before);
    }
    const en = await t.post(path(action), teacher).set('lang', 'en').send({ student_ids: [] });
    expect(en.body.msg).toBe('Choose 1 to 100 students');
  });

  it('a wrong role gets "no permission" and nothing is written', async () => {
    await prepare(action);
    const operator = await t.login('operator');
    const before = await snapshot(t.sql);
    for (const token of [admin, parent, operator]) {
      const res = await t.post(path(action), token).send(bodyFor(action));
      expect({ code: res.body.code, msg: res.body.msg }).toEqual({ code: Code.Error, msg: FORBIDDEN });
    }
    expect((await t.post(path(action)).send(bodyFor(action))).body.code).toBe(Code.Untoken);
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it("another school's student, a student of another class and an unknown id are not found", async () => {
    await prepare(action);
    const other = await t.otherSchool();
    const { rows } = await t.sql.query(`insert into students (school_id, name, needs_shuttle) values ($1, '外校学生', true) returning id`, [
      other.schoolId,
    ]);
    const outsider = rows[0].id as number;
    const before = await snapshot(t.sql);
    const body = await send(action, teacher, bodyFor(action, { student_ids: [outsider, stranger, 999_999] }));
    expect(body.code).toBe(Code.Ok);
    expect(body.data.results).toEqual([outsider, stranger, 999_999].map((student_id) => ({ student_id, ok: false, error: '该学生不存在' })));
    const en = await t
      .post(path(action), teacher)
      .set('lang', 'en')
      .send(bodyFor(action, { student_ids: [outsider] }));
    expect(en.body.data.results[0].error).toBe('Student not found');
    expect(await snapshot(t.sql)).toEqual(before);
  });
});

describe('teacher visibility', () => {
  it("the second class's head teacher acts on their own students but not on the running class", async () => {
    const { rows } = await t.sql.query(`select id from users where username = 'demo_liu'`);
    const liu = await t.post('/api/index/login').send({ account: 'demo_liu', password: 'Demo@2026' });
    const token = liu.body.data.userinfo.token as string;
    const [mine] = await ok('studentEnter', token, [stranger]);
    expect(mine.state).toBe('in_centre');
    expect((await events(stranger))[0].actor_id).toBe(rows[0].id);
    const body = await send('studentEnter', token, { student_ids: [kids[0].id] });
    expect(body.data.results[0]).toEqual({ student_id: kids[0].id, ok: false, error: '该学生不存在' });
  });

  it('a batch answers per student: refusals do not stop the others', async () => {
    const [a, b, c] = kids.map((k) => k.id);
    await ok('studentEnter', teacher, [a]);
    const body = await send('teacherStudentDinner', teacher, { student_ids: [a, b, stranger, c, a] });
    expect(body.data.results).toEqual([
      { student_id: a, ok: true, state: 'in_centre', event_id: expect.any(String) },
      { student_id: b, ok: false, error: '该学生尚未入园' },
      { student_id: stranger, ok: false, error: '该学生不存在' },
      { student_id: c, ok: false, error: '该学生尚未入园' },
    ]);
  });
});

describe('idempotency by event id', () => {
  it('the same event id sent 10 times writes one event and answers the same result', async () => {
    const id = kids[0].id;
    const eventId = randomUUID();
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push((await send('studentEnter', teacher, { student_ids: [id], event_id: eventId })).data);
    expect(await events(id)).toHaveLength(1);
    for (const a of answers) expect(a).toEqual({ results: [{ student_id: id, ok: true, state: 'in_centre', event_id: eventId }] });
    // sent at once, too
    const dinner = randomUUID();
    const parallel = await Promise.all(
      Array.from({ length: 10 }, () => send('teacherStudentDinner', teacher, { student_ids: [id], event_id: dinner })),
    );
    for (const p of parallel) expect(p.data).toEqual({ results: [{ student_id: id, ok: true, state: 'in_centre', event_id: dinner }] });
    expect(await events(id)).toHaveLength(2);
    expect((await dayRow(id)).version).toBe(2);
  });

  it('a batch with one event id is idempotent per student (derived event ids)', async () => {
    const ids = kids.slice(0, 3).map((k) => k.id);
    const eventId = randomUUID();
    const first = await ok('studentEnter', teacher, ids, { event_id: eventId });
    expect(first.map((r) => r.event_id)).toEqual(ids.map((id) => deriveEventId(eventId, id)));
    expect(new Set(first.map((r) => r.event_id)).size).toBe(3);
    // a retry after a lost answer, with one more student added
    const retry = await ok('studentEnter', teacher, [...ids, kids[3].id], { event_id: eventId });
    expect(retry.slice(0, 3)).toEqual(first);
    expect(await events()).toHaveLength(4);
  });

  it('a retry that arrives on another day (a queued tap sent after midnight) answers its first result, not a refusal', async () => {
    const id = kids[0].id;
    const eventId = randomUUID();
    const yesterday = (await t.sql.query(`select ($1::date - 1)::text as d`, [today])).rows[0].d as string;
    const [first] = await t.app.get(FlowService).run(await sessionOf(teacher), [id], { type: 'dinner' }, { eventId, day: yesterday });
    expect(first).toMatchObject({ ok: false, errorKey: 'flow.not_entered' });
    const [entered] = await t.app.get(FlowService).run(await sessionOf(teacher), [id], { type: 'enter' }, { eventId, day: yesterday });
    expect(entered).toEqual({ student_id: id, ok: true, state: 'in_centre', event_id: eventId });
    // today the child has not entered: the state machine would refuse; the stored event id answers instead
    const body = await send('studentEnter', teacher, { student_ids: [id], event_id: eventId });
    expect(body.data.results).toEqual([{ student_id: id, ok: true, state: 'in_centre', event_id: eventId }]);
    const again = await send('teacherStudentDinner', teacher, { student_ids: [id], event_id: eventId });
    expect(again.data.results).toEqual([{ student_id: id, ok: true, state: 'in_centre', event_id: eventId }]);
    expect(await events(id)).toHaveLength(1);
  });

  it('an event id used for another student is refused for this one', async () => {
    const eventId = randomUUID();
    await ok('studentEnter', teacher, [kids[0].id], { event_id: eventId });
    const body = await send('studentEnter', teacher, { student_ids: [kids[1].id], event_id: eventId });
    expect(body.data.results[0]).toEqual({ student_id: kids[1].id, ok: false, error: '该记录编号已用于其他学生' });
    expect(await events()).toHaveLength(1);
  });
});

describe('optimistic concurrency', () => {
  it('64 concurrent commands for one student: exactly one wins, the others are told, nothing lost or duplicated', async () => {
    const id = kids[0].id;
    const bodies = await Promise.all(
      Array.from({ length: 64 }, (_, i) => send('studentEnter', i % 2 ? teacher : adviser, { student_ids: [id], event_id: randomUUID() })),
    );
    const results = bodies.map((b) => {
      expect(b.code).toBe(Code.Ok);
      return b.data.results[0];
    });
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const losers = results.filter((r) => !r.ok);
    expect(losers).toHaveLength(63);
    for (const r of losers) expect(['该学生的状态已变化，请刷新后重试', '该学生已入园']).toContain(r.error);
    const all = await events(id);
    expect(all).toHaveLength(1);
    expect(all[0].event_id).toBe(results.find((r) => r.ok)!.event_id);
    expect(await dayRow(id)).toMatchObject({ version: 1, state: 'in_centre' });
  });

  it('concurrent different steps for many students keep every stream gap-free', async () => {
    const ids = kids.map((k) => k.id);
    await ok('studentEnter', teacher, ids);
    const bodies = await Promise.all([
      ...Array.from({ length: 8 }, () => send('teacherStudentDinner', teacher, { student_ids: ids })),
      ...Array.from({ length: 8 }, () => send('teacherStudentStartTutor', adviser, { student_ids: ids })),
    ]);
    const wins = bodies.flatMap((b) => b.data.results).filter((r) => r.ok);
    const { rows } = await t.sql.query(
      `select student_id, count(*)::int as n, max(version) as v from flow_events group by student_id order by student_id`,
    );
    expect(rows.reduce((s, r) => s + r.n, 0)).toBe(ids.length + wins.length);
    for (const r of rows) expect(r.n).toBe(r.v);
    const days = await t.sql.query(`select student_id, version from student_days order by student_id`);
    expect(days.rows).toEqual(rows.map((r) => ({ student_id: r.student_id, version: r.v })));
    // no step twice for a student
    const twice = await t.sql.query(`select student_id, type from flow_events group by 1, 2 having count(*) > 1`);
    expect(twice.rows).toEqual([]);
  });

  it('a batch that loses a race to one of its students writes nothing at first, then each student is tried alone', async () => {
    const [a, b, c] = kids.map((k) => k.id);
    const flow = t.app.get(FlowService);
    const user = await sessionOf(adviser);
    // the first append statement of the batch is preceded by another command entering b (committed in between
    // the batch's read of the streams and its write)
    const original = Client.prototype.query as unknown as (this: Client, ...args: unknown[]) => Promise<unknown>;
    let raced = false;
    const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(async function (this: Client, q: QueryConfig, ...rest: unknown[]) {
      if (!raced && q?.text === APPEND_SQL && (q.values?.[5] as number[] | undefined)?.includes(b)) {
        raced = true;
        await t.sql.query(
          `insert into flow_events (event_id, school_id, student_id, day, version, type, payload, class_id, state_after, actor_id, occurred_at)
           values ($1, $2, $3, $4, 1, 'student.entered', '{}', $5, 'in_centre', $6, now())`,
          [randomUUID(), user.schoolId, b, today, t.demo.classes!.running, user.id],
        );
      }
      return original.call(this, q, ...rest);
    } as never);
    try {
      const results = await flow.run(user, [a, b, c], { type: 'enter' });
      expect(raced).toBe(true);
      expect(results).toEqual([
        { student_id: a, ok: true, state: 'in_centre', event_id: expect.any(String) },
        { student_id: b, ok: false, errorKey: 'flow.already_entered' },
        { student_id: c, ok: true, state: 'in_centre', event_id: expect.any(String) },
      ]);
    } finally {
      spy.mockRestore();
    }
    const all = await events();
    expect(all.map((e) => [e.student_id, e.version])).toEqual([
      [b, 1],
      [a, 1],
      [c, 1],
    ]);
    expect((await dayRow(a)).version).toBe(1);
    expect(await dayRow(b)).toBeUndefined(); // the competing insert above bypassed the projection on purpose
  });

  it('two statements per batch whatever its size: one read, one append', async () => {
    const ids = kids.map((k) => k.id);
    const user = await sessionOf(adviser);
    const spy = jest.spyOn(Client.prototype, 'query');
    try {
      await t.app.get(FlowService).run(user, ids, { type: 'enter' });
      // the students with the day and their streams with stored event ids in one statement, then the append
      const named = spy.mock.calls.map(([q]) => (q as unknown as QueryConfig).name?.split('#')[0]);
      expect(named).toEqual(['flow.load', 'flow.append']);
    } finally {
      spy.mockRestore();
    }
    const { rows } = await t.sql.query(`select count(*)::int as n, count(distinct global_position)::int as p from flow_events`);
    expect(rows[0]).toEqual({ n: ids.length, p: ids.length });
    const days = await t.sql.query(`select count(*)::int as n from student_days where state = 'in_centre' and version = 1`);
    expect(days.rows[0].n).toBe(ids.length);
  });
});

describe('leave days', () => {
  it('a day marked on leave refuses steps unless a head teacher overrides with a reason', async () => {
    const flow = t.app.get(FlowService);
    const id = kids[1].id;
    const system: SchoolCaller = {
      id: t.demo.users.admin,
      role: 1,
      schoolId: t.demo.schoolId,
      name: 'admin',
      nickname: 'admin',
      lang: 'zh-CN',
      tokenId: 0,
    };
    const marked = await flow.command(system, [id], { type: 'markLeave', leave_id: 1 }, { system: true });
    expect(marked.results).toEqual([{ student_id: id, ok: true, state: 'on_leave', event_id: expect.any(String) }]);
    expect(await dayRow(id)).toMatchObject({ on_leave: true, state: 'expected', version: 1 });

    const refused = await send('studentEnter', teacher, { student_ids: [id] });
    expect(refused.data.results[0]).toEqual({ student_id: id, ok: false, error: '该学生今天已请假，如需记录请由班主任填写原因' });
    const notHead = await send('studentEnter', teacher, { student_ids: [id], override: '家长临时送来' });
    expect(notHead.data.results[0].error).toBe('只有班主任可以越过规则并填写原因');
    const head = await send('studentEnter', adviser, { student_ids: [id], override: '家长临时送来' });
    expect(head.data.results[0]).toMatchObject({ ok: true, state: 'in_centre' });
    const all = await events(id);
    expect(all.map((e) => e.type)).toEqual(['day.leave_approved', 'student.entered']);
    expect(all[1].payload).toEqual({ override: '家长临时送来' });

    // cancelling the leave lets the day run normally
    const other = kids[2].id;
    await flow.command(system, [other], { type: 'markLeave', leave_id: 2 }, { system: true });
    const cancelled = await flow.command(system, [other], { type: 'cancelLeave', leave_id: 2 }, { system: true });
    expect(cancelled.results[0]).toMatchObject({ ok: true, state: 'expected' });
    await ok('studentEnter', teacher, [other]);
  });

  it('leaving with someone not authorised needs a head teacher override', async () => {
    const [a, b] = kids;
    await ok('studentEnter', teacher, [a.id, b.id]);
    const wrong = await send('studentLiyuan', teacher, { student_ids: [a.id], picked_up_by: b.pickups[0] });
    expect(wrong.data.results[0].error).toBe('接走的人不是授权接送人，如确需放行请由班主任填写原因');
    const nobody = await send('studentLiyuan', teacher, { student_ids: [a.id], picked_up_by: null });
    expect(nobody.data.results[0].error).toBe('接走的人不是授权接送人，如确需放行请由班主任填写原因');
    const unknown = await send('studentLiyuan', adviser, { student_ids: [a.id], picked_up_by: 999_999, override: '舅舅来接' });
    expect(unknown.data.results[0].ok).toBe(false);
    const head = await send('studentLiyuan', adviser, { student_ids: [a.id], picked_up_by: null, override: '舅舅来接，已电话确认' });
    expect(head.data.results[0]).toMatchObject({ ok: true, state: 'left' });
    expect(await dayRow(a.id)).toMatchObject({ state: 'left', left_with: null, left_by: t.demo.users.adviser });
  });
});

describe('domain events', () => {
  it("'flow.committed' is emitted after commit for every appended event, with the socket message", async () => {
    const seen: Array<{ payload: DomainEventMap['flow.committed']; stored: Promise<number> }> = [];
    const off = t.app.get(DomainEvents).on('flow.committed', (payload) => {
      // emitted after commit: another connection already sees the row
      seen.push({
        payload,
        stored: t.sql.query(`select count(*)::int as n from flow_events where global_position = $1`, [payload.position]).then((r) => r.rows[0].n),
      });
    });
    try {
      const ids = kids.slice(0, 2).map((k) => k.id);
      await ok('studentEnter', teacher, ids);
      await send('studentEnter', teacher, { student_ids: ids }); // refused: no events
      expect(seen).toHaveLength(2);
      const stored = await events();
      for (const [i, s] of seen.entries()) {
        expect(await s.stored).toBe(1);
        expect(s.payload).toEqual({
          position: expect.any(Number),
          student_id: ids[i],
          class_id: t.demo.classes!.running,
          day: today,
          type: 'student.entered',
          state: 'in_centre',
          at: expect.any(String),
          actor: t.demo.users.teacher,
          school_id: t.demo.schoolId,
        });
        expect(stored[i]).toMatchObject({ student_id: ids[i], state_after: 'in_centre' });
      }
      expect(seen[1].payload.position).toBeGreaterThan(seen[0].payload.position);
    } finally {
      off();
    }
  });
});

it('messages of refusals follow the lang header', async () => {
  const res = await t
    .post(path('teacherStudentDinner'), teacher)
    .set('lang', 'en')
    .send({ student_ids: [kids[0].id] });
  expect(res.body.data.results[0].error).toBe(msg('en', 'flow.not_entered'));
});
