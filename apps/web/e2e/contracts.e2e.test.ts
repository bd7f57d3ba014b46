import { Workbook } from 'exceljs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
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

/** Lets a dialog's or drawer's opening animation finish before a screenshot. */
const settle = (page: Page) => page.waitForTimeout(400);

const contract = () =>
  stack.sql<{ no: string; status: string; paid_fen: number; refunded_fen: number }>(
    `select no, status, paid_fen::int, refunded_fen::int from contracts order by id desc limit 1`,
  );

/**
 * Issue 11's journey through the screens: the admin adds a package and signs a contract for a demo student, unpaid,
 * starting by default the day after her current (seeded) contract ends; the parent pays it by QR in the sandbox on a
 * phone; the admin sees it active and cancels it with the refund shown.
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
  await expect
    .poll(() => sign.getByLabel('签约监护人').locator('xpath=ancestor::div[contains(@class,"ant-select")][1]').innerText())
    .toContain('陈家长');
  // the start is the day after her seeded term contract ends, without picking it
  const [current] = await stack.sql<{ next: string }>(
    `select to_char(max(c.end_day) + 1, 'YYYY-MM-DD') as next from contracts c join students s on s.id = c.student_id where s.name = '陈小雨' and c.status in ('active', 'unpaid')`,
  );
  await expect.poll(() => sign.getByLabel('开始日期').inputValue()).toBe(current.next);
  await sign.getByText(/接续该学生现有合同（学期托管/).waitFor();
  await sign.getByLabel('套餐').click();
  await admin.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '月托标准套餐' }).click();
  await expect.poll(() => sign.getByTestId('sign-preview').innerText()).toContain(`合同期 ${current.next} 至`);
  await admin.locator('.ant-select-dropdown').last().waitFor({ state: 'hidden' });
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
  const card = parent.locator('[data-testid^="contract-"]', { hasText: '月托标准套餐' });
  await card.waitFor();
  await parent.screenshot({ path: join(SHOTS, 'parent-contracts-375.png'), fullPage: true });
  expect(await parent.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await card.getByRole('button', { name: /去支付/ }).click();
  await parent.getByTestId('simulate-pay').click();
  await parent.getByText('支付成功').first().waitFor({ timeout: 15_000 });
  await parent.screenshot({ path: join(SHOTS, 'parent-contracts-paid-375.png') });
  await parent
    .locator('.ant-modal')
    .getByRole('button', { name: /^完\s*成$/ })
    .click();
  await card.getByText('生效中').waitFor();
  expect((await contract())[0]).toMatchObject({ status: 'active', paid_fen: 120000 });

  // 4. the admin sees it active and cancels it with the refund shown before confirming
  await admin.reload();
  await admin.getByRole('tab', { name: /生效中/ }).click();
  const row = admin.getByRole('row', { name: /陈小雨/ }).filter({ hasText: '月托标准套餐' });
  await row.getByRole('button', { name: /^详\s*情$/ }).click();
  await drawer.getByText('生效中').first().waitFor();
  await drawer.getByRole('button', { name: '解除合同' }).click();
  const cancel = admin.locator('.ant-modal', { hasText: '应退金额' });
  await cancel.getByTestId('refund-preview').waitFor();
  await expect.poll(() => cancel.getByTestId('refund-preview').innerText()).toContain('1200.00');
  await cancel.getByLabel('解除原因').fill('家长搬家，不再托管');
  await settle(admin);
  await admin.screenshot({ path: join(SHOTS, 'contracts-cancel.png') });
  await cancel.getByRole('button', { name: /确认解除/ }).click();
  await drawer.getByText('已解除').first().waitFor();
  await admin.screenshot({ path: join(SHOTS, 'contracts-detail-cancelled.png') });
  await expect.poll(async () => (await contract())[0].status).toBe('cancelled');

  // the list and the drawer on a phone-sized window, the student's contracts tab
  await drawer.locator('.ant-drawer-close').click();
  await admin.getByRole('tab', { name: /全部/ }).click();
  const mine = admin.getByRole('row', { name: /陈小雨/ }).filter({ hasText: '月托标准套餐' });
  await mine.waitFor();
  await admin.screenshot({ path: join(SHOTS, 'contracts-list.png') });
  await admin.setViewportSize({ width: 375, height: 740 });
  await admin.screenshot({ path: join(SHOTS, 'contracts-list-375.png') });
  await mine.getByRole('button', { name: /^详\s*情$/ }).click();
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

/**
 * The admin's other actions on a seeded contract running out (张浩然's month): edit its end with a reason, renew it
 * unpaid, record the renewal's payment at the desk, and export the list (.xlsx) with the renewal in it.
 */
