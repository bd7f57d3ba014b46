import { amountInCapitals, amountInFigures } from '@wantuo/shared';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pdfText } from '../../api/test/pdf-text';
import { smallTargets, signedInPhone } from './phone';
import { SHOTS, signedIn, startStack, type Stack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

/** An API call as `account` with the demo password (setup the screens do not show); a body makes it a POST. */
async function api<T = unknown>(
  account: string,
  action: string,
  query: Record<string, string>,
  body?: unknown,
): Promise<{ code: number; msg: string; data: T }> {
  const login = await fetch(`${stack.url}/api/index/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, password: 'Demo@2026' }),
  });
  const token = ((await login.json()) as { data: { userinfo: { token: string } } }).data.userinfo.token;
  const res = body
    ? await fetch(`${stack.url}/api/index/${action}`, {
        method: 'POST',
        headers: { token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    : await fetch(`${stack.url}/api/index/${action}?${new URLSearchParams(query)}`, { headers: { token } });
  return (await res.json()) as { code: number; msg: string; data: T };
}

/** The page has settled (no loading rows, no toast); saved under SHOTS; no target under 44 px, nothing wider than the screen. */
async function looked(page: Page, name: string) {
  await expect.poll(() => page.locator('[role=status][aria-live]').count(), { timeout: 15_000 }).toBe(0);
  await expect.poll(() => page.locator('.adm-toast-main').count(), { timeout: 10_000 }).toBe(0);
  await page.screenshot({ path: join(SHOTS, `phone-${name}.png`), fullPage: true });
  expect(await smallTargets(page), name).toEqual([]);
}

/** Taps a receipt button and answers the text of the PDF it downloads. */
async function downloaded(page: Page, tap: () => Promise<void>): Promise<string[]> {
  const [file] = await Promise.all([page.waitForEvent('download'), tap()]);
  const path = await file.path();
  return pdfText(readFileSync(path));
}

/**
 * Issue 40 at 375 px: the demo parent pays a contract of 陈小雨 online (the sandbox's H5 cashier); its card then shows
 * 收据 with the receipt's number, and the PDF it downloads names the school, the child, the amount in figures and in
 * capitals and that number. The school cancels the contract with a refund: the card shows the 退款收据, whose PDF
 * names the original receipt. The admin's /principal_receipts lists both and says whether a stamp is uploaded.
 */
it('parent: pay a contract → 收据 on its card → the PDF’s amount in capitals and number → a refund’s 退款收据 names it', async () => {
  const [school] = await stack.sql<{ id: number; name: string; today: string }>(
    `select id, name, to_char((now() at time zone timezone)::date, 'YYYY-MM-DD') as today from schools order by id limit 1`,
  );
  const [kid] = await stack.sql<{ id: number; name: string }>(`select id, name from students where name = '陈小雨'`);
  const price = 123456;
  const [pkg] = await stack.sql<{ id: number }>(
    `insert into contract_packages (school_id, name, kind, length, price_fen) values ($1, '收据演示月卡', 'sessions', 20, $2) returning id`,
    [school.id, price],
  );
  const [contract] = await stack.sql<{ id: number }>(
    `insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, units_total, list_price_fen, price_fen, paid_fen, status)
     values ($1, 'HTE2ERC00001', $2, $3, 'sessions', $4::date + 30, $4::date + 90, 20, $5, $5, 0, 'unpaid') returning id`,
    [school.id, kid.id, pkg.id, school.today, price],
  );

  // 1. the parent pays it on the phone (the sandbox's H5 cashier)
  const phone = await signedInPhone(stack, 'parent', '/m/parent_contracts');
  const card = phone.getByTestId(`contract-${contract.id}`);
  await card.waitFor();
  await phone.getByTestId('owed').waitFor();
  await card.getByRole('button', { name: /去支付/ }).tap();
  await phone.getByTestId('wechat-h5-pay').tap();
  await phone.getByTestId('h5-confirm').click();
  await phone.waitForURL((u) => u.pathname === '/pay/result');
  await expect.poll(() => phone.getByTestId('pay-result-state').getAttribute('data-state'), { timeout: 20_000 }).toBe('paid');

  // the receipt, issued after the payment's commit
  const receipt = async (kind: string) =>
    (
      await stack.sql<{ id: number; receipt_no: string; original: string | null }>(
        `select r.id, r.receipt_no, o.receipt_no as original from receipts r left join receipts o on o.id = r.original_receipt_id
          where r.contract_id = $1 and r.kind = $2`,
        [contract.id, kind],
      )
    )[0] ?? null;
  await expect.poll(() => receipt('contract'), { timeout: 20_000 }).not.toBeNull();
  const paid = (await receipt('contract'))!;

  // 2. the card shows 收据 with its number; the PDF says the school, the child, the amount and the number
  await phone.goto(`${stack.url}/m/parent_contracts`);
  const button = card.getByRole('button', { name: `收据 ${paid.receipt_no}` });
  await button.waitFor();
  await phone.getByTestId('receipt-list').getByText(paid.receipt_no).first().waitFor();
  await looked(phone, 'parent-contract-receipt');
  const text = await downloaded(phone, () => button.tap());
  for (const part of [school.name, '收 据', `收据号 No. ${paid.receipt_no}`, kid.name, amountInFigures(price), amountInCapitals(price), '微信支付'])
    expect([part, text]).toEqual([part, expect.arrayContaining([part])]);
  expect(amountInCapitals(price)).toBe('人民币壹仟贰佰叁拾肆元伍角陆分');

  // 3. the school cancels the contract with a refund (the admin's console does this; here its API): the refund's receipt
  const info = await api<{ version: number }>('admin', 'contractInfo', { id: String(contract.id) });
  const preview = await api<{ refund_fen: number }>('admin', 'contractRefundPreview', { id: String(contract.id) });
  const cancelled = await api(
    'admin',
    'cancellationContract',
    {},
    {
      id: contract.id,
      version: info.data.version,
      reason: '家长退费',
      refund_fen: preview.data.refund_fen,
      request_id: `e2e-receipt-${Date.now()}`,
    },
  );
  expect(cancelled.code, cancelled.msg).toBe(200);
  await expect.poll(() => receipt('refund'), { timeout: 30_000 }).not.toBeNull();
  const refund = (await receipt('refund'))!;
  expect(refund.original).toBe(paid.receipt_no);

  await phone.reload();
  const refundButton = card.getByRole('button', { name: `退款收据 ${refund.receipt_no}` });
  await refundButton.waitFor();
  await looked(phone, 'parent-contract-refund-receipt');
  const refundText = await downloaded(phone, () => refundButton.tap());
  for (const part of ['退 款 收 据', `收据号 No. ${refund.receipt_no}`, '原收据号', paid.receipt_no, amountInCapitals(preview.data.refund_fen)])
    expect([part, refundText]).toEqual([part, expect.arrayContaining([part])]);
  await phone.context().close();

  // 4. the admin's 收据管理 lists both this month, and says the demo's stamp is there
  const admin = await signedIn(stack, 'admin', 1280, 900, '/principal_receipts');
  const table = admin.getByTestId('receipts-table');
  await table.getByText(refund.receipt_no).waitFor();
  await table.getByText(paid.receipt_no).first().waitFor();
  await admin.getByTestId('stamp-card').locator('img').waitFor();
  await admin.screenshot({ path: join(SHOTS, 'principal-receipts.png'), fullPage: true });
  await admin.context().close();
});

/** Issue 40 at 375 px: a dinner the parent paid shows 收据 on its day, and the child's dinner receipts are listed. */
it('parent: a paid dinner → 收据 on its day card and in the list', async () => {
  const [school] = await stack.sql<{ id: number; today: string }>(
    `select id, to_char((now() at time zone timezone)::date, 'YYYY-MM-DD') as today from schools order by id limit 1`,
  );
  const [kid] = await stack.sql<{ id: number }>(`select id from students where name = '陈小雨'`);
  // setup: the class meets every day, no contract pays dinners, one dish (the admin's screens do this)
  await stack.sql(`update class_times set weekdays = '{1,2,3,4,5,6,7}' where school_id = $1`, [school.id]);
  await stack.sql(`update contract_packages set includes = array_remove(includes, 'dinner') where school_id = $1`, [school.id]);
  const goods = await api<{ id: number }>('admin', 'addMealGoods', {}, { name: '收据番茄饭', price_fen: 1650 });
  expect(goods.code, goods.msg).toBe(200);
  const [{ day }] = await stack.sql<{ day: string }>(`select to_char($1::date + 1, 'YYYY-MM-DD') as day`, [school.today]);
  const booked = await api<{ id: number }>(
    'parent',
    'bookDinner',
    {},
    { student_id: kid.id, day, goods_id: goods.data.id, request_id: `e2e-rc-${Date.now()}` },
  );
  expect(booked.code, booked.msg).toBe(200);
  const pay = await api<{ out_trade_no: string }>('parent', 'wechatPayDinner', {}, { id: booked.data.id, channel: 'native' });
  expect(pay.code, pay.msg).toBe(200);
  const sim = await fetch(`${stack.url}/api/dev/wechatpay/simulate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ out_trade_no: pay.data.out_trade_no }),
  });
  expect(sim.ok).toBe(true);
  await expect
    .poll(
      async () =>
        (await stack.sql<{ receipt_no: string }>(`select receipt_no from receipts where booking_id = $1`, [booked.data.id]))[0]?.receipt_no ?? null,
      {
        timeout: 20_000,
      },
    )
    .not.toBeNull();
  const [{ receipt_no }] = await stack.sql<{ receipt_no: string }>(`select receipt_no from receipts where booking_id = $1`, [booked.data.id]);

  const phone = await signedInPhone(stack, 'parent', '/m/parent_meals');
  const dayCard = phone.getByTestId(`meal-day-${day}`);
  await dayCard.getByRole('button', { name: `收据 ${receipt_no}` }).waitFor();
  await phone.getByTestId('receipt-list').getByText(receipt_no).waitFor();
  expect(await phone.getByTestId('receipt-list').textContent()).toContain(`晚餐 ${day}（收据番茄饭）`);
  await looked(phone, 'parent-meals-receipt');
  const text = await downloaded(phone, () => dayCard.getByRole('button', { name: `收据 ${receipt_no}` }).tap());
  expect(text).toEqual(expect.arrayContaining([`收据号 No. ${receipt_no}`, `晚餐 ${day}（收据番茄饭）`, amountInCapitals(1650), day]));
  await phone.context().close();
});
