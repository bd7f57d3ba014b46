import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SHOTS, startStack, type Stack, CONTEXT } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

async function newPage(width = 1280, height = 800): Promise<Page> {
  const context = await stack.browser.newContext({ viewport: { width, height }, ...CONTEXT });
  return context.newPage();
}

async function signIn(page: Page, account: string, password = 'Demo@2026') {
  await page.getByPlaceholder('用户名 / 手机号 / 邮箱').fill(account);
  await page.getByPlaceholder('密码', { exact: true }).fill(password);
  await page.locator('form button[type=submit]').click();
}

/** The form item of a label (its input, select or radio group inside). */
const field = (page: Page, label: string) =>
  page.locator('.ant-form-item').filter({ has: page.locator('.ant-form-item-label label', { hasText: new RegExp(`^${label}$`) }) });

const TEACHER = { name: '周老师', mobile: '13700009001', password: 'Teach2026x' };
const CLASS = { name: '星星班', capacity: '20' };
const STUDENTS = [
  { name: '宋星辰', guardian: '宋爸爸', mobile: '13900009011', relation: '父亲' },
  { name: '宋星月', guardian: '宋妈妈', mobile: '13900009012', relation: '母亲' },
];

it('the admin adds a head teacher, a class and two students; the head teacher sees them in their class', async () => {
  const admin = await newPage();
  await admin.goto(`${stack.url}/login`);
  await signIn(admin, 'admin');
  await admin.waitForURL(`${stack.url}/principalIndex`);

  // 1. a head-teacher account
  await admin.goto(`${stack.url}/principal_educationalsTeacher_add`);
  await field(admin, '姓名').locator('input').fill(TEACHER.name);
  await field(admin, '手机号').locator('input').fill(TEACHER.mobile);
  await field(admin, '角色')
    .locator('label.ant-radio-wrapper', { hasText: /^班主任$/ })
    .click();
  await field(admin, '初始密码').locator('input').fill(TEACHER.password);
  await field(admin, '确认密码').locator('input').fill(TEACHER.password);
  await admin.getByRole('button', { name: /保\s*存/ }).click();
  await admin.waitForURL(`${stack.url}/principal_account`);
  await admin
    .getByRole('cell', { name: new RegExp(TEACHER.name) })
    .first()
    .waitFor();

  // 2. a care class headed by the new teacher
  await admin.goto(`${stack.url}/principal_add_class`);
  await field(admin, '班级名称').locator('input').fill(CLASS.name);
  await field(admin, '班主任').locator('.ant-select').click();
  await admin.keyboard.type(TEACHER.name);
  await admin.locator('.ant-select-item-option', { hasText: TEACHER.name }).click();
  await expect.poll(() => field(admin, '班主任').locator('.ant-select').innerText()).toContain(TEACHER.name);
  await field(admin, '容量（人）').locator('input').fill(CLASS.capacity);
  await admin.getByRole('button', { name: /保\s*存/ }).click();
  await admin.waitForURL(`${stack.url}/principal_class`);

  // 3. two students, each with a guardian
  for (const s of STUDENTS) {
    await admin.goto(`${stack.url}/principal_educationalsStudent_add`);
    await admin.locator('#name').fill(s.name);
    await field(admin, '监护人姓名').locator('input').fill(s.guardian);
    await field(admin, '手机号').locator('input').fill(s.mobile);
    await field(admin, '与学生关系').locator('input').fill(s.relation);
    await admin.getByRole('button', { name: /保\s*存/ }).click();
    await admin.waitForURL(`${stack.url}/principal_educationals`);
  }

  // 4. the class's students screen, reached from the class list, and both students added to it
  await admin.goto(`${stack.url}/principal_class`);
  await admin.getByPlaceholder('搜索班级').fill(CLASS.name);
  await admin.getByPlaceholder('搜索班级').press('Enter');
  const row = admin.locator('.ant-table-row', { hasText: CLASS.name });
  await expect.poll(() => row.count()).toBe(1);
  await expect.poll(() => row.innerText()).toContain(TEACHER.name);
  await row.getByRole('button', { name: '学生与老师' }).click();
  await admin.waitForURL(/\/principal_classCompile\?id=\d+$/);
  const classId = Number(new URL(admin.url()).searchParams.get('id'));
  expect(classId).toBeGreaterThan(0);
  await admin.getByText(`班级学生：${CLASS.name}`).waitFor();
  await admin.getByRole('button', { name: '添加学生' }).click();
  const modal = admin.locator('.ant-modal').filter({ hasText: '还能添加' });
  await modal.waitFor();
  for (const s of STUDENTS) {
    await modal.getByPlaceholder('搜索学生姓名').fill(s.name);
    await modal.getByPlaceholder('搜索学生姓名').press('Enter');
    const pick = modal.locator('.ant-table-row', { hasText: s.name });
    await expect.poll(() => modal.locator('.ant-table-row').count()).toBe(1);
    await pick.locator('.ant-checkbox-input').check();
  }
  await modal.getByRole('button', { name: '添加（2）' }).click();
  await modal.waitFor({ state: 'hidden' });
  for (const s of STUDENTS) await admin.locator('.ant-table-row', { hasText: s.name }).waitFor();
  await expect.poll(() => admin.locator('.ant-descriptions').innerText()).toContain('2 / 20');
  await admin.locator('.ant-message-notice').waitFor({ state: 'detached' });
  await admin.screenshot({ path: join(SHOTS, 'class-students-1280.png') });
  await admin.context().close();

  // 5. the new head teacher signs in with the mobile and sees the class and both students
  const head = await newPage(375, 740);
  await head.goto(`${stack.url}/login`);
  await signIn(head, TEACHER.mobile, TEACHER.password);
  await head.waitForURL(`${stack.url}/AAccountManagement`);
  await head.goto(`${stack.url}/AClassList`);
  await head.locator('.ant-list-item', { hasText: STUDENTS[0].name }).waitFor();
  await head.locator('.ant-list-item', { hasText: STUDENTS[1].name }).waitFor();
  await expect.poll(() => head.locator('h5').innerText()).toContain(CLASS.name);
  await expect.poll(() => head.locator('.ant-card-body').innerText()).toContain(`班主任：${TEACHER.name} · 人数：2 / 20`);
  await head.screenshot({ path: join(SHOTS, 'adviser-class-375.png') });
  expect(await head.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await head.context().close();
});
