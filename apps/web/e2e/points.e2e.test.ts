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
const balance = async (name: string) =>
  (
    await stack.sql<{ b: number }>(
      `select coalesce(a.balance, 0) as b from students s left join points_accounts a on a.student_id = s.id where s.name = $1`,
      [name],
    )
  )[0].b;

/**
 * Issue 12's points journey through the screens: the admin lists a good in the shop; the teacher awards points to two
 * children on the phone; the parent sees the balance and history and exchanges the good on the phone; the admin hands
 * the order over.
 */
it('a good in the shop → the teacher awards on the phone → the parent exchanges → the admin hands it over', async () => {
  // 1. the admin: an empty shop, then a good added on /principal_shop_add
  const admin = await signedIn('admin', 1280, 860, '/principal_shop');
  await admin.getByText('还没有积分商品').waitFor();
  await admin.screenshot({ path: join(SHOTS, 'points-shop-empty.png') });
  await admin.getByRole('button', { name: '添加商品' }).click();
  await admin.waitForURL(/principal_shop_add/);
  await admin.getByLabel('商品名称').fill('文具套装');
  await admin.getByLabel('积分价').fill('20');
  await admin.getByLabel('初始库存').fill('2');
  await admin.getByLabel('商品介绍').fill('铅笔、橡皮和尺子');
  await admin.screenshot({ path: join(SHOTS, 'points-goods-add.png') });
  await admin.getByRole('button', { name: /^保\s*存$/ }).click();
  await admin.waitForURL(/principal_shop$/);
  await admin.getByText('文具套装').waitFor();
  await admin.screenshot({ path: join(SHOTS, 'points-shop.png') });

  // 2. the teacher on the phone: select two children, +15 with a reason
  const teacher = await signedIn('teacher', 375, 812, '/teacher_points');
  await teacher.getByText('陈小雨').waitFor();
  await teacher.screenshot({ path: join(SHOTS, 'points-teacher.png') });
  await teacher.locator('li', { hasText: '陈小雨' }).locator('.points-balance').click();
  await teacher.locator('.ant-drawer').getByText('还没有积分记录').waitFor();
  await teacher.locator('.ant-drawer .ant-drawer-close').click();
  await teacher.locator('.ant-drawer').waitFor({ state: 'hidden' });
  await teacher.locator('li', { hasText: '陈小雨' }).locator('.points-row-main').click();
  await teacher.locator('li', { hasText: '陈小阳' }).locator('.points-row-main').click();
  await teacher.getByRole('button', { name: /积分奖惩（已选 2 人）/ }).click();
  const sheet = teacher.locator('.ant-drawer');
  await sheet.getByRole('button', { name: '+10' }).click();
  await sheet.getByLabel('其他').fill('15');
  await sheet.getByText('作业认真').click();
  await teacher.waitForTimeout(500); // the sheet's animation
  await teacher.screenshot({ path: join(SHOTS, 'points-teacher-award.png') });
  await sheet.getByRole('button', { name: '给 2 人 +15 积分' }).click();
  await teacher.getByText('已给 2 名学生加 15 积分').waitFor();
  await expect.poll(() => balance('陈小雨')).toBe(15);
  await teacher.locator('li', { hasText: '陈小雨' }).locator('.points-balance-n', { hasText: '15' }).waitFor();
  await teacher.screenshot({ path: join(SHOTS, 'points-teacher-after.png') });
  // a deduction larger than a balance is stopped before it is sent
  await teacher.locator('li', { hasText: '陈小雨' }).locator('.points-row-main').click();
  await teacher.getByRole('button', { name: /积分奖惩（已选 1 人）/ }).click();
  await sheet.getByText('－ 扣除').click();
  await sheet.getByLabel('其他').fill('16');
  await sheet.getByText('违反纪律').click();
  await sheet.getByText('余额不足：陈小雨（15）').waitFor();
  expect(await sheet.getByRole('button', { name: '给 1 人 −16 积分' }).isDisabled()).toBe(true);
  await teacher.screenshot({ path: join(SHOTS, 'points-teacher-short.png') });
  await sheet.getByRole('button', { name: '−5' }).click(); // the quick amounts follow the sign
  await sheet.getByRole('button', { name: '给 1 人 −5 积分' }).click();
  await expect.poll(() => balance('陈小雨')).toBe(10);
  await teacher.context().close();

  // 3. the parent on the phone: balance and history, then more points and the exchange
  await stack.sql(
    `with s as (select id, school_id from students where name = '陈小雨'),
          u as (update points_accounts a set balance = a.balance + 20 from s where a.student_id = s.id returning a.student_id, a.balance, s.school_id)
     insert into points_ledger (school_id, student_id, kind, delta, balance_after, reason) select school_id, student_id, 'award', 20, balance, '期中表彰' from u`,
  );
  const parent = await signedIn('parent', 375, 812, '/parent_points');
  await parent.getByTestId('points-balance').getByText('30').waitFor();
  await parent.getByText('期中表彰').waitFor();
  await parent.screenshot({ path: join(SHOTS, 'points-parent.png'), fullPage: true });
  await parent
    .locator('[data-testid^=goods-]', { hasText: '文具套装' })
    .getByRole('button', { name: /^兑\s*换$/ })
    .click();
  const dialog = parent.locator('.ant-modal');
  await dialog.getByText('需要 20 积分，兑换后剩余 10 积分').waitFor();
  await parent.waitForTimeout(500);
  await parent.screenshot({ path: join(SHOTS, 'points-parent-exchange.png') });
  await dialog.getByRole('button', { name: /^兑\s*换$/ }).click();
  await parent.getByText('兑换成功，请到机构领取').waitFor();
  await parent.getByTestId('points-balance').getByText('10').waitFor();
  await parent.getByText('待交付').waitFor();
  await parent.screenshot({ path: join(SHOTS, 'points-parent-after.png'), fullPage: true });
  expect(await balance('陈小雨')).toBe(10);

  // 4. the admin hands it over
  await admin.reload();
  await admin.getByRole('tab', { name: /兑换订单/ }).click();
  await admin.getByRole('cell', { name: '陈小雨' }).first().waitFor();
  await admin.screenshot({ path: join(SHOTS, 'points-orders.png') });
  await admin.getByRole('button', { name: /^交\s*付$/ }).click();
  await admin
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: /^交\s*付$/ })
    .click();
  await admin.getByText('没有兑换订单').waitFor();
  const [o] = await stack.sql<{ state: string }>(`select state from points_orders order by id desc limit 1`);
  expect(o.state).toBe('handed_over');
  await admin.getByRole('tab', { name: /^全部/ }).last().click();
  await admin.screenshot({ path: join(SHOTS, 'points-orders-done.png') });
});
