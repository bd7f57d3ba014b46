import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { TeachingSession } from '@wantuo/shared';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePreferences } from '../../stores/preferences';
import { mount } from '../../test-utils';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('../../api/http', () => ({ get: http.get, post: http.post }));
vi.mock('../../api/feedback', () => ({ feedback: () => ({ message: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }) }));
vi.mock('../../lib/school-time', async (orig) => ({ ...(await orig<object>()), useSchoolToday: () => '2026-12-07' }));

const { default: RollCallPage } = await import('./roll-call');

const cls = { id: 3, name: '奥数A班', subject: '数学', room_name: '101', students: 8, sessions_count: 20, sessions_held: 5, status: 1 };
const lesson = (over: Partial<TeachingSession>): TeachingSession => ({
  id: 11,
  class_id: 3,
  lesson_no: 5,
  day: '2026-12-01',
  weekday: 2,
  start_time: '16:00',
  end_time: '17:00',
  teacher_id: 2,
  teacher_name: '王老师',
  room_id: 1,
  room_name: '101',
  state: 'held',
  cancel_reason: null,
  version: 1,
  roll_call: { present: 7, late: 1, absent: 0, leave: 0 },
  ...over,
});
const past = lesson({});
const later = lesson({ id: 12, lesson_no: 6, day: '2026-12-14', state: 'planned', roll_call: null });
const flush = () => act(async () => new Promise((r) => setTimeout(r, 0)));
const open = async () => {
  await mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RollCallPage />
    </QueryClientProvider>,
  );
  await flush();
  await flush();
};
const lessons = () => document.querySelector('[data-testid="class-lessons"]');
const answer = (section: unknown) => async (action: string) => {
  if (action === 'teachManage') return { classes: [cls], next_sessions: [], homework_to_mark: 0 };
  if (action === 'teachingClassSection') {
    if (section instanceof Error) throw section;
    return section;
  }
  if (action === 'rollCall') return { session: past, students: [] };
  return null;
};

beforeEach(() => {
  usePreferences.setState({ lang: 'zh-CN' });
  http.get.mockReset();
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('课堂点名: every lesson of a class (teachingClassSection)', { timeout: 60_000 }, () => {
  it('lists the class’s lessons; a past one can be called (or corrected), a later one not', async () => {
    http.get.mockImplementation(answer({ list: [past, later], total: 2, page: 1, limit: 10 }));
    await open();
    expect(http.get).toHaveBeenCalledWith('teachingClassSection', { class_id: 3, page: 1, limit: 10 });
    const rows = [...(lessons()?.querySelectorAll('[data-testid="class-lesson"]') ?? [])];
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringContaining('第 5 课'), expect.stringContaining('第 6 课')]);
    expect(rows[0].textContent).toContain('2026-12-01 16:00-17:00');
    expect(rows[0].textContent).toContain('到 7 · 迟到 1');
    expect(rows[1].querySelector('button')).toBeNull();
    await act(async () => (rows[0].querySelector('button') as HTMLButtonElement).click());
    await flush();
    expect(http.get).toHaveBeenCalledWith('rollCall', { session_id: 11 });
  });

  it('says when the class has no lesson, and shows an error with a retry', async () => {
    http.get.mockImplementation(answer({ list: [], total: 0, page: 1, limit: 10 }));
    await open();
    expect(lessons()?.textContent).toContain('这个班还没有排课');
    document.body.innerHTML = '';
    http.get.mockImplementation(answer(new Error('down')));
    await open();
    expect(lessons()?.textContent).toContain('加载失败');
  });
});
