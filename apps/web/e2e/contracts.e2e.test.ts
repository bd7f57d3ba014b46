import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SHOTS, startStack, type Stack, signedIn as signedInAs } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const signedIn = (account: string, width: number, height: number, path: string) => signedInAs(stack, account, width, height, path);

const contract = () => stack.sql<{ no: string; status: string; paid_fen: number; refunded_fen: number }>(`select no, status, paid_fen::int, refunded_fen::int from contracts order by id desc limit 1`);

/**
 * Issue 11's journey through the screens: the admin adds a package and signs a contract for a demo student, unpaid;
 * the parent pays it by QR in the sandbox on a phone; the admin sees it active and cancels it with the refund shown.
 */
it('package → sign unpaid → the parent pays by QR → active → cancel with the refund shown', async () => {
  // 1. the admin adds a package
  const admin = await signedIn('admin', 1280, 860, '/principal_contract');
  await admin.getByRole('tab', { name: '套餐管理' }).click();
  await admin.getByRole('button', { name: '新增套餐' }).click();
  const pkg = admin.locator('.ant-modal');
  await pkg.getByLabel('套餐名称').fill('月托标准套餐');
  await pkg.getByLabel('价格（元）').fill('1200');
  await pkg.getByRole('button', { name: /^确\s*定$/ }).click();
  await admin.getByRole('cell', { name: '月托标准套餐', exact: true }).waitFor();
  await admin.screenshot({ path: join(SHOTS, 'contracts-packages.png') });

  // 2. signs a contract for 陈小雨, unpaid (the guardian pays in the parent area)
  await admin.getByRole('tab', { name: '合同列表' }).click();
  await admin.getByRole('button', { name: /^签\s*约$/ }).click();
  const sign = admin.locator('.ant-modal', { hasText: '签订晚托合同' });
  await sign.getByLabel('学生').click();
  await admin.keyboard.type('陈小雨');
  await admin.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '陈小雨' }).first().click();
  await expect.poll(() => sign.getByLabel('签约监护人').locator('xpath=ancestor::div[contains(@class,"ant-select")][1]').innerText()).toContain('陈家长');
  await sign.getByLabel('套餐').click();
  await admin.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '月托标准套餐' }).click();
  await sign.getByLabel('开始日期').click();
  await admin.locator('.ant-picker-dropdown:visible .ant-picker-now-btn, .ant-picker-dropdown:visible .ant-picker-today-btn').first().click();
  await sign.getByTestId('sign-preview').waitFor();
  await admin.screenshot({ path: join(SHOTS, 'contracts-sign.png') });
  await sign.getByRole('button', { name: '确认签约' }).click();
  const drawer = admin.locator('.ant-drawer');
  await drawer.getByText('陈小雨').first().waitFor();
  await drawer.getByText('待支付').first().waitFor();
  await admin.screenshot({ path: join(SHOTS, 'contracts-detail-unpaid.png') });
  expect((await contract())[0]).toMatchObject({ status: 'unpaid', paid_fen: 0 });
  await drawer.locator('.ant-drawer-close').click();

  // 3. the parent pays it on a phone by QR in the sandbox
  const parent = await signedIn('parent', 375, 740, '/parent_contracts');
  await parent.getByText('月托标准套餐').first().waitFor();
  await parent.screenshot({ path: join(SHOTS, 'parent-contracts-375.png') });
  await parent.getByRole('button', { name: /去支付/ }).first().click();
  await parent.getByTestId('simulate-pay').click();
  await parent.getByText('支付成功').first().waitFor({ timeout: 15_000 });
  await parent.screenshot({ path: join(SHOTS, 'parent-contracts-paid-375.png') });
  await parent.locator('.ant-modal').getByRole('button', { name: /^完\s*成$/ }).click();
  await parent.getByText('生效中').first().waitFor();
  expect((await contract())[0]).toMatchObject({ status: 'active', paid_fen: 120000 });

  // 4. the admin sees it active and cancels it with the refund shown before confirming
  await admin.reload();
  await admin.getByRole('tab', { name: /生效中/ }).click();
  const row = admin.getByRole('row', { name: /陈小雨/ });
  await row.getByRole('button', { name: /^详\s*情$/ }).click();
  await drawer.getByText('生效中').first().waitFor();
  await drawer.getByRole('button', { name: '解除合同' }).click();
  const cancel = admin.locator('.ant-modal', { hasText: '应退金额' });
  await cancel.getByTestId('refund-preview').waitFor();
  await expect.poll(() => cancel.getByTestId('refund-preview').innerText()).toContain('1200.00');
  await cancel.getByLabel('解除原因').fill('家长搬家，不再托管');
  await admin.screenshot({ path: join(SHOTS, 'contracts-cancel.png') });
  await cancel.getByRole('button', { name: /确认解除/ }).click();
  await drawer.getByText('已解除').first().waitFor();
  await admin.screenshot({ path: join(SHOTS, 'contracts-detail-cancelled.png') });
  await expect.poll(async () => (await contract())[0].status).toBe('cancelled');

  // the list and the drawer on a phone-sized window, the student's contracts tab
  await drawer.locator('.ant-drawer-close').click();
  await admin.getByRole('tab', { name: /全部/ }).click();
  await admin.getByRole('row', { name: /陈小雨/ }).waitFor();
  await admin.screenshot({ path: join(SHOTS, 'contracts-list.png') });
  await admin.setViewportSize({ width: 375, height: 740 });
  await admin.screenshot({ path: join(SHOTS, 'contracts-list-375.png') });
  await admin.getByRole('row', { name: /陈小雨/ }).getByRole('button', { name: /^详\s*情$/ }).click();
  await drawer.getByText('已解除').first().waitFor();
  await admin.waitForTimeout(500); // the drawer's slide-in
  await admin.screenshot({ path: join(SHOTS, 'contracts-detail-375.png') });
  await admin.setViewportSize({ width: 1280, height: 860 });
  const [student] = await stack.sql<{ id: number }>(`select id from students where name = '陈小雨'`);
  await admin.goto(`${stack.url}/principal_educationals_studentrecord?id=${student.id}`);
  await admin.getByRole('tab', { name: '晚托合同' }).click();
  await admin.getByRole('cell', { name: '月托标准套餐' }).waitFor();
  await admin.waitForTimeout(500); // the tab's fade-in
  await admin.screenshot({ path: join(SHOTS, 'student-contracts.png') });
  for (const p of [admin, parent]) await p.context().close();
});

