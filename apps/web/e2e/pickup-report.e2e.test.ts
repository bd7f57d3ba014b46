import { signPickupCode } from '@wantuo/shared';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPrivateKey, pickupKeyringConfig } from '../../api/src/modules/pickup/pickup-keyring';
import { CONTEXT, SHOTS, signedIn as signedInAs, startStack, type Stack } from './stack';

let stack: Stack;
const tmp = mkdtempSync(join(tmpdir(), 'wantuo-pickup-'));
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const signedIn = (account: string, path: string, width = 375, height = 812) => signedInAs(stack, account, width, height, path);
const noSideScroll = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

/** An API call as `account` (setup the screens do not need to show). */
async function api(
  account: string,
  method: 'GET' | 'POST',
  action: string,
  body?: object,
): Promise<{ code: number; msg: string; data: any }> /* eslint-disable-line @typescript-eslint/no-explicit-any -- setup answers of many actions */ {
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
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- setup answers of many actions
  return (await res.json()) as { code: number; msg: string; data: any };
}

/** The code on a screen as the teacher's camera sees it: a picture of the QR, fed to the scanner's photo input. */
async function pictureOf(page: Page, name: string): Promise<string> {
  const file = join(tmp, `${name}.png`);
  writeFileSync(file, await page.getByTestId('pickup-code').locator('canvas, svg').first().screenshot());
  return file;
}

/** The teacher's 离园 for one child, scanning `picture`: answers the scanner's outcome (the verified person, or the refusal). */
async function scanAtDeparture(teacher: Page, child: string, picture: string): Promise<'verified' | 'refused'> {
  await teacher.goto(`${stack.url}/teacher_today`);
  const row = teacher.locator('.flow-row', { hasText: child }).first();
  await row.waitFor();
  await row.click();
  await teacher.getByRole('button', { name: /离\s*园/ }).click();
  await teacher.getByTestId('pickup-scan').click();
  await teacher.getByTestId('pickup-scan-file').setInputFiles(picture);
  const verified = teacher.getByTestId('pickup-verified');
  const refused = teacher.getByTestId('pickup-refused');
  await expect.poll(async () => (await verified.isVisible()) || (await refused.isVisible()), { timeout: 15_000 }).toBe(true);
  return (await verified.isVisible()) ? 'verified' : 'refused';
}

/**
 * Issue 27's journey at 375 px: the parent shows the pick-up code, the teacher scans it at 离园 (a photo of the screen
 * stands in for the camera) and the departure is recorded with the verified person, on the head teacher's board and in
 * the parent's timeline; a revoked person's, an expired, another child's and a replayed code are refused (the
 * unauthorised ones raise the alert); the parent then reads the day's report with the homework photo and the comment.
 */
