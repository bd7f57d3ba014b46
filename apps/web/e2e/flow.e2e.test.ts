import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { join } from 'node:path';
import { SHOTS, startStack, type Stack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

async function signedIn(account: string, width: number, height: number, path: string): Promise<Page> {
  const context = await stack.browser.newContext({ viewport: { width, height }, locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto(`${stack.url}/login`);
  await page.getByPlaceholder('用户名 / 手机号 / 邮箱').fill(account);
  await page.getByPlaceholder('密码', { exact: true }).fill('Demo@2026');
  await page.locator('form button[type=submit]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  await page.goto(`${stack.url}${path}`);
  return page;
}

it('the teacher taps on the phone, the head teacher’s board changes and the parent sees it, live', async () => {
  const board = await signedIn('adviser', 1280, 800, '/AStudentAttendance');
  await board.getByText('实时', { exact: true }).waitFor();
  await expect.poll(() => board.locator('.ant-card-head-title', { hasText: '未到' }).innerText()).toContain('未到 10');

  // parents sign in with SMS codes; the demo parent also has the demo password
  const parent = await signedIn('parent', 375, 740, '/parent');
  await parent.getByText('陈小雨').first().waitFor();
  await expect.poll(() => parent.locator('.child-state').first().innerText()).toBe('未到');

  const phone = await signedIn('teacher', 375, 740, '/teacher_today');
  await phone.getByText('陈小雨').first().waitFor();
  await phone.getByText('全选').click();
  await phone.getByRole('button', { name: /入\s*园/ }).click();
  await phone.getByText('已记录 10 人').waitFor();

  // no reloads: the board and the parent's page follow the socket
  await expect.poll(() => board.locator('.ant-card-head-title', { hasText: '在园' }).innerText()).toContain('在园 10');
  await expect.poll(() => parent.locator('.child-state').first().innerText()).toBe('在园');
  await parent.getByText('已入园').first().waitFor();

  // one child leaves with an authorised pick-up person
  await phone.locator('.flow-row', { hasText: '陈小雨' }).click();
  await phone.getByRole('button', { name: /离\s*园/ }).click();
  await phone.locator('.flow-pickup').first().click();
  await phone.locator('.ant-modal').getByRole('button', { name: /离\s*园/ }).click();
  await phone.getByText('已记录 1 人').waitFor();
  await expect.poll(() => board.locator('.ant-card-head-title', { hasText: '已离园' }).innerText()).toContain('已离园 1');
  await parent.getByText('已离园').first().waitFor();

  // a step the state machine forbids is greyed out with the reason
  await phone.locator('.flow-row', { hasText: '陈小雨' }).click();
  await expect.poll(() => phone.getByRole('button', { name: /晚\s*餐/ }).isDisabled()).toBe(true);
  await phone.getByText('陈小雨：已离园，当天不能再记录').first().waitFor();

  await phone.screenshot({ path: join(SHOTS, 'teacher-today-375.png') });
  await board.screenshot({ path: join(SHOTS, 'attendance-board-1280.png') });
  await parent.screenshot({ path: join(SHOTS, 'parent-today-375.png') });
  for (const p of [board, parent, phone]) await p.context().close();
});
