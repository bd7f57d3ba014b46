import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { COMMENT_PHOTOS_MAX, type DailyReport } from '@wantuo/shared';
import { act } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { usePreferences } from '../../stores/preferences';
import { mount } from '../../test-utils';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), upload: vi.fn() }));
const info = vi.hoisted(() => vi.fn());
vi.mock('../../api/http', () => ({ get: http.get, post: http.post, upload: http.upload }));
vi.mock('../../api/feedback', () => ({ feedback: () => ({ message: { success: vi.fn(), error: vi.fn(), info } }) }));

const { default: CommentPicker } = await import('./comment-picker');
const { ReportView } = await import('./parent-report');

const report = (photos: string[]): DailyReport => ({
  student_id: 5,
  student_name: '李小明',
  day: '2026-09-01',
  class_name: '一班',
  state: 'left',
  on_leave: false,
  picked_up_at: null,
  arrived_at: null,
  arrived_by_name: null,
  dinner_at: null,
  tutor_started_at: null,
  tutor_ended_at: null,
  left_at: null,
  left_by_name: null,
  pickup: null,
  homework: [],
  points: 0,
  points_entries: [],
  comment: { presets: ['focused'], text: '很好', photos, author_name: '王老师', at: '2026-09-01T10:00:00.000Z', version: 2 },
  sent_at: null,
  lacks: [],
});

const flush = () => act(async () => new Promise((r) => setTimeout(r, 0)));
const all = (id: string) => [...document.querySelectorAll(`[data-testid="${id}"]`)];
const wrap = (node: React.ReactNode) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    <MemoryRouter>{node}</MemoryRouter>
  </QueryClientProvider>
);
const choose = async (files: File[]) => {
  const input = document.querySelector('[data-testid="comment-photo-file"]') as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  await act(async () => input.dispatchEvent(new Event('change', { bubbles: true })));
  await flush();
};
const image = (name: string) => new File(['x'], name, { type: 'image/jpeg' });

beforeEach(() => {
  document.body.innerHTML = '';
  usePreferences.setState({ lang: 'zh-CN' });
  http.get.mockReset();
  http.post.mockReset();
  http.upload.mockReset();
  info.mockReset();
});

describe('the quick-comment picker: photos taken during tutoring', () => {
  it('a phone camera input; uploads, shows thumbnails with remove, saves them in photos', async () => {
    http.get.mockResolvedValue(report(['/uploads/a.jpg']));
    let n = 0;
    http.upload.mockImplementation(async () => ({ url: `/uploads/new${++n}.jpg` }));
    http.post.mockResolvedValue({});
    const onClose = vi.fn();
    await mount(wrap(<CommentPicker studentId={5} studentName="李小明" day="2026-09-01" onClose={onClose} />));
    await flush();
    const input = document.querySelector('[data-testid="comment-photo-file"]') as HTMLInputElement;
    expect(input.accept).toBe('image/*');
    expect(input.getAttribute('capture')).toBe('environment');
    expect(all('comment-photo')).toHaveLength(1);

    await choose([image('1.jpg'), image('2.jpg')]);
    expect(http.upload).toHaveBeenCalledTimes(2);
    expect(http.upload.mock.calls[0][0]).toBe('upload');
    expect(all('comment-photo').map((e) => e.querySelector('img')!.getAttribute('src'))).toEqual([
      '/uploads/a.jpg',
      '/uploads/new1.jpg',
      '/uploads/new2.jpg',
    ]);
    await act(async () => (all('comment-photo-remove')[0] as HTMLButtonElement).click());
    expect(all('comment-photo')).toHaveLength(2);

    await act(async () => (document.querySelector('[data-testid="comment-save"]') as HTMLButtonElement).click());
    await flush();
    expect(http.post).toHaveBeenCalledWith(
      'saveDailyComment',
      expect.objectContaining({ student_id: 5, day: '2026-09-01', photos: ['/uploads/new1.jpg', '/uploads/new2.jpg'], version: 2 }),
    );
    expect(onClose).toHaveBeenCalled();
  });

  it(`at most ${COMMENT_PHOTOS_MAX}: the rest (and files that are not images) are not uploaded, the button is off when full`, async () => {
    http.get.mockResolvedValue(report(Array.from({ length: COMMENT_PHOTOS_MAX - 1 }, (_, i) => `/uploads/${i}.jpg`)));
    http.upload.mockResolvedValue({ url: '/uploads/last.jpg' });
    await mount(wrap(<CommentPicker studentId={5} studentName="李小明" day="2026-09-01" onClose={vi.fn()} />));
    await flush();
    await choose([new File(['x'], 'a.pdf', { type: 'application/pdf' }), image('1.jpg'), image('2.jpg')]);
    expect(http.upload).toHaveBeenCalledTimes(1);
    expect(info).toHaveBeenCalled();
    expect(all('comment-photo')).toHaveLength(COMMENT_PHOTOS_MAX);
    expect((document.querySelector('[data-testid="comment-photo-add"]') as HTMLButtonElement).disabled).toBe(true);
  });

  it("the parent's report shows the comment's photos", async () => {
    await mount(wrap(<ReportView r={report(['/uploads/a.jpg', '/uploads/b.jpg'])} />));
    expect(all('report-comment-photo').map((e) => (e.tagName === 'IMG' ? e : e.querySelector('img'))!.getAttribute('src'))).toEqual([
      '/uploads/a.jpg',
      '/uploads/b.jpg',
    ]);
  });
});
