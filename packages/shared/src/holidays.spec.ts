import {
  conventionalWorksAs,
  HolidayFileSchema,
  holidayPlan,
  holidayYears,
  HolidayYearSchema,
  mergeHolidayYears,
  NATIONAL_HOLIDAYS,
  nationalDays,
  type HolidayYear,
} from './holidays';
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

/** A year as a file would hold it: 2030's test festival, Monday 2030-03-04 and Tuesday closed, Saturday 03-09 runs as Tuesday. */
const FILE_YEAR: HolidayYear = {
  year: 2030,
  notice: '测试通知〔2029〕1号',
  issued: '2029-11-01',
  festivals: [
    { name: '元旦', from: '2030-01-01', to: '2030-01-01', makeup: [] },
    { name: '测试节', from: '2030-03-04', to: '2030-03-05', makeup: [{ day: '2030-03-09', works_as: 2 }] },
  ],
};
const withFestival = (f: Partial<HolidayYear['festivals'][number]>, i = 1) => ({
  ...FILE_YEAR,
  festivals: FILE_YEAR.festivals.map((x, j) => (j === i ? { ...x, ...f } : x)),
});

describe('HolidayYearSchema (a NATIONAL_HOLIDAYS_FILE year)', () => {
  it.each(holidayYears())('the built-in %i passes it', (year) => {
    expect(HolidayYearSchema.safeParse(NATIONAL_HOLIDAYS[year]).success).toBe(true);
  });

  it('takes a well-formed year as it is', () => {
    expect(HolidayYearSchema.parse(FILE_YEAR)).toEqual(FILE_YEAR);
  });

  it.each([
    ['a make-up day on a weekday', withFestival({ makeup: [{ day: '2030-03-08', works_as: 2 }] }), 'is not a Saturday or Sunday'],
    ['works_as 6', withFestival({ makeup: [{ day: '2030-03-09', works_as: 6 as 1 }] }), 'works_as is a weekday'],
    ['works_as 0', withFestival({ makeup: [{ day: '2030-03-09', works_as: 0 as 1 }] }), 'works_as is a weekday'],
    ['a make-up day on a closed day', withFestival({ from: '2030-03-04', to: '2030-03-10' }), 'is a closed day of 测试节'],
    [
      'a make-up day listed twice',
      withFestival({
        makeup: [
          { day: '2030-03-09', works_as: 2 },
          { day: '2030-03-09', works_as: 1 },
        ],
      }),
      'already one of',
    ],
    ['a closed day twice', withFestival({ from: '2030-01-01', to: '2030-01-02' }), '2030-01-01 is already closed by 元旦'],
    ['a closed day in another year', withFestival({ from: '2029-12-31', to: '2030-01-02' }, 0), 'is not inside 2030'],
    ['a make-up day in another year', withFestival({ makeup: [{ day: '2031-03-08', works_as: 2 }] }), 'is not inside 2030'],
    ['from after to', withFestival({ from: '2030-03-05', to: '2030-03-04' }), 'is after to'],
    ['a day that does not exist', withFestival({ to: '2030-02-30' }), 'not a YYYY-MM-DD day'],
    ['no notice', { ...FILE_YEAR, notice: '' }, 'notice'],
    ['no festival', { ...FILE_YEAR, festivals: [] }, 'festivals'],
    ['a year out of range', { ...FILE_YEAR, year: 1999 }, 'year'],
    ['an unknown field', { ...FILE_YEAR, source: 'x' }, 'source'],
  ])('refuses %s', (_what, y, says) => {
    const r = HolidayYearSchema.safeParse(y);
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error!.issues)).toContain(says);
  });
});

describe('HolidayFileSchema and mergeHolidayYears', () => {
  it('a file is an array of years, each once', () => {
    expect(HolidayFileSchema.safeParse([FILE_YEAR]).success).toBe(true);
    expect(HolidayFileSchema.safeParse([]).success).toBe(true);
    expect(HolidayFileSchema.safeParse(FILE_YEAR).success).toBe(false);
    expect(JSON.stringify(HolidayFileSchema.safeParse([FILE_YEAR, FILE_YEAR]).error!.issues)).toContain('2030 is in the file twice');
  });

  it('adds a year, and a year of the file replaces the built-in one; the built-in table is left as it is', () => {
    const mine2026: HolidayYear = { ...FILE_YEAR, year: 2026, festivals: [{ name: '元旦', from: '2026-01-01', to: '2026-01-01', makeup: [] }] };
    const t = mergeHolidayYears(NATIONAL_HOLIDAYS, [FILE_YEAR, mine2026]);
    expect(holidayYears(t)).toEqual([2025, 2026, 2030]);
    expect(t[2026]).toBe(mine2026);
    expect(t[2025]).toBe(NATIONAL_HOLIDAYS[2025]);
    expect(holidayYears()).toEqual([2025, 2026]);
    expect(NATIONAL_HOLIDAYS[2026].notice).toBe('国办发明电〔2025〕7号');
  });

  it('nationalDays and holidayPlan read the table given', () => {
    const t = mergeHolidayYears(NATIONAL_HOLIDAYS, [FILE_YEAR]);
    expect(nationalDays(2030)).toBeNull();
    expect(nationalDays(2030, t)).toEqual([
      { day: '2030-01-01', kind: 'holiday', works_as: null, note: '元旦' },
      { day: '2030-03-04', kind: 'holiday', works_as: null, note: '测试节' },
      { day: '2030-03-05', kind: 'holiday', works_as: null, note: '测试节' },
      { day: '2030-03-09', kind: 'makeup', works_as: 2, note: '测试节调休' },
    ]);
    expect(holidayPlan(2030, [], t)).toMatchObject({ year: 2030, notice: '测试通知〔2029〕1号', issued: '2029-11-01', same: [], skipped: [] });
    expect(holidayPlan(2030, [])).toBeNull();
  });
});
