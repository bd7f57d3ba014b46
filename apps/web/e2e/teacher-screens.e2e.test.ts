import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SHOTS, signedIn as signedInAs, startStack, type Stack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const signedIn = (account: string, width: number, height: number, path: string) => signedInAs(stack, account, width, height, path);
const shot = (page: Page, name: string, fullPage = false) => page.screenshot({ path: join(SHOTS, `teacher-screens-${name}.png`), fullPage });
const noSideways = async (page: Page) =>
  expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

/**
 * Issue 21's screens for served actions: a teacher's own profile (teacherInfo/teacherSaveInfo), handing a student's
 * pick-up and tutoring over (teacherShuttleTeacher/teacherTutorTeacher, teacherHandOverStudent), the day's homework in
 * the tutoring drawer (tutorTaskInfo), attendance records by date range (clockingInList), dinner orders of a student or
 * class (dinnerOrderList) and a student's own time slots (addStudentClassTime); the teachers' pages on a 375 px phone.
 */
it('teacher profile → hand-over of a pick-up and of tutoring → the day’s homework → records, orders and own slots', async () => {
  // 赵老师 also takes pick-ups, so the teacher has a colleague to hand a pick-up to
  await stack.sql(`update users set duties = '{tutor,shuttle}' where username = 'demo_zhao'`);
  const [{ cls }] = await stack.sql<{ cls: number }>(`select id as cls from care_classes where name = '阳光一班'`);
  const [{ teacher_id }] = await stack.sql<{ teacher_id: number }>(`select id as teacher_id from users where username = 'teacher'`);
  await stack.sql(
    `insert into homeworks (school_id, kind, class_id, title, content, set_day, due_day, teacher_id, request_key)
     select c.school_id, 'care', c.id, '口算练习第 12 页', '完成口算第 12 页，家长签字', (now() at time zone 'Asia/Shanghai')::date, (now() at time zone 'Asia/Shanghai')::date + 1, $2, 'e2e-teacher-screens'
       from care_classes c where c.id = $1`,
    [cls, teacher_id],
  );
  await stack.sql(
    `insert into homework_submissions (homework_id, student_id, school_id)
     select h.id, ccs.student_id, h.school_id from homeworks h join care_class_students ccs on ccs.class_id = h.class_id where h.request_key = 'e2e-teacher-screens'`,
  );

  // 1. 我的资料: from the avatar menu, on a phone
  const teacher = await signedIn('13800000002', 375, 812, '/teacher_today');
  await teacher.getByRole('button', { name: '用户设置' }).click();
  await teacher.locator('.ant-dropdown-menu-item', { hasText: '用户设置' }).click();
  await teacher.waitForURL(/\/settings/);
  await teacher.getByRole('tab', { name: '我的资料' }).waitFor();
  const profile = teacher.getByTestId('teacher-profile');
  await profile.waitFor();
  await profile.getByLabel('个人简介').fill('喜欢带孩子们做手工');
  await profile.getByLabel('昵称').fill('李老师（接送）');
  await shot(teacher, 'profile', true);
  await noSideways(teacher);
  await profile.getByRole('button', { name: '保存资料' }).click();
  await teacher.getByText('资料已保存').waitFor();
  const [me] = await stack.sql<{ remark: string; nickname: string }>(`select remark, nickname from users where username = 'teacher'`);
  expect(me).toEqual({ remark: '喜欢带孩子们做手工', nickname: '李老师（接送）' });

  // 2. 转交给…: the pick-up of 陈小雨 goes to 赵老师
  await teacher.goto(`${stack.url}/teacher_shuttle`);
  const row = teacher.locator('.flow-row', { hasText: '陈小雨' });
  await row.waitFor();
  await row.getByRole('button', { name: '转交 陈小雨' }).click();
  const dialog = teacher.locator('.ant-modal');
  await dialog.getByText('把 陈小雨 今天的接送转交给…').waitFor();
  await dialog.locator('.ant-radio-wrapper', { hasText: '赵老师' }).click();
  await shot(teacher, 'handover-dialog');
  await noSideways(teacher);
  await dialog.getByRole('button', { name: /^转\s*交$/ }).click();
  await teacher.getByText('已转交给 赵老师').waitFor();
  await expect.poll(() => teacher.locator('.flow-row', { hasText: '陈小雨' }).count()).toBe(0);
  await shot(teacher, 'shuttle-after', true);

  const zhao = await signedIn('13800000012', 375, 812, '/teacher_shuttle');
  const handed = zhao.locator('.flow-row', { hasText: '陈小雨' });
  await handed.waitFor();
  await expect.poll(() => handed.innerText()).toContain('李老师 转交');
  await shot(zhao, 'shuttle-received', true);
  await noSideways(zhao);

  // 3. the tutoring list: the day's homework in a student's drawer, then tutoring handed to 赵老师
  await teacher.goto(`${stack.url}/teacher_tutor`);
  const tutorRow = teacher.locator('.flow-row', { hasText: '王子涵' });
  await tutorRow.waitFor();
  await tutorRow.getByRole('button', { name: /^详\s*情$/ }).click();
  const homework = teacher.getByTestId('tutor-homework');
  await homework.waitFor();
  await expect.poll(() => homework.innerText()).toContain('口算练习第 12 页');
  await expect.poll(() => homework.innerText()).toContain('未完成');
  await shot(teacher, 'tutor-drawer', true);
  await teacher.locator('.ant-drawer-close').click();
  await tutorRow.getByRole('button', { name: '转交 王子涵' }).click();
  await teacher.locator('.ant-modal').getByText('把 王子涵 今天的辅导转交给…').waitFor();
  await teacher.locator('.ant-modal .ant-radio-wrapper', { hasText: '赵老师' }).click();
  await teacher
    .locator('.ant-modal')
    .getByRole('button', { name: /^转\s*交$/ })
    .click();
  await expect.poll(() => teacher.locator('.flow-row', { hasText: '王子涵' }).count()).toBe(0);
  await zhao.goto(`${stack.url}/teacher_tutor`);
  await zhao.locator('.flow-row', { hasText: '王子涵' }).waitFor();
  await shot(zhao, 'tutor-received', true);
  await noSideways(zhao);

  // 4. the head teacher: attendance records of a date range, dinner orders of the class
  const adviser = await signedIn('13800000005', 375, 812, '/AStudentAttendance');
  await adviser.getByRole('tab', { name: '考勤记录' }).click();
  const records = adviser.getByTestId('attendance-records');
  await records.waitFor();
  await records.locator('.ant-table-row').first().waitFor();
  await expect.poll(() => records.innerText()).toMatch(/共 \d+ 条/);
  await records.getByRole('combobox', { name: '状态' }).click();
  await adviser.locator('.ant-select-item-option', { hasText: '已离园' }).click();
  await shot(adviser, 'attendance-records', true);
  await noSideways(adviser);

  await adviser.goto(`${stack.url}/AOrderReservation`);
  await adviser.getByRole('tab', { name: '学生/班级订餐' }).click();
  const orders = adviser.getByTestId('order-history');
  await orders.getByText('先选择一名学生或一个班级').waitFor();
  await orders.getByText('按班级').click();
  await orders.getByRole('combobox', { name: '选择班级' }).click();
  await adviser.locator('.ant-select-item-option', { hasText: '阳光一班' }).click();
  await expect.poll(() => orders.innerText()).toMatch(/共 \d+ 条/);
  await shot(adviser, 'orders-class', true);
  await noSideways(adviser);

  // 5. the admin: one student's orders; a student's own time slots
  const admin = await signedIn('13800000001', 1280, 900, '/principal_order');
  await admin.getByRole('tab', { name: '学生/班级订餐' }).click();
  const adminOrders = admin.getByTestId('order-history');
  await adminOrders.getByRole('combobox', { name: '搜索并选择学生' }).click();
  await admin.keyboard.type('陈小雨');
  await admin.locator('.ant-select-item-option', { hasText: '陈小雨' }).first().click();
  await expect.poll(() => adminOrders.innerText()).toMatch(/共 \d+ 条/);
  await shot(admin, 'orders-student');

  await admin.goto(`${stack.url}/principal_classCompile?id=${cls}`);
  const studentRow = admin.locator('.ant-table-row', { hasText: '陈小阳' });
  await studentRow.waitFor();
  await studentRow.getByRole('button', { name: '时间段' }).click();
  const slots = admin.locator('.ant-modal');
  await slots.getByText('陈小阳 的个人时间段').waitFor();
  const lateCare = slots.locator('.ant-checkbox-wrapper', { hasText: '延时晚托' });
  await lateCare.click();
  // the box must be ticked before saving (a click that missed would save the slots unchanged)
  await expect.poll(() => lateCare.locator('input').isChecked()).toBe(true);
  await shot(admin, 'own-slots-dialog');
  await slots.getByRole('button', { name: /^确\s*定$/ }).click();
  await admin.getByText('已保存 陈小阳 的时间段').waitFor();
  await expect.poll(() => studentRow.innerText()).toContain('延时晚托');
  await shot(admin, 'own-slots');
  const [{ n }] = await stack.sql<{ n: number }>(
    `select count(*)::int as n from student_class_times sct join students s on s.id = sct.student_id join class_times ct on ct.id = sct.class_time_id where s.name = '陈小阳' and ct.name = '延时晚托'`,
  );
  expect(n).toBe(1);
}, 240_000);

