import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SHOTS, startStack, type Stack, signedIn, CONTEXT } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

/** A desktop browser on the sign-in page's QR tab, showing a live code. */
async function desktopQr(): Promise<Page> {
  const context = await stack.browser.newContext({ viewport: { width: 1280, height: 800 }, ...CONTEXT });
  const page = await context.newPage();
  await page.goto(`${stack.url}/login`);
  await page.getByRole('button', { name: '扫码登录' }).click();
  await page.locator('[data-testid=qr-login-code][data-state=waiting] canvas').waitFor();
  return page;
}

const ticketRows = () =>
  stack.sql<{ id: string; state: string; scanned_by: number | null; consumed: boolean }>(
    `select id, state, scanned_by, consumed_at is not null as consumed from qr_login_tickets order by created_at desc`,
  );

/**
 * Issue 21's QR sign-in: a desktop shows the code; the teacher, signed in on a phone (375 px), opens 扫码登录 from the
 * menu and gives it a photo of the code (the page decodes it itself: this Chromium has no BarcodeDetector, so jsQR
 * reads it); the desktop shows 已扫描; the phone shows which browser asks and confirms; the desktop lands on the
 * teacher's home page signed in as the teacher, logged as a QR sign-in.
 */
it('desktop shows the code → the teacher’s phone reads a photo of it and confirms → the desktop is signed in as the teacher', async () => {
  const desktop = await desktopQr();
  await desktop.getByText('请用已登录的手机打开「扫码登录」，扫描二维码').waitFor();
  await desktop.screenshot({ path: join(SHOTS, 'qr-login-desktop-waiting.png') });
  // the code as a photo of the screen would show it
  const photo = await desktop.getByTestId('qr-login-code').screenshot();

  const phone = await signedIn(stack, 'teacher', 375, 812, '/teacher_today');
  await phone.getByRole('button', { name: '菜单' }).click();
  await phone.locator('.ant-drawer').getByText('扫码登录').click();
  await phone.waitForURL((u) => u.pathname === '/teacher_scan');
  await phone.getByRole('button', { name: '从相册选择二维码图片' }).waitFor();
  await phone.screenshot({ path: join(SHOTS, 'qr-login-phone-scan.png') });
  expect(await phone.evaluate(() => 'BarcodeDetector' in window)).toBe(false);

  // a picture that is not a sign-in code is refused on the phone, nothing is sent
  const other = await desktop.locator('.login-qr').evaluate(() => {
    const c = document.createElement('canvas');
    c.width = 200;
    c.height = 200;
    const g = c.getContext('2d')!;
    g.fillStyle = '#fff';
    g.fillRect(0, 0, 200, 200);
    return c.toDataURL('image/png').split(',')[1];
  });
  await phone.getByTestId('qr-photo').setInputFiles({ name: 'blank.png', mimeType: 'image/png', buffer: Buffer.from(other, 'base64') });
  await phone.getByText('图片中没有找到二维码，请换一张清晰的图片').waitFor();

  await phone.getByTestId('qr-photo').setInputFiles({ name: 'qr.png', mimeType: 'image/png', buffer: photo });
  const confirm = phone.getByTestId('qr-confirm');
  await confirm.getByText('确认在电脑上登录？').waitFor();
  await confirm.getByText(/Chrome \d+ · Linux/).waitFor();
  await confirm.getByText('请确认是您本人正在该电脑上登录；如不是，请点「取消」。').waitFor();
  const [row] = await ticketRows();
  const [teacher] = await stack.sql<{ id: number }>(`select id from users where username = 'teacher'`);
  expect(row).toMatchObject({ state: 'scanned', scanned_by: teacher.id, consumed: false });
  await phone.screenshot({ path: join(SHOTS, 'qr-login-phone-confirm.png') });

  // the desktop learns it by polling
  await desktop.locator('[data-testid=qr-login-code][data-state=scanned]').waitFor();
  await desktop.getByText('已扫描，请在手机上确认').first().waitFor();
  await desktop.screenshot({ path: join(SHOTS, 'qr-login-desktop-scanned.png') });

  await phone.getByRole('button', { name: '确认登录' }).click();
  await phone.getByText('已在电脑上登录').waitFor();
  await phone.screenshot({ path: join(SHOTS, 'qr-login-phone-done.png') });

  // the desktop signs in as a password sign-in does: the teacher's home page
  await desktop.waitForURL((u) => u.pathname === '/teacher_today', { timeout: 15_000 });
  // the desktop's own session is the teacher's
  const me = await desktop.evaluate(async () => {
    const token = decodeURIComponent(
      document.cookie
        .split('; ')
        .find((c) => c.startsWith('token='))
        ?.slice('token='.length) ?? '',
    );
    return (await (await fetch('/api/index/userInfo', { headers: { token } })).json()).data;
  });
  expect(me).toMatchObject({ id: teacher.id, username: 'teacher', role: 2 });
  await desktop.getByText('今日接送').first().waitFor();
  await desktop.getByText('加载中…').waitFor({ state: 'detached' });
  await desktop.screenshot({ path: join(SHOTS, 'qr-login-desktop-signed-in.png') });
  const [spent] = await ticketRows();
  expect(spent).toMatchObject({ id: row.id, state: 'confirmed', consumed: true });
  const [log] = await stack.sql<{ action: string; detail: { method: string } }>(
    `select action, detail from user_activity where user_id = $1 order by id desc limit 1`,
    [teacher.id],
  );
  expect(log).toMatchObject({ action: 'login.qr', detail: { method: 'qr' } });
  await desktop.context().close();
  await phone.context().close();
});

it('a code left 2 minutes shows 二维码已过期 with 刷新, which brings a new code', async () => {
  const desktop = await desktopQr();
  const [first] = await ticketRows();
  // the clock: the ticket was made 2 minutes ago
  await stack.sql(`update qr_login_tickets set expires_at = now() - interval '1 second' where id = $1`, [first.id]);
  await desktop.locator('[data-testid=qr-login-code][data-state=expired]').waitFor();
  await desktop.getByText('二维码已过期').first().waitFor();
  const refresh = desktop.getByRole('button', { name: /^刷\s?新$/ });
  await refresh.waitFor();
  await desktop.screenshot({ path: join(SHOTS, 'qr-login-desktop-expired.png') });
  await refresh.click();
  await desktop.locator('[data-testid=qr-login-code][data-state=waiting] canvas').waitFor();
  const [second] = await ticketRows();
  expect(second.id).not.toBe(first.id);
  await desktop.context().close();
});

it('the parent scans from the parent menu and cancels: the desktop shows it cancelled and stays on the sign-in page', async () => {
  const desktop = await desktopQr();
  const photo = await desktop.getByTestId('qr-login-code').screenshot();
  const phone = await signedIn(stack, 'parent', 375, 812, '/parent');
  await phone.getByRole('button', { name: '菜单' }).click();
  await phone.locator('.ant-drawer').getByText('扫码登录').click();
  await phone.waitForURL((u) => u.pathname === '/parent_scan');
  await phone.getByTestId('qr-photo').setInputFiles({ name: 'qr.png', mimeType: 'image/png', buffer: photo });
  await phone.getByRole('button', { name: /^取\s?消$/ }).click();
  await phone.getByText('已取消登录').waitFor();
  await desktop.locator('[data-testid=qr-login-code][data-state=cancelled]').waitFor();
  await desktop.getByText('已在手机上取消').first().waitFor();
  await desktop.screenshot({ path: join(SHOTS, 'qr-login-desktop-cancelled.png') });
  expect(new URL(desktop.url()).pathname).toBe('/login');
  await desktop.context().close();
  await phone.context().close();
});
