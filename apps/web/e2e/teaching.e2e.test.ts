import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SHOTS, signedIn as signedInAs, startStack, type Stack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const signedIn = (account: string, width: number, height: number, path: string) => signedInAs(stack, account, width, height, path);
const settle = (page: Page) => page.waitForTimeout(400);
const field = (page: Page, label: string) =>
  page.locator('.ant-form-item').filter({ has: page.locator('.ant-form-item-label label', { hasText: new RegExp(`^${label}$`) }) });

/** Calendar arithmetic on a YYYY-MM-DD day (the date alone, never a moment cut to UTC). */
const plusDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
};
/** The n-th Tuesday after the school's today (its local date; the generator's default range starts tomorrow). */
async function tuesdayAfter(n: number): Promise<string> {
  const [{ today }] = await stack.sql<{ today: string }>(
    `select (now() at time zone s.timezone)::date::text as today from schools s where s.id = (select school_id from users where mobile = '13800000001')`,
  );
  let d = plusDays(today, 1);
  while (new Date(`${d}T00:00:00Z`).getUTCDay() !== 2) d = plusDays(d, 1);
  return plusDays(d, 7 * (n - 1));
}

/**
 * Issue 13's teaching journey through the screens: the admin creates a teaching class (room added on the way),
 * previews its term (a holiday skipped, a make-up Saturday added), generates it, tries to move a session onto
 * another lesson's slot (refused with the clash named), then moves it to a free window.
 */