/**
 * A student's growth over time (teacherStudentGrowth, issue 21) on the teacher's /Teacher_educationals drawer at 375 px:
 * the published scores as a line (an unpublished exam stays out) and the attendance per month or week as bars.
 */
it('the growth drawer draws the scores and attendance charts on a phone', async () => {
  const [{ cls, sid }] = await stack.sql<{ cls: number; sid: number }>(
    `select c.id as cls, s.id as sid from care_classes c join care_class_students ccs on ccs.class_id = c.id join students s on s.id = ccs.student_id
      where c.name = '阳光一班' and s.name = '陈小阳'`,
  );
  // two published exams and one not published, scored for the whole class
  for (const [name, daysAgo, published] of [
    ['十月月考', 40, true],
    ['期中考试', 12, true],
    ['单元小测', 2, false],
  ] as const) {
    await stack.sql(
      `with e as (
         insert into exams (school_id, name, subject, exam_day, full_mark, published_at)
         select c.school_id, $2, '数学', (now() at time zone 'Asia/Shanghai')::date - $3::int, 100, case when $4 then now() end from care_classes c where c.id = $1
         returning id, school_id),
       ec as (insert into exam_classes (exam_id, class_id, school_id) select e.id, $1, e.school_id from e)
       insert into exam_scores (exam_id, student_id, school_id, class_id, score2, absent)
       select e.id, ccs.student_id, e.school_id, $1, 120 + (ccs.student_id * 7 + $3::int) % 70, false from e join care_class_students ccs on ccs.class_id = $1`,
      [cls, name, daysAgo, published],
    );
  }

  // a day present last week (the demo's history may have more)
  await stack.sql(
    `insert into student_days (school_id, student_id, day, class_id, state, on_leave, version, last_position)
     select s.school_id, s.id, (now() at time zone 'Asia/Shanghai')::date - 7, $2, 'left', false, 1, 0 from students s where s.id = $1
     on conflict (student_id, day) do nothing`,
    [sid, cls],
  );

  const teacher = await signedIn('13800000002', 375, 812, '/Teacher_educationals');
  const row = teacher.locator('.ant-table-row', { hasText: '陈小阳' });
  await row.waitFor();
  await row.getByRole('button', { name: '查看' }).click();
  const charts = teacher.getByTestId('growth-charts');
  await charts.waitFor();
  await charts.getByRole('img', { name: '考试成绩（得分率）' }).locator('canvas').waitFor();
  await expect.poll(() => charts.innerText()).toContain('最近一次：期中考试');
  expect(await charts.innerText()).not.toContain('单元小测');
  await charts.getByRole('img', { name: '出勤' }).locator('canvas').waitFor();
  await charts.getByText('按周').click();
  await expect.poll(() => charts.innerText()).toContain('近 12 周');
  await charts.getByRole('img', { name: '出勤' }).locator('canvas').waitFor();
  // the canvases fit the phone
  const widths = await charts.locator('canvas').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right));
  for (const w of widths) expect(w).toBeLessThanOrEqual(375);
  await charts.scrollIntoViewIfNeeded();
  await teacher.waitForTimeout(600); // the charts' entry animation
  await shot(teacher, 'growth');
  await noSideways(teacher);
});

