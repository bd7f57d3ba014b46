import { Code, Role, type PrincipalHome } from '@wantuo/shared';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { startTestApp, type TestApp } from '../../../test/harness';
import { FlowService } from '../flow/flow.service';

let t: TestApp;
let admin: string;
let kids: number[];
let today: string;
const HOME = '/api/index/principalHome';

const teacher = (): SchoolCaller => ({
  id: t.demo.users.teacher,
  role: Role.Teacher,
  schoolId: t.demo.schoolId,
  name: 't',
  nickname: 't',
  lang: 'zh-CN',
  tokenId: 0,
});

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true });
  admin = await t.login('admin');
  // the running class meets every day, so the figures do not depend on the weekday the test runs on
  await t.sql.query(`update class_times set weekdays = '{1,2,3,4,5,6,7}' where id = (select class_time_id from care_classes where id = $1)`, [
    t.demo.classes!.running,
  ]);
  kids = (
    await t.sql.query(`select student_id from care_class_students where class_id = $1 order by student_id`, [t.demo.classes!.running])
  ).rows.map((r) => r.student_id);
  today = (await t.sql.query(`select (now() at time zone 'Asia/Shanghai')::date::text as d`)).rows[0].d;
});
afterAll(() => t.close());

const home = async (token = admin) => {
  const res = await t.get(HOME, token);
  expect(res.body.code).toBe(Code.Ok);
  return res.body.data as PrincipalHome;
};

describe('principalHome', () => {
  it("counts today's students by state, today's open alerts, pending leave that is not over, and the account", async () => {
    const before = await home();
    expect(before.day).toBe(today);
    expect(before.flow.expected).toBeGreaterThanOrEqual(kids.length);
    const flow = t.app.get(FlowService);
    const enter = await flow.command(teacher(), kids.slice(0, 3), { type: 'enter' });
    expect(enter.results.every((r) => r.ok)).toBe(true);
    const [{ id: parentId }] = (await t.sql.query(`select id from users where role = ${Role.Parent} and school_id = $1 limit 1`, [t.demo.schoolId]))
      .rows;
    await t.sql.query(
      `insert into leave_requests (school_id, student_id, requested_by, start_day, end_day, reason, status) values
         ($1, $2, $3, $4::date, $4::date + 1, '看病', 0),
         ($1, $2, $3, $4::date - 10, $4::date - 9, '已过去', 0),
         ($1, $5, $3, $4::date, $4::date, '已批', 1)`,
      [t.demo.schoolId, kids[4], parentId, today, kids[5]],
    );
    await t.sql.query(
      `insert into flow_alerts (school_id, student_id, day, kind) values ($1, $2, $4, 'not_entered'), ($1, $3, $4, 'not_entered'), ($1, $3, $4::date - 1, 'not_picked_up')`,
      [t.demo.schoolId, kids[6], kids[7], today],
    );
    await t.sql.query(`insert into flow_alerts (school_id, student_id, day, kind, cleared_at) values ($1, $2, $3, 'absent', now())`, [
      t.demo.schoolId,
      kids[8],
      today,
    ]);
    await t.sql.query(`update schools set balance_fen = 123456 where id = $1`, [t.demo.schoolId]);

    const after = await home();
    expect(after.flow.in_centre).toBe(before.flow.in_centre + 3);
    expect(after.flow.expected).toBe(before.flow.expected - 3);
    expect(after.students).toBe(before.students);
    expect(after.open_alerts).toBe(before.open_alerts + 2);
    expect(after.alerts_by_kind.not_entered).toBe((before.alerts_by_kind.not_entered ?? 0) + 2);
    expect(after.pending_leave).toBe(before.pending_leave + 1);
    expect(after.school).toMatchObject({ balance_fen: 123456, service_state: expect.any(String) });
  });

  it('counts expiring and unpaid contracts and lists the soonest to run out', async () => {
    const before = await home();
    // the demo's own contracts (demo-contracts.ts): three running out within days, three waiting for payment
    expect(before.contracts).toMatchObject({ expiring: 3, unpaid: 3 });
    expect(before.contracts.soonest.map((c) => c.student_name).sort()).toEqual(['张浩然', '朱子墨', '陈小阳'].sort());
    const [{ id: pkg }] = (
      await t.sql.query(
        `insert into contract_packages (school_id, name, kind, length, price_fen) values ($1, '月托', 'month', 1, 150000) returning id`,
        [t.demo.schoolId],
      )
    ).rows;
    const add = (student: number, status: string, endIn: number, units: [number, number] | null) =>
      t.sql.query(
        `insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, units_total, units_used, list_price_fen, price_fen, status)
         values ($1, $2, $3, $4, $5, $6::date - 30, $6::date + $7::int, $8, $9, 150000, 150000, $10)`,
        [
          t.demo.schoolId,
          `HT${student}${status}${endIn}`.slice(0, 20),
          student,
          pkg,
          units ? 'days' : 'month',
          today,
          endIn,
          units?.[0] ?? null,
          units?.[1] ?? 0,
          status,
        ],
      );
    await add(kids[0], 'active', 5, null); // by date
    await add(kids[1], 'active', 90, [20, 18]); // by units: 2 left
    await add(kids[2], 'active', 60, null); // not yet
    await add(kids[3], 'unpaid', 60, null);
    await add(kids[4], 'active', -1, null); // past its end: the job expires it, not "expiring"
    await add(kids[5], 'active', 90, [20, 20]); // no units left: expired, not expiring
    const after = await home();
    expect(after.contracts.expiring).toBe(before.contracts.expiring + 2);
    expect(after.contracts.unpaid).toBe(before.contracts.unpaid + 1);
    const mine = after.contracts.soonest.filter((c) => c.package_name === '月托');
    expect(mine.map((c) => c.units_left)).toEqual([null, 2]);
    expect(mine[0]).toMatchObject({ end_day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
  });

  it('only the admin may read it', async () => {
    for (const who of ['teacher', 'adviser', 'parent', 'operator'] as const) {
      expect((await t.get(HOME, await t.login(who))).body).toMatchObject({ code: Code.Error, msg: '当前账号没有权限执行此操作' });
    }
    expect((await t.get(HOME)).body.code).toBe(Code.Untoken);
  });

  it("another school's admin sees only their own school", async () => {
    const other = await t.otherSchool();
    const theirs = await home(other.adminToken);
    expect(theirs.students).toBe(0);
    expect(theirs.open_alerts).toBe(0);
    expect(theirs.pending_leave).toBe(0);
    expect(theirs.flow).toEqual({ expected: 0, picked_up: 0, in_centre: 0, left: 0, on_leave: 0 });
  });

  it('refuses unknown parameters with code 100', async () => {
    const res = await t.get(`${HOME}?x=1`, admin);
    expect(res.body.code).toBe(Code.Error);
  });
});
