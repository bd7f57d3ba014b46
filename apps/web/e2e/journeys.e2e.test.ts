import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** The code the outbox SMS provider (run by the worker) delivered to a mobile. */
async function outboxCode(mobile: string): Promise<string> {
  for (let i = 0; i < 150; i++) {
    const body = await (await fetch(`${stack.url}/api/dev/sms-outbox?mobile=${mobile}`)).json();
    if (body.data?.code) return body.data.code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no SMS reached ${mobile}`);
}

async function signIn(page: Page, account: string, password = 'Demo@2026') {
  await page.getByPlaceholder('用户名 / 手机号 / 邮箱').fill(account);
  await page.getByPlaceholder('密码', { exact: true }).fill(password);
  await page.locator('form button[type=submit]').click();
}

describe('sign-in lands each role in its area', () => {
  it.each([
    ['admin', '/principalIndex', '校长首页'],
    ['teacher', '/teacher_today', '今日接送'],
    ['adviser', '/AAccountManagement', '班主任首页'],
    ['parent', '/parent', '家长首页'],
    ['operator', '/operator', '站点配置'],
  ])('%s → %s', async (account, path, title) => {
    const page = await newPage();
    await page.goto(`${stack.url}/login`);
    await expect.poll(() => page.title()).toBe('登录 - 晚托管理平台');
    await signIn(page, account);
    await page.waitForURL(`${stack.url}${path}`);
    await expect.poll(() => page.title()).toBe(`${title} - 晚托管理平台`);
    await page.context().close();
  });
});

it('the parent’s home lists their two children of the demo class', async () => {
  const page = await newPage(375, 740);
  await page.goto(`${stack.url}/login`);
  await signIn(page, 'parent');
  await page.waitForURL(`${stack.url}/parent`);
  await page.getByText('陈小雨').waitFor();
  await page.getByText('陈小阳').waitFor();
  await expect.poll(() => page.getByText('晚托班：阳光一班 · 班主任：张班主任').count()).toBe(2);
  await page.context().close();
});

it('a signed-out visitor is sent to sign-in and comes back; another role is sent home', async () => {
  const page = await newPage();
  await page.goto(`${stack.url}/principal_account`);
  await page.waitForURL(/\/login\?redirect=%2Fprincipal_account/);
  await signIn(page, 'admin');
  await page.waitForURL(`${stack.url}/principal_account`);
  // the staff account list, with the admin's own row
  await page.getByRole('button', { name: '添加教师' }).waitFor();
  await page.getByRole('cell', { name: /王园长/ }).waitFor();
  await page.context().close();

  const teacher = await newPage();
  await teacher.goto(`${stack.url}/login`);
  await signIn(teacher, 'teacher');
  await teacher.waitForURL(`${stack.url}/teacher_today`);
  await teacher.goto(`${stack.url}/principal_account`);
  await teacher.waitForURL(`${stack.url}/teacher_today`);
  await teacher.context().close();
});

it('SMS sign-in with the code from the outbox', async () => {
  const page = await newPage();
  await page.goto(`${stack.url}/login`);
  await page.getByText('短信登录', { exact: true }).click();
  await page.getByPlaceholder('手机号', { exact: true }).fill('13800000005');
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect.poll(() => page.getByRole('button', { name: /秒后重新获取/ }).count()).toBe(1);
  const code = await outboxCode('13800000005');
  expect(code).toMatch(/^\d{6}$/);
  await page.getByPlaceholder('短信验证码').fill(code);
  await page.locator('form button[type=submit]').click();
  await page.waitForURL(`${stack.url}/AAccountManagement`);
  await page.context().close();
});

it('the login form shows the spec’s messages for empty fields', async () => {
  const page = await newPage();
  await page.goto(`${stack.url}/login`);
  await page.locator('form button[type=submit]').click();
  await expect.poll(() => page.getByText('请输入用户名').count()).toBe(1);
  await expect.poll(() => page.getByText('请输入密码').count()).toBe(1);
  await page.context().close();
});

it('switches the language to English and remembers it', async () => {
  const page = await newPage();
  await page.goto(`${stack.url}/login`);
  await page.locator('.login-lang').getByRole('button', { name: 'English' }).click();
  await expect.poll(() => page.getByText('Account', { exact: true }).count()).toBe(1);
  await expect.poll(() => page.title()).toBe('Sign in - 晚托管理平台');
  await page.reload();
  await expect.poll(() => page.getByText('SMS', { exact: true }).count()).toBe(1);
  await page.getByPlaceholder('User name / mobile / e-mail').fill('teacher');
  await page.getByPlaceholder('Password', { exact: true }).fill('Demo@2026');
  await page.locator('form button[type=submit]').click();
  await page.waitForURL(`${stack.url}/teacher_today`);
  await expect.poll(() => page.title()).toMatch(/^Today's flow - /);
  await page.context().close();
});

it('unknown paths show the 404 page', async () => {
  const page = await newPage();
  await page.goto(`${stack.url}/no/such/page`);
  await expect.poll(() => page.getByText('404').count()).toBeGreaterThan(0);
  await page.context().close();
});

it('375 px screenshots of sign-in and of a teacher page (kept as artefacts)', async () => {
  const page = await newPage(375, 740);
  await page.goto(`${stack.url}/login`);
  await page.getByText('账号登录', { exact: true }).waitFor();
  await page.screenshot({ path: join(SHOTS, 'login-375.png') });
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll).toBeLessThanOrEqual(375);
  await signIn(page, 'teacher');
  await page.waitForURL(`${stack.url}/teacher_today`);
  await page.getByText('陈小雨').first().waitFor();
  await page.screenshot({ path: join(SHOTS, 'teacher-375.png') });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.context().close();
});
