import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { phoneContext, signedInPhone, smallTargets } from './phone';
import { SHOTS, startStack, type Stack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

/** a screenshot once no toast covers the page */
const shot = async (page: Page, name: string) => {
  await expect.poll(() => page.locator('.adm-toast-main').count(), { timeout: 10_000 }).toBe(0);
  await page.screenshot({ path: join(SHOTS, `phone-${name}.png`) });
};
/** the page has settled: no grey loading rows left */
const settled = (page: Page) => expect.poll(() => page.locator('[role=status][aria-live]').count(), { timeout: 15_000 }).toBe(0);
/** a sheet's slide-in is done (reduced motion shortens it; the screenshot waits for it anyway) */
const sheetOpen = async (page: Page, testId: string) => {
  await page.getByTestId(testId).waitFor();
  await page.waitForTimeout(400);
};
/**
 * Taps `opener` and waits for the sheet `testId`. Once in CI (a 2-core machine under the whole suite) a tap on 在家完成
 * opened nothing within 30 s; four runs at load 14–19 did not show it again. So a tap that opens nothing in 10 s is
 * kept as evidence (a screenshot, `phone-missed-<sheet>.png`, and a line in the log) and tapped once more: the sheet
 * must still open on a tap.
 */
const tapOpens = async (page: Page, opener: Locator, testId: string) => {
  await opener.tap();
  const opened = await page
    .getByTestId(testId)
    .waitFor({ timeout: 10_000 })
    .then(() => true)
    .catch(() => false);
  if (!opened) {
    await page.screenshot({ path: join(SHOTS, `phone-missed-${testId}.png`) });
    // eslint-disable-next-line no-console -- the journey's evidence of a lost tap, read in the CI log
    console.warn(`${testId}: the first tap opened nothing in 10 s (screenshot phone-missed-${testId}.png); tapping again`);
    await opener.tap();
  }
  await sheetOpen(page, testId);
};
const go = async (page: Page, path: string) => {
  await page.goto(`${stack.url}${path}`, { waitUntil: 'domcontentloaded' });
  await page.locator('.m-top').first().waitFor();
  await settled(page);
};

/** An API call as `account` (the setup and checks the screens do not show). */
async function api(
  account: string,
  method: 'GET' | 'POST',
  action: string,
  body?: object,
): Promise<{ code: number; msg: string; data: any }> /* eslint-disable-line @typescript-eslint/no-explicit-any -- answers of several actions */ {
  const login = await fetch(`${stack.url}/api/index/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, password: 'Demo@2026' }),
  });
  const token = ((await login.json()) as { data: { userinfo: { token: string } } }).data.userinfo.token;
  const query = method === 'GET' && body ? `?${new URLSearchParams(body as Record<string, string>)}` : '';
  const res = await fetch(`${stack.url}/api/index/${action}${query}`, {
    method,
    headers: { 'content-type': 'application/json', token },
    body: method === 'POST' && body ? JSON.stringify(body) : undefined,
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several actions
  return (await res.json()) as { code: number; msg: string; data: any };
}
const ok = async (p: Promise<{ code: number; msg: string; data: unknown }>) => {
  const r = await p;
  expect(r.code, r.msg).toBe(200);
  return r.data as any; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers of several actions
};

/**
 * Issue 35's parent pages on a phone (375 px), part B: homework of the day, the school's notices (one read: the receipt
 * written), the exam scores (the other child chosen, remembered on the next page), points with an exchange, the 消息 tab
 * (a channel changed and saved), the account settings (the nickname changed); and the pick-up link the parent makes,
 * opened signed out on another phone at /m/pickup/<token>.
 */
it('the parent on a phone: homework, notices read, scores, points exchanged, message settings, account settings; a pick-up link opened signed out', async () => {
  const kids = await stack.sql<{ id: number; name: string }>(`select id, name from students where name in ('陈小雨', '陈小阳') order by name`);
  const xiaoyu = kids.find((k) => k.name === '陈小雨')!;
  const xiaoyang = kids.find((k) => k.name === '陈小阳')!;
  const [klass] = await stack.sql<{ id: number; today: string }>(
    `select c.id, to_char((now() at time zone s.timezone)::date, 'YYYY-MM-DD') as today
       from care_classes c join care_class_students cs on cs.class_id = c.id join schools s on s.id = c.school_id
      where cs.student_id = $1 and c.deleted_at is null limit 1`,
    [xiaoyu.id],
  );

  // the school's side, through the API: homework today, a notice to the class, a published exam, a good in the shop, points
  await ok(
    api('teacher', 'POST', 'issueHomeWork', {
      kind: 'care',
      class_id: klass.id,
      title: '口算练习第 12 页',
      content: '完成口算练习第 12 页，家长签字。',
      due_day: klass.today,
      request_id: crypto.randomUUID(),
    }),
  );
  await ok(
    api('adviser', 'POST', 'teacherAddInform', {
      title: '周五提前放学',
      content: '<p>本周五学校教研活动，<b>16:00 提前放学</b>，请家长按时接孩子。</p>',
      scope: 'classes',
      class_ids: [klass.id],
      audience: 'guardians',
      request_id: crypto.randomUUID(),
    }),
  );
  const exam = await ok(
    api('admin', 'POST', 'addExam', { name: '十二月数学月考', subject: '数学', exam_day: klass.today, full_mark: 100, class_ids: [klass.id] }),
  );
  await ok(
    api('admin', 'POST', 'addExamScore', {
      exam_id: exam.id,
      rows: [
        { student_id: xiaoyu.id, score: 92 },
        { student_id: xiaoyang.id, score: 78 },
      ],
    }),
  );
  const [examRow] = await stack.sql<{ version: number }>(`select version from exams where id = $1`, [exam.id]);
  await ok(api('admin', 'POST', 'publishExamScores', { exam_id: exam.id, version: examRow.version }));
  await ok(
    api('admin', 'POST', 'addScoreGoods', {
      name: '文具套装',
      description: '铅笔、橡皮和尺子',
      price: 20,
      stock: 3,
      request_id: crypto.randomUUID(),
    }),
  );
  await ok(
    api('teacher', 'POST', 'awardPoints', { student_ids: [xiaoyu.id, xiaoyang.id], points: 30, reason: '作业认真', request_id: crypto.randomUUID() }),
  );

  // 1. 作业: today's homework of the chosen child (陈小雨 first), the "done at home" sheet
  const parent = await signedInPhone(stack, 'parent', '/m/parent_homework');
  await settled(parent);
  const hw = parent.getByTestId('parent-homework').filter({ hasText: '口算练习第 12 页' });
  await hw.waitFor();
  await hw.getByText('未完成').waitFor();
  expect(await smallTargets(parent)).toEqual([]);
  await shot(parent, 'parent-homework');
  await tapOpens(parent, hw.getByTestId('hw-done-open'), 'hw-done-sheet');
  expect(await smallTargets(parent)).toEqual([]);
  await shot(parent, 'parent-homework-done');
  await parent.getByTestId('hw-done-sheet').getByRole('button', { name: '取消' }).tap();
  await parent.getByTestId('hw-done-sheet').waitFor({ state: 'hidden' });
  // the day before: nothing set
  await parent.getByTestId('hw-prev').tap();
  await parent.getByText('这一天没有作业').waitFor();

  // 2. 通知: unread, opened (read), then shown read; the receipt is written
  await go(parent, '/m/parent_notices');
  const [notice] = await stack.sql<{ id: number }>(`select id from notices order by id desc limit 1`);
  const row = parent.getByTestId(`parent-notice-${notice.id}`);
  await row.getByText('未读').waitFor();
  expect(await smallTargets(parent)).toEqual([]);
  await shot(parent, 'parent-notices');
  await tapOpens(parent, row, 'notice-sheet');
  await parent.getByTestId('notice-sheet').getByText('16:00 提前放学').waitFor();
  expect(await smallTargets(parent)).toEqual([]);
  await shot(parent, 'parent-notice-open');
  await expect
    .poll(
      async () =>
        (
          await stack.sql<{ n: number }>(`select count(*)::int as n from notice_receipts where notice_id = $1 and read_at is not null`, [notice.id])
        )[0].n,
    )
    .toBe(1);
  await parent.getByTestId('notice-sheet').getByRole('button', { name: '关闭' }).tap();
  await row.getByText('已读').waitFor();

  // 3. 成绩: 陈小雨's score, then 陈小阳 chosen (remembered by the next page)
  await go(parent, '/m/parent_scores');
  const card = parent.getByTestId(`parent-exam-${exam.id}`);
  await card.getByTestId('ps-score').getByText('92').waitFor();
  await card.getByTestId('ps-rank').getByText('1 / 2').waitFor();
  expect(await smallTargets(parent)).toEqual([]);
  await shot(parent, 'parent-scores');
  await parent.locator('.m-child-switcher .adm-capsule-tabs-tab', { hasText: '陈小阳' }).tap();
  await card.getByTestId('ps-score').getByText('78').waitFor();

  // 4. 积分: 陈小阳 (remembered), 30 points; the good exchanged after the confirming sheet: 10 left, the order pending
  await go(parent, '/m/parent_points');
  await parent.locator('.m-child-switcher .adm-capsule-tabs-tab-active', { hasText: '陈小阳' }).waitFor();
  await parent.getByTestId('points-balance-value').getByText('30').waitFor();
  expect(await smallTargets(parent)).toEqual([]);
  await shot(parent, 'parent-points');
  await tapOpens(parent, parent.locator('[data-testid^=goods-]', { hasText: '文具套装' }).getByTestId('goods-exchange'), 'exchange-sheet');
  await parent.getByTestId('exchange-sheet').getByText('为 陈小阳 兑换「文具套装」').waitFor();
  expect(await smallTargets(parent)).toEqual([]);
  await shot(parent, 'parent-points-exchange');
  await parent.getByTestId('exchange-confirm').tap();
  await parent.getByText('兑换成功，请到机构领取').waitFor();
  await parent.getByTestId('points-balance-value').getByText('10').waitFor();
  const orders = await stack.sql<{ student_id: number; price: number }>(`select student_id, price from points_orders`);
  expect(orders).toEqual([{ student_id: xiaoyang.id, price: 20 }]);
  await parent.locator('.m-tabs .adm-capsule-tabs-tab', { hasText: '兑换' }).tap();
  await parent.getByTestId('points-order').filter({ hasText: '文具套装' }).getByText('待交付').waitFor();
  expect(await smallTargets(parent)).toEqual([]);
  await shot(parent, 'parent-points-orders');

  // 5. 消息 (the tab): the link to the notices, one kind of message moved to SMS and saved
  await parent.locator('.m-tabbar .adm-tab-bar-item', { hasText: '消息' }).tap();
  await parent.waitForURL((u) => u.pathname === '/m/parent_messages');
  await settled(parent);
  await parent.getByTestId('messages-notices').getByText('全部已读').waitFor();
  const before = await ok(api('parent', 'GET', 'messagePrefs'));
  const kind = (before.kinds as Array<{ kind: string; channel: string; channels: string[] }>).find(
    (k) => k.channel !== 'sms' && k.channels.includes('sms'),
  )!;
  expect(await smallTargets(parent)).toEqual([]);
  await shot(parent, 'parent-messages');
  await parent.getByTestId(`pref-${kind.kind}`).locator('.adm-selector-item', { hasText: '短信' }).tap();
  await parent.getByTestId('prefs-save').tap();
  await parent.getByText('消息通知设置已保存').waitFor();
  const after = await ok(api('parent', 'GET', 'messagePrefs'));
  expect((after.kinds as Array<{ kind: string; channel: string; chosen: boolean }>).find((k) => k.kind === kind.kind)).toMatchObject({
    channel: 'sms',
    chosen: true,
  });
  await parent.getByTestId('messages-notices').tap();
  await parent.waitForURL((u) => u.pathname === '/m/parent_notices');

  // 6. 账号设置 (from 我的): the nickname changed in a sheet; the WeChat binding shown
  await go(parent, '/m/parent_me');
  await parent.locator('.adm-list-item', { hasText: '账号设置' }).tap();
  await parent.waitForURL((u) => u.pathname === '/m/settings');
  await settled(parent);
  await parent.getByTestId('wechat-bound').waitFor();
  expect(await smallTargets(parent)).toEqual([]);
  await shot(parent, 'settings');
  await tapOpens(parent, parent.getByTestId('settings-nickname'), 'nickname-sheet');
  await parent.getByTestId('nickname-sheet').locator('input').fill('小雨妈妈');
  expect(await smallTargets(parent)).toEqual([]);
  await shot(parent, 'settings-nickname');
  await parent.getByTestId('nickname-save').tap();
  await parent.getByTestId('nickname-sheet').waitFor({ state: 'hidden' });
  await parent.getByTestId('settings-nickname').getByText('小雨妈妈').waitFor();
  expect((await stack.sql<{ nickname: string }>(`select nickname from users where username = 'parent'`))[0].nickname).toBe('小雨妈妈');
  await tapOpens(parent, parent.getByTestId('settings-password'), 'password-sheet');
  await parent.getByTestId('password-save').tap();
  await parent.getByText('请输入密码').first().waitFor(); // nothing sent: the fields are required
  await shot(parent, 'settings-password');

  // 7. the pick-up link the parent makes (a pick-up person of 陈小雨), opened on another phone, signed out
  const people = await ok(api('parent', 'GET', 'pickupShareLinks'));
  const person = (people.list as Array<{ pickup_person_id: number; students: Array<{ id: number }> }>).find((p) => p.students[0].id === xiaoyu.id)!;
  const link = await ok(api('parent', 'POST', 'pickupShareLink', { pickup_person_id: person.pickup_person_id }));
  expect(link.path).toBe(`/m/pickup/${link.token}`);
  const other = await (await phoneContext(stack)).newPage();
  await other.goto(`${stack.url}${link.path}`);
  const code = other.getByTestId('pickup-code');
  await code.waitFor();
  expect(await code.getAttribute('data-code')).toMatch(/\./);
  await other.getByText('可接：陈小雨').waitFor();
  await other
    .getByTestId('pickup-countdown')
    .getByText(/\d+ 秒后刷新/)
    .waitFor();
  expect(new URL(other.url()).pathname).toBe(link.path); // no sign-in asked
  expect(await smallTargets(other)).toEqual([]);
  await shot(other, 'pickup-link');
  // a link that was never made: said so
  await other.goto(`${stack.url}/m/pickup/${'x'.repeat(32)}`);
  await other.getByTestId('pickup-invalid').getByText('此接送链接无效或已被撤销').waitFor();
  await shot(other, 'pickup-link-invalid');
  // the desktop page of the same link still works
  const desk = await (await stack.browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'zh-CN' })).newPage();
  await desk.goto(`${stack.url}/pickup/${link.token}`);
  await desk.getByTestId('pickup-code').waitFor();
  await desk.context().close();
  await other.context().close();
  await parent.context().close();
}, 240_000);
