import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SHOTS, signedIn, startStack, type Stack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const GOOD = '晨光按动中性笔 0.5mm 黑色（12支装）';
const OK = /^确\s*定$/;

/**
 * Issue 15's journey, all through the screens: the operator puts a good on sale, the admin finds it in the mall,
 * orders two (adding a delivery address on the confirm screen) and pays by QR in the WeChat Pay sandbox; the operator
 * ships it with a carrier and tracking number; the school confirms receipt.
 */
it('operator adds a good → admin orders it and pays by QR → operator ships → school confirms receipt', async () => {
  // 1. the operator adds the good
  const operator = await signedIn(stack, 'operator', 1280, 860, '/operator_store_goods');
  await operator.getByRole('button', { name: '添加商品' }).click();
  await operator.getByLabel('商品名称').fill(GOOD);
  await operator.getByLabel('价格（元）').fill('18.50');
  await operator.getByLabel('初始库存').fill('20');
  await operator.getByLabel('商品介绍').fill('按动式中性笔，顺滑不断墨，适合学生日常书写。');
  await operator.getByRole('button', { name: OK }).click();
  await operator.getByRole('cell', { name: GOOD }).waitFor();
  await operator.screenshot({ path: join(SHOTS, 'store-operator-goods.png') });

  // 2. the admin finds it in the mall and orders two
  // the detail page without a product says so and leads to the mall
  const admin = await signedIn(stack, 'admin', 1280, 860, '/onlineStore_detail');
  await admin.getByText('请先在商城中选择一件商品').waitFor();
  await admin.getByRole('button', { name: '去商城逛逛' }).click();
  await admin.waitForURL(/\/onlineStore$/);
  const card = admin.getByTestId('store-good').filter({ hasText: GOOD });
  await card.waitFor();
  await admin.screenshot({ path: join(SHOTS, 'store-mall.png') });
  await card.click();
  await admin.waitForURL(/\/onlineStore_detail\?id=\d+/);
  await expect.poll(() => admin.getByTestId('detail-price').textContent()).toBe('¥18.50');
  await admin.getByLabel('数量').fill('2');
  await admin.screenshot({ path: join(SHOTS, 'store-detail.png') });
  await admin.getByRole('button', { name: '立即购买' }).click();
  await admin.waitForURL(/\/confirmOrder\?items=/);

  // no address yet: one is added on the confirm screen
  await admin.getByText('还没有收货地址，请先新增').first().waitFor();
  await admin.getByRole('button', { name: '新增地址' }).click();
  await admin.getByLabel('收货人').fill('王老师');
  await admin.getByLabel('手机号').fill('13800000001');
  await admin.getByLabel('所在地区').fill('浙江省杭州市西湖区');
  await admin.getByLabel('详细地址').fill('文三路 100 号 星星晚托中心');
  await admin.getByRole('button', { name: OK }).click();
  await admin.getByText('文三路 100 号 星星晚托中心').waitFor();
  // 2 × 18.50 = 37.00, below free delivery: + 8.00
  await expect.poll(() => admin.getByTestId('order-total').textContent()).toBe('¥45.00');
  await admin.screenshot({ path: join(SHOTS, 'store-confirm-order.png'), fullPage: true });
  await admin.getByRole('button', { name: '提交订单' }).click();

  // 3. the one payment dialog: WeChat Pay by QR, paid in the sandbox
  await admin.getByText('支付订单').waitFor();
  const wechat = admin.locator('.ant-segmented-item').filter({ hasText: '微信支付' });
  if (await wechat.count()) await wechat.click();
  await admin.locator('.ant-qrcode canvas, .ant-qrcode svg').first().waitFor();
  await admin.screenshot({ path: join(SHOTS, 'store-pay-qr.png') });
  await admin.getByTestId('simulate-pay').click();
  await admin.getByText('支付成功').waitFor();
  await admin.getByRole('button', { name: /^完\s*成$/ }).click();
  await admin.waitForURL(/\/principal_store_orders/);
  const mine = admin.getByTestId('store-order').filter({ hasText: GOOD });
  await mine.getByText('待发货').waitFor();

  const [order] = await stack.sql<{ id: number; no: string; state: string; total_fen: number; pay_method: string }>(
    `select id, no, state, total_fen::int, pay_method from store_orders order by id desc limit 1`,
  );
  expect(order).toMatchObject({ state: 'paid', total_fen: 4_500, pay_method: 'wechat' });
  const [{ stock }] = await stack.sql<{ stock: number }>(`select stock from store_goods where name = $1`, [GOOD]);
  expect(stock).toBe(18);

  // 4. the operator ships it
  await operator.goto(`${stack.url}/operator_store_orders`);
  const row = operator.getByRole('row', { name: new RegExp(order.no) });
  await row.getByRole('button', { name: /^发\s*货$/ }).click();
  await operator.getByLabel('快递公司').fill('顺丰速运');
  await operator.getByLabel('快递单号').fill('SF1234567890123');
  await operator.getByRole('button', { name: OK }).click();
  await operator.locator('.ant-message').getByText('已发货').waitFor();
  await operator.locator('.ant-segmented-item').filter({ hasText: '已发货' }).click();
  await operator
    .getByRole('row', { name: new RegExp(order.no) })
    .getByText('顺丰速运 · 运单号 SF1234567890123')
    .waitFor();
  await operator.screenshot({ path: join(SHOTS, 'store-operator-orders.png') });
  await operator.context().close();

  // 5. the school sees the shipment and confirms receipt
  await admin.reload();
  await mine.getByText('顺丰速运 · 运单号 SF1234567890123').waitFor();
  await mine.getByRole('button', { name: '确认收货' }).click();
  await admin.locator('.ant-popconfirm .ant-btn-primary').click();
  await mine.getByText('已完成').waitFor();
  await admin.screenshot({ path: join(SHOTS, 'store-school-orders.png'), fullPage: true });
  const [done] = await stack.sql<{ state: string }>(`select state from store_orders where id = $1`, [order.id]);
  expect(done.state).toBe('done');
  const events = await stack.sql<{ type: string }>(`select type from store_order_events where order_id = $1 order by id`, [order.id]);
  expect(events.map((e) => e.type)).toEqual(['placed', 'paid', 'shipped', 'done']);

  // the mall on a phone
  await admin.setViewportSize({ width: 375, height: 740 });
  await admin.goto(`${stack.url}/onlineStore`);
  await admin.getByTestId('store-good').first().waitFor();
  await admin.screenshot({ path: join(SHOTS, 'store-mall-375.png'), fullPage: true });
  await admin.context().close();
});
