import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { GUARDIAN_MESSAGE_KIND_NAMES, GUARDIAN_MESSAGE_KINDS, messageChannelsOf, type MessagePrefsAnswer } from '@wantuo/shared';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePreferences } from '../../stores/preferences';
import { mount } from '../../test-utils';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('../../api/http', () => ({ get: http.get, post: http.post }));
vi.mock('../../api/feedback', () => ({ feedback: () => ({ message: { success: vi.fn(), error: vi.fn() } }) }));

const { default: ParentMessages } = await import('./parent-messages');

const answer = (bound: boolean): MessagePrefsAnswer => ({
  kinds: GUARDIAN_MESSAGE_KIND_NAMES.map((kind) => ({
    kind,
    label: { zh: GUARDIAN_MESSAGE_KINDS[kind].zh, en: GUARDIAN_MESSAGE_KINDS[kind].en },
    channel: 'wechat',
    chosen: false,
    channels: [...messageChannelsOf(kind)],
    may_turn_off: messageChannelsOf(kind).includes('none'),
  })),
  binding: bound ? { bound: true, bound_at: '2026-11-20T02:00:00.000Z', openid: 'oSbx****0001' } : { bound: false, bound_at: null, openid: null },
});

const flush = () => act(async () => new Promise((r) => setTimeout(r, 0)));

async function open(bound: boolean) {
  http.get.mockResolvedValue(answer(bound));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const el = await mount(
    <QueryClientProvider client={client}>
      <ParentMessages />
    </QueryClientProvider>,
  );
  await flush();
  return el;
}

beforeEach(() => {
  usePreferences.setState({ lang: 'zh-CN' });
  http.get.mockReset();
  http.post.mockReset();
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('消息通知 (the parent)', () => {
  it('shows 微信/短信/都要/不接收 per kind, 不接收 disabled for alerts with the hint, and saves only what changed', async () => {
    const el = await open(false);
    const alert = el.querySelector('[data-testid="pref-alert.raised"]')!;
    const labels = [...alert.querySelectorAll('.ant-segmented-item')].map((i) => [
      i.textContent,
      i.classList.contains('ant-segmented-item-disabled'),
    ]);
    expect(labels).toEqual([
      ['微信', false],
      ['短信', false],
      ['都要', false],
      ['不接收', true],
    ]);
    expect(alert.textContent).toContain('不能关闭');
    const save = el.querySelector<HTMLButtonElement>('[data-testid="prefs-save"]')!;
    expect(save.disabled).toBe(true);

    const notice = el.querySelector('[data-testid="pref-notice.important"]')!;
    const none = [...notice.querySelectorAll<HTMLInputElement>('.ant-segmented-item input')][3];
    await act(async () => none.click());
    expect(save.disabled).toBe(false);
    http.post.mockResolvedValue(answer(false));
    await act(async () => save.click());
    expect(http.post).toHaveBeenCalledWith('saveMessagePrefs', { prefs: [{ kind: 'notice.important', channel: 'none' }] });
    // not bound: how to bind, no unbind button
    expect(el.querySelector('[data-testid="wechat-unbind"]')).toBeNull();
    expect(el.textContent).toContain('未绑定');
  });

  it('a bound guardian sees the binding and may unbind it after confirming', async () => {
    const el = await open(true);
    expect(el.textContent).toContain('oSbx****0001');
    http.post.mockResolvedValue({});
    await act(async () => el.querySelector<HTMLButtonElement>('[data-testid="wechat-unbind"]')!.click());
    expect(http.post).not.toHaveBeenCalled();
    const ok = [...document.querySelectorAll<HTMLButtonElement>('.ant-popconfirm button')].find((b) => b.textContent?.includes('解除绑定'))!;
    await act(async () => ok.click());
    await flush();
    expect(http.post).toHaveBeenCalledWith('wechatUnbind', {});
  });
});
