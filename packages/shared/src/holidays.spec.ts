import { conventionalWorksAs, holidayPlan, holidayYears, NATIONAL_HOLIDAYS, nationalDays } from './holidays';
import { calendarDayProblem, weekdayOf } from './schedule';

const lines = Object.values(NATIONAL_HOLIDAYS).flatMap((y) => y.festivals.map((f) => ({ year: y.year, ...f })));
const makeups = lines.flatMap((f) => f.makeup.map((m) => ({ year: f.year, festival: f, ...m })));

describe('the table', () => {
  it('holds 2025 and 2026, and no guessed 2027', () => {
    expect(holidayYears()).toEqual([2025, 2026]);
    expect(NATIONAL_HOLIDAYS[2027]).toBeUndefined();
    expect(nationalDays(2027)).toBeNull();
    expect(holidayPlan(2027, [])).toBeNull();
  });

  it.each([
    [2025, '国办发明电〔2024〕12号', '2024-11-12'],
    [2026, '国办发明电〔2025〕7号', '2025-11-04'],
  ])('%i cites its notice', (year, notice, issued) => {
    expect(NATIONAL_HOLIDAYS[year]).toMatchObject({ year, notice, issued });
  });

  it.each(lines.map((f) => [f.year, f.name, f]))('%i %s: days of its year, from <= to', (year, _name, f) => {
    expect(f.from <= f.to).toBe(true);
    for (const d of [f.from, f.to, ...f.makeup.map((m) => m.day)]) expect(d.slice(0, 4)).toBe(String(year));
  });

  it.each(makeups.map((m) => [m.day, m.festival.name, m]))('%s (%s) is a weekend day running a weekday, the one it pays back', (_d, _n, m) => {
    expect(weekdayOf(m.day)).toBeGreaterThanOrEqual(6);
    expect(m.works_as).toBeGreaterThanOrEqual(1);
    expect(m.works_as).toBeLessThanOrEqual(5);
    expect(m.works_as).toBe(conventionalWorksAs(m.festival, m.day));
    expect(calendarDayProblem({ day: m.day, kind: 'makeup', works_as: m.works_as })).toBeNull();
    // a make-up day is never one of the closed days
    expect(m.day < m.festival.from || m.day > m.festival.to).toBe(true);
  });

  it.each([
    // 2026, 国办发明电〔2025〕7号
    ['2026-01-01', 'holiday', null],
    ['2026-01-03', 'holiday', null],
    ['2026-01-04', 'makeup', 5],
    ['2026-02-14', 'makeup', 1],
    ['2026-02-15', 'holiday', null],
    ['2026-02-23', 'holiday', null],
    ['2026-02-28', 'makeup', 1],
    ['2026-04-06', 'holiday', null],
    ['2026-05-05', 'holiday', null],
    ['2026-05-09', 'makeup', 2],
    ['2026-06-19', 'holiday', null],
    ['2026-09-20', 'makeup', 4],
    ['2026-09-27', 'holiday', null],
    ['2026-10-07', 'holiday', null],
    ['2026-10-10', 'makeup', 3],
    // 2025, 国办发明电〔2024〕12号
    ['2025-01-01', 'holiday', null],
    ['2025-01-26', 'makeup', 2],
    ['2025-02-04', 'holiday', null],
    ['2025-02-08', 'makeup', 2],
    ['2025-04-27', 'makeup', 4],
    ['2025-06-02', 'holiday', null],
    ['2025-09-28', 'makeup', 3],
    ['2025-10-08', 'holiday', null],
    ['2025-10-11', 'makeup', 3],
  ])('%s is %s (works as %s)', (day, kind, works_as) => {
    const d = nationalDays(Number(day.slice(0, 4)))!.find((x) => x.day === day);
    expect(d).toMatchObject({ kind, works_as });
  });

  it.each([
    [2025, 1 + 8 + 3 + 5 + 3 + 8, 5],
    [2026, 3 + 9 + 3 + 5 + 3 + 3 + 7, 6],
  ])('%i: %i closed days and %i make-up days, in day order, none twice', (year, closed, made) => {
    const days = nationalDays(year)!;
    expect(days.filter((d) => d.kind === 'holiday')).toHaveLength(closed);
    expect(days.filter((d) => d.kind === 'makeup')).toHaveLength(made);
    expect(days.map((d) => d.day)).toEqual([...new Set(days.map((d) => d.day))].sort());
  });

  it('names the festival in the note of its days', () => {
    const days = nationalDays(2026)!;
    expect(days.find((d) => d.day === '2026-02-16')?.note).toBe('春节');
    expect(days.find((d) => d.day === '2026-02-14')?.note).toBe('春节调休');
  });
});

describe('conventionalWorksAs', () => {
  it.each([
    [{ from: '2026-10-01', to: '2026-10-07' }, '2026-09-20', 4],
    [{ from: '2026-10-01', to: '2026-10-07' }, '2026-10-10', 3],
    [{ from: '2026-02-15', to: '2026-02-23' }, '2026-02-28', 1],
    [{ from: '2026-04-04', to: '2026-04-05' }, '2026-04-11', null], // Saturday and Sunday: no workday closed
  ])('%o, %s -> %s', (f, day, want) => {
    expect(conventionalWorksAs(f, day)).toBe(want);
  });
});

describe('holidayPlan', () => {
  it('on an empty calendar sets every day', () => {
    const p = holidayPlan(2026, [])!;
    expect(p).toMatchObject({ year: 2026, notice: '国办发明电〔2025〕7号', same: [], skipped: [] });
    expect(p.set).toEqual(nationalDays(2026));
  });

  it.each([
    ['the same holiday', { day: '2026-10-01', kind: 'holiday' as const, works_as: null }, 'same'],
    ['the same make-up day', { day: '2026-10-10', kind: 'makeup' as const, works_as: 3 }, 'same'],
    ['another works_as', { day: '2026-10-10', kind: 'makeup' as const, works_as: 5 }, 'skipped'],
    ['a make-up day on a closed day', { day: '2026-10-03', kind: 'makeup' as const, works_as: 1 }, 'skipped'],
    ['a holiday on a make-up day', { day: '2026-09-20', kind: 'holiday' as const, works_as: null }, 'skipped'],
  ])('the school’s own day wins: %s -> %s', (_what, own, where) => {
    const p = holidayPlan(2026, [own, { day: '2026-12-24', kind: 'holiday', works_as: null }])!;
    const key = where as 'same' | 'skipped';
    expect(p[key].map((d) => d.day)).toEqual([own.day]);
    expect(p.set.map((d) => d.day)).not.toContain(own.day);
    expect(p.set).toHaveLength(nationalDays(2026)!.length - 1);
    if (key === 'skipped') expect(p.skipped[0].own).toEqual({ kind: own.kind, works_as: own.works_as });
  });

  it('a second import sets nothing', () => {
    const first = holidayPlan(2025, [])!;
    const again = holidayPlan(2025, first.set)!;
    expect(again.set).toEqual([]);
    expect(again.skipped).toEqual([]);
    expect(again.same).toHaveLength(first.set.length);
  });
});
