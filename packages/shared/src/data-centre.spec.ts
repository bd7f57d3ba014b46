import { dataRangeOk, periodLabel, periodOf, periodsBetween } from './data-centre';

describe('periodOf', () => {
  it.each([
    ['2026-11-23', 'day', '2026-11-23'],
    ['2026-11-23', 'week', '2026-11-23'], // a Monday
    ['2026-11-29', 'week', '2026-11-23'], // its Sunday
    ['2026-11-30', 'week', '2026-11-30'],
    ['2027-01-01', 'week', '2026-12-28'], // a week across the new year
    ['2026-11-23', 'month', '2026-11-01'],
    ['2024-02-29', 'month', '2024-02-01'],
  ] as const)('%s by %s is %s', (day, group, expected) => expect(periodOf(day, group)).toBe(expected));
});

describe('periodsBetween', () => {
  it.each([
    ['2026-11-20', '2026-11-23', 'day', ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23']],
    ['2026-11-25', '2026-12-08', 'week', ['2026-11-23', '2026-11-30', '2026-12-07']],
    ['2026-11-23', '2026-11-23', 'week', ['2026-11-23']],
    ['2026-10-31', '2027-01-01', 'month', ['2026-10-01', '2026-11-01', '2026-12-01', '2027-01-01']],
  ] as const)('%s..%s by %s', (from, to, group, expected) => expect(periodsBetween(from, to, group)).toEqual(expected));
});

describe('dataRangeOk', () => {
  it.each([
    ['62 days by day', '2026-01-01', '2026-03-03', 'day', true],
    ['63 days by day', '2026-01-01', '2026-03-04', 'day', false],
    ['half a year by week', '2026-06-01', '2026-11-29', 'week', true],
    ['a year by week', '2025-11-24', '2026-11-23', 'week', false],
    ['a year by month', '2025-11-23', '2026-11-23', 'month', true],
    ['two years by month', '2024-11-23', '2026-11-23', 'month', false],
    ['reversed', '2026-11-23', '2026-11-22', 'day', false],
  ] as const)('%s', (_, from, to, group, ok) => expect(dataRangeOk(from, to, group)).toBe(ok));
});

describe('periodLabel', () => {
  it('shows month-day for days and weeks, year-month for months', () => {
    expect(periodLabel('2026-11-23', 'day')).toBe('11-23');
    expect(periodLabel('2026-11-23', 'week')).toBe('11-23');
    expect(periodLabel('2026-11-01', 'month')).toBe('2026-11');
  });
});
