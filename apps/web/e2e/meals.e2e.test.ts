import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { choose, SHOTS, startStack, type Stack, signedIn as signedInAs } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const signedIn = (account: string, width: number, height: number, path: string) => signedInAs(stack, account, width, height, path);
/** Lets a dialog's, drawer's or tab's animation finish before a screenshot. */
const settle = (page: Page) => page.waitForTimeout(400);
/** Waits until no list or table shows its loading spinner (before a screenshot). */
const idle = (page: Page) => expect.poll(() => page.locator('.ant-spin-spinning').count()).toBe(0);
const noSideScroll = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
const booking = (name: string) =>
  stack.sql<{ status: string; pay_from: string | null; served: boolean; booked_by: string | null }>(
    `select b.status, b.pay_from, b.served_at is not null as served, u.name as booked_by
       from meal_bookings b join students s on s.id = b.student_id join schools sc on sc.id = b.school_id left join users u on u.id = b.booked_by
      where s.name = $1 and b.day = (now() at time zone sc.timezone)::date`,
    [name],
  );

/**
 * Issue 12's meals journey through the screens: the admin adds a meal item and sets the cutoff late; a parent books
 * today's dinner on a phone; the head teacher's reservation page shows it (and books and cancels one for another
 * student of the class); the teacher records the child's arrival and dinner in the daily flow on the phone; the
 * kitchen count follows live and the data centre's meals chart counts the dinner served.
 */
