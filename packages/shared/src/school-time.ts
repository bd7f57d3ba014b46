/**
 * School time: the one place that turns an instant into the school's local day, date-time or clock, and a school-local
 * wall-clock time back into an instant. A "day" is always the school's local date (YYYY-MM-DD), never cut from
 * `toISOString()` and never dependent on the process's `TZ`. Built on `Intl.DateTimeFormat#formatToParts` (never a
 * locale's display pattern), so the answers are the same in any runtime and any zone.
 */

/** The zone of a school that has not set one (every demo and most real schools are in China). */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

type Instant = Date | string | number;

interface Parts {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

const toDate = (at: Instant): Date => (at instanceof Date ? at : new Date(at));

/** The wall-clock parts of `at` in `timeZone`. */
export function zonedParts(at: Instant, timeZone: string = DEFAULT_TIME_ZONE): Parts {
  const out: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(toDate(at))) out[p.type] = p.value;
  // some runtimes answer midnight as 24 with hourCycle h23 in older ICU data; normalise
  if (out.hour === '24') out.hour = '00';
  return out as unknown as Parts;
}

/** The school's local date of `at` (YYYY-MM-DD). */
export function localDay(at: Instant = new Date(), timeZone: string = DEFAULT_TIME_ZONE): string {
  const p = zonedParts(at, timeZone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** The school's local wall clock of `at` (HH:mm). */
export function localTime(at: Instant, timeZone: string = DEFAULT_TIME_ZONE): string {
  const p = zonedParts(at, timeZone);
  return `${p.hour}:${p.minute}`;
}

/** The school's local date and time of `at`: 'YYYY-MM-DD HH:mm', or with seconds. */
export function localDateTime(at: Instant, timeZone: string = DEFAULT_TIME_ZONE, withSeconds = false): string {
  const p = zonedParts(at, timeZone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}${withSeconds ? `:${p.second}` : ''}`;
}

/** A compact school-local stamp for file names: YYYYMMDD-HHmmss. */
export function localStamp(at: Instant = new Date(), timeZone: string = DEFAULT_TIME_ZONE): string {
  const p = zonedParts(at, timeZone);
  return `${p.year}${p.month}${p.day}-${p.hour}${p.minute}${p.second}`;
}

/** Minutes since the school's local midnight at `at`. */
export function localMinutes(at: Instant, timeZone: string = DEFAULT_TIME_ZONE): number {
  const p = zonedParts(at, timeZone);
  return Number(p.hour) * 60 + Number(p.minute);
}

// ------------------------------------------------------------------ calendar days (YYYY-MM-DD), zone-free

const DAY_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** The YYYY-MM-DD of a UTC-midnight-based millisecond count (calendar arithmetic, never an instant's day). */
export function dayOfUtcMs(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
}

/**
 * Whether `v` is a real calendar day YYYY-MM-DD (2026-02-30 is not; Date.parse would take it as March 2nd), within
 * `min`..`max` inclusive. The one check every schema uses.
 */
export function isCalendarDay(v: string, min = '2000-01-01', max = '2099-12-31'): boolean {
  if (!DAY_SHAPE.test(v)) return false;
  const [y, m, d] = v.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d && v >= min && v <= max;
}

// Day arithmetic on YYYY-MM-DD strings lives with the rules that need it: addDays / dayDiff (contracts.ts),
// weekdayOf / mondayOf / spanDays (schedule.ts).

/**
 * The instant at which the school's wall clock shows `day` `time` (HH:mm or HH:mm:ss). In a gap (a DST spring-forward)
 * the instant after the gap; in an overlap the earlier one.
 */
export function instantOf(day: string, time: string, timeZone: string = DEFAULT_TIME_ZONE): Date {
  const [h, m, s] = time.split(':').map(Number);
  const wall = Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)), h, m, s || 0);
  /** the zone's offset (ms) at an instant */
  const offsetAt = (ms: number) => {
    const p = zonedParts(ms, timeZone);
    return (
      Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) - Math.floor(ms / 1000) * 1000
    );
  };
  const before = offsetAt(wall - 86_400_000);
  const after = offsetAt(wall + 86_400_000);
  const fits = [wall - before, wall - after].filter((t) => wall - offsetAt(t) === t).sort((a, b) => a - b);
  // an overlap has two fitting instants: the earlier; a gap has none: the instant after it (the offset before the gap)
  return new Date(fits.length ? fits[0] : wall - before);
}
