import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SHOTS, signedIn as signedInAs, startStack, type Stack, CONTEXT } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const signedIn = (account: string, width: number, height: number, path: string) => signedInAs(stack, account, width, height, path);
const settle = (page: Page) => page.waitForTimeout(400);
/** A small real PDF (one page, readable text). */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 144]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj 4 0 obj<</Length 44>>stream\nBT /F1 18 Tf 20 70 Td (Resource) Tj ET\nendstream endobj 5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** The operator publishes a public file and a material for schools; a visitor downloads the first, the admin finds the second by subject. */
it('the operator publishes → the public /resource page and the school’s materials by subject → removal', async () => {
  const op = await signedIn('operator', 1280, 860, '/operator_resources');
  await op.getByText('还没有发布资源').waitFor();
  const publish = async (audience: '公开资源' | '机构资料', file: string, title: string, subject?: string, grade?: string) => {
    await op.getByRole('button', { name: '发布资源' }).click();
    const dialog = op.locator('.ant-modal').filter({ hasText: '发布资源' });
    await dialog.waitFor();
    await dialog.getByText(audience, { exact: true }).click();
    await dialog.locator('input[type=file]').setInputFiles({ name: file, mimeType: 'application/pdf', buffer: PDF });
    await dialog.getByTestId('resource-file').waitFor();
    await dialog.getByLabel('标题').fill(title);
    if (subject) await dialog.getByLabel('学科').fill(subject);
    if (grade) await dialog.getByLabel('年级').fill(grade);
    await settle(op);
    await op.screenshot({ path: join(SHOTS, `resources-publish-${audience === '公开资源' ? 'public' : 'schools'}.png`) });
    await dialog.getByRole('button', { name: /^发\s*布$/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    await op.getByRole('row', { name: new RegExp(title) }).waitFor();
  };
  await publish('公开资源', '晚托服务规范.pdf', '晚托服务规范（2026 版）');
  await publish('机构资料', '口算.pdf', '三年级口算练习 100 题', '数学', '三年级');
  await publish('机构资料', '古诗.pdf', '四年级古诗词默写', '语文', '四年级');
  await op.screenshot({ path: join(SHOTS, 'resources-operator.png') });

  // a visitor, not signed in, on a phone: the public file only, and it downloads
  const visitor = await (await stack.browser.newContext({ viewport: { width: 375, height: 740 }, ...CONTEXT })).newPage();
  await visitor.goto(`${stack.url}/resource`);
  await visitor.getByText('晚托服务规范（2026 版）').waitFor();
  expect(await visitor.getByText('三年级口算练习 100 题').count()).toBe(0);
  await visitor.screenshot({ path: join(SHOTS, 'resources-public-375.png'), fullPage: true });
  expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const href = await visitor
    .getByRole('link', { name: /下\s*载/ })
    .first()
    .getAttribute('href');
  const file = await visitor.request.get(`${stack.url}${href}`);
  expect(file.status()).toBe(200);
  expect((await file.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await visitor.context().close();

  // the admin's materials, filtered by subject
  const admin = await signedIn('13800000001', 1280, 860, '/principal_downloads');
  await admin.getByText('四年级古诗词默写').waitFor();
  await admin.getByText('三年级口算练习 100 题').waitFor();
  await admin.getByLabel('学科').click();
  await admin.locator('.ant-select-item-option', { hasText: '数学' }).click();
  await expect.poll(() => admin.locator('tbody tr.ant-table-row').count()).toBe(1);
  await admin.getByText('三年级口算练习 100 题').waitFor();
  await settle(admin);
  await admin.screenshot({ path: join(SHOTS, 'resources-school.png') });

  // the operator removes the public file: the public page no longer lists it
  await op
    .getByRole('row', { name: /晚托服务规范/ })
    .getByRole('button', { name: /删\s*除/ })
    .click();
  await op
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: /删\s*除/ })
    .click();
  await op.getByText('已删除').first().waitFor();
  await expect.poll(() => op.getByRole('row', { name: /晚托服务规范/ }).count()).toBe(0);
  const [row] = await stack.sql<{ gone: boolean }>(
    `select deleted_at is not null as gone from site_resources where title = '晚托服务规范（2026 版）'`,
  );
  expect(row.gone).toBe(true);
  await admin.context().close();
  await op.context().close();
});
