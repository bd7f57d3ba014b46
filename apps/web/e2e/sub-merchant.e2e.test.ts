import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signedInPhone, smallTargets } from './phone';
import { motionDone, SHOTS, signedIn, startStack, type Stack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const NEW_SUB_MCHID = '1900000888';
/** antd puts a space between the two characters of a two-character button's label */
const named = (label: string) => new RegExp(`^${[...label].join('\\s*')}$`);

/** A screenshot under SHOTS once nothing moves and the page's reads have answered. */
async function shot(page: Page, name: string, fullPage = false) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await motionDone(page);
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
}

/**
 * Issue 36: parents' money goes to the school's own WeChat Pay sub-merchant. The operator withdraws the demo school's
 * sub-merchant, the parent is then sent to the desk (no pay button, the school's phone), the admin sees 未开通; the
 * operator onboards a new number in the sandbox and records it, the parent pays a contract online at it; the operator
 * resolves a reconciliation difference and reconciles a past day again (对账).
 */
it('sub-merchant: withdraw → the parent pays at the desk → onboard and record a new one → the parent pays online → 对账', async () => {
  const [school] = await stack.sql<{ id: number; name: string; phone: string; today: string }>(
    `select id, name, contact_phone as phone, to_char((now() at time zone timezone)::date, 'YYYY-MM-DD') as today from schools order by id limit 1`,
  );
  const [kid] = await stack.sql<{ id: number }>(`select id from students where name = '陈小雨'`);
  // an unpaid contract of the demo parent's child, paid (or not) from the phone below
  const [pkg] = await stack.sql<{ id: number }>(
    `insert into contract_packages (school_id, name, kind, length, price_fen) values ($1, '商户测试月卡', 'sessions', 20, 48800) returning id`,
    [school.id],
  );
  const [contract] = await stack.sql<{ id: number }>(
    `insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, units_total, list_price_fen, price_fen, paid_fen, status)
     values ($1, 'HTE2ESM00001', $2, $3, 'sessions', $4::date + 30, $4::date + 90, 20, 48800, 48800, 0, 'unpaid') returning id`,
    [school.id, kid.id, pkg.id, school.today],
  );
  const current = async () =>
    (await stack.sql<{ sub_mchid: string }>(`select sub_mchid from school_sub_merchants where school_id = $1 and ended_at is null`, [school.id]))[0]
      ?.sub_mchid ?? null;
  const demoSubMchid = await current();
  expect(demoSubMchid).toBeTruthy();

  // 1. the operator opens the school's 收款商户: the demo's sub-merchant, then withdraws it
  const op = await signedIn(stack, 'operator', 1366, 900, '/operator_schools');
  await op
    .getByRole('row', { name: new RegExp(school.name) })
    .getByRole('button', { name: '收款商户' })
    .click();
  const drawer = op.getByTestId('sub-merchant');
  await drawer.getByTestId('sub-merchant-state').getByText(demoSubMchid!).waitFor();
  await drawer.getByText('机构在微信支付完成特约商户进件后').waitFor();
  await shot(op, 'operator-sub-merchant');
  await drawer.getByTestId('sub-merchant-withdraw').click();
  const confirm = op.locator('.ant-modal-confirm');
  await confirm.getByText('停用后家长将无法在线缴纳合同和餐费').waitFor();
  await confirm.getByRole('button', { name: named('停用') }).click();
  await drawer.getByTestId('sub-merchant-state').getByText('未开通', { exact: true }).waitFor();
  await expect.poll(current).toBeNull();

  // 2. the parent's phone: the contract's pay sheet sends them to the desk, with the school's phone
  const phone = await signedInPhone(stack, 'parent', '/m/parent_contracts');
  const card = phone.getByTestId(`contract-${contract.id}`);
  await card.waitFor();
  // 待缴 comes in above the cards once every child's list has answered: tap after it, not under a moving button
  await phone.getByTestId('owed').waitFor();
  await card.getByRole('button', { name: /去支付/ }).tap();
  const desk = phone.getByTestId('pay-desk-only');
  await desk.waitFor();
  expect(await desk.textContent()).toContain('本校尚未开通微信在线缴费，请到学校前台缴费');
  expect(await desk.textContent()).toContain(school.name);
  expect(await phone.getByTestId('pay-desk-phone').getAttribute('href')).toBe(`tel:${school.phone}`);
  expect(await phone.getByTestId('wechat-h5-pay').count()).toBe(0);
  await shot(phone, 'phone-parent-pay-desk-only');
  expect(await smallTargets(phone)).toEqual([]);
  await phone.getByRole('button', { name: '知道了' }).tap();

  // 3. the admin's personal centre: 在线收款 未开通, and what to do
  const admin = await signedIn(stack, 'admin', 1366, 900, '/principal_user');
  const online = admin.getByTestId('online-pay');
  await online.getByText('未开通', { exact: true }).waitFor();
  await online.getByText(/联系平台完成微信支付特约商户进件/).waitFor();
  await online.scrollIntoViewIfNeeded();
  await shot(admin, 'principal-online-pay-none');

  // 4. the operator onboards a new number in the sandbox (it refuses payments for one it has not) and records it
  await drawer.locator('#sub_mchid').fill('12345');
  await drawer.getByTestId('sub-merchant-save').click();
  await drawer.getByText('特约商户号为 8-12 位数字').first().waitFor();
  await drawer.locator('#sub_mchid').fill(NEW_SUB_MCHID);
  await drawer.getByTestId('sub-merchant-sandbox').click();
  await drawer.getByText(`沙箱已为 ${NEW_SUB_MCHID} 完成进件`).waitFor();
  await drawer.locator('#note').fill('机构已完成特约商户进件');
  await drawer.getByTestId('sub-merchant-save').click();
  await drawer.getByTestId('sub-merchant-state').getByText(NEW_SUB_MCHID).waitFor();
  await expect.poll(current).toBe(NEW_SUB_MCHID);
  // the history, newest first: the new one in use, the demo's ended
  const history = drawer.getByTestId('sub-merchant-history').locator('tbody tr.ant-table-row');
  await expect.poll(() => history.count()).toBe(2);
  expect(await history.nth(0).textContent()).toContain(NEW_SUB_MCHID);
  expect(await history.nth(0).textContent()).toContain('使用中');
  expect(await history.nth(1).textContent()).toContain(demoSubMchid!);
  await shot(op, 'operator-sub-merchant-recorded');
  await drawer.getByTestId('sub-merchant-withdraw').waitFor();

  // the admin sees it on
  await admin.reload();
  await admin.getByTestId('online-pay').getByText(NEW_SUB_MCHID).waitFor();
  await admin.context().close();

  // 5. the parent pays the contract online, to the new sub-merchant (H5: the sandbox's cashier)
  await phone.goto(`${stack.url}/m/parent_contracts`);
  await phone.getByTestId('owed').waitFor();
  await card.getByRole('button', { name: /去支付/ }).tap();
  await phone.getByTestId('wechat-h5-pay').waitFor();
  expect(await phone.getByTestId('pay-desk-only').count()).toBe(0);
  await phone.getByTestId('wechat-h5-pay').tap();
  await phone.getByTestId('h5-confirm').waitFor();
  await phone.getByTestId('h5-confirm').click();
  await phone.waitForURL((u) => u.pathname === '/pay/result');
  await expect.poll(() => phone.getByTestId('pay-result-state').getAttribute('data-state'), { timeout: 20_000 }).toBe('paid');
  const [paid] = await stack.sql<{ sub_mchid: string; payee: string }>(
    `select sub_mchid, payee from payments where kind = 'contract' and ref_id = $1 and state = 'paid'`,
    [String(contract.id)],
  );
  expect(paid).toEqual({ sub_mchid: NEW_SUB_MCHID, payee: 'school' });
  await phone.context().close();

  // 6. 对账: a difference of the school's bill of yesterday (set up here: the sandbox's bills are the reconciliation
  // spec's), resolved with a note; then the platform's own bill of yesterday reconciled again from the screen
  const [{ yesterday }] = await stack.sql<{ yesterday: string }>(`select to_char($1::date - 1, 'YYYY-MM-DD') as yesterday`, [school.today]);
  const [check] = await stack.sql<{ id: number }>(
    `insert into payment_bill_checks (sub_mchid, school_id, bill_date, state, bill_lines, payments_fen, refunds_fen, differences)
     values ($1, $2, $3, 'differences', 3, 123450, 1000, 1) returning id`,
    [demoSubMchid, school.id, yesterday],
  );
  await stack.sql(
    `insert into payment_bill_differences (check_id, sub_mchid, school_id, bill_date, kind, line, out_trade_no, ours_fen, theirs_fen)
     values ($1, $2, $3, $4, 'amount_differs', 'payment', 'PE2ESM0000000001', 1600, 1800)`,
    [check.id, demoSubMchid, school.id, yesterday],
  );
  await op.goto(`${stack.url}/operator_bills`);
  const checks = op.getByTestId('bill-checks');
  const row = checks.locator('tbody tr.ant-table-row', { hasText: demoSubMchid! });
  await row.waitFor();
  expect(await row.textContent()).toContain(school.name);
  expect(await row.textContent()).toContain('有差异');
  expect(await row.textContent()).toContain('1234.50');
  await op.getByRole('tab', { name: /差异（1 条未处理）/ }).waitFor();
  await shot(op, 'operator-bills');
  await row.getByRole('button', { name: '查看差异' }).click();
  const diffs = op.getByTestId('bill-differences');
  const diff = diffs.locator('tbody tr.ant-table-row', { hasText: 'PE2ESM0000000001' });
  await diff.waitFor();
  expect(await diff.textContent()).toContain('金额不一致');
  expect(await diff.textContent()).toContain('16.00');
  expect(await diff.textContent()).toContain('18.00');
  await shot(op, 'operator-bill-differences');
  await diff.getByRole('button', { name: named('处理') }).click();
  const dialog = op.locator('.ant-modal', { hasText: '处理差异' });
  await dialog.locator('textarea').fill('已向微信核实，按微信金额补记');
  await dialog.getByRole('button', { name: named('确定') }).click();
  await diff.getByText('已向微信核实，按微信金额补记').waitFor();
  await expect
    .poll(async () => (await stack.sql<{ state: string }>(`select state from payment_bill_differences where check_id = $1`, [check.id]))[0].state)
    .toBe('resolved');

  await op.getByTestId('bills-recheck').click();
  const recheck = op.locator('.ant-modal', { hasText: '账单日期' });
  await recheck.locator('.ant-picker input').click();
  await motionDone(op);
  expect(await op.locator(`.ant-picker-dropdown td[title="${school.today}"]`).getAttribute('class')).toContain('disabled');
  await op.locator(`.ant-picker-dropdown td[title="${yesterday}"]`).click();
  await recheck.getByRole('button', { name: named('确定') }).click();
  // the platform's own merchant (no school chosen): its check of yesterday is listed, whatever the sandbox's bill says
  await op.getByRole('tab', { name: '每日对账' }).click();
  await checks.locator('tbody tr.ant-table-row', { hasText: '平台自营' }).filter({ hasText: yesterday }).waitFor({ timeout: 20_000 });
  await shot(op, 'operator-bills-rechecked');
  await op.context().close();
});
