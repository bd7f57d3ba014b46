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

  // Calendar months are the school's: the wall clock in its zone moves by whole months, a month end clamped.
  it.each([
    // Beijing (UTC+8, no DST): the instant's local day decides, not its UTC day
    ['Asia/Shanghai', '2026-01-31T00:00:00Z', 1, '2026-02-28T00:00:00.000Z'],
    ['Asia/Shanghai', '2027-08-31T00:00:00Z', 6, '2028-02-29T00:00:00.000Z'],
    ['Asia/Shanghai', '2026-11-23T08:00:00Z', 12, '2027-11-23T08:00:00.000Z'],
    ['Asia/Shanghai', '2026-07-15T16:00:00Z', 6, '2027-01-15T16:00:00.000Z'],
    ['Asia/Shanghai', '2027-08-30T16:30:00Z', 6, '2028-02-28T16:30:00.000Z'], // 00:30 on 31 Aug → 00:30 on 29 Feb (leap)
    ['Asia/Shanghai', '2026-08-30T16:30:00Z', 6, '2027-02-27T16:30:00.000Z'], // 00:30 on 31 Aug → 00:30 on 28 Feb
    ['Asia/Shanghai', '2026-08-31T15:59:59Z', 6, '2027-02-28T15:59:59.000Z'], // 23:59:59 on 31 Aug → 28 Feb
    ['Asia/Shanghai', '2026-08-31T16:00:00Z', 6, '2027-02-28T16:00:00.000Z'], // 00:00 on 1 Sep → 1 Mar
    ['Asia/Shanghai', '2026-12-31T16:30:00Z', 1, '2027-01-31T16:30:00.000Z'], // 00:30 on 1 Jan → 1 Feb
    ['Asia/Shanghai', '2027-03-30T16:30:00Z', -1, '2027-02-27T16:30:00.000Z'], // 00:30 on 31 Mar, back → 28 Feb
    ['Asia/Shanghai', '2026-05-31T02:00:00Z', 12, '2027-05-31T02:00:00.000Z'],
    ['UTC', '2027-08-31T00:30:00Z', 6, '2028-02-29T00:30:00.000Z'],
    // a zone west of UTC: 20:00 on 31 Jan in New York is already 1 Feb in UTC
    ['America/New_York', '2026-02-01T01:00:00Z', 1, '2026-03-01T01:00:00.000Z'], // 20:00 EST 31 Jan → 20:00 EST 28 Feb
    // across a DST change the wall clock is kept (New York springs forward on 8 Mar 2026)
    ['America/New_York', '2026-02-15T14:00:00Z', 1, '2026-03-15T13:00:00.000Z'], // 09:00 EST → 09:00 EDT
  ] as const)('addMonths in %s: %s + %i months = %s', (zone, from, months, to) => {
    expect(addMonths(at(from), months, zone).toISOString()).toBe(to);
  });

  it("renews in the school's zone: a term paid at 00:30 Beijing time on 31 August runs to 29 February", () => {
    const paid = at('2027-08-30T16:30:00Z');
    expect(renewedUntil(null, 'term', paid, 'Asia/Shanghai').toISOString()).toBe('2028-02-28T16:30:00.000Z');
    expect(renewedUntil(null, 'term', paid).toISOString()).toBe('2028-02-28T16:30:00.000Z'); // the default zone is Beijing
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