it('the teacher’s taps use up a sessions contract: one unit per day entered, the phone shows what is left', async () => {
  const [kid] = await stack.sql<{ id: number; school_id: number }>(`select id, school_id from students where name = '陈小雨'`);
  const [pkg] = await stack.sql<{ id: number }>(
    `insert into contract_packages (school_id, name, kind, length, price_fen) values ($1, '三次体验卡', 'sessions', 3, 30000) returning id`,
    [kid.school_id],
  );
  const [c] = await stack.sql<{ id: number }>(
    `insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, units_total, list_price_fen, price_fen, paid_fen, status, pay_method)
     values ($1, 'HTE2E0000001', $2, $3, 'sessions', (now() at time zone 'Asia/Shanghai')::date - 1, (now() at time zone 'Asia/Shanghai')::date + 60, 3, 30000, 30000, 30000, 'active', 'cash')
     returning id`,
    [kid.school_id, kid.id, pkg.id],
  );
  const phone = await signedIn('teacher', 375, 740, '/teacher_today');
  const row = phone.locator('.flow-row', { hasText: '陈小雨' }).first();
  await row.waitFor();
  await row.click();
  await phone.getByRole('button', { name: /入\s*园/ }).click();
  await phone.getByText(/已记录 1 人/).first().waitFor();
  await expect.poll(async () => (await stack.sql<{ used: number }>(`select units_used as used from contracts where id = $1`, [c.id]))[0].used).toBe(1);
  await phone.reload();
  await phone.locator('.flow-row', { hasText: '陈小雨' }).first().getByText('剩 2 次').waitFor();
  await phone.screenshot({ path: join(SHOTS, 'teacher-units-left-375.png') });
  await phone.context().close();
}, 30_000);
