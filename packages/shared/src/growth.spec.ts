import { GROWTH_PERIODS, growthWindow } from './growth';

describe('growthWindow', () => {
  it.each([
    // a Wednesday: twelve weeks back from its Monday
    ['2026-11-25', 'week', '2026-09-07', '2026-11-23'],
    // a Monday is its own week's first day
    ['2026-11-23', 'week', '2026-09-07', '2026-11-23'],
    // a Sunday belongs to the week that began six days before
    ['2026-11-29', 'week', '2026-09-07', '2026-11-23'],
    // weeks across the new year
    ['2027-01-03', 'week', '2026-10-12', '2026-12-28'],
    ['2026-11-25', 'month', '2025-12-01', '2026-11-01'],
    // a month end: the months are whole calendar months, not day-clamped
    ['2026-03-31', 'month', '2025-04-01', '2026-03-01'],
    ['2024-02-29', 'month', '2023-03-01', '2024-02-01'],
  ] as const)('%s by %s starts %s, ends with the period %s', (today, group, from, lastPeriod) => {
    const w = growthWindow(today, group);
    expect(w.from).toBe(from);
    expect(w.to).toBe(today);
    expect(w.periods).toHaveLength(GROWTH_PERIODS[group]);
    expect(w.periods[0]).toBe(from);
    expect(w.periods.at(-1)).toBe(lastPeriod);
  });
});
