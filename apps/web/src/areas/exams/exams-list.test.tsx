import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Role } from '@wantuo/shared';
import { act } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePreferences } from '../../stores/preferences';
import { useSession } from '../../stores/session';
import { mount } from '../../test-utils';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), postRead: vi.fn() }));
vi.mock('../../api/http', () => ({ get: http.get, post: http.post, postRead: http.postRead }));
vi.mock('../../api/feedback', () => ({ feedback: () => ({ message: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }) }));

const { default: ExamsList } = await import('./exams-list');

const exam = {
  id: 7,
  name: '期中测验',
  subject: '语文',
  exam_day: '2026-11-10',
  full_mark: 100,
  pass_mark: 60,
  classes: [{ id: 1, name: '阳光一班' }],
  scored: 0,
  absent: 0,
  average: null,
  published_at: null,
  version: 1,
};
const page = (list: unknown[]) => ({ list, total: list.length, page: 1, limit: 20 });
const flush = () => act(async () => new Promise((r) => setTimeout(r, 0)));
const open = async (path: string) => {
  await mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <ExamsList />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  await flush();
  await flush();
};
/** opens the select `testid` and picks the option labelled `label` */
const pick = async (testid: string, label: string) => {
  const select = document.querySelector(`[data-testid="${testid}"]`)!;
  await act(async () =>
    select.querySelector('.ant-select-selector, .ant-select-content, input')!.dispatchEvent(new MouseEvent('mousedown', { bubbles: true })),
  );
  await flush();
  const option = [...document.querySelectorAll('.ant-select-item-option')].find((o) => o.textContent === label) as HTMLElement;
  await act(async () => option.click());
  await flush();
};

const as = (role: number) => useSession.setState({ user: { id: 1, role, name: 'x', nickname: 'x' } as never, token: 't' });
beforeEach(() => {
  usePreferences.setState({ lang: 'zh-CN' });
  for (const f of Object.values(http)) f.mockReset();
  http.get.mockImplementation(async (action: string) =>
    action === 'classList'
      ? page([
          { id: 1, name: '阳光一班' },
          { id: 2, name: '星星二班' },
        ])
      : action === 'teacherWantuoInfo'
        ? { classes: [{ id: 1, name: '阳光一班' }] }
        : page([exam]),
  );
  http.postRead.mockResolvedValue(page([exam]));
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('考试列表 filters', { timeout: 60_000 }, () => {
  it('the admin filters by several classes and subjects at once (POST studentExamList)', async () => {
    as(Role.Admin);
    await open('/principal_exams');
    expect(http.postRead).toHaveBeenLastCalledWith('studentExamList', { page: 1, limit: 20 });
    await pick('exam-filter-subject', '语文');
    await pick('exam-filter-subject', '数学');
    await pick('exam-filter-class', '阳光一班');
    await pick('exam-filter-class', '星星二班');
    expect(http.postRead).toHaveBeenLastCalledWith('studentExamList', { page: 1, limit: 20, subjects: ['语文', '数学'], class_ids: [1, 2] });
    expect(http.get).not.toHaveBeenCalledWith('studentExamList', expect.anything());
    expect(document.body.textContent).toContain('期中测验');
  });

  it('shows an error with a retry when the list does not load', async () => {
    as(Role.Admin);
    http.postRead.mockRejectedValue(new Error('down'));
    await open('/principal_exams');
    expect(document.body.textContent).toContain('加载失败');
  });

  it('a teacher filters own exams by one class and subject (GET teacherStudentExamList)', async () => {
    as(Role.Teacher);
    await open('/teacher_exams');
    await pick('exam-filter-class', '阳光一班');
    await pick('exam-filter-subject', '数学');
    expect(http.get).toHaveBeenLastCalledWith('teacherStudentExamList', { page: 1, limit: 20, subject: '数学', class_id: 1 });
    expect(http.postRead).not.toHaveBeenCalled();
  });
});
