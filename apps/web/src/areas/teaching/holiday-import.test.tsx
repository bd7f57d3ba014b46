import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { HolidayImportPreview } from '@wantuo/shared';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePreferences } from '../../stores/preferences';
import { mount } from '../../test-utils';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
const success = vi.hoisted(() => vi.fn());
vi.mock('../../api/http', () => ({ get: http.get, post: http.post }));
vi.mock('../../api/feedback', () => ({ feedback: () => ({ message: { success, error: vi.fn(), info: vi.fn() } }) }));

const { default: HolidayImport, HolidayPreviewView, defaultHolidayYear } = await import('./holiday-import');

const YEARS = {
  list: [
    { year: 2025, notice: '国办发明电〔2024〕12号', issued: '2024-11-12', from_file: false },
    { year: 2026, notice: '国办发明电〔2025〕7号', issued: '2025-11-04', from_file: false },
    { year: 2027, notice: '国办发明电〔2026〕9号', issued: '2026-11-10', from_file: true },
  ],
};
/** holidayYears answers `years`, holidayImportPreview the preview */
const answer = (years: unknown) => (action: string) =>
  action === 'holidayYears' ? (years instanceof Error ? Promise.reject(years) : Promise.resolve(years)) : Promise.resolve(preview);
const open = async () => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const onImported = vi.fn();
  const el = await mount(
    <QueryClientProvider client={client}>
      <HolidayImport onImported={onImported} />
    </QueryClientProvider>,
  );
  await act(async () => (el.querySelector('[data-testid="holiday-import"]') as HTMLButtonElement).click());
  await flush(); // the years
  await flush(); // the preview of the year offered
  return onImported;
};

const preview: HolidayImportPreview = {
  year: 2026,
  notice: '国办发明电〔2025〕7号',
  issued: '2025-11-04',
  today: '2026-09-01',
  set: [
    { day: '2026-09-20', kind: 'makeup', works_as: 4, note: '国庆节调休' },
    { day: '2026-10-01', kind: 'holiday', works_as: null, note: '国庆节' },
  ],
  same: [{ day: '2026-09-25', kind: 'holiday', works_as: null, note: '中秋节' }],
  skipped: [{ day: '2026-10-10', kind: 'makeup', works_as: 3, note: '国庆节调休', own: { kind: 'makeup', works_as: 5 } }],
  sessions: [
    {
      id: 7,
      kind: 'teaching',
      class_id: 3,
      class_name: '奥数A班',
      day: '2026-10-01',
      start_time: '16:00',
      end_time: '17:00',
      teacher_name: '王老师',
    },
  ],
  makeup: [{ day: '2026-09-20', works_as: 4, classes: [{ kind: 'teaching', class_id: 3, class_name: '奥数A班' }], care_students: 12 }],
  makeup_sessions: [
    {
      kind: 'teaching',
      class_id: 3,
      class_name: '奥数A班',
      day: '2026-09-20',
      works_as: 4,
      from_day: '2026-09-17',
      start_time: '16:00',
      end_time: '17:00',
      teacher_name: '王老师',
    },
  ],
  bookings: { count: 1, list: [{ id: 9, day: '2026-10-01', student_id: 5, student_name: '李小明', status: 'booked', pay_from: 'wechat' }] },
  contracts: [{ id: 4, no: 'C001', student_id: 5, student_name: '李小明', start_day: '2026-09-01', end_day: '2026-12-31', closed_days: 7 }],
  fingerprint: '0123456789abcdef',
};

const flush = () => act(async () => new Promise((r) => setTimeout(r, 0)));
const text = (el: Element, id: string) => el.querySelector(`[data-testid="${id}"]`)?.textContent ?? '';

