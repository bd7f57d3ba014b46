import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { CoursewareFileRow } from '@wantuo/shared';
import { act } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePreferences } from '../../stores/preferences';
import { mount } from '../../test-utils';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('../../api/http', () => ({ get: http.get, post: http.post, wechatSandbox: { available: async () => false, pay: vi.fn() } }));
vi.mock('../../api/feedback', () => ({ feedback: () => ({ message: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }) }));

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

const { SectionFiles } = await import('./common');

const row = (over: Partial<CoursewareFileRow>): CoursewareFileRow => ({
  id: 1,
  kind: 'pdf',
  file_id: 'f1',
  name: '第一课.pdf',
  mime: 'application/pdf',
  size: 1000,
  pages: 12,
  section_id: 9,
  section_title: '第一课',
  url: '/api/courseware/file/f1?sig=listed',
  expires_at: '2026-12-06T21:00:00.000Z',
  ...over,
});
const pdf = row({});
const picture = row({
  id: 2,
  kind: 'image',
  file_id: 'f2',
  name: '板书.jpg',
  mime: 'image/jpeg',
  pages: null,
  url: '/api/courseware/file/f2?sig=listed',
});

function Where() {
  const l = useLocation();
  return <div data-testid="where">{l.pathname + l.search}</div>;
}
const flush = () => act(async () => new Promise((r) => setTimeout(r, 0)));
const open = async () => {
  await mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/principalCenter_lessonware']}>
        <Routes>
          <Route path="/principalCenter_lessonware" element={<SectionFiles sectionId={9} />} />
          <Route path="/pdf-viewer" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  await flush();
};
const button = (label: string, n = 0) =>
  [...document.querySelectorAll('button')].filter((b) => b.textContent?.replace(/\s/g, '') === label)[n] as HTMLButtonElement;

beforeEach(() => {
  usePreferences.setState({ lang: 'zh-CN' });
  http.get.mockReset();
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('a section’s files', { timeout: 60_000 }, () => {
  it('opens a PDF in the viewer with a URL signed now (coursewarePdf), not the list’s', async () => {
    http.get.mockImplementation(async (action: string) =>
      action === 'coursewareFile' ? [pdf, picture] : action === 'coursewarePdf' ? { ...pdf, url: '/api/courseware/file/f1?sig=fresh' } : null,
    );
    await open();
    await act(async () => button('查看').click());
    await flush();
    expect(http.get).toHaveBeenCalledWith('coursewarePdf', { section_id: 9, file_id: 1 });
    const where = document.querySelector('[data-testid="where"]')?.textContent ?? '';
    expect(new URLSearchParams(where.split('?')[1]).get('url')).toBe('/api/courseware/file/f1?sig=fresh');
  });

  it('shows a picture in the page through preview (a URL signed now)', async () => {
    http.get.mockImplementation(async (action: string) =>
      action === 'coursewareFile'
        ? [pdf, picture]
        : action === 'preview'
          ? { id: 'f2', name: '板书.jpg', mime: 'image/jpeg', kind: 'image', url: '/api/courseware/file/f2?sig=fresh', pages: 1, expires_at: null }
          : null,
    );
    await open();
    await act(async () => button('查看', 1).click());
    await flush();
    expect(http.get).toHaveBeenCalledWith('preview', { id: 'f2' });
    expect((document.querySelector('[data-testid="file-preview-image"]') as HTMLImageElement)?.getAttribute('src')).toBe(
      '/api/courseware/file/f2?sig=fresh',
    );
  });
});
