import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signedInPhone, smallTargets } from './phone';
import { SHOTS, signedIn, startStack, type Stack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const tap = (page: Page, selector: string) => page.locator(selector).first().tap();

/** The page as its user sees it (saved under SHOTS); on a phone no target under 44 px, nothing wider than the screen. */
async function looked(page: Page, name: string, phone = true) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  if (phone) expect(await smallTargets(page), name).toEqual([]);
}

/**
 * Issue 40's pages at 375 px and 1280 px: the school's staff all off duty until tomorrow 08:00, the demo parent writes
 * to 陈小雨's teachers (the office-hours notice, 紧急, a quick reply), the head teacher finds it from 今日 (badge, list,
 * the chat; the reply reaches the parent's open page live), sets their office hours in 设置, and the admin reads the
 * conversation in the console (the logged-read note).
 */
it('family conversations: guardian → head teacher → admin, on the phone and the console', async () => {
  const [school] = await stack.sql<{ id: number; tomorrow: number }>(
    `select id, extract(isodow from (now() at time zone timezone)::date + 1)::int as tomorrow from schools order by id limit 1`,
  );
  // every member of staff works tomorrow 08:00–09:00 only: now is outside everyone's hours
  await stack.sql(
    `insert into staff_office_hours (user_id, school_id, days, start_time, end_time)
     select id, school_id, array[$2::smallint], '08:00', '09:00' from users where school_id = $1 and role in (1, 2, 5)
     on conflict (user_id) do update set days = excluded.days, start_time = excluded.start_time, end_time = excluded.end_time`,
    [school.id, school.tomorrow],
  );

  // the guardian: 消息 → 和老师聊天
  const parent = await signedInPhone(stack, 'parent', '/m/parent_messages');
  await parent.getByTestId('messages-chat').waitFor();
  await looked(parent, 'phone-conversation-entry');
  await tap(parent, '[data-testid="messages-chat"]');
  await parent.waitForURL((u) => u.pathname === '/m/parent_chat');
  const notice = parent.getByTestId('office-hours-notice');
  await expect.poll(() => notice.textContent()).toContain('学校将于 明天 08:00 回复');
  await parent.locator('[data-testid="chat-text"] textarea, textarea').first().fill('今天奶奶来接，穿红色外套');
  await tap(parent, '[data-testid="chat-urgent"]');
  await tap(parent, '[data-testid="chat-send"]');
  await expect.poll(() => parent.locator('[data-testid="chat-message"]').count()).toBe(1);
  await tap(parent, '[data-testid="chat-quick"]');
  await parent.locator('.adm-action-sheet-button-item').first().tap();
  await expect.poll(() => parent.locator('[data-testid="chat-message"]').count()).toBe(2);
  await looked(parent, 'phone-conversation-parent');

  // the head teacher: 今日 → 家长消息 (the unread badge) → the child's chat
  const head = await signedInPhone(stack, 'adviser', '/m/teacher_today');
  await head.getByTestId('open-chats').waitFor();
  await head.getByTestId('open-chats-unread').waitFor();
  await looked(head, 'phone-conversation-teacher-today');
  await tap(head, '[data-testid="open-chats"]');
  await head.waitForURL((u) => u.pathname === '/m/teacher_chats');
  await head.getByTestId('chat-row').first().waitFor();
  await expect.poll(() => head.getByTestId('chat-row').first().textContent()).toContain('紧急');
  await looked(head, 'phone-conversation-teacher-list');
  await tap(head, '[data-testid="chat-row"]');
  await head.waitForURL((u) => u.pathname === '/m/teacher_chat');
  await expect.poll(() => head.locator('[data-testid="chat-message"]').count()).toBe(2);
  await head.locator('textarea').first().fill('收到，奶奶来接没问题。');
  await tap(head, '[data-testid="chat-send"]');
  await expect.poll(() => head.locator('[data-testid="chat-message"]').count()).toBe(3);
  await looked(head, 'phone-conversation-teacher-chat');
  // live on the guardian's open page
  await expect.poll(() => parent.locator('[data-testid="chat-message"]').count()).toBe(3);
  await expect.poll(() => parent.locator('[data-testid="chat-message"]').last().textContent()).toContain('收到，奶奶来接没问题。');
  // the head teacher read the guardian's messages: 已读 under them
  await expect.poll(() => parent.locator('[data-testid="chat-read"]').first().textContent()).toBe('已读');
  await looked(parent, 'phone-conversation-parent-live');

  // 设置 → 办公时间
  await head.goto(`${stack.url}/m/settings`);
  await head.getByTestId('office-now').waitFor();
  expect(await head.getByTestId('office-now').textContent()).toBe('现在在办公时间外');
  await looked(head, 'phone-conversation-office-hours');

  // the admin's console, 1280 px and 375 px
  const admin = await signedIn(stack, 'admin', 1280, 800, '/principal_chats');
  await admin.locator('[data-testid="cc-list"] tbody tr.ant-table-row').first().click();
  await expect.poll(() => admin.locator('[data-testid="chat-message"]').count()).toBe(3);
  await expect.poll(() => admin.getByTestId('cc-admin-note').textContent()).toContain('管理员查看会话会被记录');
  await looked(admin, 'console-conversations-admin-1280', false);
  await admin.setViewportSize({ width: 375, height: 812 });
  await looked(admin, 'console-conversations-admin-375', false);
  expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