it('create a teaching class → preview and generate its schedule → a move refused with its clash → moved to a free window', async () => {
  // the school calendar (setup): the second Tuesday a holiday, the Saturday after it a make-up day running as Tuesday
  const holiday = await tuesdayAfter(2);
  const makeup = plusDays(holiday, 4);
  await stack.sql(
    `insert into school_calendar_days (school_id, day, kind, works_as, note)
     select id, $1::date, 'holiday', null, '校庆' from schools where id = (select school_id from users where mobile = '13800000001')
     union all select id, $2::date, 'makeup', 2, '校庆调休' from schools where id = (select school_id from users where mobile = '13800000001')`,
    [holiday, makeup],
  );

  const admin = await signedIn('13800000001', 1280, 900, '/principal_class');
  await admin.getByRole('tab', { name: '兴趣班' }).click();
  await admin.getByText('还没有兴趣班').waitFor();
  await admin.screenshot({ path: join(SHOTS, 'teaching-list-empty.png') });
  await admin.getByRole('button', { name: '新建兴趣班' }).click();
  await admin.waitForURL(/\/principal_add_class\?type=teaching$/);

  // 1. the class
  await field(admin, '班级名称').locator('input').fill('少儿书法A班');
  await field(admin, '科目').locator('input').fill('书法');
  await field(admin, '授课老师').locator('.ant-select').click();
  await admin.keyboard.type('李老师');
  await admin.locator('.ant-select-item-option', { hasText: '李老师' }).first().click();
  await field(admin, '教室').locator('.ant-select').click();
  await admin.getByPlaceholder('新教室名称').fill('书法教室');
  await admin.getByRole('button', { name: /^添\s*加$/ }).click();
  await expect.poll(() => field(admin, '教室').locator('.ant-select').innerText()).toContain('书法教室');
  await admin.keyboard.press('Escape');
  await field(admin, '课次数').locator('input').fill('8');
  await field(admin, '费用（元）').locator('input').fill('960');
  await admin.screenshot({ path: join(SHOTS, 'teaching-add-info.png') });
  await admin.getByRole('button', { name: '创建并排课' }).click();

  // 2. the schedule: Tuesdays 16:30-17:30 from tomorrow for 8 weeks (the defaults), previewed
  await admin.getByRole('button', { name: /^预\s*览$/ }).click();
  const preview = admin.getByTestId('schedule-preview');
  await preview.waitFor();
  await expect.poll(() => preview.innerText()).toContain('将生成 8 个课次');
  await expect.poll(() => preview.innerText()).toContain(holiday);
  await expect.poll(() => preview.innerText()).toContain('校庆');
  await expect.poll(() => preview.innerText()).toContain('调休上课，按周二');
  await expect.poll(() => preview.innerText()).toContain('没有冲突');
  await admin.screenshot({ path: join(SHOTS, 'teaching-schedule-preview.png'), fullPage: true });
  await admin.getByRole('button', { name: '确认生成 8 个课次' }).click();
  await admin.getByText('已生成 8 个课次').first().waitFor();
  const [{ n }] = await stack.sql<{ n: number }>(
    `select count(*)::int as n from class_sessions s join teaching_classes c on c.id = s.class_id where c.name = '少儿书法A班'`,
  );
  expect(n).toBe(8);
  await admin.getByRole('button', { name: '打开班级' }).click();
  await admin.waitForURL(/\/principal_class_Editing\?type=teaching&id=\d+$/);

  // 3. the sessions: lesson 1 onto lesson 2's slot is refused with the clash named, then moved to a free window
  const rows = admin.locator('.ant-table-row');
  await expect.poll(() => rows.count()).toBe(8);
  const second = (await rows.nth(1).locator('td').nth(1).innerText()).trim();
  await admin.screenshot({ path: join(SHOTS, 'teaching-class-sessions.png'), fullPage: true });
  await rows
    .first()
    .getByRole('button', { name: /^调\s*课$/ })
    .click();
  const dialog = admin.locator('.ant-modal').filter({ hasText: '调课：第 1 课' });
  await dialog.waitFor();
  await dialog.getByText('老师和教室都空闲').first().waitFor();
  // lesson 2 is the make-up Saturday of the next week: pick that day through one of its free windows, then its time
  await dialog.getByRole('button', { name: '下一周' }).click();
  await dialog.getByTestId(`move-day-${second}`).waitFor();
  await dialog.getByTestId(`move-day-${second}`).getByRole('button').first().click();
  await dialog.locator('input').nth(1).fill('16:30');
  await dialog.locator('input').nth(2).fill('17:30');
  await dialog.getByRole('button', { name: '确认调课' }).click();
  const clash = dialog.getByTestId('clash-list');
  await clash.waitFor();
  await expect.poll(() => clash.innerText()).toContain('李老师');
  await expect.poll(() => clash.innerText()).toContain(second);
  await settle(admin);
  await admin.screenshot({ path: join(SHOTS, 'teaching-move-clash.png') });
  // a free window of that day
  await dialog.getByTestId(`move-day-${second}`).getByRole('button').first().click();
  const start = await dialog.locator('input').nth(1).inputValue();
  await dialog.getByRole('button', { name: '确认调课' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await admin.getByText(`已调到 ${second} ${start}`).waitFor();
  await expect.poll(() => rows.filter({ hasText: second }).count()).toBe(2);
  await admin.screenshot({ path: join(SHOTS, 'teaching-class-moved.png'), fullPage: true });

  // 4. the school calendar tab lists the holiday and the make-up day the generation followed
  await admin.goto(`${stack.url}/principal_class`);
  await admin.getByRole('tab', { name: '校历' }).click();
  await admin.getByText('校庆调休').first().waitFor();
  await admin.getByText('校庆', { exact: true }).first().waitFor();
  await settle(admin);
  await admin.screenshot({ path: join(SHOTS, 'teaching-calendar.png'), fullPage: true });
  await admin.context().close();

  // 5. the teacher's roll-call page on a phone: no horizontal scrolling at 375 px
  const phone = await signedIn('13800000002', 375, 740, '/teacher_rollcall');
  // today's sessions or the empty state, once loaded
  await phone.locator('.ant-list-item, .ant-empty').first().waitFor();
  await settle(phone);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await phone.screenshot({ path: join(SHOTS, 'teaching-rollcall-phone.png'), fullPage: true });
  await phone.context().close();
});
