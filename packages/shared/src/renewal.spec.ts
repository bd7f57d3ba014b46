import { addMonths, daysLeft, reminderDue, renewedUntil, serviceState } from './renewal';

const at = (iso: string) => new Date(iso);
const NOW = at('2026-11-23T08:00:00Z');

describe('renewal rules', () => {
  it.each([
    ['no expiry set', null, 'active'],
    ['a year ahead', '2027-11-23T08:00:00Z', 'active'],
    ['31 days ahead', '2026-12-24T08:00:00Z', 'active'],
    ['30 days ahead', '2026-12-23T08:00:00Z', 'expiring'],
    ['one minute ahead', '2026-11-23T08:01:00Z', 'expiring'],
    ['just expired', '2026-11-23T08:00:00Z', 'grace'],
    ['expired 6 days 23 h ago', '2026-11-16T09:00:00Z', 'grace'],
    ['expired 7 days ago', '2026-11-16T08:00:00Z', 'read_only'],
    ['expired a year ago', '2025-11-23T08:00:00Z', 'read_only'],
  ] as const)('%s → %s', (_, expires, state) => {
    expect(serviceState(expires, NOW)).toBe(state);
  });

  it.each([
    ['2026-01-31T00:00:00Z', 1, '2026-02-28T00:00:00.000Z'],
    ['2027-08-31T00:00:00Z', 6, '2028-02-29T00:00:00.000Z'],
    ['2026-11-23T08:00:00Z', 12, '2027-11-23T08:00:00.000Z'],
    ['2026-07-15T16:00:00Z', 6, '2027-01-15T16:00:00.000Z'],
  ])('addMonths(%s, %i) = %s', (from, months, to) => {
    expect(addMonths(at(from), months).toISOString()).toBe(to);
  });

  it.each([
    ['from the current expiry when it is later', '2027-01-01T00:00:00Z', 'term', '2027-07-01T00:00:00.000Z'],
    ['from now when it has expired', '2026-10-01T00:00:00Z', 'year', '2027-11-23T08:00:00.000Z'],
    ['from now when there is none', null, 'term', '2027-05-23T08:00:00.000Z'],
  ] as const)('renewedUntil %s', (_, expires, period, until) => {
    expect(renewedUntil(expires, period, NOW).toISOString()).toBe(until);
  });

  it.each([
    ['40 days ahead', '2027-01-02T08:00:00Z', null],
    ['30 days ahead', '2026-12-23T08:00:00Z', 30],
    ['10 days ahead', '2026-12-03T08:00:00Z', 30],
    ['7 days ahead', '2026-11-30T08:00:00Z', 7],
    ['12 hours ahead', '2026-11-23T20:00:00Z', 1],
    ['expired', '2026-11-22T08:00:00Z', null],
    ['none', null, null],
  ] as const)('reminderDue %s → %s', (_, expires, due) => {
    expect(reminderDue(expires, NOW)).toBe(due);
  });

  it('counts whole days left, rounded up', () => {
    expect(daysLeft('2026-11-24T07:00:00Z', NOW)).toBe(1);
    expect(daysLeft('2026-11-30T08:00:00Z', NOW)).toBe(7);
    expect(daysLeft('2026-11-22T08:00:00Z', NOW)).toBe(-1);
  });
});
