import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONTEXT, SHOTS, startStack, type Stack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

/** WeChat's own browser on an iPhone (the official account's menu opens pages in it). */
const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.50(0x1800323a) NetType/WIFI Language/zh_CN';
/** Safari on the same phone: outside WeChat. */
const SAFARI_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const PARENT_MOBILE = '13800000006';
const WX_NAME = '陈家长的微信';

const phone = (userAgent: string): Promise<BrowserContext> =>
  stack.browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, userAgent, ...CONTEXT });
const noSideScroll = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
const codesSent = async () =>
  (await stack.sql<{ n: number }>(`select count(*)::int as n from sms_messages where mobile = $1 and kind = 'code.login'`, [PARENT_MOBILE]))[0].n;

/**
 * Issue 24's journey: a guardian opens the school's page from the official account inside WeChat, is authorised
 * through the sandbox, binds by SMS code once and is signed in without a code from then on; pays a dinner by JSAPI
 * inside WeChat and a contract by H5 in Safari; the teacher taps 入园 and the arrival reaches the bound guardian in
 * WeChat (the sandbox's log) and an unbound guardian by SMS.
 */
it('WeChat: authorise → bind once → signed in without a code → JSAPI dinner → H5 contract → arrival by WeChat and by SMS', async () => {
  const [school] = await stack.sql<{ id: number; today: string }>(
    `select id, to_char((now() at time zone timezone)::date, 'YYYY-MM-DD') as today from schools order by id limit 1`,
  );
  const [kid] = await stack.sql<{ id: number }>(`select id from students where name = '陈小雨'`);
  // an unpaid dinner tomorrow (booking open all day) and an unpaid contract, both the demo parent's child's
  await stack.sql(
    `insert into meal_settings (school_id, cutoff_time, days_before) values ($1, '23:59', 0)
     on conflict (school_id) do update set cutoff_time = '23:59', days_before = 0`,
    [school.id],
  );
  const [booking] = await stack.sql<{ id: number }>(
    `with g as (insert into meal_goods (school_id, name, price_fen) values ($1, '微信支付套餐', 1800) returning id)
     insert into meal_bookings (school_id, student_id, day, goods_id, price_fen, status, pay_from)
     select $1, $2, $3::date + 1, g.id, 1800, 'unpaid', 'wechat' from g
     on conflict (student_id, day) do update set status = 'unpaid', price_fen = 1800, goods_id = excluded.goods_id returning id`,
    [school.id, kid.id, school.today],
  );
  const [pkg] = await stack.sql<{ id: number }>(
    `insert into contract_packages (school_id, name, kind, length, price_fen) values ($1, 'H5 支付月卡', 'sessions', 20, 66600) returning id`,
    [school.id],
  );
  const [contract] = await stack.sql<{ id: number }>(
    `insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, units_total, list_price_fen, price_fen, paid_fen, status)
     values ($1, 'HTE2EWX00001', $2, $3, 'sessions', $4::date + 30, $4::date + 90, 20, 66600, 66600, 0, 'unpaid') returning id`,
    [school.id, kid.id, pkg.id, school.today],
  );

  // 1. inside WeChat, signed out: the sign-in page goes through the official account's authorisation (the sandbox's page)
  const first = await (await phone(WECHAT_UA)).newPage();
  await first.goto(`${stack.url}/parent_meals`);
  await first.getByTestId('wx-user').waitFor();
  await noSideScroll(first);
  await first.screenshot({ path: join(SHOTS, 'wechat-authorize-375.png') });
  await first.getByTestId('wx-user').fill(WX_NAME);
  await first.getByTestId('wx-consent').click();
  // an openid no guardian has: one SMS-code sign-in binds it
  await first.getByTestId('wechat-bind-hint').waitFor();
  await first.screenshot({ path: join(SHOTS, 'wechat-bind-375.png') });
  await first.getByPlaceholder('手机号').fill(PARENT_MOBILE);
  const before = await codesSent();
  await first.getByRole('button', { name: '获取验证码' }).click();
  await expect.poll(codesSent).toBe(before + 1);
  // read at the phone (the dev outbox): the table keeps a sent code masked
  let code = '';
  await expect
    .poll(async () => (code = ((await (await fetch(`${stack.url}/api/dev/sms-outbox?mobile=${PARENT_MOBILE}`)).json()).data?.code as string) ?? ''))
    .toMatch(/^\d{6}$/);
  await first.getByPlaceholder('验证码').fill(code);
  await first.locator('form button[type=submit]').click();
  await first.waitForURL((u) => u.pathname === '/parent_meals');
  const [binding] = await stack.sql<{ openid: string }>(
    `select b.openid from wechat_bindings b join users u on u.id = b.user_id where u.mobile = $1 and b.unbound_at is null`,
    [PARENT_MOBILE],
  );
  expect(binding.openid).toMatch(/^o[A-Za-z0-9_-]{27}$/);

  // 2. another day, a fresh WeChat browser: authorised again, signed in at once, no code sent
  const wx = await (await phone(WECHAT_UA)).newPage();
  const codes = await codesSent();
  await wx.goto(`${stack.url}/parent_meals`);
  await wx.getByTestId('wx-pick').filter({ hasText: WX_NAME }).click();
  await wx.waitForURL((u) => u.pathname === '/parent_meals');
  expect(await codesSent()).toBe(codes);

  // the guardian's 消息通知: bound, channel per kind (homework by both), alerts cannot be turned off
  await wx.goto(`${stack.url}/parent_messages`);
  await expect.poll(() => wx.getByTestId('wechat-bound').getAttribute('data-bound')).toBe('1');
  await wx.getByTestId('pref-homework.set').getByText('都要').click();
  await wx.getByTestId('prefs-save').click();
  await expect
    .poll(async () => (await stack.sql<{ channel: string }>(`select channel from message_prefs where kind = 'homework.set'`))[0]?.channel)
    .toBe('both');
  await noSideScroll(wx);
  await wx.screenshot({ path: join(SHOTS, 'wechat-parent-messages-375.png'), fullPage: true });
  await wx.goto(`${stack.url}/parent_meals`);

  // 3. the dinner by JSAPI: WeixinJSBridge's sheet (the sandbox's stand-in), then the server's notify decides
  const pay = wx.getByRole('button', { name: /去支付|支付/ }).first();
  await pay.waitFor();
  await pay.click();
  await wx.getByTestId('wechat-jsapi-pay').click();
  await wx.getByTestId('jsapi-confirm').waitFor();
  await wx.screenshot({ path: join(SHOTS, 'wechat-jsapi-sheet-375.png') });
  await wx.getByTestId('jsapi-confirm').click();
  await wx.getByText('支付成功').first().waitFor({ timeout: 20_000 });
  await wx.screenshot({ path: join(SHOTS, 'wechat-jsapi-paid-375.png') });
  await expect
    .poll(async () => (await stack.sql<{ status: string }>(`select status from meal_bookings where id = $1`, [booking.id]))[0].status)
    .toBe('booked');
  const [paid] = await stack.sql<{ channel: string }>(`select channel from payments where kind = 'meal' and ref_id = $1 and state = 'paid'`, [
    String(booking.id),
  ]);
  expect(paid.channel).toBe('jsapi');

  // 4. the contract by H5 in Safari: the cashier page, then back to the result page that polls the payment
  const safari = await (await phone(SAFARI_UA)).newPage();
  await safari.goto(`${stack.url}/login?redirect=${encodeURIComponent('/parent_contracts')}`);
  await safari.getByPlaceholder('用户名 / 手机号 / 邮箱').fill('parent');
  await safari.getByPlaceholder('密码', { exact: true }).fill('Demo@2026');
  await safari.locator('form button[type=submit]').click();
  await safari.waitForURL((u) => u.pathname === '/parent_contracts');
  const card = safari.locator('[data-testid^="contract-"]', { hasText: 'H5 支付月卡' });
  await card.getByRole('button', { name: /去支付/ }).click();
  await safari.getByTestId('wechat-h5-pay').click();
  await safari.getByTestId('h5-confirm').waitFor();
  await noSideScroll(safari);
  await safari.screenshot({ path: join(SHOTS, 'wechat-h5-cashier-375.png') });
  await safari.getByTestId('h5-confirm').click();
  await safari.waitForURL((u) => u.pathname === '/pay/result');
  await expect.poll(() => safari.getByTestId('pay-result-state').getAttribute('data-state'), { timeout: 20_000 }).toBe('paid');
  await safari.screenshot({ path: join(SHOTS, 'wechat-h5-result-375.png') });
  await expect
    .poll(async () => (await stack.sql<{ status: string }>(`select status from contracts where id = $1`, [contract.id]))[0].status)
    .toBe('active');

  // 5. the teacher taps 入园 for 陈小雨 (bound guardian: WeChat) and for a child whose guardian is not bound (SMS)
  const [other] = await stack.sql<{ name: string; mobile: string }>(
    `select s.name, u.mobile from students s join student_guardians g on g.student_id = s.id and g.is_primary join users u on u.id = g.user_id
      join care_class_students cs on cs.student_id = s.id
      where s.school_id = $1 and s.name not like '陈%' and not exists (select 1 from wechat_bindings b where b.user_id = u.id and b.unbound_at is null)
      order by s.id limit 1`,
    [school.id],
  );
  const teacher = await stack.browser.newContext({ viewport: { width: 375, height: 740 }, ...CONTEXT });
  const tp = await teacher.newPage();
  await tp.goto(`${stack.url}/login?redirect=${encodeURIComponent('/teacher_today')}`);
  await tp.getByPlaceholder('用户名 / 手机号 / 邮箱').fill('teacher');
  await tp.getByPlaceholder('密码', { exact: true }).fill('Demo@2026');
  await tp.locator('form button[type=submit]').click();
  await tp.waitForURL((u) => u.pathname === '/teacher_today');
  for (const name of ['陈小雨', other.name]) {
    const row = tp.locator('.flow-row', { hasText: name }).first();
    await row.waitFor();
    await row.click();
  }
  await tp.getByRole('button', { name: /入\s*园/ }).click();
  await tp
    .getByText(/已记录 2 人/)
    .first()
    .waitFor();

  /** The sandbox's log of the messages sent to the bound guardian's openid (its envelope's data, newest first). */
  const arrivals = async () => {
    const res = await fetch(`${stack.url}/api/dev/wechat/messages?openid=${encodeURIComponent(binding.openid)}`);
    const log = (await res.json()) as { data: Array<{ template_id: string; data: Record<string, { value: string }> }> };
    return log.data.filter((m) => m.template_id === 'sbx_tpl_flow_arrived' && JSON.stringify(m.data).includes('陈小雨')).length;
  };
  await expect.poll(arrivals, { timeout: 30_000 }).toBeGreaterThan(0);
  await expect
    .poll(
      async () =>
        (await stack.sql<{ n: number }>(`select count(*)::int as n from sms_messages where mobile = $1 and kind = 'flow.arrived'`, [other.mobile]))[0]
          .n,
      { timeout: 30_000 },
    )
    .toBe(1);
  // the bound guardian got no SMS for it
  expect(
    (await stack.sql<{ n: number }>(`select count(*)::int as n from sms_messages where mobile = $1 and kind = 'flow.arrived'`, [PARENT_MOBILE]))[0].n,
  ).toBe(0);
});