it('pick-up code: shown, scanned, verified; revoked, expired, wrong child and replayed refused; the daily report with photo and comment', async () => {
  const kids = await stack.sql<{ id: number; name: string; school_id: number }>(
    `select id, name, school_id from students where name in ('陈小雨', '陈小阳') order by name`,
  );
  const xiaoyu = kids.find((k) => k.name === '陈小雨')!;
  const xiaoyang = kids.find((k) => k.name === '陈小阳')!;
  const [other] = await stack.sql<{ id: number; name: string }>(
    `select s.id, s.name from students s join care_class_students cs on cs.student_id = s.id
      where s.school_id = $1 and s.name not like '陈%' order by s.id limit 1`,
    [xiaoyu.school_id],
  );
  // the children are in the centre: entered this afternoon
  expect((await api('teacher', 'POST', 'studentEnter', { student_ids: [xiaoyu.id, xiaoyang.id, other.id] })).code).toBe(200);

  // homework of the day done at home with a photo, and the teacher's comment with the preset phrases
  const photo = await fetch(`${stack.url}/api/index/upload`, {
    method: 'POST',
    headers: { token: await tokenOf('parent') },
    body: (() => {
      const f = new FormData();
      // a small real PNG (the picture of a QR taken below would do as well): 1×1 pixel
      const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
      f.append('file', new Blob([png], { type: 'image/png' }), 'kousuan.png');
      return f;
    })(),
  });
  const photoUrl = ((await photo.json()) as { data: { url: string } }).data.url;
  expect(photoUrl).toMatch(/^\/uploads\//);
  const [care] = await stack.sql<{ class_id: number }>(`select class_id from care_class_students where student_id = $1`, [xiaoyu.id]);
  const [{ today }] = await stack.sql<{ today: string }>(
    `select to_char((now() at time zone timezone)::date, 'YYYY-MM-DD') as today from schools where id = $1`,
    [xiaoyu.school_id],
  );
  const hw = await api('teacher', 'POST', 'issueHomeWork', {
    kind: 'care',
    class_id: care.class_id,
    title: '口算练习第 3 页',
    content: '20 道口算',
    attachments: [],
    due_day: today,
    request_id: crypto.randomUUID(),
  });
  expect(hw.code).toBe(200);
  expect(
    (
      await api('parent', 'POST', 'parentDoneHomeWork', {
        homework_id: hw.data.id,
        student_id: xiaoyu.id,
        photo_url: photoUrl,
        request_id: crypto.randomUUID(),
      })
    ).code,
  ).toBe(200);
  const comments = await signedIn('teacher', '/teacher_comments');
  const commentRow = comments.getByTestId('report-status-row').filter({ hasText: '陈小雨' });
  await commentRow.getByTestId('comment-open').click();
  await comments.getByTestId('comment-preset').first().click();
  await comments.getByTestId('comment-text').fill('今天口算全对，和同学一起整理了图书角。');
  await comments.getByTestId('comment-save').click();
  await expect
    .poll(async () => (await stack.sql<{ n: number }>(`select count(*)::int as n from daily_comments where student_id = $1`, [xiaoyu.id]))[0].n)
    .toBe(1);

  // 1. the parent's code at 375 px
  const parent = await signedIn('parent', '/parent_pickup');
  await parent.getByTestId('pickup-code').waitFor();
  await noSideScroll(parent);
  await parent.screenshot({ path: join(SHOTS, 'pickup-code-375.png'), fullPage: true });

  // 2. a pick-up person's link (grandparent of 陈小雨), shown on its public page, then revoked by the parent
  const person = parent.getByTestId('pickup-person').first();
  await person.getByTestId('pickup-link-create').click();
  const link = (await person.getByTestId('pickup-link').innerText()).trim();
  const linkPage = await (await stack.browser.newContext({ viewport: { width: 375, height: 812 }, ...CONTEXT })).newPage();
  await linkPage.goto(link.startsWith('http') ? link : `${stack.url}${link.slice(link.indexOf('/pickup/'))}`);
  await linkPage.getByTestId('pickup-code').waitFor();
  await noSideScroll(linkPage);
  await linkPage.screenshot({ path: join(SHOTS, 'pickup-link-375.png'), fullPage: true });
  const revokedPicture = await pictureOf(linkPage, 'revoked');
  await person.getByTestId('pickup-link-revoke').click();
  await parent
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /确\s*定|OK|撤销|解除/ })
    .last()
    .click();
  await expect
    .poll(async () => (await stack.sql<{ n: number }>(`select count(*)::int as n from pickup_links where revoked_at is not null`))[0].n)
    .toBe(1);

  const teacher = await signedIn('teacher', '/teacher_today');
  const alertsBefore = async () => (await stack.sql<{ n: number }>(`select count(*)::int as n from pickup_attempts where result <> 'ok'`))[0].n;

  // 3. refused: the revoked person (an unauthorised attempt: alerted), an expired code, another child (alerted)
  expect(await scanAtDeparture(teacher, '陈小雨', revokedPicture)).toBe('refused');
  await teacher.screenshot({ path: join(SHOTS, 'pickup-refused-375.png') });
  await teacher.keyboard.press('Escape');

  // the school's key is sealed at rest: opened with the stack's keyring (the development key outside production)
  const [key] = await stack.sql<{ sealed: string; key_id: string }>(
    `select sealed_private_key as sealed, key_id from pickup_keys where school_id = $1`,
    [xiaoyu.school_id],
  );
  const ring = pickupKeyringConfig(process.env.PICKUP_KEYS_ENCRYPTION_KEYS, 'development', []);
  const [guardian] = await stack.sql<{ id: number }>(`select id from users where username = 'parent'`);
  const stale = signPickupCode(openPrivateKey(ring, xiaoyu.school_id, key.sealed, key.key_id), {
    school: xiaoyu.school_id,
    person: { kind: 'g', id: guardian.id },
    students: [xiaoyu.id, xiaoyang.id],
    nowMs: Date.now() - 10 * 60_000,
  });
  // the parent's screen showing a code from ten minutes ago (the page kept open, the phone's data off)
  await parent.route('**/api/index/pickupCode*', async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { data: { code: string } };
    body.data.code = stale;
    await route.fulfill({ response: res, json: body });
  });
  await parent.reload();
  await expect.poll(() => parent.getByTestId('pickup-code').getAttribute('data-code')).toBe(stale);
  const expiredPicture = await pictureOf(parent, 'expired');
  await parent.unroute('**/api/index/pickupCode*');
  expect(await scanAtDeparture(teacher, '陈小雨', expiredPicture)).toBe('refused');
  await teacher.keyboard.press('Escape');

  await parent.reload();
  await parent.getByTestId('pickup-code').waitFor();
  const fresh = await pictureOf(parent, 'fresh');
  expect(await scanAtDeparture(teacher, other.name, fresh)).toBe('refused');
  await teacher.keyboard.press('Escape');
  await expect.poll(alertsBefore).toBeGreaterThanOrEqual(2);
  // the unauthorised attempts reached the head teacher (SMS) and the other child's guardians at once
  await expect
    .poll(
      async () =>
        (
          await stack.sql<{ n: number }>(
            `select ((select count(*) from sms_messages where kind = 'alert.raised') + (select count(*) from wechat_messages where kind = 'alert.raised'))::int as n`,
          )
        )[0].n,
    )
    .toBeGreaterThan(0);

  // 4. verified: the parent's fresh code for 陈小雨, the departure with the verified person
  expect(await scanAtDeparture(teacher, '陈小雨', fresh)).toBe('verified');
  await expect.poll(() => teacher.getByTestId('pickup-verified').innerText()).toContain('陈家长');
  await teacher.screenshot({ path: join(SHOTS, 'pickup-verified-375.png') });
  await teacher.getByTestId('pickup-confirm').click();
  // the departure is recorded with the verified person (the dialog closes on success)
  const departure = async () =>
    (
      await stack.sql<{ payload: { pickup_verified?: { name: string; offline: boolean } } }>(
        `select payload from flow_events where student_id = $1 and type = 'student.left' and day = $2::date order by global_position desc limit 1`,
        [xiaoyu.id, today],
      )
    )[0]?.payload.pickup_verified ?? null;
  await expect.poll(departure).toMatchObject({ name: expect.stringContaining('陈家长'), offline: false });

  // 5. the same code again, for the sibling it also names: one departure per code
  // (this phone may still show the person: the API, which knows every phone's departures, refuses it on confirming)
  if ((await scanAtDeparture(teacher, '陈小阳', fresh)) === 'verified') await teacher.getByTestId('pickup-confirm').click();
  await teacher.getByTestId('pickup-refused').waitFor();
  await teacher.screenshot({ path: join(SHOTS, 'pickup-replayed-375.png') });
  await teacher.keyboard.press('Escape');
  expect(
    (
      await stack.sql<{ n: number }>(
        `select count(*)::int as n from flow_events where student_id = $1 and type = 'student.left' and day = $2::date`,
        [xiaoyang.id, today],
      )
    )[0].n,
  ).toBe(0);

  // 6. the head teacher's board and the parent's timeline show who was verified
  const board = await signedIn('adviser', '/AStudentAttendance', 1280, 900);
  await board.getByTestId('board-pickup-verified').first().waitFor();
  await board.screenshot({ path: join(SHOTS, 'pickup-board.png') });
  const home = await signedIn('parent', '/parent');
  await home.getByTestId('timeline-pickup-verified').first().waitFor();
  expect(await home.getByTestId('timeline-pickup-verified').first().innerText()).toContain('陈家长');

  // 7. the day's report: homework with its photo, the comment, who picked up
  await home.goto(`${stack.url}/parent_report?student=${xiaoyu.id}&day=${today}`);
  await home.getByTestId('daily-report').waitFor();
  await home.getByTestId('report-homework-photo').first().waitFor();
  await expect.poll(() => home.getByTestId('report-comment').innerText()).toContain('口算全对');
  await noSideScroll(home);
  await home.screenshot({ path: join(SHOTS, 'daily-report-375.png'), fullPage: true });
  // the report went to the guardians when the child left (its message is written now, or held to 07:00 at night)
  await expect
    .poll(
      async () =>
        (
          await stack.sql<{ sent: boolean }>(`select sent_at is not null as sent from daily_reports where student_id = $1 and day = $2::date`, [
            xiaoyu.id,
            today,
          ])
        )[0]?.sent,
    )
    .toBe(true);
});

async function tokenOf(account: string): Promise<string> {
  const login = await fetch(`${stack.url}/api/index/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, password: 'Demo@2026' }),
  });
  return ((await login.json()) as { data: { userinfo: { token: string } } }).data.userinfo.token;
}
