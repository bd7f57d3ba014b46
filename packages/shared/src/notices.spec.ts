import { inQuietHours, nextRemindAt, smsDelayMs, smsSendAt } from './notices';

const SH = 'Asia/Shanghai';

describe('smsSendAt (quiet hours 21:00-07:00, school-local)', () => {
  it.each<[string, string, string, string]>([
    ['22:00 is held to the next 07:00', '2026-03-10T14:00:00Z', SH, '2026-03-10T23:00:00Z'],
    ['07:00 goes at once', '2026-03-10T23:00:00Z', SH, '2026-03-10T23:00:00Z'],
    ['21:00 (the start) is held', '2026-03-10T13:00:00Z', SH, '2026-03-10T23:00:00Z'],
    ['20:59 goes at once', '2026-03-10T12:59:00Z', SH, '2026-03-10T12:59:00Z'],
    ['06:59 is held a minute, to 07:00 the same day', '2026-03-10T22:59:00Z', SH, '2026-03-10T23:00:00Z'],
    ['00:30 is held to 07:00 the same day', '2026-03-10T16:30:00Z', SH, '2026-03-10T23:00:00Z'],
    ['noon goes at once', '2026-03-10T04:00:00Z', SH, '2026-03-10T04:00:00Z'],
    ['23:59 on the last day of a month: 07:00 on the 1st', '2026-03-31T15:59:00Z', SH, '2026-03-31T23:00:00Z'],
    ['22:00 on Dec 31: 07:00 on Jan 1', '2026-12-31T14:00:00Z', SH, '2026-12-31T23:00:00Z'],
    ['UTC school at 22:00', '2026-03-10T22:00:00Z', 'UTC', '2026-03-11T07:00:00Z'],
    // New York: DST starts 2026-03-08 02:00; 22:00 EST on the 7th -> 07:00 EDT on the 8th (11:00Z)
    ['a DST change overnight', '2026-03-08T03:00:00Z', 'America/New_York', '2026-03-08T11:00:00Z'],
  ])('%s', (_, now, tz, expected) => {
    expect(smsSendAt(new Date(now), tz).toISOString()).toBe(new Date(expected).toISOString());
  });

  it('the delay is the time to wait, 0 outside the quiet hours', () => {
    expect(smsDelayMs(new Date('2026-03-10T14:00:00Z'), SH)).toBe(9 * 3_600_000);
    expect(smsDelayMs(new Date('2026-03-10T23:00:00Z'), SH)).toBe(0);
    expect(smsDelayMs(new Date('2026-03-10T22:59:00Z'), SH)).toBe(60_000);
  });

  it.each<[string, boolean]>([
    ['2026-03-10T12:59:59Z', false],
    ['2026-03-10T13:00:00Z', true],
    ['2026-03-10T22:59:59Z', true],
    ['2026-03-10T23:00:00Z', false],
  ])('inQuietHours(%s) = %s', (at, quiet) => expect(inQuietHours(new Date(at), SH)).toBe(quiet));
});

describe('nextRemindAt (once per notice per hour)', () => {
  const now = new Date('2026-03-10T04:00:00Z');
  it.each<[string, string | null, string | null]>([
    ['never reminded: now', null, null],
    ['reminded 59 minutes ago: in a minute', '2026-03-10T03:01:00Z', '2026-03-10T04:01:00Z'],
    ['reminded exactly an hour ago: now', '2026-03-10T03:00:00Z', null],
    ['reminded two hours ago: now', '2026-03-10T02:00:00Z', null],
  ])('%s', (_, last, expected) => {
    expect(nextRemindAt(last ? new Date(last) : null, now)?.toISOString() ?? null).toBe(expected ? new Date(expected).toISOString() : null);
  });
});
