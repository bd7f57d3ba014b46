/**
 * Notices (issue 14, module `notices`): the pure rules. Texts are never sent between QUIET_START and QUIET_END in the
 * school's time zone: a text due then is held until the next QUIET_END (07:00). 21:00 itself is quiet, 07:00 is not.
 */
import { addDays } from './contracts';
import { toHHMM } from './schedule';
import { instantOf, localDay, localMinutes } from './school-time';

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

/** Whether `at` is in the quiet hours of `timeZone`. */
export function inQuietHours(at: Date, timeZone: string): boolean {
  const minutes = localMinutes(at, timeZone);
  return minutes >= QUIET_START_MINUTES || minutes < QUIET_END_MINUTES;
}

/**
 * When a text due at `now` may go: `now` itself outside the quiet hours, else the next 07:00 in `timeZone` (the same
 * local day before 07:00, the next one from 21:00).
 */
export function smsSendAt(now: Date, timeZone: string): Date {
  const minutes = localMinutes(now, timeZone);
  if (minutes >= QUIET_END_MINUTES && minutes < QUIET_START_MINUTES) return now;
  const day = localDay(now, timeZone);
  return instantOf(minutes < QUIET_END_MINUTES ? day : addDays(day, 1), toHHMM(QUIET_END_MINUTES), timeZone);
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
