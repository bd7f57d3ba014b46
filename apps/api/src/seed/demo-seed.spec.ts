import { Code } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { startTestApp, type TestApp } from '../../test/harness';
import { rebuildCounts } from '../modules/contracts/contract-counts';
import { DEMO_PASSWORD } from './demo-seed';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true });
});
afterAll(() => t.close());

it('seeds design.md §2: a running class of 10 with adviser as head teacher and teacher on shuttle and tutoring', async () => {
  const { rows } = await t.sql.query(
    `select c.name, c.status, h.username as head, count(s.student_id)::int as students,
            (select array_agg(distinct u.username || ':' || d.duty order by u.username || ':' || d.duty)
               from duty_assignments d join users u on u.id = d.teacher_id where d.class_id = c.id and d.student_id is null) as duties
       from care_classes c join users h on h.id = c.head_teacher_id left join care_class_students s on s.class_id = c.id
      where c.id = $1 group by c.id, h.username`,
    [t.demo.classes!.running],
  );
  expect(rows[0]).toEqual({
    name: '阳光一班',
    status: 1,
    head: 'adviser',
    students: 10,
    duties: ['adviser:head', 'teacher:shuttle', 'teacher:tutor'],
  });
});

it('every student of the running class has a guardian and authorised pick-up people; parent guards two of them', async () => {
  const { rows } = await t.sql.query(
    `select s.id, (select count(*) from student_guardians g where g.student_id = s.id)::int as guardians,
            (select count(*) from pickup_people p where p.student_id = s.id and p.deleted_at is null)::int as pickups
       from care_class_students cs join students s on s.id = cs.student_id where cs.class_id = $1`,
    [t.demo.classes!.running],
  );
  expect(rows).toHaveLength(10);
  for (const r of rows) expect(r.guardians).toBeGreaterThanOrEqual(1);
  for (const r of rows) expect(r.pickups).toBeGreaterThanOrEqual(1);
  const { rows: kids } = await t.sql.query(
    `select count(*)::int as n from student_guardians g join care_class_students cs on cs.student_id = g.student_id
      where g.user_id = $1 and cs.class_id = $2`,
    [t.demo.users.parent, t.demo.classes!.running],
  );
  expect(kids[0].n).toBe(2);
});

it('has a second class, a left-job teacher who cannot sign in, and archived students', async () => {
  const { rows } = await t.sql.query(
    `select (select count(*) from care_classes where school_id = $1)::int as classes,
            (select count(*) from students where school_id = $1 and status = 0)::int as archived,
            (select count(*) from users where school_id = $1 and job_status = 2)::int as left_job`,
    [t.demo.schoolId],
  );
  expect(rows[0]).toEqual({ classes: 2, archived: 2, left_job: 1 });
  const res = await t.post('/api/index/login').send({ account: 'demo_sun', password: DEMO_PASSWORD });
  expect(res.body).toMatchObject({ code: Code.Error, msg: '该账号已离职，无法登录' });
  // parents of the demo sign in with SMS codes: no password
  const parent = await t.post('/api/index/login').send({ account: '13900000001', password: DEMO_PASSWORD });
  expect(parent.body.code).toBe(Code.Error);
});

it('has four packages and contracts in every state, with the history and list counts the services keep', async () => {
  const admin = await t.login('admin');
  const packages = await t.get('/api/index/contractPackage', admin);
  expect(packages.body.data.list.map((p: { name: string; kind: string }) => `${p.kind}:${p.name}`).sort()).toEqual([
    'days:20天次卡',
    'month:月托（含晚餐）',
    'sessions:10次辅导',
    'term:学期托管',
  ]);
  const list = await t.get('/api/index/contractList?limit=50', admin);
  expect(list.body.data).toMatchObject({ total: 16, counts: { unpaid: 3, active: 7, expiring: 3, expired: 2, cancelled: 1 } });
  // the counts kept by the triggers are the contracts' own
  expect((await rebuildCounts(t.app.get(DataSource), { schoolId: t.demo.schoolId })).corrected).toBe(0);
  // every contract has its signing in the history, the paid ones their payment; the renewal points at its contract
  const { rows } = await t.sql.query(
    `select c.status, c.paid_fen::int as paid, c.renewed_from is not null as renewal,
            (select array_agg(e.type order by e.id) from contract_events e where e.contract_id = c.id) as events
       from contracts c where c.school_id = $1 order by c.id`,
    [t.demo.schoolId],
  );
  for (const r of rows) {
    expect(r.events).toContain(r.renewal ? 'renewed' : 'signed');
    expect(r.events.includes('paid')).toBe(r.paid > 0);
  }
  expect(rows.filter((r) => r.renewal)).toEqual([{ status: 'unpaid', paid: 0, renewal: true, events: ['renewed'] }]);
  expect(rows.find((r) => r.status === 'cancelled')!.events).toEqual(['signed', 'paid', 'cancelled', 'refunded']);
  // the demo parent sees both children's contracts, one of them to pay
  const parent = await t.login('parent');
  const kids = await t.sql.query(`select student_id from student_guardians where user_id = $1 order by student_id`, [t.demo.users.parent]);
  const states = [];
  for (const k of kids.rows)
    states.push(
      ...(await t.get(`/api/index/studentContractList?student_id=${k.student_id}`, parent)).body.data.list.map((c: { state: string }) => c.state),
    );
  expect(states.sort()).toEqual(['active', 'expiring', 'unpaid']);
});
