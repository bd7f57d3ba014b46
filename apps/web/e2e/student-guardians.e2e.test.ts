import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SHOTS, signedIn, startStack, type Stack } from './stack';

/**
 * Issue 21 on the admin's student screens: the guardians of an existing student change on its edit page (add, make
 * primary, remove, each in the history); the student page shows its points, contracts and teaching classes; removing
 * the student from its care class first shows what stays (open contracts, dinner bookings from today on).
 */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const NAME = '陈小雨';
const GRANNY = { name: '陈奶奶', mobile: '13900009101', relation: '祖母' };

const guardianRow = (page: Page, name: string) => page.getByTestId('guardians').locator('.ant-list-item', { hasText: name });
const historyRows = (page: Page) => page.getByTestId('guardians').locator('.ant-table-row');

/** Clicks and expects the saveStudentGuardians it sends to succeed. */
async function saved(page: Page, click: () => Promise<void>) {
  const response = page.waitForResponse((r) => r.url().includes('/saveStudentGuardians'));
  await click();
  expect(await (await response).json()).toMatchObject({ code: 200 });
}

it('the admin adds a guardian, makes her primary, removes the old one, and sees the history; the student page shows contracts, points and classes', async () => {
  const [st] = await stack.sql<{ id: number }>(`select id from students where name = $1`, [NAME]);
  // a teaching class for the student and a dinner booked for tomorrow
  await stack.sql(
    `with c as (insert into teaching_classes (school_id, name, subject, teacher_id, capacity, sessions_count, fee_fen)
                select s.school_id, '少儿书法（e2e）', '书法', u.id, 20, 12, 60000 from students s join users u on u.school_id = s.school_id and u.username = 'teacher'
                 where s.id = $1 returning id, school_id)
     insert into teaching_class_students (school_id, class_id, student_id) select c.school_id, c.id, $1 from c`,
    [st.id],
  );
  await stack.sql(
    `insert into points_accounts (student_id, school_id, balance) select id, school_id, 0 from students where id = $1 on conflict do nothing`,
    [st.id],
  );
  await stack.sql(`update points_accounts set balance = balance + 42 where student_id = $1`, [st.id]);
  const [{ balance }] = await stack.sql<{ balance: number }>(`select balance from points_accounts where student_id = $1`, [st.id]);
  await stack.sql(
    `with s as (select s.school_id, (now() at time zone sc.timezone)::date + 1 as day from students s join schools sc on sc.id = s.school_id where s.id = $1),
          g as (insert into meal_goods (school_id, name, price_fen) select school_id, '番茄牛腩饭（e2e）', 1500 from s returning id)
     insert into meal_bookings (school_id, student_id, day, goods_id, price_fen, status, pay_from)
     select s.school_id, $1, s.day, g.id, 1500, 'booked', 'school' from s, g
     on conflict (student_id, day) do nothing`,
    [st.id],
  );

  const admin = await signedIn(stack, 'admin', 1280, 900, `/principal_educationals_student?id=${st.id}`);
  await guardianRow(admin, '陈家长').waitFor();
  await expect.poll(() => guardianRow(admin, '陈家长').innerText()).toContain('主监护人');
  await admin.getByText('暂无变更记录').waitFor();

  // 1. add: a bad mobile is refused on the form, then the grandmother is added (a new parent account)
  await admin.getByRole('button', { name: '添加监护人' }).click();
  const modal = admin.locator('.ant-modal').filter({ hasText: '添加监护人' });
  await modal.getByLabel('监护人姓名').fill(GRANNY.name);
  await modal.getByLabel('手机号').fill('12345');
  await modal.getByLabel('与学生关系').fill(GRANNY.relation);
  await modal.getByRole('button', { name: /确\s*定|OK/ }).click();
  await modal.getByText('手机号格式不正确').waitFor();
  await modal.getByLabel('手机号').fill(GRANNY.mobile);
  await saved(admin, () => modal.getByRole('button', { name: /确\s*定|OK/ }).click());
  await modal.waitFor({ state: 'hidden' });
  await guardianRow(admin, GRANNY.name).waitFor();
  await expect.poll(() => historyRows(admin).count()).toBe(1);
  expect(await historyRows(admin).first().innerText()).toContain('添加');

  // 2. make her primary; 3. remove the old guardian
  await saved(admin, () => guardianRow(admin, GRANNY.name).getByRole('button', { name: '设为主监护人' }).click());
  // the change is on screen when the rows have swapped their buttons ('设为主监护人' contains '主监护人' itself: not a sign)
  await expect.poll(() => guardianRow(admin, GRANNY.name).getByRole('button', { name: '设为主监护人' }).count()).toBe(0);
  await expect.poll(() => guardianRow(admin, '陈家长').getByRole('button', { name: '设为主监护人' }).count()).toBe(1);
  await expect.poll(() => historyRows(admin).count()).toBe(2);
  await guardianRow(admin, '陈家长').getByRole('button', { name: '移除' }).click();
  await saved(admin, () =>
    admin
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /确\s*定|OK/ })
      .click(),
  );
  await expect.poll(() => guardianRow(admin, '陈家长').count()).toBe(0);
  await expect.poll(() => historyRows(admin).count()).toBe(3);
  await expect.poll(() => historyRows(admin).first().innerText()).toContain('移除');
  // the last guardian, the primary one, cannot be removed
  expect(await guardianRow(admin, GRANNY.name).getByRole('button', { name: '移除' }).isDisabled()).toBe(true);
  const [acct] = await stack.sql<{ role: number }>(`select role from users where mobile = $1`, [GRANNY.mobile]);
  expect(acct.role).toBe(6);
  await admin.locator('.ant-message-notice').first().waitFor({ state: 'detached' });
  await admin.getByTestId('guardians').scrollIntoViewIfNeeded();
  await admin.screenshot({ path: join(SHOTS, 'student-guardians-1280.png'), fullPage: true });

  // the profile form still saves on its own version after the guardian changes
  await admin
    .getByRole('button', { name: /保\s*存/ })
    .first()
    .click();
  await admin.locator('.ant-message-notice', { hasText: '已保存' }).waitFor();

  // 4. the student page: overview with points, contracts and classes; the teaching classes tab
  await admin.goto(`${stack.url}/principal_educationals_studentrecord?id=${st.id}`);
  const overview = admin.getByTestId('student-overview');
  await overview.waitFor();
  await expect.poll(() => overview.innerText()).toContain('积分余额');
  expect(await overview.innerText()).toContain(String(balance));
  expect(await overview.innerText()).toContain(GRANNY.name);
  const [contract] = await stack.sql<{ no: string }>(`select no from contracts where student_id = $1 order by id desc limit 1`, [st.id]);
  if (contract) await overview.getByRole('cell', { name: contract.no }).waitFor();
  else await overview.getByText('暂无合同').waitFor();
  await admin.screenshot({ path: join(SHOTS, 'student-overview-1280.png'), fullPage: true });
  const [tc] = await stack.sql<{ name: string }>(
    `select c.name from teaching_class_students m join teaching_classes c on c.id = m.class_id where m.student_id = $1 order by c.id desc limit 1`,
    [st.id],
  );
  expect(await overview.innerText()).toContain(tc.name);
  await admin.getByRole('tab', { name: '兴趣班（1）' }).click();
  await admin.getByRole('cell', { name: tc.name }).waitFor();
  await admin.waitForTimeout(400); // the tab's fade-in
  await admin.screenshot({ path: join(SHOTS, 'student-teaching-classes-1280.png') });

  // 5. removing the student from the care class first shows what stays: the open contract(s) and tomorrow's dinner
  const [cc] = await stack.sql<{ class_id: number }>(`select class_id from care_class_students where student_id = $1`, [st.id]);
  await admin.goto(`${stack.url}/principal_classCompile?id=${cc.class_id}`);
  const row = admin.locator('.ant-table-row', { hasText: NAME });
  await row.getByRole('button', { name: /移\s*出/ }).click();
  const confirm = admin.locator('.ant-modal-confirm');
  await confirm.waitFor();
  await confirm.getByTestId('remove-meals').getByText('番茄牛腩饭（e2e）').waitFor();
  if (contract) await confirm.getByTestId('remove-contracts').waitFor();
  await admin.waitForTimeout(300);
  await admin.screenshot({ path: join(SHOTS, 'care-remove-preview-1280.png') });
  await confirm.getByRole('button', { name: /取\s*消/ }).click();
  await confirm.waitFor({ state: 'hidden' });
  // nothing removed
  expect(await stack.sql(`select 1 from care_class_students where student_id = $1`, [st.id])).toHaveLength(1);

  // the student page on a narrow window still fits
  await admin.setViewportSize({ width: 375, height: 800 });
  await admin.goto(`${stack.url}/principal_educationals_studentrecord?id=${st.id}`);
  await admin.getByTestId('student-overview').waitFor();
  await admin.screenshot({ path: join(SHOTS, 'student-overview-375.png'), fullPage: true });
  await admin.context().close();
});
