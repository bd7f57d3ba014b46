import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { GoodsOrderPreview, StoreAddress } from '@wantuo/shared';
import { act } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePreferences } from '../../stores/preferences';
import { mount } from '../../test-utils';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('../../api/http', () => ({ get: http.get, post: http.post, wechatSandbox: { available: async () => false, pay: vi.fn() } }));
vi.mock('../../api/feedback', () => ({ feedback: () => ({ message: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }) }));

const { default: ConfirmOrder } = await import('./confirm-order');

const office: StoreAddress = {
  id: 1,
  name: '王校长',
  mobile: '13800000001',
  region: '北京市海淀区',
  detail: '中关村大街1号',
  is_default: true,
  version: 1,
};
const store: StoreAddress = {
  id: 2,
  name: '李会计',
  mobile: '13800000002',
  region: '北京市朝阳区',
  detail: '建国路2号',
  is_default: false,
  version: 1,
};
const preview: GoodsOrderPreview = {
  lines: [{ goods_id: 5, name: '钢笔', picture: null, price_fen: 1850, quantity: 2, amount_fen: 3700, stock: 10, enough: true }],
  goods_fen: 3700,
  freight_fen: 1000,
  total_fen: 4700,
  address: office,
  orderable: true,
};

const flush = () => act(async () => new Promise((r) => setTimeout(r, 0)));
const open = async () => {
  await mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/confirmOrder?items=5:2']}>
        <ConfirmOrder />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  await flush();
  await flush();
};
const card = () => document.querySelector('[data-testid="order-addresses"]');

beforeEach(() => {
  usePreferences.setState({ lang: 'zh-CN' });
  http.get.mockReset();
  http.post.mockReset();
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('确认订单: the delivery addresses (addressList)', { timeout: 60_000 }, () => {
  it('lists the school’s addresses from addressList, the preview’s one chosen', async () => {
    http.get.mockImplementation(async (action: string) => (action === 'addressList' ? [office, store] : preview));
    await open();
    expect(http.get).toHaveBeenCalledWith('addressList');
    expect(card()?.textContent).toContain('王校长');
    expect(card()?.textContent).toContain('李会计');
    expect((card()?.querySelector('input[type="radio"][value="1"]') as HTMLInputElement).checked).toBe(true);
    expect(document.querySelector('[data-testid="order-total"]')?.textContent).toBe('¥47.00');
  });

  it('says when there is no address yet, and shows an error with a retry when the list does not load', async () => {
    http.get.mockImplementation(async (action: string) => (action === 'addressList' ? [] : { ...preview, address: null, orderable: false }));
    await open();
    expect(card()?.textContent).toContain('还没有收货地址');
    document.body.innerHTML = '';
    http.get.mockImplementation(async (action: string) => {
      if (action === 'addressList') throw new Error('down');
      return preview;
    });
    await open();
    expect(card()?.textContent).toContain('加载失败');
  });
});
