import { dayOfUtcMs, instantOf, isCalendarDay, localDateTime, localDay, localMinutes, localStamp, localTime } from './school-time';

describe('school time', () => {
  it.each([
    // [instant, zone, local day, local time]
    ['2026-11-25T16:00:00Z', 'Asia/Shanghai', '2026-11-26', '00:00'],
    ['2026-11-25T15:59:59Z', 'Asia/Shanghai', '2026-11-25', '23:59'],
    ['2026-11-26T07:59:00Z', 'Asia/Shanghai', '2026-11-26', '15:59'],
    ['2026-11-26T00:30:00Z', 'UTC', '2026-11-26', '00:30'],
    ['2026-03-29T01:30:00Z', 'Europe/Berlin', '2026-03-29', '03:30'],
    ['2026-01-01T04:59:00Z', 'America/New_York', '2025-12-31', '23:59'],
  ])('%s in %s is %s %s', (at, zone, day, time) => {
    expect(localDay(at, zone)).toBe(day);
    expect(localTime(at, zone)).toBe(time);
    expect(localDateTime(at, zone)).toBe(`${day} ${time}`);
    expect(localMinutes(at, zone)).toBe(Number(time.slice(0, 2)) * 60 + Number(time.slice(3)));
  });

  it('stamps file names in local time', () => {
    expect(localStamp('2026-11-25T16:01:02Z', 'Asia/Shanghai')).toBe('20261126-000102');
  });

  it.each([
    ['2026-11-26', '00:00', 'Asia/Shanghai', '2026-11-25T16:00:00.000Z'],
    ['2026-11-26', '07:00', 'Asia/Shanghai', '2026-11-25T23:00:00.000Z'],
    ['2026-07-01', '12:00', 'Europe/Berlin', '2026-07-01T10:00:00.000Z'],
    ['2026-01-01', '12:00', 'Europe/Berlin', '2026-01-01T11:00:00.000Z'],
    // the spring-forward gap: 02:30 does not exist in Berlin on 2026-03-29, the instant after the gap
    ['2026-03-29', '02:30', 'Europe/Berlin', '2026-03-29T01:30:00.000Z'],
    // the autumn overlap: the earlier 02:30 (still summer time)
    ['2026-10-25', '02:30', 'Europe/Berlin', '2026-10-25T00:30:00.000Z'],
  ])('%s %s in %s is %s', (day, time, zone, iso) => {
    expect(instantOf(day, time, zone).toISOString()).toBe(iso);
  });

  it('does not depend on the process zone', () => {
    // the functions take the zone as an argument; a default zone of the process changes nothing
    expect(localDay(new Date('2026-11-25T20:00:00Z'))).toBe('2026-11-26');
  });
});

describe('calendar days', () => {
  it.each([
    ['2026-11-26', true],
    ['2024-02-29', true],
    ['2026-02-29', false],
    ['2026-02-30', false], // Date.parse takes it as March 2nd: points and meals schemas accepted it
    ['2026-13-01', false],
    ['2026-00-10', false],
    ['2026-1-01', false],
    ['26-11-26', false],
    ['2026-11-26T00:00', false],
    ['1999-12-31', false],
    ['2100-01-01', false],
    ['', false],
  ])('%p is a calendar day: %p', (v, ok) => {
    expect(isCalendarDay(v)).toBe(ok);
  });

  it('takes its own bounds', () => {
    expect(isCalendarDay('1995-05-05', '1990-01-01', '2026-11-26')).toBe(true);
    expect(isCalendarDay('2026-11-27', '1990-01-01', '2026-11-26')).toBe(false);
  });

  it('writes a UTC-midnight count as its day', () => {
    expect(dayOfUtcMs(Date.UTC(2026, 1, 28) + 86_400_000)).toBe('2026-03-01');
    expect(dayOfUtcMs(Date.UTC(2024, 1, 28) + 86_400_000)).toBe('2024-02-29');
  });
});