it('item → cutoff → the parent books → the head teacher sees it → dinner in the flow → kitchen count and data centre', async () => {
  const [{ today }] = await stack.sql<{ today: string }>(
    `select to_char((now() at time zone timezone)::date, 'YYYY-MM-DD') as today from schools order by id limit 1`,
  );
  // the demo's classes meet Monday to Friday and a guardian books only class days: on a weekend the journey runs on a
  // make-up day (调休), as a school would have it
  await stack.sql(
    `insert into school_calendar_days (school_id, day, kind, works_as, note)
     select id, $1::date, 'makeup', 5, '调休' from schools where extract(isodow from $1::date) >= 6 on conflict do nothing`,
    [today],
  );

  // 1. the admin: no items yet, adds one on /principal_order_add
  const admin = await signedIn('admin', 1280, 860, '/principal_order');
  await admin.getByText('还没有餐品').waitFor();
  await admin.screenshot({ path: join(SHOTS, 'meals-goods-empty.png') });
  await admin.getByRole('button', { name: '添加餐品' }).click();
  await admin.waitForURL(/principal_order_add/);
  await admin.getByLabel('名称').fill('红烧鸡腿套餐');
  await admin.getByLabel('价格').fill('15');
  await admin.getByLabel('说明').fill('米饭、鸡腿、时蔬和汤');
  await admin.screenshot({ path: join(SHOTS, 'meals-goods-add.png') });
  await admin.getByRole('button', { name: /^保\s*存$/ }).click();
  await admin.waitForURL(/principal_order$/);
  await admin.getByText('红烧鸡腿套餐').waitFor();
  await admin.screenshot({ path: join(SHOTS, 'meals-goods.png') });

  // 2. the cutoff: the same day at 23:59, so the parent may still book today's dinner
  await admin.getByRole('tab', { name: '订餐设置' }).click();
  const time = admin.getByLabel('截止时间', { exact: true });
  await time.click();
  await time.fill('23:59');
  await time.press('Tab');
  await admin.getByTestId('cutoff-preview').getByText('家长可在当天 23:59 前预订或取消当天的晚餐。').waitFor();
  await admin.getByRole('button', { name: '保存设置' }).click();
  await admin.getByText('已保存').first().waitFor();
  await settle(admin);
  await admin.screenshot({ path: join(SHOTS, 'meals-settings.png') });
  expect(await stack.sql(`select cutoff_time, days_before from meal_settings`)).toEqual([{ cutoff_time: '23:59', days_before: 0 }]);

  // the kitchen's count for today, left open: it follows the bookings and dinners live
  await admin.getByRole('tab', { name: '今日厨房统计' }).click();
  await admin.getByText('今天还没有订餐').waitFor();
  await settle(admin);
  await admin.screenshot({ path: join(SHOTS, 'meals-kitchen-empty.png') });

  // 3. the parent on a phone books today's dinner for 陈小雨 (her term contract includes dinner: nothing to pay)
  const parent = await signedIn('parent', 375, 812, '/parent_meals');
  await parent.getByText('陈小雨').first().waitFor();
  await parent.getByText('陈小雨').first().click();
  const day = parent.getByTestId(`meal-day-${today}`);
  await day.waitFor();
  await parent.screenshot({ path: join(SHOTS, 'meals-parent-375.png'), fullPage: true });
  await noSideScroll(parent);
  const book = day.getByRole('button', { name: /^预\s*订$/ });
  await choose(parent, day.getByLabel('选择餐品'), '红烧鸡腿套餐', () => book.isEnabled());
  await book.click();
  await day.getByText('已预订').waitFor();
  await day.getByText('红烧鸡腿套餐 · 合同支付').waitFor();
  await day.getByRole('button', { name: '取消预订' }).waitFor();
  await settle(parent);
  await parent.screenshot({ path: join(SHOTS, 'meals-parent-booked-375.png'), fullPage: true });
  await noSideScroll(parent);
  expect(await booking('陈小雨')).toEqual([{ status: 'booked', pay_from: 'contract', served: false, booked_by: '陈家长' }]);

  // the kitchen's count changed without a reload
  const kitchen = admin.getByTestId('kitchen-count');
  await expect.poll(() => kitchen.getByRole('row', { name: /红烧鸡腿套餐/ }).innerText()).toMatch(/红烧鸡腿套餐\s+1\s+0\s+0/);

  // 4. the head teacher's reservations on a phone show it; she books and cancels one for another child of the class
  const adviser = await signedIn('adviser', 375, 812, '/AOrderReservation');
  const list = adviser.getByTestId('reservation-list');
  const rowOf = (name: string) => list.locator('.ant-list-item', { hasText: name });
  await rowOf('陈小雨').getByText('已预订').waitFor();
  await idle(adviser);
  await adviser.screenshot({ path: join(SHOTS, 'meals-adviser-375.png'), fullPage: true });
  await noSideScroll(adviser);
  await rowOf('王子涵')
    .getByRole('button', { name: /订\s*餐/ })
    .click();
  const dialog = adviser.locator('.ant-modal');
  const bookIt = dialog.getByRole('button', { name: /^预\s*订$/ });
  await choose(adviser, dialog.getByLabel('选择餐品'), '红烧鸡腿套餐', () => bookIt.isEnabled());
  await adviser.screenshot({ path: join(SHOTS, 'meals-adviser-book-375.png') });
  await bookIt.click();
  await rowOf('王子涵').getByText('已预订').waitFor();
  expect((await booking('王子涵'))[0]).toMatchObject({ status: 'booked', booked_by: '张班主任' });
  await expect.poll(() => kitchen.getByRole('row', { name: /红烧鸡腿套餐/ }).innerText()).toMatch(/红烧鸡腿套餐\s+2\s+0\s+0/);
  await rowOf('王子涵')
    .getByRole('button', { name: /^取\s*消$/ })
    .click();
  await adviser
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /^确\s*定$/ })
    .click();
  await rowOf('王子涵').getByText('已取消').waitFor();
  expect((await booking('王子涵'))[0]).toMatchObject({ status: 'cancelled' });
  await expect.poll(() => kitchen.getByRole('row', { name: /红烧鸡腿套餐/ }).innerText()).toMatch(/红烧鸡腿套餐\s+1\s+0\s+0/);

  // 5. the teacher on the phone: 陈小雨 arrives, then has dinner
  const teacher = await signedIn('teacher', 375, 812, '/teacher_today');
  const child = teacher.locator('.flow-row', { hasText: '陈小雨' }).first();
  await child.click();
  await teacher.getByRole('button', { name: /入\s*园/ }).click();
  await teacher.getByText('已记录 1 人').first().waitFor();
  await child.locator('.ant-tag', { hasText: '在园' }).waitFor();
  await child.click();
  await teacher.getByRole('button', { name: /晚\s*餐/ }).click();
  await child.getByText(/晚餐 \d\d:\d\d/).waitFor();
  const servedAt = (await child.getByText(/晚餐 \d\d:\d\d/).innerText()).match(/晚餐 (\d\d:\d\d)/)![1];
  await teacher.screenshot({ path: join(SHOTS, 'meals-teacher-dinner-375.png') });
  await expect.poll(async () => (await booking('陈小雨'))[0]?.served).toBe(true);

  // the kitchen's count shows it served, live; so does the head teacher's page
  await expect.poll(() => kitchen.getByRole('row', { name: /红烧鸡腿套餐/ }).innerText()).toMatch(/红烧鸡腿套餐\s+1\s+1\s+0/);
  await admin.screenshot({ path: join(SHOTS, 'meals-kitchen.png') });
  await rowOf('陈小雨').getByText('已用餐').waitFor();
  await idle(adviser);
  await adviser.screenshot({ path: join(SHOTS, 'meals-adviser-served-375.png'), fullPage: true });
  await noSideScroll(adviser);

  // the orders of the day
  await admin.getByRole('tab', { name: '订餐记录' }).click();
  await admin
    .getByRole('row', { name: /陈小雨/ })
    .getByText('已用餐')
    .waitFor();
  await admin
    .getByRole('row', { name: /陈小雨/ })
    .getByText(servedAt, { exact: true })
    .waitFor(); // the school's time, as on the teacher's phone
  await idle(admin);
  await settle(admin);
  await admin.screenshot({ path: join(SHOTS, 'meals-orders.png') });

  // 6. the data centre's meals tab: the chart and its summary with the dinner served
  await admin.goto(`${stack.url}/principal_data`);
  await admin.getByRole('tab', { name: '订餐' }).click();
  const chart = admin.getByRole('img', { name: '订餐与就餐' });
  await chart.locator('canvas').waitFor();
  await expect.poll(() => admin.getByText(/预订 \d+ 份/).innerText()).toContain('已就餐 1 份');
  await settle(admin);
  await admin.screenshot({ path: join(SHOTS, 'meals-data-centre.png') });
  for (const p of [admin, parent, adviser, teacher]) await p.context().close();
});