beforeEach(() => {
  usePreferences.setState({ lang: 'zh-CN' });
  http.get.mockReset();
  http.post.mockReset();
  success.mockReset();
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('导入法定节假日', () => {
  it('renders the preview: days to set, own days kept, sessions, bookings, make-up days and contracts with counts', async () => {
    const el = await mount(<HolidayPreviewView p={preview} />);
    const all = el.textContent ?? '';
    expect(all).toContain('国办发明电〔2025〕7号');
    expect(all).toContain('将写入校历的日期（2）');
    expect(all).toContain('本校已自行设置、保持不变的日期（1）');
    expect(all).toContain('将取消的课次（1）');
    expect(all).toContain('将取消的订餐（1）');
    expect(all).toContain('涉及的按天合同（1）');
    expect(all).toContain('已与通知一致的日期：1 天');
    expect(text(el, 'holiday-skipped')).toContain('本校：调休上课（按周五）');
    expect(text(el, 'holiday-sessions')).toContain('奥数A班');
    expect(text(el, 'holiday-sessions')).toContain('16:00-17:00');
    expect(text(el, 'holiday-bookings')).toContain('李小明');
    expect(all).toContain('将新增的调休课次（1）');
    expect(text(el, 'holiday-makeup-sessions')).toContain('2026-09-2016:00-17:00奥数A班王老师同 2026-09-17');
  });

  it('says there is nothing to import when every day is already set', async () => {
    const el = await mount(
      <HolidayPreviewView
        p={{ ...preview, set: [], sessions: [], bookings: { count: 0, list: [] }, makeup: [], makeup_sessions: [], contracts: [] }}
      />,
    );
    expect(text(el, 'holiday-nothing')).toContain('无需导入');
  });

  it.each([
    [[2025, 2026, 2027], '2026-11-27', 2027],
    [[2025, 2026], '2026-11-27', 2026],
    [[2025], '2026-11-27', 2025],
    [[], '2026-11-27', undefined],
  ])('offers first, of %o on %s, %s', (years, today, want) => {
    expect(defaultHolidayYear(years, today)).toBe(want);
  });

  it('picks from the API’s years (holidayYears), a year of the file marked', async () => {
    http.get.mockImplementation(answer(YEARS));
    await open();
    expect(http.get).toHaveBeenCalledWith('holidayYears');
    expect(http.get).toHaveBeenCalledWith('holidayImportPreview', { year: expect.any(Number) });
    const picked = document.querySelector('[data-testid="holiday-year"]')?.textContent ?? '';
    expect(['2025', '2026', '2027（配置文件）']).toContain(picked);
  });

  it('says when there is no year, and shows an error with a retry when the years do not load', async () => {
    http.get.mockImplementation(answer({ list: [] }));
    await open();
    expect(document.body.textContent).toContain('暂无可导入的年份');
    expect(http.get).not.toHaveBeenCalledWith('holidayImportPreview', expect.anything());
    document.body.innerHTML = '';
    http.get.mockReset();
    http.get.mockImplementation(answer(new Error('down')));
    await open();
    expect(http.get).not.toHaveBeenCalledWith('holidayImportPreview', expect.anything());
    expect(document.querySelector('[data-testid="holiday-import-confirm"]')).toBeNull();
  });

  it('opens, previews the year and imports with the preview’s fingerprint', async () => {
    http.get.mockImplementation(answer(YEARS));
    http.post.mockResolvedValue({ year: 2026, set: 2, same: 1, skipped: 1, sessions_cancelled: 1, sessions_created: 1, bookings_cancelled: 1 });
    const onImported = await open();
    expect(http.get).toHaveBeenCalledWith('holidayImportPreview', { year: expect.any(Number) });
    const confirm = document.querySelector('[data-testid="holiday-import-confirm"]') as HTMLButtonElement;
    expect(confirm.disabled).toBe(false);
    await act(async () => confirm.click());
    await flush();
    expect(http.post).toHaveBeenCalledWith('importHolidays', { year: expect.any(Number), fingerprint: '0123456789abcdef' });
    expect(onImported).toHaveBeenCalled();
    expect(success).toHaveBeenCalledWith('已导入：写入 2 天，取消课次 1 个、订餐 1 份，新增调休课次 1 个');
  });
});
