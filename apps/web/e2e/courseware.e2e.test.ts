import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { motionDone, SHOTS, startStack, type Stack, signedIn as signedInAs } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const signedIn = (account: string, width: number, height: number, path: string) => signedInAs(stack, account, width, height, path);
const DEAL_PWD = '246810';
const TITLE = '三年级语文上册同步课堂';

/** The admin's payment password through the API (the money journey covers its screen) and a balance to pay from. */
async function readyToPay(): Promise<void> {
  const login = await fetch(`${stack.url}/api/index/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: 'Demo@2026' }),
  });
  const token = ((await login.json()) as { data: { userinfo: { token: string } } }).data.userinfo.token;
  const set = await fetch(`${stack.url}/api/index/setDealPwd`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify({ deal_pwd: DEAL_PWD, password: 'Demo@2026' }),
  });
  expect(((await set.json()) as { code: number }).code).toBe(200);
  await stack.sql(
    `with s as (update schools set balance_fen = balance_fen + 100000 where name = '阳光晚托中心（演示）' returning id, balance_fen)
     insert into ledger_entries (school_id, type, amount_fen, balance_after_fen, ref_kind, idempotency_key)
     select id, 'adjustment', 100000, balance_fen, 'e2e', 'e2e:' || gen_random_uuid() from s`,
  );
}

/**
 * Issue 15's courseware journey: the admin filters the catalogue, buys a courseware from the balance in the one
 * payment dialog, opens it, and reads its PDF in the PDF.js viewer (desktop, then on a 375 px phone); the operator's
 * catalogue screen lists it with its buyer. The admin then builds a lesson plan from it (/sparePart) and teaches it in
 * /attendClass; the class's teacher finds it on a phone and opens it in class.
 */
it('the admin buys a courseware with the balance, opens its PDF in the viewer, builds a lesson plan and teaches it', async () => {
  await readyToPay();
  const admin = await signedIn('admin', 1280, 860, '/CoursewareResource');
  await admin.getByText(TITLE).waitFor();
  // filter by grade: only third-grade courseware stays
  await admin.getByLabel('年级').click();
  await admin.locator('.ant-select-dropdown').getByText('三年级', { exact: true }).click();
  await expect.poll(() => admin.locator('tbody tr.ant-table-row').count()).toBe(2);
  await admin.screenshot({ path: join(SHOTS, 'courseware-catalogue.png') });

  // the detail before buying: sections shown, files locked
  await admin.getByRole('button', { name: TITLE }).click();
  const drawer = admin.locator('.ant-drawer');
  await drawer.getByText('购买后可查看章节文件').waitFor();
  await drawer.getByText('第一单元 大青树下的小学').waitFor();
  await admin.screenshot({ path: join(SHOTS, 'courseware-detail-locked.png') });

  // buy from the balance
  await drawer.getByRole('button', { name: /购\s*买 ¥199.00/ }).click();
  const dialog = admin.locator('.ant-modal');
  await dialog.getByText('余额支付').first().waitFor();
  const otp = dialog.locator('.ant-otp input');
  for (const [i, digit] of [...DEAL_PWD].entries()) await otp.nth(i).fill(digit);
  await expect.poll(() => dialog.getByRole('button', { name: /确认支付/ }).isEnabled()).toBe(true);
  await admin.screenshot({ path: join(SHOTS, 'courseware-pay-balance.png') });
  await dialog.getByRole('button', { name: /确认支付/ }).click();
  await dialog.getByText('支付成功').waitFor();
  await dialog.getByRole('button', { name: /完\s*成/ }).click();
  const paid = await stack.sql<{ n: number; fen: number }>(
    `select count(*)::int as n, sum(amount_fen)::int as fen from payments where kind = 'courseware' and state = 'paid'`,
  );
  expect(paid[0]).toEqual({ n: 1, fen: 19_900 });

  // owned now: open it, unfold the first section, view its PDF
  await drawer.getByRole('button', { name: /进入课件/ }).click();
  await admin.waitForURL(/principalCenter_lessonware\?id=\d+/);
  await admin.getByText('第一单元 大青树下的小学', { exact: true }).waitFor();
  await admin
    .getByRole('button', { name: /查\s*看/ })
    .first()
    .waitFor();
  await admin.screenshot({ path: join(SHOTS, 'courseware-lessonware.png') });
  await admin
    .getByRole('button', { name: /查\s*看/ })
    .first()
    .click();
  await admin.waitForURL(/pdf-viewer\?url=%2Fapi%2Fcourseware%2Ffile%2F/);
  await admin.getByTestId('pdf-page-info').filter({ hasText: '第 1 / 5 页' }).waitFor();
  await admin.locator('.react-pdf__Page__canvas').waitFor();
  await admin.locator('.react-pdf__Page__textContent').getByText(TITLE).first().waitFor();
  await admin.screenshot({ path: join(SHOTS, 'courseware-pdf-viewer.png') });
  await admin.getByRole('button', { name: '下一页' }).click();
  await admin.getByTestId('pdf-page-info').filter({ hasText: '第 2 / 5 页' }).waitFor();
  await admin.locator('.react-pdf__Page__textContent').getByText('教学目标').first().waitFor();
  await admin.getByRole('button', { name: '放大' }).click();
  await admin.getByText('125%').waitFor();
  await admin.screenshot({ path: join(SHOTS, 'courseware-pdf-viewer-zoom.png') });

  // the same PDF on a phone: fit to width, no sideways scroll of the page
  const viewerUrl = new URL(admin.url());
  const phone = await signedIn('admin', 375, 812, `${viewerUrl.pathname}${viewerUrl.search}`);
  await phone.getByTestId('pdf-page-info').filter({ hasText: '第 1 / 5 页' }).waitFor();
  await phone.locator('.react-pdf__Page__canvas').waitFor();
  // fit to width settles once the page's width is measured (a scroll bar may come and go meanwhile)
  await expect.poll(() => phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await phone.screenshot({ path: join(SHOTS, 'courseware-pdf-viewer-phone.png') });
  await phone.context().close();

  // the owned list
  await admin.goto(`${stack.url}/principal_courseware`);
  await admin
    .getByRole('row', { name: new RegExp(TITLE) })
    .getByText('余额')
    .waitFor();
  await admin.screenshot({ path: join(SHOTS, 'courseware-owned.png') });

  // a lesson plan from the bought courseware: pages 1-2 and 4 of the first section's PDF, for 阳光一班
  await admin.goto(`${stack.url}/sparePart`);
  await admin.getByText('还没有教案').waitFor();
  await admin.getByRole('button', { name: '新建教案' }).first().click();
  await admin.getByLabel('教案标题').fill('《大青树下的小学》第一课时');
  await admin.getByLabel('班级').click();
  await admin.locator('.ant-select-dropdown:visible').getByText('阳光一班（托管班）').click();
  await admin.getByLabel('教学目标').fill('会认本课生字，能正确、流利地朗读课文。');
  await admin.getByRole('button', { name: /添加课件页面/ }).click();
  const picker = admin.locator('.ant-modal');
  await motionDone(admin);
  await picker.getByLabel('课件').click();
  await motionDone(admin);
  await admin.locator('.ant-select-dropdown:visible').getByText(TITLE).click();
  await motionDone(admin);
  await picker.getByLabel('章节').click();
  await motionDone(admin);
  await admin.locator('.ant-select-dropdown:visible').getByText('第一单元 大青树下的小学').click();
  await picker
    .getByRole('button', { name: /添\s*加/ })
    .first()
    .click();
  await picker.getByRole('button', { name: /已添加/ }).waitFor();
  await picker.getByRole('button', { name: /取\s*消/ }).click();
  await admin.getByLabel('页码').fill('1-2, 4');
  await admin.getByTestId('plan-slides').filter({ hasText: '上课共 3 页' }).waitFor();
  await admin.screenshot({ path: join(SHOTS, 'lesson-plan-editor.png'), fullPage: true });

  // saved and opened in class: the three pages one after another, full screen without the header
  await admin.getByRole('button', { name: '保存并上课' }).click();
  await admin.waitForURL(/\/attendClass\?id=\d+/);
  await admin.getByTestId('attend-counter').filter({ hasText: '1 / 3' }).waitFor();
  await admin.locator('.attend-pdf-page canvas').waitFor();
  expect(await admin.locator('.pub-header').count()).toBe(0);
  await admin.screenshot({ path: join(SHOTS, 'attend-class.png') });
  await admin.keyboard.press('ArrowRight');
  await admin.getByTestId('attend-counter').filter({ hasText: '2 / 3' }).waitFor();
  await admin.getByRole('button', { name: /下一页/ }).click();
  await admin.getByTestId('attend-counter').filter({ hasText: '3 / 3' }).waitFor();
  await admin.getByText(/第 4 页/).waitFor();
  await admin.locator('.attend-pdf-page canvas').waitFor();
  await admin.getByRole('button', { name: /教学环节/ }).click();
  await admin.locator('.ant-drawer').getByText('会认本课生字，能正确、流利地朗读课文。').waitFor();
  // the panel has slid in
  await expect.poll(() => admin.locator('.ant-drawer-content-wrapper').evaluate((el) => Math.round(el.getBoundingClientRect().right))).toBe(1280);
  await expect
    .poll(() => admin.locator('.ant-drawer-content-wrapper').evaluate((el) => Math.round(el.getBoundingClientRect().left)))
    .toBeLessThan(1000);
  await admin.screenshot({ path: join(SHOTS, 'attend-class-steps.png') });
  await admin.keyboard.press('Escape');
  const saved = await stack.sql<{ id: number; slides: number; pages: number[]; version: number }>(
    `select p.id, p.slides, i.pages, p.version from lesson_plans p join lesson_plan_items i on i.plan_id = p.id`,
  );
  expect(saved).toEqual([{ id: saved[0].id, slides: 3, pages: [1, 2, 4], version: 1 }]);
  // the end of the class returns to the saved plan
  await admin.getByRole('button', { name: /下\s*课/ }).click();
  await admin.waitForURL(new RegExp(`/sparePart\\?plan=${saved[0].id}$`));
  await admin.getByLabel('教案标题').waitFor();
  expect(await admin.getByLabel('教案标题').inputValue()).toBe('《大青树下的小学》第一课时');
  await admin.context().close();

  // the class's teacher (on duty in 阳光一班) finds it on a phone, reads it and teaches from it
  const teacher = await signedIn('teacher', 375, 812, '/teacher_lessons');
  await teacher.getByTestId('plan-title').filter({ hasText: '《大青树下的小学》第一课时' }).waitFor();
  expect(await teacher.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await teacher.screenshot({ path: join(SHOTS, 'lesson-plans-teacher-phone.png') });
  await teacher
    .getByRole('button', { name: /上\s*课/ })
    .first()
    .click();
  await teacher.waitForURL(/\/attendClass\?id=\d+/);
  await teacher.getByTestId('attend-counter').filter({ hasText: '1 / 3' }).waitFor();
  await teacher.locator('.attend-pdf-page canvas').waitFor();
  expect(await teacher.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await teacher.screenshot({ path: join(SHOTS, 'attend-class-phone.png') });
  await teacher.context().close();

  // the operator's catalogue lists it with one buyer
  const operator = await signedIn('operator', 1280, 860, '/operator_courseware');
  await operator
    .getByRole('row', { name: new RegExp(TITLE) })
    .getByText('1 所')
    .waitFor();
  await operator.screenshot({ path: join(SHOTS, 'courseware-operator.png') });
  await operator.getByRole('tab', { name: '分类字典' }).click();
  await operator.getByText('道德与法治').waitFor();
  await operator.screenshot({ path: join(SHOTS, 'courseware-operator-dicts.png') });
  await operator.context().close();
}, 240_000);

/**
 * A one-page PDF whose Chinese text is in STSong-Light, a font the file does not embed (the common case of PDFs made
 * by Chinese office software), with the UniGB-UCS2-H encoding: PDF.js needs that CMap to know which characters the
 * codes are, and draws nothing without it.
 */
function pdfWithUnembeddedChineseFont(text: string): Buffer {
  const hex = [...text].map((c) => c.charCodeAt(0).toString(16).padStart(4, '0')).join('');
  const content = `BT /F1 48 Tf 60 700 Td <${hex}> Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [6 0 R] >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 2 >> /FontDescriptor 7 0 R >>',
    '<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [-25 -254 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((n) => `${String(n).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

it('a PDF whose Chinese font is not embedded shows its text in the viewer (PDF.js gets the CMaps of this build)', async () => {
  mkdirSync(join(stack.dataDir, 'uploads'), { recursive: true });
  writeFileSync(join(stack.dataDir, 'uploads', 'e2e-stsong.pdf'), pdfWithUnembeddedChineseFont('中文字体未嵌入'));
  const admin = await signedIn('admin', 1280, 860, '/CoursewareResource');
  const cmaps: { url: string; status: number }[] = [];
  admin.on('response', (r) => {
    if (r.url().includes('/cmaps/')) cmaps.push({ url: new URL(r.url()).pathname, status: r.status() });
  });
  await admin.goto(`${stack.url}/pdf-viewer?url=${encodeURIComponent('/uploads/e2e-stsong.pdf')}&title=STSong`);
  const canvas = admin.locator('.react-pdf__Page__canvas');
  await canvas.waitFor();
  // the ink on the page: dark pixels of the canvas (a blank page has none)
  const ink = () =>
    canvas.evaluate((c: HTMLCanvasElement) => {
      const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && data[i] + data[i + 1] + data[i + 2] < 384) n++;
      return n;
    });
  await expect.poll(ink, { timeout: 15_000 }).toBeGreaterThan(500);
  expect(cmaps).toContainEqual({ url: expect.stringMatching(/^\/static\/pdfjs-[\d.]+\/cmaps\/UniGB-UCS2-H\.bcmap$/), status: 200 });
  await admin.screenshot({ path: join(SHOTS, 'pdf-viewer-unembedded-chinese.png') });
  await admin.context().close();
}, 120_000);
