import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { join } from 'node:path';
import { SHOTS, startStack, type Stack, signedIn as signedInAs } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
  // the demo class has 10 children: make it a class of 30, every child with shuttle, dinner, tutoring and a pick-up person
  await stack.sql(`
    with c as (select id, school_id from care_classes where name = '阳光一班'),
    s as (
      insert into students (school_id, name, gender, day_school, grade, class_name, needs_shuttle, needs_dinner, tutoring_type)
      select c.school_id, '测试学生' || lpad(g::text, 2, '0'), 1 + g % 2, '实验小学', '三年级', '1班', true, true, '作业辅导'
        from c, generate_series(1, 20) g
      returning id, school_id
    ),
    p as (insert into pickup_people (school_id, student_id, name, relation, mobile) select school_id, id, '家长', '父亲', '13700000000' from s)
    insert into care_class_students (school_id, class_id, student_id) select s.school_id, c.id, s.id from s, c`);
  await stack.sql(`update students set needs_shuttle = true, needs_dinner = true, tutoring_type = '作业辅导'
                    where id in (select student_id from care_class_students cs join care_classes c on c.id = cs.class_id where c.name = '阳光一班')`);
});
afterAll(async () => {
  await stack?.stop();
});

const signedIn = (account: string, width: number, height: number, path: string) => signedInAs(stack, account, width, height, path);

/** The board's count for a state, e.g. 在园 30. */
const column = (board: Page, label: string) => board.locator('.ant-card-head-title', { hasText: label }).first().innerText();

it('a whole afternoon for a class of 30 from the teacher’s phone; the head teacher’s board and the parent follow within a second', async () => {
  const board = await signedIn('adviser', 1280, 800, '/AStudentAttendance');
  await board.getByText('实时', { exact: true }).waitFor();
  await expect.poll(() => column(board, '未到')).toContain('未到 30');

  const parent = await signedIn('parent', 375, 740, '/parent');
  await parent.getByText('陈小雨').first().waitFor();
  await expect.poll(() => parent.locator('.child-state').first().innerText()).toBe('未到');

  const phone = await signedIn('teacher', 375, 740, '/teacher_today');
  await phone.getByText('陈小雨').first().waitFor();

  /** taps a step for the whole class and checks that the board and the parent follow within a second */
  const step = async (button: RegExp, board_label: string | null, parentSees: string | null) => {
    await phone.getByText('全选').click();
    await phone.getByRole('button', { name: button }).click();
    await phone.getByText('已记录 30 人').first().waitFor();
    if (board_label) await expect.poll(() => column(board, board_label), { timeout: 1000 }).toContain(`${board_label} 30`);
    if (parentSees) await expect.poll(() => parent.getByText(parentSees).count(), { timeout: 1000 }).toBeGreaterThan(0);
  };
  await step(/接\s*到/, '已接到', '老师已接到');
  // a step the state machine forbids for everyone is greyed out with the reason
  await phone.getByText('全选').click();
  await expect.poll(() => phone.getByRole('button', { name: /晚\s*餐/ }).isDisabled()).toBe(true);
  await phone.getByText('该学生尚未入园').first().waitFor();
  await phone.getByText('全选').click();
  await step(/入\s*园/, '在园', '已入园');
  await step(/晚\s*餐/, null, '已用晚餐');
  await step(/开始辅导/, null, '开始辅导');
  await step(/结束辅导/, null, '辅导结束');

  // leaving: one child at a time, each with an authorised pick-up person
  const rows = phone.locator('.flow-row');
  for (let left = 1; left <= 30; left++) {
    await phone
      .locator('.flow-row', { has: phone.locator('.ant-tag', { hasText: '在园' }) })
      .first()
      .click();
    await phone.getByRole('button', { name: /离\s*园/ }).click();
    await phone.locator('.flow-pickup').first().click();
    await phone
      .locator('.ant-modal')
      .getByRole('button', { name: /离\s*园/ })
      .click();
    await expect.poll(() => rows.filter({ has: phone.locator('.ant-tag', { hasText: '已离园' }) }).count()).toBe(left);
  }
  await expect.poll(() => column(board, '已离园'), { timeout: 1000 }).toContain('已离园 30');
  await expect.poll(() => parent.locator('.child-state').first().innerText(), { timeout: 1000 }).toBe('已离园');

  // nothing more after leaving: every button is greyed out
  await phone.getByText('全选').click();
  for (const b of [/接\s*到/, /入\s*园/, /晚\s*餐/, /开始辅导/, /结束辅导/, /离\s*园/]) {
    await expect.poll(() => phone.getByRole('button', { name: b }).first().isDisabled()).toBe(true);
  }
  // today's events (the demo seed's history of past days is there too)
  const [{ n }] = await stack.sql<{ n: number }>(
    `select count(*)::int as n from flow_events where type <> 'event.voided' and day = (now() at time zone 'Asia/Shanghai')::date`,
  );
  expect(n).toBe(30 * 6);

  await phone.screenshot({ path: join(SHOTS, 'teacher-today-375.png') });
  await board.screenshot({ path: join(SHOTS, 'attendance-board-1280.png') });
  await parent.screenshot({ path: join(SHOTS, 'parent-today-375.png') });
  for (const p of [board, parent, phone]) await p.context().close();
});
