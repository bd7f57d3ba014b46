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

/**
 * Issue 14's notices journey: the head teacher publishes an important notice to their class on /AClassNotice; the
 * parent opens it on the phone (375 px), which reads it; the head teacher's receipts show it read with the time, the
 * other guardians unread.
 */
it('the head teacher publishes → the parent reads it on the phone → the receipt shows on the head teacher’s page', async () => {
  // 1. the head teacher: nothing sent yet; compose an important notice to their class
  const adviser = await signedIn('adviser', 1280, 860, '/AClassNotice');
  await adviser.getByText('还没有发布过通知').waitFor();
  await adviser.screenshot({ path: join(SHOTS, 'notices-empty.png') });
  await adviser.getByTestId('notice-compose').click();
  const drawer = adviser.locator('.ant-drawer').filter({ hasText: '发布通知' });
  await drawer.getByLabel('标题').fill('周五提前放学');
  const editor = drawer.locator('.notice-editor-area');
  await editor.waitFor(); // the lazy editor
  await editor.click();
  await adviser.keyboard.type('本周五学校教研活动，');
  await drawer.getByRole('button', { name: '加粗' }).click();
  await adviser.keyboard.type('16:00 提前放学');
  await drawer.getByRole('button', { name: '加粗' }).click();
  await adviser.keyboard.type('，请家长按时接孩子。');
  await drawer.getByRole('switch').click();
  await drawer.getByText('21:00 至次日 07:00 不发短信').waitFor();
  // the only class of this head teacher is chosen already
  expect(await drawer.getByRole('checkbox', { name: '阳光一班' }).isChecked()).toBe(true);
  await adviser.waitForTimeout(400); // the drawer's animation
  await adviser.screenshot({ path: join(SHOTS, 'notices-compose.png') });
  await drawer.getByTestId('notice-publish').click();
  await adviser.getByText(/已发布，\d+ 人将收到/).waitFor();

  const [notice] = await stack.sql<{ id: number; recipients: number; content: string; important: boolean }>(
    `select id, recipients, content, important from notices order by id desc limit 1`,
  );
  expect(notice.important).toBe(true);
  expect(notice.content).toContain('<b>16:00 提前放学</b>');
  const [guardians] = await stack.sql<{ n: number }>(
    `select count(distinct g.user_id)::int as n from student_guardians g join students s on s.id = g.student_id and s.status = 1
       join care_class_students c on c.student_id = s.id join care_classes cc on cc.id = c.class_id where cc.name = '阳光一班'`,
  );
  expect(notice.recipients).toBe(guardians.n);
  await adviser.getByTestId(`notice-read-${notice.id}`).getByText(`0/${guardians.n}`).waitFor();
  await adviser.screenshot({ path: join(SHOTS, 'notices-sent.png') });

  // 2. the parent on the phone: the notice unread, opened, then read
  const parent = await signedIn('parent', 375, 812, '/parent_notices');
  const card = parent.getByTestId(`parent-notice-${notice.id}`);
  await card.getByText('周五提前放学').waitFor();
  await card.getByText('未读').waitFor();
  await parent.screenshot({ path: join(SHOTS, 'notices-parent-list.png') });
  await card.click();
  const modal = parent.locator('.ant-modal');
  await modal.getByText('16:00 提前放学').waitFor();
  await parent.waitForTimeout(400);
  await parent.screenshot({ path: join(SHOTS, 'notices-parent-open.png') });
  await modal
    .locator('.ant-modal-footer')
    .getByRole('button', { name: /^关\s*闭$/ })
    .click();
  await card.getByText('已读').waitFor();
  await parent.screenshot({ path: join(SHOTS, 'notices-parent-read.png') });
  const [receipt] = await stack.sql<{ read_at: Date | null }>(
    `select r.read_at from notice_receipts r join users u on u.id = r.user_id where r.notice_id = $1 and u.username = 'parent'`,
    [notice.id],
  );
  expect(receipt.read_at).not.toBeNull();
  await parent.context().close();

  // 3. the head teacher: 1 read with its time, the others unread, the reminder offered
  await adviser.reload();
  await adviser.getByTestId(`notice-read-${notice.id}`).getByText(`1/${guardians.n}`).waitFor();
  await adviser.getByTestId(`notice-row-${notice.id}`).click();
  const receipts = adviser.locator('.ant-drawer').filter({ hasText: '阅读回执' });
  await receipts
    .getByTestId('receipt-summary')
    .getByText(`已读 1 人，未读 ${guardians.n - 1} 人，共 ${guardians.n} 人`)
    .waitFor();
  const [parentUser] = await stack.sql<{ id: number }>(`select id from users where username = 'parent'`);
  const readTag = receipts.getByTestId(`receipt-read-${parentUser.id}`);
  await readTag.waitFor();
  expect(await readTag.textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} 已读$/);
  expect(await receipts.locator('[data-testid^="receipt-unread-"]').count()).toBe(guardians.n - 1);
  await receipts.getByTestId('notice-remind').waitFor();
  await adviser.waitForTimeout(400);
  await adviser.screenshot({ path: join(SHOTS, 'notices-receipts.png') });
  await adviser.context().close();

  // 4. the same page on the head teacher's phone: the list and the receipts fit 375 px
  const phone = await signedIn('adviser', 375, 812, '/AClassNotice');
  await phone.getByTestId(`notice-read-${notice.id}`).getByText(`1/${guardians.n}`).waitFor();
  await phone.screenshot({ path: join(SHOTS, 'notices-adviser-375.png') });
  await phone.getByTestId(`notice-row-${notice.id}`).click();
  await phone.getByTestId('receipt-summary').waitFor();
  await phone.waitForTimeout(400);
  await phone.screenshot({ path: join(SHOTS, 'notices-receipts-375.png') });
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  // 5. the admin sends the whole school a notice: the head teacher follows it under 本班通知, with their class's guardians only
  const login = await fetch(`${stack.url}/api/index/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: 'Demo@2026' }),
  });
  const token = ((await login.json()) as { data: { userinfo: { token: string } } }).data.userinfo.token;
  const sent = await fetch(`${stack.url}/api/index/teacherAddInform`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify({
      title: '全校冬季作息调整',
      content: '<p>下周起晚托结束时间调整为 19:00。</p>',
      scope: 'school',
      class_ids: [],
      audience: 'guardians',
      request_id: 'e2e-school-notice',
    }),
  });
  const schoolNotice = ((await sent.json()) as { data: { id: number } }).data;
  await phone.goto(`${stack.url}/AClassNotice`);
  await phone.getByText('本班通知').click();
  await phone.getByTestId(`notice-row-${schoolNotice.id}`).click();
  await phone.getByTestId('receipt-summary').getByText(`本班家长：已读 0 人，未读 ${guardians.n} 人`).waitFor();
  expect(await phone.getByTestId('notice-remind').count()).toBe(0);
  await phone.waitForTimeout(400);
  await phone.screenshot({ path: join(SHOTS, 'notices-class-receipts-375.png') });
  await phone.context().close();
});
