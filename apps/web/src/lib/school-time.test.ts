import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSession, type SessionUser } from '../stores/session';
import {
  DEFAULT_TIME_ZONE,
  localDateTime,
  localDay,
  localMonthDayTime,
  localTime,
  useSchoolClock,
  useSchoolToday,
  useSchoolZone,
} from './school-time';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// Beijing midnight of 2026-11-24 is 2026-11-23T16:00:00Z; the answers must not depend on the process's TZ
// (this file is also run with TZ=America/New_York and TZ=UTC).
const CASES: { at: string; zone: string | undefined; day: string; time: string; dateTime: string; seconds: string; short: string }[] = [
  {
    at: '2026-11-23T15:59:59Z',
    zone: 'Asia/Shanghai',
    day: '2026-11-23',
    time: '23:59',
    dateTime: '2026-11-23 23:59',
    seconds: '2026-11-23 23:59:59',
    short: '11/23 23:59',
  },
  {
    at: '2026-11-23T16:00:00Z',
    zone: 'Asia/Shanghai',
    day: '2026-11-24',
    time: '00:00',
    dateTime: '2026-11-24 00:00',
    seconds: '2026-11-24 00:00:00',
    short: '11/24 00:00',
  },
  {
    at: '2026-11-23T16:05:07Z',
    zone: 'Asia/Shanghai',
    day: '2026-11-24',
    time: '00:05',
    dateTime: '2026-11-24 00:05',
    seconds: '2026-11-24 00:05:07',
    short: '11/24 00:05',
  },
  {
    at: '2026-11-24T00:30:00+08:00',
    zone: 'Asia/Shanghai',
    day: '2026-11-24',
    time: '00:30',
    dateTime: '2026-11-24 00:30',
    seconds: '2026-11-24 00:30:00',
    short: '11/24 00:30',
  },
  // no zone (a user without a school, the operator): the default zone, Beijing
  {
    at: '2026-11-23T16:00:00Z',
    zone: undefined,
    day: '2026-11-24',
    time: '00:00',
    dateTime: '2026-11-24 00:00',
    seconds: '2026-11-24 00:00:00',
    short: '11/24 00:00',
  },
  // the year turning over in Beijing while it is still the old year in UTC
  {
    at: '2026-12-31T16:00:00Z',
    zone: 'Asia/Shanghai',
    day: '2027-01-01',
    time: '00:00',
    dateTime: '2027-01-01 00:00',
    seconds: '2027-01-01 00:00:00',
    short: '01/01 00:00',
  },
  // the same instants for a school in another zone
  {
    at: '2026-11-23T16:00:00Z',
    zone: 'America/New_York',
    day: '2026-11-23',
    time: '11:00',
    dateTime: '2026-11-23 11:00',
    seconds: '2026-11-23 11:00:00',
    short: '11/23 11:00',
  },
  {
    at: '2026-11-24T04:59:00Z',
    zone: 'America/New_York',
    day: '2026-11-23',
    time: '23:59',
    dateTime: '2026-11-23 23:59',
    seconds: '2026-11-23 23:59:00',
    short: '11/23 23:59',
  },
  {
    at: '2026-11-24T05:00:00Z',
    zone: 'America/New_York',
    day: '2026-11-24',
    time: '00:00',
    dateTime: '2026-11-24 00:00',
    seconds: '2026-11-24 00:00:00',
    short: '11/24 00:00',
  },
];

describe('school time (web)', () => {
  it.each(CASES)('$at in $zone → $day $time', (c) => {
    for (const at of [c.at, new Date(c.at), Date.parse(c.at)]) {
      expect(localDay(at, c.zone)).toBe(c.day);
      expect(localTime(at, c.zone)).toBe(c.time);
      expect(localDateTime(at, c.zone)).toBe(c.dateTime);
      expect(localDateTime(at, c.zone, true)).toBe(c.seconds);
      expect(localMonthDayTime(at, c.zone)).toBe(c.short);
    }
  });

  it('shows no time as empty, and an empty zone as the default zone', () => {
    expect(localTime(null)).toBe('');
    expect(localTime(undefined, 'Asia/Shanghai')).toBe('');
    expect(localTime('')).toBe('');
    expect(localDateTime(null)).toBe('');
    expect(localMonthDayTime(null)).toBe('');
    expect(localDay('2026-11-23T16:00:00Z', '')).toBe('2026-11-24');
    expect(localDay('2026-11-23T16:00:00Z', null)).toBe('2026-11-24');
  });
});

describe('the signed-in school’s zone and today', () => {
  afterEach(() => {
    vi.useRealTimers();
    useSession.setState({ user: null });
    document.body.innerHTML = '';
  });

  const signedIn = (timezone: string | null) =>
    useSession.setState({
      user: {
        id: 1,
        role: 2,
        nickname: 'x',
        avatar_text: 'x',
        school_id: 1,
        school: timezone === null ? null : { id: 1, name: 's', timezone, service_expires_at: null },
      } as SessionUser,
    });

  /** What the hooks answer, rendered in a component. */
  async function read() {
    let got: { zone: string; today: string; clock: ReturnType<typeof useSchoolClock> } | undefined;
    function Probe() {
      got = { zone: useSchoolZone(), today: useSchoolToday(), clock: useSchoolClock() };
      return null;
    }
    const el = document.createElement('div');
    document.body.appendChild(el);
    const root = createRoot(el);
    await act(async () => root.render(createElement(Probe)));
    await act(async () => root.unmount());
    return got!;
  }

  it.each([
    // a minute before and at Beijing midnight
    { now: '2026-11-23T15:59:00Z', timezone: 'Asia/Shanghai', zone: 'Asia/Shanghai', today: '2026-11-23' },
    { now: '2026-11-23T16:00:00Z', timezone: 'Asia/Shanghai', zone: 'Asia/Shanghai', today: '2026-11-24' },
    // no school (the operator): the default zone
    { now: '2026-11-23T16:00:00Z', timezone: null, zone: DEFAULT_TIME_ZONE, today: '2026-11-24' },
    // a school in New York is still on the 23rd
    { now: '2026-11-23T16:00:00Z', timezone: 'America/New_York', zone: 'America/New_York', today: '2026-11-23' },
  ])('at $now a school in $timezone is on $today', async (c) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(c.now));
    signedIn(c.timezone);
    const got = await read();
    expect(got.zone).toBe(c.zone);
    expect(got.today).toBe(c.today);
    expect(got.clock.zone).toBe(c.zone);
    expect(got.clock.day()).toBe(c.today);
    expect(got.clock.time(c.now)).toBe(localTime(c.now, c.zone));
    expect(got.clock.dateTime(c.now, true)).toBe(localDateTime(c.now, c.zone, true));
    expect(got.clock.monthDayTime(null)).toBe('');
  });
});
