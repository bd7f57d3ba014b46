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

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const word = row({ id: 3, kind: 'other', file_id: 'f3', name: '教案.docx', mime: DOCX, pages: null, url: '/api/courseware/file/f3?sig=listed' });
const sheet = row({ id: 4, kind: 'other', file_id: 'f4', name: '成绩.xlsx', mime: XLSX, pages: null, url: '/api/courseware/file/f4?sig=listed' });
const oldWord = row({
  id: 5,
  kind: 'other',
  file_id: 'f5',
  name: '旧教案.doc',
  mime: 'application/msword',
  pages: null,
  url: '/api/courseware/file/f5?sig=listed',
});
const answer = (f: CoursewareFileRow, over: Record<string, unknown>) => ({
  id: f.file_id,
  name: f.name,
  mime: f.mime,
  kind: 'html',
  url: `/api/courseware/file/${f.file_id}?sig=fresh`,
  pages: 1,
  html: null,
  truncated: false,
  expires_at: null,
  ...over,
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

  it('shows a .docx in a dialog through preview: loading, then its converted content; a legacy .doc stays a download', async () => {
    let answerNow: (v: unknown) => void = () => undefined;
    http.get.mockImplementation(async (action: string) =>
      action === 'coursewareFile' ? [word, oldWord] : action === 'preview' ? new Promise((r) => (answerNow = r)) : null,
    );
    await open();
    const download = [...document.querySelectorAll('a')].find((a) => a.textContent?.replace(/\s/g, '') === '下载');
    expect(download?.getAttribute('href')).toBe('/api/courseware/file/f5?sig=listed'); // the .doc
    expect(document.body.textContent).toContain('该类型文件不支持在线预览');
    await act(async () => button('查看').click());
    await flush();
    expect(http.get).toHaveBeenCalledWith('preview', { id: 'f3' });
    expect(document.querySelector('.ant-modal [role="status"]')).toBeTruthy();
    await act(async () => answerNow(answer(word, { html: '<h1>春游安排</h1><p>九点集合</p>' })));
    await flush();
    const content = document.querySelector('[data-testid="office-preview"]');
    expect(content?.querySelector('h1')?.textContent).toBe('春游安排');
    expect(document.querySelector('.ant-modal [role="status"]')).toBeNull();
    expect((document.querySelector('.ant-modal-footer a') as HTMLAnchorElement).getAttribute('href')).toBe('/api/courseware/file/f3?sig=fresh');
  });

  it('says how much of a workbook is shown, in English too', async () => {
    usePreferences.setState({ lang: 'en' });
    http.get.mockImplementation(async (action: string) =>
      action === 'coursewareFile'
        ? [sheet]
        : action === 'preview'
          ? answer(sheet, { pages: 7, truncated: true, html: '<table><tbody><tr><td>r1</td></tr></tbody></table>' })
          : null,
    );
    await open();
    await act(async () => button('View').click());
    await flush();
    const modal = document.querySelector('.ant-modal')?.textContent ?? '';
    expect(modal).toContain('7 sheets');
    expect(modal).toContain('Only the first 5 sheets, 200 rows and 30 columns of each are shown');
    expect(document.querySelector('[data-testid="office-preview"] td')?.textContent).toBe('r1');
  });

  it('shows the refusal with a retry, and an empty state for a file with nothing to show', async () => {
    let fail = true;
    http.get.mockImplementation(async (action: string) => {
      if (action === 'coursewareFile') return [word];
      if (action !== 'preview') return null;
      if (fail) throw new Error('文件已损坏或格式不正确，无法预览');
      return answer(word, { html: '' });
    });
    await open();
    await act(async () => button('查看').click());
    await flush();
    expect(document.querySelector('.ant-modal')?.textContent).toContain('文件已损坏或格式不正确，无法预览');
    fail = false;
    await act(async () => button('重试').click());
    await flush();
    expect(document.querySelector('.ant-modal')?.textContent).toContain('该文件没有可显示的内容');
  });
});
