import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
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
const scoreCount = async () => (await stack.sql<{ n: number }>(`select count(*)::int as n from exam_scores`))[0].n;

/** Picks an option of the antd Select labelled `label` in `scope` (the open dropdown is portalled to the body). */
async function choose(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByLabel(label).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

/**
 * Issue 14's exams journey: the admin creates an exam for a class, pastes a column of scores from a spreadsheet (one
 * bad score named, nothing saved; fixed, saved), sees ranks and the distribution chart, publishes; the teacher sees
 * it on the phone; the parent at 375 px sees the child's score, class rank and class average.
 */
it('an exam → a pasted column of scores (one bad, then fixed) → ranks and chart → published → the parent sees it', async () => {
  // 1. the admin: an empty list, then a new exam for 阳光一班
  // score entry opened without an exam says what to choose and leads back to the list
  const admin = await signedIn('admin', 1280, 860, '/principal_exam_scores');
  await admin.getByText(/请先选择一场考试/).waitFor();
  await admin.getByRole('button', { name: '去考试列表' }).click();
  await admin.waitForURL(/\/principal_exams$/);
  await admin
    .getByText('还没有考试')
    .waitFor()
    .catch(async (e) => {
      await admin.screenshot({ path: join(SHOTS, 'exams-debug.png'), fullPage: true });
      throw e;
    });
  await admin.getByTestId('exam-add').click();
  const dialog = admin.locator('.ant-modal');
  await dialog.getByLabel('考试名称').fill('十一月数学月考');
  await choose(admin, dialog, '科目', '数学');
  await choose(admin, dialog, '参加班级', '阳光一班');
  await admin.keyboard.press('Escape');
  await admin.waitForTimeout(300);
  await admin.screenshot({ path: join(SHOTS, 'exams-add.png') });
  await dialog.getByRole('button', { name: /^保\s*存$/ }).click();
  await admin.waitForURL(/principal_exam_scores\?id=\d+/);
  await admin.getByTestId('exam-title').getByText('十一月数学月考').waitFor();

  // 2. a column pasted from a spreadsheet, the second score out of range: named on its line, nothing saved
  const students = await stack.sql<{ n: number }>(
    `select count(*)::int as n from care_class_students c join students s on s.id = c.student_id join care_classes k on k.id = c.class_id where k.name = '阳光一班' and s.status = 1`,
  );
  const n = students[0].n;
  expect(n).toBeGreaterThanOrEqual(4);
  const column = ['95', '105', '78.5', '缺考', '95', '72', '60', '59.5', '66', '81', '77', '83', '70', '64', '75', '80'].slice(0, n);
  const paste = (text: string) =>
    admin.getByTestId('score-1').evaluate((el, t) => {
      const dt = new DataTransfer();
      dt.setData('text/plain', t);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, text);
  await paste(`${column.join('\r\n')}\r\n`);
  const problems = admin.getByTestId('score-problems');
  await problems.getByText(/第 2 行（.+）：成绩须在 0 到满分之间/).waitFor();
  expect(await admin.getByTestId('scores-save').isDisabled()).toBe(true);
  await admin.screenshot({ path: join(SHOTS, 'exams-paste-bad.png'), fullPage: true });
  expect(await scoreCount()).toBe(0);
  // fixed on its line, then saved
  await admin.getByTestId('score-2').fill('85');
  await problems.waitFor({ state: 'detached' });
  await admin.getByTestId('scores-save').click();
  await admin.getByText(`已保存 ${n} 条成绩`).waitFor();
  await expect.poll(scoreCount).toBe(n);
  // ranks with the tie (two 95s share 1st, the next is 3rd)
  const rankOf = async (line: number) =>
    (
      await admin
        .locator('.ant-table-tbody tr[data-row-key]')
        .nth(line - 1)
        .locator('td')
        .nth(4)
        .textContent()
    )?.trim();
  await expect.poll(() => rankOf(1)).toBe('1');
  if (n >= 5) expect(await rankOf(5)).toBe('1');
  expect(await rankOf(2)).toBe(n >= 5 ? '3' : '2');
  expect(await rankOf(4)).toBe('-');
  await admin.screenshot({ path: join(SHOTS, 'exams-scores.png'), fullPage: true });

  // 3. analysis: the statistics and the distribution chart
  await admin.getByRole('tab', { name: '成绩分析' }).click();
  await admin.getByRole('img', { name: '分数段分布' }).waitFor();
  await admin.locator('canvas').first().waitFor();
  await admin.waitForTimeout(600); // the chart's animation
  await admin.screenshot({ path: join(SHOTS, 'exams-analysis.png'), fullPage: true });

  // 4. publish (confirmed): one text per guardian
  await admin.getByTestId('exam-publish').click();
  await admin
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /^发布成绩$|^发\s*布\s*成\s*绩$/ })
    .click();
  await admin.getByText(/已发布，发送短信 \d+ 条/).waitFor();
  const [texts] = await stack.sql<{ n: number }>(`select count(*)::int as n from exam_texts`);
  expect(texts.n).toBeGreaterThan(0);
  await admin.getByRole('button', { name: '返回考试列表' }).click();
  await admin.waitForURL(/principal_exams$/);
  await admin
    .getByRole('row', { name: /十一月数学月考/ })
    .getByText('已发布')
    .waitFor();
  await admin.screenshot({ path: join(SHOTS, 'exams-list.png') });

  // 5. the teacher on the phone: the exam of their class, the grid
  const teacher = await signedIn('teacher', 375, 812, '/teacher_exams');
  await teacher.getByText('十一月数学月考').waitFor();
  await teacher.screenshot({ path: join(SHOTS, 'exams-teacher-list.png'), fullPage: true });
  await teacher
    .getByRole('button', { name: /录入成绩/ })
    .first()
    .click();
  await teacher.waitForURL(/teacher_exam_scores\?id=\d+/);
  await teacher.getByTestId('score-1').waitFor();
  await teacher.screenshot({ path: join(SHOTS, 'exams-teacher-scores.png'), fullPage: true });
  await teacher.context().close();

  // 6. the parent on the phone: the child's score, class rank and class average
  const [mine] = await stack.sql<{ score2: number | null; absent: boolean }>(
    `select sc.score2, sc.absent from exam_scores sc join students s on s.id = sc.student_id where s.name = '陈小雨'`,
  );
  const parent = await signedIn('parent', 375, 812, '/parent_scores');
  const card = parent.locator('[data-testid^=parent-exam-]', { hasText: '十一月数学月考' }).first();
  await card.waitFor();
  expect((await card.getByTestId('ps-score').textContent())?.trim()).toBe(mine.absent ? '缺考' : String(mine.score2! / 2));
  expect(await card.getByTestId('ps-rank').textContent()).toMatch(mine.absent ? /^-$/ : /^\d+ \/ \d+$/);
  expect(await card.getByTestId('ps-average').textContent()).toMatch(/^\d+(\.\d)?$/);
  await parent.screenshot({ path: join(SHOTS, 'exams-parent.png'), fullPage: true });
});
