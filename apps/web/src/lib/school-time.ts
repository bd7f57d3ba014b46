/**
 * The school's clock in the web: its zone, its today, and the few ways a time is shown (thin over the shared
 * school-time rules, packages/shared/src/school-time.ts). A "day" and its times are the school's, never the phone's or
 * the browser's zone, and never cut from `toISOString()`; the parts come from `formatToParts`, never a locale's display
 * pattern. Pages use these, not their own `Intl.DateTimeFormat`.
 */
import {
  DEFAULT_TIME_ZONE,
  localDateTime as sharedLocalDateTime,
  localDay as sharedLocalDay,
  localTime as sharedLocalTime,
  zonedParts,
} from '@wantuo/shared';
import { useMemo } from 'react';
import { useSession } from '../stores/session';

export { DEFAULT_TIME_ZONE };

type Instant = Date | string | number;
/** A school's zone as the pages hold it; empty means the default zone. */
type Zone = string | null | undefined;

const zoneOf = (zone: Zone): string => zone || DEFAULT_TIME_ZONE;
const empty = (at: Instant | null | undefined): at is null | undefined => at === null || at === undefined || at === '';

/** The signed-in user's school zone (the default zone for a user without a school, e.g. the operator). */
export function useSchoolZone(): string {
  return zoneOf(useSession((s) => s.user?.school?.timezone));
}

/** The school's today (YYYY-MM-DD), read at each render. */
export function useSchoolToday(): string {
  return localDay(new Date(), useSchoolZone());
}

/** The school's local date of `at` (YYYY-MM-DD); now when left out. */
export function localDay(at: Instant = new Date(), zone?: Zone): string {
  return sharedLocalDay(at, zoneOf(zone));
}

/** The school's wall clock at `at` (HH:mm); '' for no time. */
export function localTime(at: Instant | null | undefined, zone?: Zone): string {
  return empty(at) ? '' : sharedLocalTime(at, zoneOf(zone));
}

/** The school's local date and time at `at` (YYYY-MM-DD HH:mm, or with :ss); '' for no time. */
export function localDateTime(at: Instant | null | undefined, zone?: Zone, withSeconds = false): string {
  return empty(at) ? '' : sharedLocalDateTime(at, zoneOf(zone), withSeconds);
}

/** The short form the phone lists use (MM/DD HH:mm) in the school's zone; '' for no time. */
export function localMonthDayTime(at: Instant | null | undefined, zone?: Zone): string {
  if (empty(at)) return '';
  const p = zonedParts(at, zoneOf(zone));
  return `${p.month}/${p.day} ${p.hour}:${p.minute}`;
}

/** The formatters above bound to the signed-in user's school zone. */
export function useSchoolClock() {
  const zone = useSchoolZone();
  return useMemo(
    () => ({
      zone,
      day: (at: Instant = new Date()) => localDay(at, zone),
      time: (at: Instant | null | undefined) => localTime(at, zone),
      dateTime: (at: Instant | null | undefined, withSeconds = false) => localDateTime(at, zone, withSeconds),
      monthDayTime: (at: Instant | null | undefined) => localMonthDayTime(at, zone),
    }),
    [zone],
  );
}
