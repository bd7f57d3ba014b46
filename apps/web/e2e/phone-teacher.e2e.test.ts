import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { phoneContext, signedInPhone, smallTargets } from './phone';
import { SHOTS, signedIn, startStack, type Stack } from './stack';

let stack: Stack;
const tmp = mkdtempSync(join(tmpdir(), 'wantuo-phone-teacher-'));
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `phone-${name}.png`) });
/** the page has settled: no grey loading rows left */
const settled = (page: Page) => expect.poll(() => page.locator('.m-content [role=status][aria-live]').count(), { timeout: 15_000 }).toBe(0);
const tapTab = async (page: Page, title: string, path: string) => {
  await page.locator('.m-tabbar .adm-tab-bar-item', { hasText: title }).tap();
  await page.waitForURL((u) => u.pathname === path);
};

/** An API call as `account` (the checks and setup a screen does not show). */
async function api(
  account: string,
  method: 'GET' | 'POST',
  action: string,
  body?: object,
): Promise<{ code: number; data: any }> /* eslint-disable-line @typescript-eslint/no-explicit-any -- answers of several actions */ {
  const login = await fetch(`${stack.url}/api/index/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, password: 'Demo@2026' }),
  });
  const token = ((await login.json()) as { data: { userinfo: { token: string } } }).data.userinfo.token;
  const res = await fetch(`${stack.url}/api/index/${action}`, {
    method,
    headers: { 'content-type': 'application/json', token },
    body: body ? JSON.stringify(body) : undefined,
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several actions
  return (await res.json()) as { code: number; data: any };
}

/**
 * Issue 35's teacher pages on a 375 px phone: 今日 (select a child, a step recorded, a forbidden one greyed with its
 * reason, the quick comment as a sheet), 接送, 辅导 (a child's tutoring sheet), 每日评语 (a comment saved) and 扫码放学
 * (a parent's code scanned from a photo: the child leaves); the head teacher opens the same pages on their class.
 */
it('the teacher’s phone: today’s step, shuttle, tutoring, a comment saved, a pick-up code scanned; the head teacher’s class', async () => {
  const [xiaoyu] = await stack.sql<{ id: number }>(`select id from students where name = '陈小雨'`);

  // 1. 今日: the rows, one child selected, 接到 recorded (the API's answer and the row's state)
  const phone = await signedInPhone(stack, 'teacher', '/m/teacher_today');
  await phone.locator('.flow-list .flow-row strong').first().waitFor();
  await shot(phone, 'teacher-today');
  expect(await smallTargets(phone)).toEqual([]);
  const row = phone.locator('.flow-row', { hasText: '陈小雨' });
  await row.tap();
  await expect.poll(() => row.getAttribute('aria-checked')).toBe('true');
  await phone.getByText('已选 1 人').waitFor();
  // a step the state machine forbids is greyed out with the reason
  await expect.poll(() => phone.locator('[data-step=dinner]').isDisabled()).toBe(true);
  await phone.locator('.m-step-why', { hasText: '陈小雨' }).first().waitFor();
  const answer = phone.waitForResponse((r) => r.url().includes('/api/index/shuttleStudent'));
  await phone.locator('[data-step=shuttle]').tap();
  const body = (await (await answer).json()) as { code: number; data: { results: Array<{ student_id: number; ok: boolean }> } };
  expect(body.code).toBe(200);
  expect(body.data.results).toEqual([expect.objectContaining({ student_id: xiaoyu.id, ok: true })]);
  await expect.poll(() => row.locator('.adm-tag').first().innerText()).toBe('已接到');
  await expect.poll(() => row.getAttribute('aria-checked')).toBe('false');
  await shot(phone, 'teacher-today-step');
  // the state chips count it
  await expect.poll(() => phone.locator('.m-chip[data-filter=picked_up]').innerText()).toMatch(/已接到 [1-9]/);

  // the quick comment opens as a bottom sheet from a row
  await row.getByTestId('comment-open-today').tap();
  const sheet = phone.getByTestId('comment-sheet');
  await sheet.getByTestId('comment-preset').first().waitFor();
  await shot(phone, 'teacher-today-comment');
  expect(await smallTargets(phone)).toEqual([]);
  await sheet.getByRole('button', { name: '关闭' }).tap();
  await expect.poll(() => sheet.count()).toBe(0);

  // 2. 接送: 陈小雨 is picked up
  await tapTab(phone, '接送', '/m/teacher_shuttle');
  const shuttleRow = phone.locator('.flow-list .flow-row', { hasText: '陈小雨' });
  await shuttleRow.waitFor();
  await expect.poll(() => shuttleRow.locator('.adm-tag').first().innerText()).toBe('已接到');
  await shot(phone, 'teacher-shuttle');
  expect(await smallTargets(phone)).toEqual([]);

  // 3. 辅导: the list and a child's tutoring sheet
  await tapTab(phone, '辅导', '/m/teacher_tutor');
  await settled(phone);
  const tutorRows = phone.locator('.flow-list .flow-row');
  await tutorRows.first().waitFor();
  await shot(phone, 'teacher-tutor');
  expect(await smallTargets(phone)).toEqual([]);
  await tutorRows.first().getByRole('button', { name: /^详情/ }).tap();
  const detail = phone.getByTestId('tutor-detail');
  await detail.getByText('辅导类型').waitFor();
  await shot(phone, 'teacher-tutor-detail');
  expect(await smallTargets(phone)).toEqual([]);
  await detail.getByRole('button', { name: '关闭' }).tap();

  // 4. 每日评语: a comment saved
  await phone.goto(`${stack.url}/m/teacher_comments`);
  const reportRow = phone.getByTestId('report-status-row').filter({ hasText: '陈小雨' });
  await reportRow.waitFor();
  await shot(phone, 'teacher-comments');
  expect(await smallTargets(phone)).toEqual([]);
  await reportRow.getByTestId('comment-open').tap();
  const comment = phone.getByTestId('comment-sheet');
  await comment.locator('[data-testid=comment-preset][data-key]').first().tap();
  const key = await comment.locator('[data-testid=comment-preset][aria-pressed=true]').first().getAttribute('data-key');
  await comment.getByRole('textbox', { name: '补充评语（最多 200 字）' }).fill('今天很专注，作业完成得很好');
  await shot(phone, 'teacher-comment-sheet');
  expect(await smallTargets(phone)).toEqual([]);
  await comment.getByTestId('comment-save').tap();
  await phone.getByText('评语已保存').waitFor();
  await expect.poll(() => comment.count()).toBe(0);
  const saved = await stack.sql<{ presets: string[]; text: string }>(`select presets, text from daily_comments where student_id = $1`, [xiaoyu.id]);
  expect(saved).toEqual([{ presets: [key], text: '今天很专注，作业完成得很好' }]);
  await expect.poll(() => reportRow.innerText()).toContain('有评语');

  // 5. 扫码放学: 陈小雨 in the centre, the parent's code (a photo of their screen) scanned, the child leaves
  expect((await api('teacher', 'POST', 'studentEnter', { student_ids: [xiaoyu.id] })).code).toBe(200);
  await phone.goto(`${stack.url}/m/teacher_pickup`);
  const panel = phone.getByTestId('pickup-scan-panel');
  await panel.getByRole('button', { name: '从相册选择' }).waitFor();
  await settled(phone);
  await shot(phone, 'teacher-pickup');
  expect(await smallTargets(phone)).toEqual([]);
  const parent = await signedIn(stack, 'parent', 1280, 900, '/parent_pickup');
  const code = parent.getByTestId('pickup-code').locator('canvas, svg').first();
  await code.waitFor();
  const picture = join(tmp, 'code.png');
  writeFileSync(picture, await code.screenshot());
  await panel.getByTestId('pickup-scan-file').setInputFiles(picture);
  await panel.getByTestId('pickup-verified').waitFor({ timeout: 15_000 });
  await panel.getByText('陈小雨').first().waitFor();
  await shot(phone, 'teacher-pickup-verified');
  expect(await smallTargets(phone)).toEqual([]);
  await panel.getByTestId('pickup-confirm').tap();
  await panel.getByTestId('pickup-done').waitFor();
  const board = await api('teacher', 'GET', 'flowBoard');
  expect(board.data.students.find((s: { id: number }) => s.id === xiaoyu.id).state).toBe('left');

  // 5b. 离园 by hand: the sheet lists who may collect the child, each with 拨打 (a masked number asks callGuardian,
  // logged as a call, then the dialler; a whole one is a tel: link)
  const other = (board.data.students as Array<{ id: number; name: string; state: string }>).find(
    (s) => s.state === 'expected' && !s.name.startsWith('陈'),
  )!;
  expect((await api('teacher', 'POST', 'shuttleStudent', { student_ids: [other.id] })).code).toBe(200);
  expect((await api('teacher', 'POST', 'studentEnter', { student_ids: [other.id] })).code).toBe(200);
  await phone.goto(`${stack.url}/m/teacher_today`);
  const otherRow = phone.locator('.flow-row', { hasText: other.name });
  await otherRow.tap();
  await expect.poll(() => otherRow.getAttribute('aria-checked')).toBe('true');
  await phone.locator('[data-step=leave]').tap();
  const leaveSheet = phone.getByTestId('leave-sheet');
  await leaveSheet.locator('.m-call').first().waitFor();
  await settled(phone);
  await shot(phone, 'teacher-leave-call');
  expect(await smallTargets(phone)).toEqual([]);
  const masked = leaveSheet.getByTestId('call-button').first();
  if (await masked.count()) {
    const called = phone.waitForResponse((r) => r.url().includes('/api/index/callGuardian'));
    await masked.tap();
    expect(((await (await called).json()) as { code: number }).code).toBe(200);
    const [logged] = await stack.sql<{ n: number }>(
      `select count(*)::int as n from child_access_log where action = 'callGuardian' and $1 = any(student_ids)`,
      [other.id],
    );
    expect(logged.n).toBe(1);
  } else expect(await leaveSheet.getByTestId('call-link').first().getAttribute('href')).toMatch(/^tel:1\d{10}$/);

  // inside WeChat: its own scanner first (not configured here: the camera then)
  // (WeChat's sign-in is its own: the same session, carried over)
  const wxContext = await phoneContext(stack, { wechat: true, extra: { storageState: await phone.context().storageState() } });
  const inWechat = await wxContext.newPage();
  await inWechat.goto(`${stack.url}/m/teacher_pickup`);
  const wxPanel = inWechat.getByTestId('pickup-scan-panel');
  await wxPanel.getByTestId('pickup-scan-wechat').waitFor();
  expect(await wxPanel.locator('video').count()).toBe(0);
  await shot(inWechat, 'teacher-pickup-wechat');
  expect(await smallTargets(inWechat)).toEqual([]);
  await wxPanel.getByTestId('pickup-scan-wechat').tap();
  await expect.poll(() => wxPanel.locator('video, .m-state-desc').count(), { timeout: 15_000 }).toBeGreaterThan(0);

  // 6. the head teacher: the same pages, scoped to their class
  const names = (
    await stack.sql<{ name: string }>(
      `select s.name from students s join care_class_students cs on cs.student_id = s.id join care_classes c on c.id = cs.class_id
         join users u on u.id = c.head_teacher_id where u.username = 'adviser' and c.deleted_at is null`,
    )
  ).map((r) => r.name);
  expect(names.length).toBeGreaterThan(0);
  const adviser = await signedInPhone(stack, 'adviser', '/m/teacher_today');
  await adviser.locator('.flow-list .flow-row strong').first().waitFor();
  const shown = await adviser.locator('.flow-list .flow-row strong').allInnerTexts();
  expect(shown.length).toBeGreaterThan(0);
  for (const n of shown) expect(names).toContain(n);
  await shot(adviser, 'adviser-today');
  expect(await smallTargets(adviser)).toEqual([]);
  for (const [path, name] of [
    ['/m/teacher_shuttle', 'adviser-shuttle'],
    ['/m/teacher_tutor', 'adviser-tutor'],
    ['/m/teacher_comments', 'adviser-comments'],
    ['/m/teacher_pickup', 'adviser-pickup'],
  ] as const) {
    await adviser.goto(`${stack.url}${path}`);
    await adviser.locator('.m-top').waitFor();
    await settled(adviser);
    // loaded: a list, an empty state or the scanner, never the failure block
    await expect.poll(() => adviser.locator('.m-content [role=alert]').count()).toBe(0);
    await expect
      .poll(() => adviser.locator('.flow-list, .m-state, [data-testid=report-status-row], [data-testid=pickup-scan-panel]').count())
      .toBeGreaterThan(0);
    await shot(adviser, name);
    expect(await smallTargets(adviser)).toEqual([]);
  }
});
