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
/** The form item labelled `label` (within `scope`, the page by default). */
const field = (page: Page, label: string, scope: Page | ReturnType<Page['locator']> = page) =>
  scope.locator('.ant-form-item').filter({ has: page.locator('.ant-form-item-label label', { hasText: new RegExp(`^${label}$`) }) });

/**
 * Issue 13's home-tutoring screens: the admin sets a tutoring type (length, price, default tutor), creates a tutoring
 * class from a weekly slot with no end (the type's length), previews and generates its sessions, then adds a student
 * with a plan and opens the plan and records.
 */
it('set a tutoring type → create a tutoring class with preview and generation → add a student with a plan', async () => {
  const admin = await signedIn('13800000001', 1280, 900, '/principal_class_family?tab=types');

  // 1. the type's settings
  const row = admin.locator('.ant-table-row', { hasText: '作业辅导' });
  await row.waitFor();
  await admin.screenshot({ path: join(SHOTS, 'tutoring-types.png') });
  await row.getByRole('button', { name: /^设\s*置$/ }).click();
  const dialog = admin.locator('.ant-modal');
  await dialog.waitFor();
  await admin.screenshot({ path: join(SHOTS, 'tutoring-type-dialog.png') });
  await dialog.getByLabel('时长（分钟）').fill('60');
  await dialog.getByLabel('每次价格').fill('45.5');
  await field(admin, '默认老师', dialog).locator('.ant-select').click();
  await admin.keyboard.type('李老师');
  await admin.locator('.ant-select-item-option', { hasText: '李老师' }).first().click();
  await admin.screenshot({ path: join(SHOTS, 'tutoring-type-setting.png') });
  await dialog.getByRole('button', { name: /^确\s*定$/ }).click();
  await expect.poll(() => row.innerText()).toContain('45.50');
  await expect.poll(() => row.innerText()).toContain('李老师');

  // 2. a tutoring class: Saturdays 09:00 with no end (60 minutes), tomorrow for 8 weeks (the default range), previewed then generated
  await admin.getByRole('tab', { name: '辅导班' }).click();
  await admin.getByText('还没有辅导班').waitFor();
  await admin.getByRole('button', { name: '新建辅导班' }).click();
  await admin.waitForURL(/new=1/);
  await field(admin, '辅导班名称').locator('input').fill('三年级作业辅导');
  await field(admin, '辅导类型').locator('.ant-select').click();
  await admin.locator('.ant-select-item-option', { hasText: '作业辅导' }).first().click();
  await expect.poll(() => field(admin, '辅导类型').innerText()).toContain('60 分钟');
  // Saturday mornings, out of the students' care time slots
  await admin.getByRole('combobox', { name: '星期' }).click();
  await admin.locator('.ant-select-item-option', { hasText: '周六' }).click();
  await admin.getByRole('textbox', { name: '开始' }).fill('09:00');
  await admin.getByRole('button', { name: '预览课次' }).click();
  const preview = admin.getByTestId('schedule-preview');
  await preview.waitFor();
  await expect.poll(() => preview.innerText()).toContain('没有冲突');
  await expect.poll(() => preview.innerText()).toContain('09:00-10:00');
  await admin.screenshot({ path: join(SHOTS, 'tutoring-new-preview.png'), fullPage: true });
  await admin.getByRole('button', { name: /^创建辅导班并生成 \d+ 个课次$/ }).click();
  await admin.waitForURL(/\/principal_class_family\?id=\d+/);
  await admin.getByText('辅导班：三年级作业辅导').waitFor();
  await admin.locator('.ant-table-row').first().waitFor();
  await admin.screenshot({ path: join(SHOTS, 'tutoring-class-sessions.png'), fullPage: true });
  const [{ n }] = await stack.sql<{ n: number }>(
    `select count(*)::int as n from class_sessions s join tutoring_classes c on c.id = s.class_id and s.kind = 'tutoring' where c.name = '三年级作业辅导'`,
  );
  expect(n).toBeGreaterThanOrEqual(7);

  // 3. a student with a plan
  await admin.getByRole('tab', { name: '学生与计划' }).click();
  await admin.getByRole('button', { name: '添加学生' }).click();
  const add = admin.locator('.ant-modal');
  await add.locator('.ant-table-row').first().waitFor();
  const student = (await add.locator('.ant-table-row').first().locator('td').nth(1).innerText()).trim();
  await add.locator('.ant-table-row').first().locator('.ant-checkbox-input').check();
  await add.getByPlaceholder('本次加入学生的辅导计划').fill('每周检查数学作业，订正错题');
  await admin.screenshot({ path: join(SHOTS, 'tutoring-add-student.png') });
  await add.getByRole('button', { name: '添加（1）' }).click();
  const member = admin.locator('.ant-table-row', { hasText: student });
  await member.waitFor();
  await expect.poll(() => member.innerText()).toContain('每周检查数学作业');
  await admin.screenshot({ path: join(SHOTS, 'tutoring-student-added.png') });
  await member.getByRole('button', { name: '计划与记录' }).click();
  await admin.locator('.ant-drawer').getByText('接下来的课次').waitFor();
  await admin.waitForTimeout(500);
  await admin.screenshot({ path: join(SHOTS, 'tutoring-student-plan.png') });
  await admin.keyboard.press('Escape');

  // the list: stop, start (the class's row in 辅导班)
  await admin.getByRole('button', { name: /^返\s*回$/ }).click();
  const listed = admin.locator('.ant-table-row', { hasText: '三年级作业辅导' });
  await listed.waitFor();
  await listed.getByRole('button', { name: /^停\s*课$/ }).click();
  await admin
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /^确\s*定$|^OK$/ })
    .click();
  await expect.poll(() => listed.innerText()).toContain('已停课');
  await admin.screenshot({ path: join(SHOTS, 'tutoring-list.png') });

  // 4. 编辑 on a teaching class's page (editTeachingClass)
  const [{ id }] = await stack.sql<{ id: number }>(
    `insert into teaching_classes (school_id, name, subject, teacher_id, capacity, sessions_count, fee_fen)
     select school_id, '少儿美术班', '美术', id, 10, 8, 0 from users where mobile = '13800000002' returning id`,
  );
  await admin.goto(`${stack.url}/principal_class_Editing?type=teaching&id=${id}`);
  await admin.getByRole('button', { name: /^编\s*辑$/ }).click();
  const edit = admin.locator('.ant-modal').filter({ hasText: '编辑兴趣班' });
  await edit.waitFor();
  await edit.getByLabel('容量').fill('12');
  await edit.getByLabel('科目').fill('国画');
  await admin.waitForTimeout(400);
  await admin.screenshot({ path: join(SHOTS, 'teaching-class-edit.png') });
  await edit.getByRole('button', { name: /^确\s*定$/ }).click();
  await expect.poll(() => admin.locator('.ant-descriptions').innerText()).toContain('0 / 12');
  await expect.poll(() => admin.locator('.ant-descriptions').innerText()).toContain('国画');
});