/**
 * Issue 34's role screens: each new screen as its role at 375 px (the admin's too), its content or empty state shown,
 * a leave request of the teacher's student read (without the decision, which is the head teacher's and the admin's).
 */
it('the role screens of issue 34 at 375 px: teacher leave and classes, parent growth, admin leave, attendance, class week', async () => {
  const [{ sid, parent }] = await stack.sql<{ sid: number; parent: number }>(
    `select s.id as sid, g.user_id as parent from students s join student_guardians g on g.student_id = s.id join users u on u.id = g.user_id
      where u.username = 'parent' and s.name = '陈小雨'`,
  );
  await stack.sql(
    `insert into leave_requests (school_id, student_id, requested_by, start_day, end_day, reason)
     select s.school_id, s.id, $2, (now() at time zone 'Asia/Shanghai')::date + 1, (now() at time zone 'Asia/Shanghai')::date + 1, '看牙医' from students s where s.id = $1`,
    [sid, parent],
  );

  const teacher = await signedIn('13800000002', 375, 812, '/teacher_leave');
  const leave = teacher.getByTestId('leave-review');
  await leave.locator('.ant-table-row', { hasText: '陈小雨' }).first().click();
  await teacher.getByText('看牙医').last().waitFor();
  expect(await teacher.getByRole('button', { name: /^批\s?准$/ }).count()).toBe(0);
  await shot(teacher, 'teacher-leave');
  await teacher.goto(`${stack.url}/teacher_classes`);
  await teacher.getByTestId('teacher-classes').waitFor();
  await teacher.waitForLoadState('networkidle');
  await shot(teacher, 'teacher-classes', true);
  await noSideways(teacher);

  const parentPage = await signedIn('13800000006', 375, 812, '/parent_growth');
  await parentPage.getByTestId('growth-charts').waitFor();
  await parentPage.getByTestId('parent-classes').waitFor();
  await parentPage.waitForLoadState('networkidle');
  await parentPage.waitForTimeout(600);
  await shot(parentPage, 'parent-growth', true);
  await noSideways(parentPage);

  const admin = await signedIn('13800000001', 375, 812, '/principal_leave');
  await admin.getByTestId('leave-review').locator('.ant-table-row', { hasText: '陈小雨' }).first().click();
  await admin.getByRole('button', { name: /^批\s?准$/ }).waitFor();
  await shot(admin, 'admin-leave');
  await admin.goto(`${stack.url}/principal_attendance`);
  await admin.getByTestId('attendance-records').waitFor();
  await admin.waitForLoadState('networkidle');
  await shot(admin, 'admin-attendance', true);
  await admin.goto(`${stack.url}/principal_class_schedule`);
  await admin.getByRole('combobox', { name: '选择班级' }).waitFor();
  await admin.waitForLoadState('networkidle');
  await shot(admin, 'admin-class-schedule', true);
});
