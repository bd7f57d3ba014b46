import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { phoneContext, smallTargets } from './phone';
import { motionDone, SHOTS, signedIn, startStack, type Stack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

/** The code the outbox SMS provider (run by the worker) delivered to a mobile. */
async function outboxCode(mobile: string): Promise<string> {
  let body: { data?: { code?: string } } = {};
  // the worker delivers it (its first job on a busy machine may take a while)
  for (let i = 0; i < 450; i++) {
    body = (await (await fetch(`${stack.url}/api/dev/sms-outbox?mobile=${mobile}`)).json()) as { data?: { code?: string } };
    if (body.data?.code) return body.data.code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no SMS reached ${mobile}: ${JSON.stringify(body)}`);
}

/** An API call as `account` with the demo password (setup the screens do not show); a body makes it a POST. */
async function api(account: string, action: string, query: Record<string, string>, body?: unknown): Promise<{ code: number; msg: string }> {
  const login = await fetch(`${stack.url}/api/index/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, password: 'Demo@2026' }),
  });
  const token = ((await login.json()) as { data: { userinfo: { token: string } } }).data.userinfo.token;
  const res = body
    ? await fetch(`${stack.url}/api/index/${action}`, {
        method: 'POST',
        headers: { token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    : await fetch(`${stack.url}/api/index/${action}?${new URLSearchParams(query)}`, { headers: { token } });
  return (await res.json()) as { code: number; msg: string };
}

/** The page has settled (no grey loading rows, no toast over it); saved under SHOTS; no target under 44 px, nothing wider than the screen. */
async function looked(page: Page, name: string, fullPage = true) {
  await expect.poll(() => page.locator('[role=status][aria-live]').count(), { timeout: 15_000 }).toBe(0);
  await expect.poll(() => page.locator('.adm-toast-main').count(), { timeout: 10_000 }).toBe(0);
  await page.screenshot({ path: join(SHOTS, `phone-${name}.png`), fullPage });
  expect(await smallTargets(page), name).toEqual([]);
}

/**
 * Issue 37 at 375 px: a demo guardian who has never accepted the documents (not the `parent` account: the demo seed
 * records that one as having consented) reads them from the sign-in page, signs in by SMS code, is sent to the
 * consent screen, accepts with photos on, sees their child, opens 我的 → 隐私与数据, finds the staff's read of the
 * child in the access log, and asks for a correction.
 */
it('guardian: documents from sign-in → SMS sign-in → consent screen → accept with photos → child → 隐私与数据 → access log → correction', async () => {
  const [guardian] = await stack.sql<{ id: number; mobile: string; student_id: number; student: string }>(
    `select u.id, u.mobile, s.id as student_id, s.name as student
       from users u join student_guardians g on g.user_id = u.id join students s on s.id = g.student_id and s.status = 1
      where u.role = 6 and u.username <> 'parent' and g.privacy_version is null
      order by u.id, s.id limit 1`,
  );
  expect(guardian, 'a demo guardian who has not consented').toBeTruthy();
  // the admin reads the child's record: a row of the child's access log
  const read = await api('admin', 'studentInfo', { id: String(guardian.student_id) });
  expect(read.code, read.msg).toBe(200);

  const context = await phoneContext(stack);
  const page = await context.newPage();

  // 1. the sign-in page links both documents; the privacy policy opens without signing in
  await page.goto(`${stack.url}/login`);
  const policyLink = page.locator('.login-policies a', { hasText: '《隐私政策》' });
  await policyLink.waitFor();
  expect(await policyLink.getAttribute('href')).toBe('/m/privacy');
  expect(await page.locator('.login-policies a', { hasText: '《儿童个人信息保护规则》' }).getAttribute('href')).toBe('/m/children_privacy');
  await page.goto(`${stack.url}/m/privacy`);
  await page.getByTestId('policy-privacy').locator('h2', { hasText: '隐私政策' }).waitFor();
  await looked(page, 'privacy-policy');
  await page.locator('.pv-links a', { hasText: '儿童个人信息保护规则' }).tap();
  await page.waitForURL((u) => u.pathname === '/m/children_privacy');
  await page.getByTestId('policy-children').locator('ol li').first().waitFor();

  // 2. SMS sign-in: a phone with no destination goes to the phone home, which sends the guardian to the consent screen
  await page.goto(`${stack.url}/login`);
  await page.getByText('短信登录', { exact: true }).tap();
  await page.getByPlaceholder('手机号', { exact: true }).fill(guardian.mobile);
  await page.getByRole('button', { name: '获取验证码' }).tap();
  await expect.poll(() => page.getByRole('button', { name: /秒后重新获取/ }).count()).toBe(1);
  await page.getByPlaceholder('短信验证码').fill(await outboxCode(guardian.mobile));
  await page.locator('form button[type=submit]').tap();
  await page.waitForURL((u) => u.pathname === '/m/parent_consent');
  expect(new URL(page.url()).searchParams.get('redirect')).toBe('/m/parent');

  // 3. the consent screen: both documents, the child, two separate optional switches; no tab bar before it
  await page.getByTestId('consent-doc-privacy').locator('h3').first().waitFor();
  await page.getByTestId('consent-doc-children').locator('li').first().waitFor();
  const kid = page.getByTestId(`consent-child-${guardian.student_id}`);
  await kid.getByText(guardian.student).waitFor();
  expect(await page.locator('.m-tabbar').count()).toBe(0);
  await looked(page, 'consent');
  const photos = page.getByTestId(`consent-photos-${guardian.student_id}`);
  await photos.tap();
  await expect.poll(() => photos.getAttribute('aria-checked')).toBe('true');
  expect(await page.getByTestId(`consent-health-${guardian.student_id}`).getAttribute('aria-checked')).toBe('false');
  await page.getByTestId('consent-accept').tap();

  // 4. on to the child's day; the consent is recorded with the versions shown, photos granted, health undecided
  await page.waitForURL((u) => u.pathname === '/m/parent');
  await page.locator('.child-card', { hasText: guardian.student }).waitFor();
  await looked(page, 'consent-accepted-home');
  const [link] = await stack.sql<{ privacy_version: number | null; children_version: number | null; photo: boolean | null; health: boolean | null }>(
    `select g.privacy_version, g.children_version, s.photo_consent as photo, s.health_consent as health
       from student_guardians g join students s on s.id = g.student_id where g.user_id = $1 and g.student_id = $2`,
    [guardian.id, guardian.student_id],
  );
  const [current] = await stack.sql<{ p: number; c: number }>(
    `select max(version) filter (where kind = 'privacy') as p, max(version) filter (where kind = 'children') as c from privacy_policies`,
  );
  expect(link).toEqual({ privacy_version: current.p, children_version: current.c, photo: true, health: null });

  // 5. 我的 → 隐私与数据: the switches as chosen, the admin's read in the child's access log
  await page.locator('.m-tabbar .adm-tab-bar-item', { hasText: '我的' }).tap();
  await page.waitForURL((u) => u.pathname === '/m/parent_me');
  await page.locator('.adm-list-item', { hasText: '隐私与数据' }).tap();
  await page.waitForURL((u) => u.pathname === '/m/parent_privacy');
  const row = page.getByTestId('privacy-log-row').first();
  await row.waitFor();
  await expect.poll(() => row.textContent()).toContain('王园长');
  expect(await row.textContent()).toContain('机构管理员');
  expect(await row.textContent()).toContain('档案');
  expect(await page.getByTestId('privacy-photos').getAttribute('aria-checked')).toBe('true');
  await looked(page, 'privacy-data');

  // 6. a correction: what is wrong, sent; listed as open with the day the school has until
  await page.getByTestId('privacy-correction').tap();
  await page.getByTestId('correction-sheet').waitFor();
  await page.waitForTimeout(400);
  await page.getByTestId('correction-sheet').locator('textarea').fill('孩子的出生日期有误，应为 2018-03-02');
  await looked(page, 'privacy-correction');
  await page.getByTestId('correction-submit').tap();
  const request = page.getByTestId('privacy-request-correction');
  await request.waitFor();
  await expect.poll(() => request.textContent()).toContain('处理中');
  expect(await request.textContent()).toMatch(/\d{4}-\d{2}-\d{2} 前处理/);
  const [stored] = await stack.sql<{ kind: string; status: string; body: string }>(
    `select kind, status, body from privacy_requests where student_id = $1 order by id desc limit 1`,
    [guardian.student_id],
  );
  expect(stored).toEqual({ kind: 'correction', status: 'open', body: '孩子的出生日期有误，应为 2018-03-02' });
  // the list as the guardian sees it, scrolled to (the screen, not the whole page: the top bar stays on top)
  await page.getByTestId('privacy-requests').scrollIntoViewIfNeeded();
  await looked(page, 'privacy-requested', false);
  await context.close();
});

/**
 * The school's side (1280 px): the admin reads the access log on /principal_privacy, completes the demo parent's
 * deletion request for 陈小阳 by typing the child's name, and the child is gone from the school's lists; the operator's
 * /operator_privacy shows the current documents and their history.
 */
it('admin: access log → a deletion request completed by typing the name → the child erased; operator: the documents', async () => {
  const [child] = await stack.sql<{ id: number }>(`select id from students where name = '陈小阳'`);
  const asked = await api('parent', 'privacyRequest', {}, { student_id: child.id, kind: 'deletion', body: '孩子已转学，请删除全部信息' });
  expect(asked.code, asked.msg).toBe(200);
  const read = await api('adviser', 'teacherStudentInfo', { id: String(child.id) });
  expect(read.code, read.msg).toBe(200);

  const page = await signedIn(stack, 'admin', 1280, 800, '/principal_privacy');
  const log = page.getByTestId('access-log');
  await log.locator('tbody tr', { hasText: '老师查看学生档案' }).first().waitFor();
  await page.screenshot({ path: join(SHOTS, 'principal-privacy-log.png') });

  await page.getByRole('tab', { name: /权利请求/ }).click();
  const requests = page.getByTestId('privacy-requests');
  const row = requests.locator('tbody tr', { hasText: '陈小阳' }).filter({ hasText: '删除' }).first();
  await row.waitFor();
  await page.screenshot({ path: join(SHOTS, 'principal-privacy-requests.png') });
  await row.getByRole('button', { name: '完成' }).click();
  // the dialog's root has no box of its own: its name field is what shows it is open
  await page.getByTestId('erase-name').waitFor();
  await motionDone(page);
  const erase = page.getByRole('button', { name: '永久删除' });
  expect(await erase.isDisabled()).toBe(true);
  await page.getByTestId('erase-name').fill('陈小');
  expect(await erase.isDisabled()).toBe(true);
  await page.getByTestId('erase-name').fill('陈小阳');
  await page.screenshot({ path: join(SHOTS, 'principal-privacy-erase.png') });
  await erase.click();
  await expect.poll(async () => (await stack.sql<{ n: number }>(`select count(*)::int as n from students where name = '陈小阳'`))[0].n).toBe(0);
  const [erased] = await stack.sql<{ name: string; anonymised: boolean }>(
    `select name, anonymised_at is not null as anonymised from students where id = $1`,
    [child.id],
  );
  expect(erased).toEqual({ name: `已注销学生${child.id}`, anonymised: true });
  // done: off the list of open requests, which reloads
  await expect.poll(() => requests.locator('tbody tr', { hasText: '陈小阳' }).count()).toBe(0);
  await page.screenshot({ path: join(SHOTS, 'principal-privacy-erased.png') });
  await page.context().close();

  const operator = await signedIn(stack, 'operator', 1280, 800, '/operator_privacy');
  await operator.getByTestId('policy-current').waitFor();
  await operator.getByTestId('policy-history').locator('tbody tr.ant-table-row').first().waitFor();
  await operator.screenshot({ path: join(SHOTS, 'operator-privacy.png'), fullPage: true });
  await operator.context().close();
});
