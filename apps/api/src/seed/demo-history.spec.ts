import { Code } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { startTestApp, type TestApp } from '../../test/harness';
import { rebuildProjection } from '../modules/flow/rebuild';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true, demoHistory: true });
});
afterAll(() => t.close());

const days = () =>
  t.sql
    .query(
      `select student_id, day::text, class_id, state, on_leave, entered_at, dinner_at, tutor_started_at, tutor_ended_at, left_at, left_with, picked_up_at, version
         from student_days where school_id = $1 order by student_id, day`,
      [t.demo.schoolId],
    )
    .then((r) => r.rows);

describe('the demo school’s attendance history', () => {
  it('four weeks of school days as flow events, projected by the flow’s own rules: a rebuild changes nothing', async () => {
    const seeded = await days();
    const { rows } = await t.sql.query(
      `select count(distinct day)::int as days, min(day)::text as first, max(day)::text as last, count(*)::int as student_days,
              count(*) filter (where state = 'left')::int as left, count(*) filter (where extract(isodow from day) > 5)::int as weekend,
              (select (now() at time zone 'Asia/Shanghai')::date::text) as today
         from student_days where school_id = $1`,
      [t.demo.schoolId],
    );
    const h = rows[0];
    expect(h.days).toBe(20);
    expect(h.last < h.today).toBe(true);
    expect(h.weekend).toBe(0);
    expect(h.left).toBe(h.student_days);
    expect(seeded.every((d) => d.entered_at && d.left_at && d.left_with)).toBe(true);
    expect(seeded.some((d) => d.picked_up_at) && seeded.some((d) => !d.picked_up_at)).toBe(true);

    await rebuildProjection(t.app.get(DataSource), { schoolId: t.demo.schoolId });
    expect(await days()).toEqual(seeded);
    // each of those days has its daily report (never sent: history), with who picked up
    const { rows: reports } = await t.sql.query(
      `select count(*)::int as n, count(*) filter (where sent_at is null and left_at is not null and pickup is not null)::int as complete
         from daily_reports where school_id = $1`,
      [t.demo.schoolId],
    );
    expect(reports[0]).toEqual({ n: h.student_days, complete: h.student_days });
  });

  it('the data centre counts it: most expected student-days came, some did not', async () => {
    const admin = await t.login('admin');
    const { rows } = await t.sql.query(`select min(day)::text as first, max(day)::text as last from student_days where school_id = $1`, [
      t.demo.schoolId,
    ]);
    const res = await t.get(`/api/index/studentClockingInCount?date_from=${rows[0].first}&date_to=${rows[0].last}&group=week`, admin);
    expect(res.body.code).toBe(Code.Ok);
    const list = res.body.data.list as Array<{ total: number; left: number; expected: number }>;
    const total = list.reduce((n, r) => n + r.total, 0);
    const came = list.reduce((n, r) => n + r.left, 0);
    expect(came / total).toBeGreaterThan(0.85);
    expect(came).toBeLessThan(total);
  });
});
