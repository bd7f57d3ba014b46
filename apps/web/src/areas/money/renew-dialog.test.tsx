import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { SchoolInfo } from '@wantuo/shared';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePreferences } from '../../stores/preferences';
import { mount, unmountAll } from '../../test-utils';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('../../api/http', () => ({ get: http.get, post: http.post, wechatSandbox: { available: async () => false, pay: vi.fn() } }));

const { RenewDialog } = await import('./principal-user');

/** schoolInfo as the page read it: the price of then */
const school: SchoolInfo = {
  id: 1,
  name: '星星晚托',
  timezone: 'Asia/Shanghai',
  contact_name: null,
  contact_phone: null,
  city: null,
  address: null,
  balance_fen: 0,
  service_expires_at: '2027-01-31T16:00:00.000Z',
  service_state: 'active',
  price: { term_fen: 100000, year_fen: 180000 },
  has_deal_pwd: false,
  deal_pwd_locked_until: null,
  version: 1,
};

const flush = () => act(async () => new Promise((r) => setTimeout(r, 0)));
const open = async () => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await mount(
    <QueryClientProvider client={client}>
      <RenewDialog open school={school} onClose={() => undefined} onPaid={() => undefined} onSetDealPwd={() => undefined} />
    </QueryClientProvider>,
  );
  await flush();
};
const next = () => [...document.querySelectorAll('.ant-modal button')].find((b) => b.textContent?.includes('下一步')) as HTMLButtonElement;

beforeEach(() => {
  usePreferences.setState({ lang: 'zh-CN' });
  http.get.mockReset();
});
afterEach(async () => {
  // unmounted inside act: the modal's closing animation must not update a root after the test (its act() warning could
  // then reach the console while vitest closes the worker, an unhandled teardown error that fails the run)
  await unmountAll();
  document.body.innerHTML = '';
});

describe('续费服务 (the renewal dialog)', { timeout: 30_000 }, () => {
  it('shows the price of now (getSchoolPrice), not the one the page loaded with', async () => {
    http.get.mockImplementation(async (action: string) => (action === 'getSchoolPrice' ? { term_fen: 150000, year_fen: 280000 } : null));
    await open();
    expect(http.get).toHaveBeenCalledWith('getSchoolPrice');
    const text = document.querySelector('.ant-modal')?.textContent ?? '';
    expect(text).toContain('¥1500.00');
    expect(text).toContain('¥2800.00');
    expect(text).not.toContain('¥1800.00');
    expect(next().disabled).toBe(false);
  });

  it('cannot go on to pay while the price is not known: an error with a retry', async () => {
    http.get.mockRejectedValue(new Error('down'));
    await open();
    expect(document.querySelector('[data-testid="renew-price-error"]')).not.toBeNull();
    expect(next().disabled).toBe(true);
  });
});