it('edit with a reason → renew → pay the renewal at the desk → export', async () => {
  const [seeded] = await stack.sql<{ id: number; no: string; end_day: string }>(
    `select c.id, c.no, to_char(c.end_day, 'YYYY-MM-DD') as end_day from contracts c join students s on s.id = c.student_id where s.name = '张浩然' and c.status = 'active'`,
  );
  const newEnd = (await stack.sql<{ d: string }>(`select to_char($1::date + 7, 'YYYY-MM-DD') as d`, [seeded.end_day]))[0].d;
  const admin = await signedIn('admin', 1280, 860, '/principal_contract');
  const drawer = admin.locator('.ant-drawer');
  await admin.getByRole('tab', { name: /即将到期/ }).click();
  await admin
    .getByRole('row', { name: /张浩然/ })
    .getByRole('button', { name: /^详\s*情$/ })
    .click();
  await drawer.getByText(seeded.no).first().waitFor();

  // 1. edit: the end a week later (classes stopped for a week), with the reason
  await drawer.getByRole('button', { name: /^修\s*改$/ }).click();
  const edit = admin.locator('.ant-modal', { hasText: '修改合同' });
  await edit.getByLabel(/结束日期/).click();
  // the picker speaks Chinese (dayjs zh-cn with antd's zh_CN): weeks start on Monday with 一 … 日, months in Chinese
  const picker = admin.locator('.ant-picker-dropdown:visible');
  // (polled: the dropdown is visible a moment before its calendar is rendered)
  await expect
    .poll(async () => (await picker.locator('thead th').allTextContents()).map((s) => s.trim()))
    .toEqual(['一', '二', '三', '四', '五', '六', '日']);
  await expect.poll(() => picker.locator('.ant-picker-month-btn').first().textContent()).toMatch(/^\d{1,2}月$/);
  const cell = admin.locator(`.ant-picker-dropdown:visible td[title="${newEnd}"]:not(.ant-picker-cell-disabled)`);
  for (let i = 0; i < 3 && !(await cell.count()); i++) await admin.locator('.ant-picker-dropdown:visible .ant-picker-header-next-btn').click();
  await cell.click();
  await edit.getByLabel(/修改原因/).fill('停课一周，合同顺延');
  await admin.screenshot({ path: join(SHOTS, 'contracts-edit.png') });
  await edit.getByRole('button', { name: '保存修改' }).click();
  await drawer.getByText('原因：停课一周，合同顺延').waitFor();
  await drawer.getByText(`结束日期：${seeded.end_day} → ${newEnd}`).waitFor();
  expect(await stack.sql(`select to_char(end_day, 'YYYY-MM-DD') as end_day from contracts where id = $1`, [seeded.id])).toEqual([
    { end_day: newEnd },
  ]);

  // 2. renew from the day after the new end, unpaid
  const renewStart = (await stack.sql<{ d: string }>(`select to_char($1::date + 1, 'YYYY-MM-DD') as d`, [newEnd]))[0].d;
  await drawer.getByRole('button', { name: /^续\s*签$/ }).click();
  const renew = admin.locator('.ant-modal', { hasText: '续签合同' });
  await expect.poll(() => renew.innerText()).toContain(`按原套餐续签一期：${renewStart} 至`);
  await settle(admin);
  await admin.screenshot({ path: join(SHOTS, 'contracts-renew.png') });
  await renew.getByRole('button', { name: '确认续签' }).click();
  await renew.waitFor({ state: 'detached' });
  const [renewal] = await stack.sql<{ id: number; no: string; status: string; start_day: string }>(
    `select id, no, status, to_char(start_day, 'YYYY-MM-DD') as start_day from contracts where renewed_from = $1`,
    [seeded.id],
  );
  expect(renewal).toMatchObject({ status: 'unpaid', start_day: renewStart });
  await drawer.getByText(`续签为：${renewal.no}`).waitFor();
  await drawer.locator('.ant-drawer-close').click();

  // 3. the renewal waits for payment: paid at the desk by bank transfer
  await admin.getByRole('tab', { name: /待支付/ }).click();
  await admin
    .getByRole('row', { name: /张浩然/ })
    .getByRole('button', { name: /^详\s*情$/ })
    .click();
  await drawer.getByText(renewal.no).first().waitFor();
  await drawer.getByRole('button', { name: '登记收款' }).click();
  const pay = admin.locator('.ant-modal', { hasText: '登记前台收款' });
  await pay.getByLabel('收款方式').click();
  await admin.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '银行转账' }).click();
  await pay.getByRole('button', { name: '确认收款' }).click();
  await pay.getByText('银行转账或其他渠道请填写单号').waitFor();
  await pay.getByLabel(/收据/).fill('BK-E2E-0001');
  await pay.getByText('银行转账或其他渠道请填写单号').waitFor({ state: 'hidden' });
  await admin.screenshot({ path: join(SHOTS, 'contracts-desk-pay.png') });
  await pay.getByRole('button', { name: '确认收款' }).click();
  await drawer.getByText('生效中').first().waitFor();
  expect(await stack.sql(`select status, paid_fen::int as paid, pay_method, receipt_no from contracts where id = $1`, [renewal.id])).toEqual([
    { status: 'active', paid: 128000, pay_method: 'bank', receipt_no: 'BK-E2E-0001' },
  ]);
  await drawer.locator('.ant-drawer-close').click();

  // 4. the export of every contract has the renewal, paid and active
  await admin.getByRole('tab', { name: /全部/ }).click();
  const wait = admin.waitForEvent('download');
  await admin.getByRole('button', { name: /^导\s*出$/ }).click();
  const download = await wait;
  expect(download.suggestedFilename()).toBe('晚托合同.xlsx');
  const wb = new Workbook();
  await wb.xlsx.load(readFileSync(await download.path()) as unknown as ArrayBuffer);
  const rows = wb.worksheets[0]
    .getSheetValues()
    .filter(Boolean)
    .map((r) => (r as unknown[]).slice(1));
  expect(rows[0].slice(0, 4)).toEqual(['合同编号', '学生', '班级', '套餐']);
  const [total] = await stack.sql<{ n: number }>(`select count(*)::int as n from contracts`);
  expect(rows).toHaveLength(total.n + 1);
  const line = rows.find((r) => r[0] === renewal.no)!;
  expect(line).toBeDefined();
  // 合同编号, 学生, 班级, 套餐, 类型, 开始日期, 结束日期, …, 合同价, 已付, 已退, 状态
  expect([line[1], line[2], line[3], line[4], line[5], line[11], line[12], line[14]]).toEqual([
    '张浩然',
    '阳光一班',
    '月托（含晚餐）',
    '按月',
    renewStart,
    1280,
    1280,
    '生效中',
  ]);
  await admin.context().close();
});

