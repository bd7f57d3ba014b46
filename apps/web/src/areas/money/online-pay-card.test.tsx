import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { SchoolSubMerchant } from '@wantuo/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePreferences } from '../../stores/preferences';
import { mount } from '../../test-utils';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('../../api/http', () => ({ get: http.get, post: http.post, wechatSandbox: { available: async () => false, pay: vi.fn() } }));

const { OnlinePayCard } = await import('./principal-user');

const NONE: SchoolSubMerchant = { school_id: 1, state: 'none', current: null, history: [] };
const rec = {
  id: 3,
  sub_mchid: '1900000301',
  sub_appid: null,
  note: '',
  recorded_at: '2026-11-02T02:00:00.000Z',
  recorded_by_name: '平台运营',
  ended_at: null,
};
const ACTIVE: SchoolSubMerchant = { school_id: 1, state: 'active', current: rec, history: [rec] };

const card = () => document.querySelector<HTMLElement>('[data-testid="online-pay"]')!;
async function open() {
  await mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <OnlinePayCard timezone="Asia/Shanghai" />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  usePreferences.setState({ lang: 'zh-CN' });
  http.get.mockReset();
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('在线收款 (the admin’s personal centre)', { timeout: 30_000 }, () => {
  it('已开通: the sub-merchant number and since when, read for the admin’s own school (no school_id)', async () => {
    http.get.mockResolvedValue(ACTIVE);
    await open();
    await vi.waitFor(() => expect(card().textContent).toContain('1900000301'));
    expect(http.get).toHaveBeenCalledWith('schoolSubMerchant');
    expect(card().textContent).toContain('已开通');
    expect(card().textContent).toContain('2026-11-02 10:00');
  });

  it('未开通: what to do, and that parents can only pay at the desk meanwhile', async () => {
    http.get.mockResolvedValue(NONE);
    await open();
    await vi.waitFor(() => expect(card().textContent).toContain('未开通'));
    expect(card().textContent).toContain('联系平台完成微信支付特约商户进件');
    expect(card().textContent).toContain('家长暂时只能到前台缴费');
  });

  it('a failed read: the error state with a retry', async () => {
    http.get.mockRejectedValue(new Error('down'));
    await open();
    await vi.waitFor(() => expect(card().querySelector('button')?.textContent).toMatch(/重\s*试/));
  });
});
