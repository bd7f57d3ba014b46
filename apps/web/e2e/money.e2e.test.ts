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

const MOBILE = '13912345678';
const SCHOOL = '晨光晚托中心';
const PASSWORD = 'Morning2026';
const DEAL_PWD = '246810';

async function newPage(width = 1280, height = 860): Promise<Page> {
  const context = await stack.browser.newContext({ viewport: { width, height }, ...CONTEXT });
  return context.newPage();
}

/** The newest code the outbox SMS provider delivered to a mobile (after `after`, when given). */
async function outboxCode(mobile: string, after?: string): Promise<string> {
  for (let i = 0; i < 150; i++) {
    const body = await (await fetch(`${stack.url}/api/dev/sms-outbox?mobile=${mobile}`)).json();
    if (body.data?.code && body.data.code !== after) return body.data.code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no SMS reached ${mobile}`);
}

async function ledger() {
  return stack.sql<{ type: string; amount_fen: number; balance_after_fen: number }>(
    `select e.type, e.amount_fen::int, e.balance_after_fen::int from ledger_entries e join schools s on s.id = e.school_id where s.name = $1 order by e.id`,
    [SCHOOL],
  );
}

/**
 * Issue 10's journey, all through the screens: a new institution applies on the sign-in screen, the operator approves
 * it, its admin signs in by SMS, sets a password (forgot password) and a payment password, tops up by QR in the
 * sandbox and renews the service from the balance; the ledger shows every step.
 */
it('apply → approve → SMS sign-in → password → payment password → QR top-up → renewal from the balance', async () => {
  // 1. the institution applies from the sign-in screen
  const visitor = await newPage();
  await visitor.goto(`${stack.url}/login`);
  await visitor.getByText('机构入驻申请').click();
  await visitor.getByLabel('机构名称').fill(SCHOOL);
  await visitor.getByLabel('联系人').fill('周晨');
  await visitor.getByLabel('联系电话').fill(MOBILE);
  await visitor.getByLabel('所在城市').fill('杭州');
  await visitor.getByRole('button', { name: '提交申请' }).click();
  await visitor.getByText('申请已提交').waitFor();
  await visitor.context().close();

  // 2. the operator approves it
  const operator = await newPage();
  await operator.goto(`${stack.url}/login`);
  await operator.getByPlaceholder('用户名 / 手机号 / 邮箱').fill('operator');
  await operator.getByPlaceholder('密码', { exact: true }).fill('Demo@2026');
  await operator.locator('form button[type=submit]').click();
  await operator.waitForURL(`${stack.url}/operator`);
  await operator.goto(`${stack.url}/operator_applications`);
  const row = operator.getByRole('row', { name: new RegExp(SCHOOL) });
  await row.getByRole('button', { name: '已通过' }).click();
  await operator.locator('.ant-popconfirm .ant-btn-primary').click();
  await operator.getByText('已保存').first().waitFor();
  await operator.goto(`${stack.url}/operator_schools`);
  await operator.getByRole('cell', { name: new RegExp(SCHOOL) }).waitFor();
  await operator.screenshot({ path: join(SHOTS, 'operator-schools.png') });
  await operator.context().close();

  // 3. the admin signs in with an SMS code to the applicant's mobile (the welcome SMS says how)
  await expect
    .poll(async () =>
      ((await (await fetch(`${stack.url}/api/dev/sms-outbox?mobile=${MOBILE}`)).json()).data.list as Array<{ template: string }>).map(
        (m) => m.template,
      ),
    )
    .toContain('school.welcome');
  const admin = await newPage();
  await admin.goto(`${stack.url}/login`);
  await admin.getByText('短信登录', { exact: true }).click();
  await admin.getByPlaceholder('手机号', { exact: true }).fill(MOBILE);
  await admin.getByRole('button', { name: '获取验证码' }).click();
  await admin.getByPlaceholder('短信验证码').fill(await outboxCode(MOBILE));
  await admin.locator('form button[type=submit]').click();
  await admin.waitForURL(`${stack.url}/principalIndex`);
  await admin.getByText(`${SCHOOL} · 今日`).waitFor();
  await admin.screenshot({ path: join(SHOTS, 'principal-index.png') });

  // 4. sets a login password with "forgot password" (another tab, signed out), as the welcome SMS says
  const reset = await newPage();
  await reset.goto(`${stack.url}/login`);
  await reset.getByText('忘记密码').click();
  await reset.getByLabel('用户名或手机号').fill(MOBILE);
  await reset.getByRole('button', { name: '下一步' }).click();
  await reset.getByLabel('请输入完整手机号以确认').fill(MOBILE);
  const loginCode = await outboxCode(MOBILE);
  // a mobile gets one code a minute: let the minute since the sign-in code pass
  await stack.sql(`update sms_codes set created_at = created_at - interval '61 seconds' where mobile = $1`, [MOBILE]);
  await reset.getByRole('button', { name: '获取验证码' }).click();
  await reset.locator('input[autocomplete=one-time-code]').fill(await outboxCode(MOBILE, loginCode));
  await reset.getByLabel('新密码（8-64 位，含字母和数字）').fill(PASSWORD);
  await reset.getByRole('button', { name: /^确\s*定$/ }).click();
  await reset.getByText('密码已重置').waitFor();
  await reset.context().close();

  // a new password ends every session of the account: the admin signs in again, now with the password
  await admin.context().clearCookies();
  await admin.goto(`${stack.url}/login?redirect=%2Fprincipal_user`);
  await admin.getByPlaceholder('用户名 / 手机号 / 邮箱').fill(MOBILE);
  await admin.getByPlaceholder('密码', { exact: true }).fill(PASSWORD);
  await admin.locator('form button[type=submit]').click();
  await admin.waitForURL(`${stack.url}/principal_user`);

  // 5. the payment password, proven with the new login password
  await admin.getByText('账户与服务').waitFor();
  await admin.getByRole('button', { name: '设置支付密码' }).click();
  await admin.getByLabel('新支付密码（6 位数字）').fill(DEAL_PWD);
  await admin.getByLabel('再次输入').fill(DEAL_PWD);
  await admin.getByLabel('当前登录密码').fill(PASSWORD);
  await admin.getByRole('button', { name: /^确\s*定$/ }).click();
  await admin.getByText('支付密码已保存').waitFor();

  // 6. a top-up of 5000 yuan by QR, paid in the sandbox
  await admin
    .getByRole('button', { name: /^充\s*值$/ })
    .first()
    .click();
  await admin.getByLabel('充值金额（元）').fill('5000');
  await admin.getByRole('button', { name: '下一步' }).click();
  await admin.locator('.ant-qrcode canvas, .ant-qrcode svg').first().waitFor();
  await admin.getByText(/二维码 [\d:]+ 后失效/).waitFor();
  await admin.screenshot({ path: join(SHOTS, 'payment-dialog-qr.png') });
  await admin.getByTestId('simulate-pay').click();
  await admin.getByText('支付成功').waitFor();
  await admin.getByRole('button', { name: /^完\s*成$/ }).click();
  await admin.getByText('5000.00').first().waitFor();
  await admin.getByRole('cell', { name: '+5000.00' }).waitFor();
  expect(await ledger()).toEqual([{ type: 'top_up', amount_fen: 500_000, balance_after_fen: 500_000 }]);

  // 7. renewal for a year from the balance, with the payment password
  const [before] = await stack.sql<{ at: Date }>(`select service_expires_at as at from schools where name = $1`, [SCHOOL]);
  await admin
    .getByRole('button', { name: /^续\s*费$/ })
    .first()
    .click();
  await admin.getByText('一年（12 个月）').click();
  await admin.getByRole('button', { name: '下一步' }).click();
  await admin.getByText('余额支付').first().waitFor();
  const otp = admin.locator('.ant-otp input');
  for (const [i, digit] of [...DEAL_PWD].entries()) await otp.nth(i).fill(digit);
  await expect.poll(() => admin.getByRole('button', { name: /确认支付/ }).isEnabled()).toBe(true);
  await admin.screenshot({ path: join(SHOTS, 'payment-dialog-balance.png') });
  await admin.getByRole('button', { name: /确认支付/ }).click();
  await admin.getByText('支付成功').waitFor();
  await admin.getByRole('button', { name: /^完\s*成$/ }).click();
  await admin.getByRole('cell', { name: '-3600.00' }).waitFor();
  await admin.getByText('1400.00').first().waitFor();
  expect(await ledger()).toEqual([
    { type: 'top_up', amount_fen: 500_000, balance_after_fen: 500_000 },
    { type: 'payment', amount_fen: -360_000, balance_after_fen: 140_000 },
  ]);
  const [after] = await stack.sql<{ at: Date }>(`select service_expires_at as at from schools where name = $1`, [SCHOOL]);
  const months = (after.at.getUTCFullYear() - before.at.getUTCFullYear()) * 12 + after.at.getUTCMonth() - before.at.getUTCMonth();
  expect(months).toBe(12);
  await admin.screenshot({ path: join(SHOTS, 'principal-user.png'), fullPage: true });

  // the personal centre on a phone
  await admin.setViewportSize({ width: 375, height: 740 });
  await admin.reload();
  await admin.getByText('账户流水').waitFor();
  await admin.screenshot({ path: join(SHOTS, 'principal-user-375.png'), fullPage: true });
  await admin.context().close();
});

it('an expiring school sees the renewal banner on every page of its console', async () => {
  await stack.sql(
    `update schools set service_expires_at = now() + interval '5 days' where id = (select school_id from users where username = 'admin')`,
  );
  const page = await newPage();
  await page.goto(`${stack.url}/login`);
  await page.getByPlaceholder('用户名 / 手机号 / 邮箱').fill('admin');
  await page.getByPlaceholder('密码', { exact: true }).fill('Demo@2026');
  await page.locator('form button[type=submit]').click();
  await page.waitForURL(`${stack.url}/principalIndex`);
  await page.getByText(/服务将于 .* 到期（剩余 5 天）/).waitFor();
  await page.goto(`${stack.url}/principal_account`);
  await page.getByText(/服务将于 .* 到期/).waitFor();
  await page.getByRole('button', { name: '立即续费' }).click();
  await page.waitForURL(`${stack.url}/principal_user`);
  await page.screenshot({ path: join(SHOTS, 'renewal-banner.png') });
  await page.context().close();
});

it('the operator refunds part of the top-up through WeChat Pay; the school’s ledger shows it', async () => {
  // after the journey above: 5000 topped up by WeChat, 3600 paid from the balance
  const page = await newPage();
  await page.goto(`${stack.url}/login?redirect=%2Foperator_schools`);
  await page.getByPlaceholder('用户名 / 手机号 / 邮箱').fill('operator');
  await page.getByPlaceholder('密码', { exact: true }).fill('Demo@2026');
  await page.locator('form button[type=submit]').click();
  await page.waitForURL(`${stack.url}/operator_schools`);
  await page
    .getByRole('row', { name: new RegExp(SCHOOL) })
    .getByRole('button', { name: '流水' })
    .click();
  await page.getByRole('tab', { name: '支付记录' }).click();
  const topUp = page.getByRole('row', { name: /微信支付/ }).filter({ hasText: '5000.00' });
  await topUp.getByRole('button', { name: /^退\s*款$/ }).click();
  await page.getByLabel('退款金额（元）').fill('100');
  await page.getByLabel(/退款原因/).fill('多充值退回');
  await page.getByRole('button', { name: /^确\s*定$/ }).click();
  await page.getByText(/已退款 ¥100.00|退款已提交微信支付/).waitFor();
  await page.screenshot({ path: join(SHOTS, 'operator-refund.png') });
  await expect.poll(async () => (await ledger()).at(-1)).toEqual({ type: 'refund', amount_fen: -10_000, balance_after_fen: 130_000 });
  await page.context().close();
});
