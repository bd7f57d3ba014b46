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
const stateOf = async (name: string) =>
  (
    await stack.sql<{ state: string }>(`select hs.state from homework_submissions hs join students s on s.id = hs.student_id where s.name = $1`, [
      name,
    ])
  )[0]?.state;

/**
 * Issue 14's homework journey through the screens: the teacher sets homework for the care class on the phone, marks it
 * during tutoring for two students at once; the parent sees it that evening on the phone and marks the other child's
 * homework done at home with a photo; the admin sees the class homework and the one homework.
 */
it('the teacher sets homework → marks two students during tutoring → the parent sees it and marks one done with a photo → the admin sees it', async () => {
  // 1. the teacher on the phone sets homework for 阳光一班
  const teacher = await signedIn('teacher', 375, 812, '/teacher_homework');
  await teacher.getByText('还没有布置作业').waitFor();
  await teacher.getByRole('button', { name: /布\s*置\s*作\s*业/ }).click();
  const sheet = teacher.locator('.ant-drawer');
  await sheet.getByLabel('作业标题').fill('数学口算练习');
  await sheet.getByLabel('作业内容').fill('完成口算本第 15 页，订正昨天的错题');
  await teacher.waitForTimeout(400); // the drawer's animation
  await teacher.screenshot({ path: join(SHOTS, 'homework-teacher-issue-375.png') });
  await sheet.getByRole('button', { name: /^布\s*置$/ }).click();
  await teacher.getByText(/已给 \d+ 名学生布置作业/).waitFor();
  await teacher.locator('.hw-card', { hasText: '数学口算练习' }).waitFor();
  await teacher.screenshot({ path: join(SHOTS, 'homework-teacher-list-375.png') });
  expect(await stateOf('陈小雨')).toBe('todo');

  // 2. during tutoring: the tutoring list's homework card, two students at once with a note
  await teacher.goto(`${stack.url}/teacher_tutor`);
  const marking = teacher.getByTestId('homework-marking');
  await marking.getByText('完成口算本第 15 页').waitFor();
  await marking.locator('li[data-student="陈小雨"]').click();
  await marking.locator('li[data-student="王子涵"]').click();
  await marking.getByText('已选 2 人').waitFor();
  await marking.getByLabel('批注（可选）').fill('字迹工整，第 3 题已订正');
  await marking.getByRole('button', { name: /标记完成/ }).scrollIntoViewIfNeeded();
  await teacher.screenshot({ path: join(SHOTS, 'homework-tutor-marking-375.png') });
  await marking.getByRole('button', { name: /标记完成/ }).click();
  await teacher.getByText('已更新 2 名学生').waitFor();
  await expect.poll(() => stateOf('陈小雨')).toBe('done');
  expect(await stateOf('王子涵')).toBe('done');
  expect(await stateOf('陈小阳')).toBe('todo');
  await marking.locator('li[data-student="陈小雨"]').getByText('已完成').waitFor();
  await marking.locator('li[data-student="陈小雨"]').scrollIntoViewIfNeeded();
  await teacher.screenshot({ path: join(SHOTS, 'homework-tutor-marked-375.png') });
  // one student's detail: the history with the note written during tutoring
  await marking
    .locator('li[data-student="陈小雨"]')
    .getByRole('button', { name: /详\s*情/ })
    .click();
  const work = teacher.locator('.ant-drawer', { hasText: '陈小雨 · 数学口算练习' });
  await work.locator('.ant-timeline').getByText('字迹工整，第 3 题已订正').waitFor();
  await teacher.waitForTimeout(400);
  await teacher.screenshot({ path: join(SHOTS, 'homework-tutor-student-375.png') });
  await work.locator('.ant-drawer-close').click();
  const photo = await teacher.screenshot();
  await teacher.context().close();

  // 3. the parent on the phone that evening: 陈小雨's homework is done with the teacher's note
  const parent = await signedIn('parent', 375, 812, '/parent_homework');
  const card = parent.getByTestId('parent-homework').filter({ hasText: '数学口算练习' });
  await card.getByText('字迹工整，第 3 题已订正').waitFor();
  await card.getByText('已完成').waitFor();
  await parent.screenshot({ path: join(SHOTS, 'homework-parent-375.png'), fullPage: true });
  // the other child: done at home with a photo
  await parent.locator('.ant-segmented-item', { hasText: '陈小阳' }).click();
  const other = parent.getByTestId('parent-homework').filter({ hasText: '数学口算练习' });
  await other.getByText('未完成').waitFor();
  await other.getByRole('button', { name: /在家完成/ }).click();
  const dialog = parent.locator('.ant-modal');
  await dialog.getByRole('button', { name: /^提\s*交$/ }).click();
  await dialog.getByText('请上传一张作业照片').waitFor();
  await dialog.locator('input[type=file]').setInputFiles({ name: '口算.png', mimeType: 'image/png', buffer: photo });
  await dialog.locator('img').waitFor();
  await dialog.getByLabel('留言（可选）').fill('在家做完了，请老师检查');
  await parent.screenshot({ path: join(SHOTS, 'homework-parent-photo-375.png') });
  await dialog.getByRole('button', { name: /^提\s*交$/ }).click();
  await parent.getByText('已标记为完成').waitFor();
  await other.getByText('已完成').waitFor();
  await other.getByText('在家做完了，请老师检查').waitFor();
  expect(await stateOf('陈小阳')).toBe('done');
  await parent.screenshot({ path: join(SHOTS, 'homework-parent-done-375.png'), fullPage: true });
  await parent.context().close();

  // 4. the admin: the class homework, then the one homework with the photo
  const admin = await signedIn('admin', 1280, 860, '/principal_class_Job');
  const row = admin.locator('tr', { hasText: '数学口算练习' });
  await row.getByText('阳光一班').waitFor();
  await row.getByText(/已完成 3/).waitFor();
  await admin.screenshot({ path: join(SHOTS, 'homework-principal-list.png') });
  await row.getByRole('button', { name: /查\s*看/ }).click();
  await admin.waitForURL(/principal_class_Job1\?id=\d+/);
  await admin.getByText('完成口算本第 15 页，订正昨天的错题').waitFor();
  await admin.locator('tr', { hasText: '陈小阳' }).locator('img').waitFor();
  await admin.locator('tr', { hasText: '陈小雨' }).getByText('字迹工整，第 3 题已订正').waitFor();
  await admin.screenshot({ path: join(SHOTS, 'homework-principal-detail.png'), fullPage: true });
  await admin.locator('.ant-segmented-item', { hasText: '未完成' }).click();
  await expect.poll(() => admin.locator('tbody tr', { hasText: '陈小雨' }).count()).toBe(0);
  await admin.locator('tbody tr', { hasText: '陈小阳' }).waitFor({ state: 'detached' });
  expect(await admin.locator('tbody tr.ant-table-row').count()).toBe(7);
  await admin.screenshot({ path: join(SHOTS, 'homework-principal-todo.png') });
  await admin.context().close();

  // 5. the head teacher of 阳光一班 follows the class's homework on a phone (/A_homework)
  const adviser = await signedIn('adviser', 375, 812, '/A_homework');
  await adviser.locator('.hw-card', { hasText: '数学口算练习' }).waitFor();
  expect(await adviser.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await adviser.screenshot({ path: join(SHOTS, 'homework-adviser-375.png') });
  await adviser.context().close();
});
