/**
 * Notices (issue 14, module `notices`): the pure rules. Texts are never sent between QUIET_START and QUIET_END in the
 * school's time zone: a text due then is held until the next QUIET_END (07:00). 21:00 itself is quiet, 07:00 is not.
 */

/** minutes after local midnight: quiet from 21:00 (inclusive) to 07:00 (exclusive) */
export const QUIET_START_MINUTES = 21 * 60;
export const QUIET_END_MINUTES = 7 * 60;
/** a notice's unread recipients are reminded by text at most once in this time */
export const REMIND_INTERVAL_MS = 3_600_000;

export const NOTICE_SCOPES = ['classes', 'school'] as const;
export type NoticeScope = (typeof NOTICE_SCOPES)[number];
export const NOTICE_AUDIENCES = ['guardians', 'staff', 'all'] as const;
export type NoticeAudience = (typeof NOTICE_AUDIENCES)[number];
/** at most this many classes in one notice, and attachments */
export const NOTICE_MAX_CLASSES = 50;
export const NOTICE_MAX_ATTACHMENTS = 10;
export const NOTICE_MAX_CONTENT = 20_000;

interface Wall {
  y: number;
  m: number;
  d: number;
  minutes: number;
}

function wallClock(at: Date, timeZone: string): Wall {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { y: +parts.year, m: +parts.month, d: +parts.day, minutes: +parts.hour * 60 + +parts.minute + +parts.second / 60 };
}

/** The offset of `timeZone` from UTC at `at`, in ms (Asia/Shanghai: +8 h). */
function offsetMs(at: Date, timeZone: string): number {
  const w = wallClock(at, timeZone);
  const asUtc = Date.UTC(w.y, w.m - 1, w.d, 0, 0, 0) + Math.round(w.minutes * 60) * 1000;
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant of a local wall time (day y-m-d, `minutes` after midnight) in `timeZone` (two passes for DST). */
function instantOf(y: number, m: number, d: number, minutes: number, timeZone: string): Date {
  const wall = Date.UTC(y, m - 1, d) + minutes * 60_000;
  let guess = wall - offsetMs(new Date(wall), timeZone);
  guess = wall - offsetMs(new Date(guess), timeZone);
  return new Date(guess);
}

/** Whether `at` is in the quiet hours of `timeZone`. */
export function inQuietHours(at: Date, timeZone: string): boolean {
  const { minutes } = wallClock(at, timeZone);
  return minutes >= QUIET_START_MINUTES || minutes < QUIET_END_MINUTES;
}

/**
 * When a text due at `now` may go: `now` itself outside the quiet hours, else the next 07:00 in `timeZone` (the same
 * local day before 07:00, the next one from 21:00).
 */
export function smsSendAt(now: Date, timeZone: string): Date {
  const w = wallClock(now, timeZone);
  if (w.minutes >= QUIET_END_MINUTES && w.minutes < QUIET_START_MINUTES) return now;
  if (w.minutes < QUIET_END_MINUTES) return instantOf(w.y, w.m, w.d, QUIET_END_MINUTES, timeZone);
  const next = new Date(Date.UTC(w.y, w.m - 1, w.d + 1));
  return instantOf(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), QUIET_END_MINUTES, timeZone);
}

/** The BullMQ delay of a text due at `now` (0 outside the quiet hours). */
export function smsDelayMs(now: Date, timeZone: string): number {
  return Math.max(0, smsSendAt(now, timeZone).getTime() - now.getTime());
}

/** When the next reminder of a notice last reminded at `last` may go (null: now). */
export function nextRemindAt(last: Date | null, now: Date): Date | null {
  if (!last) return null;
  const next = new Date(last.getTime() + REMIND_INTERVAL_MS);
  return next > now ? next : null;
}
