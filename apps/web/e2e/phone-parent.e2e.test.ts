import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
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

/** A tap where the page's own button or row is (a phone has no mouse). */
const tap = (page: Page, selector: Parameters<Page['locator']>[0] | ReturnType<Page['locator']>) =>
  (typeof selector === 'string' ? page.locator(selector) : selector).first().tap();

/** The page as the parent sees it (saved under SHOTS), and no target under 44 px, nothing wider than the screen. */
async function looked(page: Page, name: string) {
  // the animations have ended (reduced motion) and the images have their size
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: join(SHOTS, `phone-${name}.png`), fullPage: true });
  expect(await smallTargets(page), name).toEqual([]);
}

/** An API call as the demo parent (setup and checks the screens do not need to show). */
async function asParent<T>(method: 'GET' | 'POST', action: string, body?: object): Promise<T> {
  const login = await fetch(`${stack.url}/api/index/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'parent', password: 'Demo@2026' }),
  });
  const token = ((await login.json()) as { data: { userinfo: { token: string } } }).data.userinfo.token;
  const q = method === 'GET' && body ? `?${new URLSearchParams(body as Record<string, string>)}` : '';
  const res = await fetch(`${stack.url}/api/index/${action}${q}`, {
    method,
    headers: { 'content-type': 'application/json', token },
    body: method === 'POST' && body ? JSON.stringify(body) : undefined,
  });
  return ((await res.json()) as { data: T }).data;
}

/**
 * Issue 35's parent phone journey, part A: the demo parent (陈小雨 and 陈小阳) at 375 px sees both children's day on
 * 今日, switches child (remembered by the other pages), opens the daily report and the pick-up code, pays a contract
 * inside WeChat (JSAPI: the sandbox's WeixinJSBridge stand-in, the server's notify decides) and books and pays a dinner
 * in Safari (H5: the sandbox's cashier, back through /pay/result).
 */
it('phone parent: 今日 → switch child → report → pick-up code → contract by JSAPI in WeChat → dinner by H5', async () => {
  const [school] = await stack.sql<{ id: number; today: string }>(
    `select id, to_char((now() at time zone timezone)::date, 'YYYY-MM-DD') as today from schools order by id limit 1`,
  );
  const kids = await stack.sql<{ id: number; name: string }>(`select id, name from students where name in ('陈小雨', '陈小阳') order by name`);
  expect(kids.map((k) => k.name).sort()).toEqual(['陈小阳', '陈小雨']);
  const [parentUser] = await stack.sql<{ id: number }>(`select id from users where username = 'parent'`);
  const yu = kids.find((k) => k.name === '陈小雨')!;
  // booking open all day; an item priced so that a day not covered by a contract is paid
  await stack.sql(
    `insert into meal_settings (school_id, cutoff_time, days_before) values ($1, '23:59', 0)
     on conflict (school_id) do update set cutoff_time = '23:59', days_before = 0`,
    [school.id],
  );
  await stack.sql(`insert into meal_goods (school_id, name, price_fen) values ($1, '手机晚餐套餐', 1600)`, [school.id]);
  // an unpaid contract of 陈小雨's, paid inside WeChat below
  const [pkg] = await stack.sql<{ id: number }>(
    `insert into contract_packages (school_id, name, kind, length, price_fen) values ($1, '手机支付月卡', 'sessions', 20, 58800) returning id`,
    [school.id],
  );
  const [contract] = await stack.sql<{ id: number }>(
    `insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, units_total, list_price_fen, price_fen, paid_fen, status)
     values ($1, 'HTE2EPH00001', $2, $3, 'sessions', $4::date + 30, $4::date + 90, 20, 58800, 58800, 0, 'unpaid') returning id`,
    [school.id, yu.id, pkg.id, school.today],
  );

  // 1. 今日: both children's cards, their care class and today's state; the entries to the other pages
  const page = await signedInPhone(stack, 'parent', '/m/parent');
  await page.locator('.child-card').nth(1).waitFor();
  expect(await page.locator('.child-card').count()).toBe(2);
  for (const k of kids) await page.locator('.child-card', { hasText: k.name }).locator('.child-state').waitFor();
  await expect.poll(() => page.locator('.m-entry').count()).toBeGreaterThanOrEqual(7);
  await looked(page, 'parent-home');

  // 2. switch to the second child: marked on 今日, and the report opens on that child
  const second = kids[1];
  await tap(page, page.locator('.m-child-switcher .adm-capsule-tabs-tab', { hasText: second.name }));
  await page.locator('.child-card.m-chosen', { hasText: second.name }).waitFor();
  await tap(page, page.locator('.m-entry', { hasText: '每日反馈' }));
  await page.waitForURL((u) => u.pathname === '/m/parent_report');
  await page.getByTestId('daily-report').waitFor();
  await expect.poll(() => page.getByTestId('daily-report').locator('.adm-card-header').first().textContent()).toContain(second.name);
  await looked(page, 'parent-report');
  // the other child from the report's own switcher, kept in the link
  const first = kids[0];
  await tap(page, page.locator('.m-child-switcher .adm-capsule-tabs-tab', { hasText: first.name }));
  await expect.poll(() => new URL(page.url()).searchParams.get('student')).toBe(String(first.id));
  await expect.poll(() => page.getByTestId('daily-report').locator('.adm-card-header').first().textContent()).toContain(first.name);

  // 3. the pick-up code: a QR that renews, with its countdown; the pick-up people and their links
  await page.goto(`${stack.url}/m/parent_pickup`);
  const code = page.getByTestId('pickup-code');
  await code.locator('svg').waitFor();
  expect(await code.getAttribute('data-code')).toBeTruthy();
  await expect.poll(async () => (await page.getByTestId('pickup-countdown').textContent()) ?? '').toMatch(/\d+/);
  await looked(page, 'parent-pickup');
  const person = page.getByTestId('pickup-person').first();
  if (await person.count()) {
    await tap(page, person.getByTestId('pickup-link-create'));
    await expect.poll(async () => (await person.getByTestId('pickup-link').textContent()) ?? '').toContain('/pickup/');
    await looked(page, 'parent-pickup-link');
  }
  await page.context().close();

  // 4. inside WeChat, the guardian bound to the official account: 缴费 → pay the contract by JSAPI
  const keys = JSON.parse(readFileSync(join(stack.dataDir, 'wechatpay-sandbox', 'keys.json'), 'utf8')) as { appid: string };
  await stack.sql(`insert into wechat_bindings (user_id, school_id, appid, openid) values ($1, $2, $3, 'o_phone_parent_journey_000000001')`, [
    parentUser.id,
    school.id,
    process.env.WECHAT_OA_APPID ?? keys.appid,
  ]);
  const wxContext = await phoneContext(stack, { wechat: true });
  const wx = await wxContext.newPage();
  // the password sign-in (the official account's authorisation is the wechat journey's): straight to 缴费
  await wx.goto(`${stack.url}/login?wx=skip&redirect=${encodeURIComponent('/m/parent_contracts')}`);
  await wx.getByPlaceholder('用户名 / 手机号 / 邮箱').fill('parent');
  await wx.getByPlaceholder('密码', { exact: true }).fill('Demo@2026');
  await wx.locator('form button[type=submit]').tap();
  await wx.waitForURL((u) => u.pathname === '/m/parent_contracts');
  const card = wx.getByTestId(`contract-${contract.id}`);
  await card.waitFor();
  // what is owed: every unpaid contract of the two children, ours among them
  const [owed] = await stack.sql<{ n: number; yuan: string }>(
    `select count(*)::int as n, to_char(sum(price_fen) / 100.0, 'FM999999990.00') as yuan from contracts where student_id = any($1::int[]) and status = 'unpaid'`,
    [kids.map((k) => k.id)],
  );
  expect(owed.n).toBeGreaterThanOrEqual(1);
  await expect.poll(async () => (await wx.getByTestId('owed').textContent()) ?? '').toContain(`共 ${owed.n} 笔待缴，合计 ¥${owed.yuan}`);
  await looked(wx, 'parent-contracts');
  await tap(wx, card.getByRole('button', { name: /去支付/ }));
  await wx.getByTestId('pay-sheet').waitFor();
  await wx.getByTestId('wechat-jsapi-pay').waitFor();
  await looked(wx, 'parent-pay-sheet');
  await tap(wx, wx.getByTestId('wechat-jsapi-pay'));
  await wx.getByTestId('jsapi-confirm').waitFor();
  await wx.screenshot({ path: join(SHOTS, 'phone-parent-jsapi-sheet.png') });
  await wx.getByTestId('jsapi-confirm').click();
  await wx.getByTestId('pay-sheet').getByText('支付成功').waitFor({ timeout: 20_000 });
  await wx.screenshot({ path: join(SHOTS, 'phone-parent-contract-paid.png') });
  await expect
    .poll(async () => (await stack.sql<{ status: string }>(`select status from contracts where id = $1`, [contract.id]))[0].status)
    .toBe('active');
  const [paid] = await stack.sql<{ channel: string }>(`select channel from payments where kind = 'contract' and ref_id = $1 and state = 'paid'`, [
    String(contract.id),
  ]);
  expect(paid.channel).toBe('jsapi');
  await tap(wx, wx.getByTestId('pay-sheet').getByRole('button', { name: '完成' }));
  await expect.poll(async () => (await card.textContent()) ?? '').not.toContain('去支付');
  await wxContext.close();

  // 5. in Safari: 晚餐 of a child on a day no contract covers → book → the pay sheet → H5 cashier → back, booked
  // 陈小阳's contract without dinner (the demo's includes it): his dinners are paid one by one
  const kid = kids.find((k) => k.name === '陈小阳')!;
  await stack.sql(
    `update contract_packages set includes = array_remove(includes, 'dinner') where id in (select package_id from contracts where student_id = $1)`,
    [kid.id],
  );
  // the first day of the coming week his class meets and he has no dinner booked
  const [{ to }] = await stack.sql<{ to: string }>(`select to_char($1::date + 6, 'YYYY-MM-DD') as to`, [school.today]);
  const [{ from }] = await stack.sql<{ from: string }>(`select to_char($1::date + 1, 'YYYY-MM-DD') as from`, [school.today]);
  const week = await asParent<{ covered_days: string[]; closed_days: Array<{ day: string }>; bookings: Array<{ day: string; status: string }> }>(
    'GET',
    'parentMeals',
    { student_id: String(kid.id), from, to },
  );
  const days = (
    await stack.sql<{ day: string }>(`select to_char(d, 'YYYY-MM-DD') as day from generate_series($1::date, $2::date, interval '1 day') d`, [
      from,
      to,
    ])
  ).map((r) => r.day);
  const day = days.find(
    (d) =>
      !week.covered_days.includes(d) &&
      !week.closed_days.some((c) => c.day === d) &&
      !week.bookings.some((x) => x.day === d && (x.status === 'booked' || x.status === 'unpaid')),
  );
  expect(day, `a day to book and pay in ${JSON.stringify(week)}`).toBeTruthy();

  const safari = await signedInPhone(stack, 'parent', '/m/parent_meals');
  await tap(safari, safari.locator('.m-child-switcher .adm-capsule-tabs-tab', { hasText: kid.name }));
  const dayCard = safari.getByTestId(`meal-day-${day}`);
  await dayCard.waitFor();
  await looked(safari, 'parent-meals');
  await tap(safari, dayCard.getByTestId('meal-choose'));
  await tap(safari, safari.locator('.adm-action-sheet-button-item', { hasText: '手机晚餐套餐' }));
  // the booking waits for its payment: the sheet opens by itself
  await safari.getByTestId('wechat-h5-pay').waitFor();
  await looked(safari, 'parent-meals-pay');
  await tap(safari, safari.getByTestId('wechat-h5-pay'));
  await safari.getByTestId('h5-confirm').waitFor();
  await safari.getByTestId('h5-confirm').click();
  await safari.waitForURL((u) => u.pathname === '/pay/result');
  await expect.poll(() => safari.getByTestId('pay-result-state').getAttribute('data-state'), { timeout: 20_000 }).toBe('paid');
  await expect
    .poll(
      async () =>
        (await stack.sql<{ status: string }>(`select status from meal_bookings where student_id = $1 and day = $2::date`, [kid.id, day]))[0]?.status,
    )
    .toBe('booked');
  // back on the phone page, the day shows the dinner booked
  await safari.goto(`${stack.url}/m/parent_meals`);
  await expect.poll(async () => (await safari.getByTestId(`meal-day-${day}`).textContent()) ?? '').toContain('手机晚餐套餐');
  await expect.poll(async () => (await safari.getByTestId(`meal-day-${day}`).textContent()) ?? '').not.toContain('待付');
  await looked(safari, 'parent-meals-booked');
  await safari.context().close();
});
