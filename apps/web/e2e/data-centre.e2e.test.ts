import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Workbook } from 'exceljs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SHOTS, startStack, type Stack, signedIn as signedInAs } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
  // three weeks of attendance history for the demo school's class students (test setup: the flow's projection rows)
  await stack.sql(
    `insert into student_days (school_id, student_id, day, class_id, state, on_leave, entered_at, left_at, version, last_position)
     select ccs.school_id, ccs.student_id, d::date, ccs.class_id,
            case when (ccs.student_id + extract(day from d)::int) % 9 = 0 then 'expected' else 'left' end,
            (ccs.student_id + extract(day from d)::int) % 9 = 0,
            case when (ccs.student_id + extract(day from d)::int) % 9 = 0 then null else d + interval '16 hours' end,
            case when (ccs.student_id + extract(day from d)::int) % 9 = 0 then null else d + interval '19 hours' end, 1, 0
       from care_class_students ccs
      cross join generate_series((now() at time zone 'Asia/Shanghai')::date - 21, (now() at time zone 'Asia/Shanghai')::date - 1, interval '1 day') d
      where extract(isodow from d) < 6
     on conflict do nothing`,
  );
});
afterAll(async () => {
  await stack?.stop();
});

const signedIn = (account: string, width: number, height: number, path: string) => signedInAs(stack, account, width, height, path);

/** The data centre draws attendance with ECharts by day, week and month and exports the same numbers. */
it('the admin sees attendance by day and by week and exports it; the head teacher on a phone sees the class', async () => {
  const admin = await signedIn('admin', 1280, 900, '/principal_data');
  const chart = admin.getByRole('img', { name: '学生出勤' });
  await chart.locator('canvas').waitFor();
  await admin
    .getByText(/到园率/)
    .first()
    .waitFor();
  await admin.screenshot({ path: join(SHOTS, 'data-attendance-day.png') });

  await admin.getByText('按周', { exact: true }).click();
  await admin.getByText(/周$/).first().waitFor({ state: 'attached' });
  await chart.locator('canvas').waitFor();
  const summary = await admin.getByText(/应到 \d+ 人次/).innerText();
  await admin.screenshot({ path: join(SHOTS, 'data-attendance-week.png') });

  const wait = admin.waitForEvent('download');
  await admin
    .getByRole('button', { name: /导出 Excel/ })
    .first()
    .click();
  const file = await (await wait).path();
  const wb = new Workbook();
  await wb.xlsx.load(readFileSync(file) as unknown as ArrayBuffer);
  const rows = wb.worksheets[0]
    .getSheetValues()
    .filter(Boolean)
    .map((r) => (r as unknown[]).slice(1));
  expect(rows[0]).toEqual(['周（周一）', '班级', '应到人次', '已离园', '在园', '已接到', '未到', '请假']);
  expect(rows[rows.length - 1][0]).toBe('合计');
  // the export's rows give the chart's summary: per week, summed over classes, the weeks someone came or was on leave
  const weeks = new Map<string, number[]>();
  for (const r of rows.slice(1, -1)) {
    const acc = weeks.get(String(r[0])) ?? [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 6; i++) acc[i] += Number(r[2 + i]);
    weeks.set(String(r[0]), acc);
  }
  const kept = [...weeks.values()].filter((w) => w[1] + w[2] + w[3] + w[5] > 0);
  expect(summary).toContain(`应到 ${kept.reduce((n, w) => n + w[0], 0)} 人次`);
  expect(summary).toContain(`到园 ${kept.reduce((n, w) => n + w[1] + w[2] + w[3], 0)} 人次`);

  await admin.getByText('按月', { exact: true }).click();
  await chart.locator('canvas').waitFor();
  await admin.screenshot({ path: join(SHOTS, 'data-attendance-month.png') });

  // the points tab: points the admin awards today (through the API: a test's setup) show in this month's chart
  const login = await fetch(`${stack.url}/api/index/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: 'Demo@2026' }),
  });
  const token = ((await login.json()) as { data: { userinfo: { token: string } } }).data.userinfo.token;
  const ids = (await stack.sql<{ id: number }>(`select id from students where status = 1 order by id limit 3`)).map((r) => r.id);
  const award = await fetch(`${stack.url}/api/index/awardPoints`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify({ student_ids: ids, points: 5, reason: '按时完成作业', request_id: 'e2e-data-award' }),
  });
  expect(((await award.json()) as { code: number }).code).toBe(200);
  await admin.getByRole('tab', { name: '积分' }).click();
  await admin.getByText('发放 15 分', { exact: false }).first().waitFor();
  await admin.getByRole('img', { name: '积分发放与兑换' }).locator('canvas').waitFor();
  const pointsExport = admin.getByRole('button', { name: /导出 Excel/ });
  await expect.poll(() => pointsExport.isEnabled()).toBe(true);
  const pw = admin.waitForEvent('download');
  await pointsExport.click();
  const pointsWb = new Workbook();
  await pointsWb.xlsx.load(readFileSync(await (await pw).path()) as unknown as ArrayBuffer);
  expect(JSON.stringify(pointsWb.worksheets[0].getSheetValues())).toContain('合计');
  await admin.screenshot({ path: join(SHOTS, 'data-points-month.png') });
  await admin.getByRole('tab', { name: '订餐' }).click();
  await admin
    .getByText(/该区间没有订餐|预订 \d+ 份/)
    .first()
    .waitFor();
  // the roll call of teaching and tutoring sessions (none in the demo's range: the empty state, and the export still offered)
  await admin.getByRole('tab', { name: '课堂考勤' }).click();
  await admin
    .getByText(/该区间没有课堂点名记录|点名 \d+ 课次/)
    .first()
    .waitFor();
  await admin.getByRole('combobox', { name: '课程类型' }).waitFor();
  const rollExport = admin.getByRole('tabpanel', { name: '课堂考勤' }).getByRole('button', { name: /导出 Excel/ });
  await expect.poll(() => rollExport.isEnabled()).toBe(true);
  await admin.screenshot({ path: join(SHOTS, 'data-roll-call.png') });

  const adviser = await signedIn('adviser', 375, 760, '/A_data');
  await adviser.getByRole('img', { name: '学生出勤' }).locator('canvas').waitFor();
  await adviser
    .getByText(/到园率/)
    .first()
    .waitFor();
  await adviser.screenshot({ path: join(SHOTS, 'data-attendance-adviser-375.png'), fullPage: true });
  expect(await adviser.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