it('the teacher’s taps use up a sessions contract: one unit per day entered, the phone shows what is left', async () => {
  const [kid] = await stack.sql<{ id: number; school_id: number }>(`select id, school_id from students where name = '陈小雨'`);
  const [pkg] = await stack.sql<{ id: number }>(
    `insert into contract_packages (school_id, name, kind, length, price_fen) values ($1, '三次体验卡', 'sessions', 3, 30000) returning id`,
    [kid.school_id],
  );
  // starts today: the demo seed has weeks of attendance before today, and a contract that started yesterday would
  // (on a weekday the child attended) count that day too
  const [c] = await stack.sql<{ id: number }>(
    `insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, units_total, list_price_fen, price_fen, paid_fen, status, pay_method)
     values ($1, 'HTE2E0000001', $2, $3, 'sessions', (now() at time zone 'Asia/Shanghai')::date, (now() at time zone 'Asia/Shanghai')::date + 60, 3, 30000, 30000, 30000, 'active', 'cash')
     returning id`,
    [kid.school_id, kid.id, pkg.id],
  );
  const phone = await signedIn('teacher', 375, 740, '/teacher_today');
  const row = phone.locator('.flow-row', { hasText: '陈小雨' }).first();
  await row.waitFor();
  await row.click();
  await phone.getByRole('button', { name: /入\s*园/ }).click();
  await phone
    .getByText(/已记录 1 人/)
    .first()
    .waitFor();
  await expect
    .poll(async () => (await stack.sql<{ used: number }>(`select units_used as used from contracts where id = $1`, [c.id]))[0].used)
    .toBe(1);
  await phone.reload();
  await phone.locator('.flow-row', { hasText: '陈小雨' }).first().getByText('剩 2 次').waitFor();
  await phone.screenshot({ path: join(SHOTS, 'teacher-units-left-375.png') });
  await phone.context().close();
});
