/**
 * The platform service a school pays for (issue 10): periods, prices, expiry, the grace period and reminders.
 * Pure rules, used by the API (jobs, the write lock of an expired school) and the web (banner, renewal screen).
 */
import { addMonthsToDay } from './contracts';
import { DEFAULT_TIME_ZONE, instantOf, zonedParts } from './school-time';

export const RENEWAL_PERIODS = ['term', 'year'] as const;
export type RenewalPeriod = (typeof RENEWAL_PERIODS)[number];

/** How long each period extends the service, in calendar months. */
export const PERIOD_MONTHS: Record<RenewalPeriod, number> = { term: 6, year: 12 };

/** The platform's list price when the operator has set none for the school (fen). */
export const DEFAULT_PRICE_FEN: Record<RenewalPeriod, number> = { term: 198_000, year: 360_000 };

/** A new school's timezone unless it says otherwise (school-time's one default). */
export const DEFAULT_TIMEZONE = DEFAULT_TIME_ZONE;

/** A new school's trial, in days. */
export const TRIAL_DAYS = 30;
/** After expiry the school keeps working this many days; then staff can read but not write until it renews. */
export const GRACE_DAYS = 7;
/** SMS reminders to the admin this many days before expiry, each sent once. */
export const REMINDER_DAYS = [30, 7, 1] as const;

const DAY_MS = 86_400_000;

export type ServiceState = 'active' | 'expiring' | 'grace' | 'read_only';

/**
 * Where a school's service stands at `now`: active; expiring (within the first reminder); grace (expired less than
 * GRACE_DAYS ago: everything still works, the banner says so); read_only (staff can read, not write; paying works).
 * A school without an expiry (never set) is active.
 */
export function serviceState(expiresAt: Date | string | null, now: Date = new Date()): ServiceState {
  if (expiresAt === null) return 'active';
  const left = new Date(expiresAt).getTime() - now.getTime();
  if (left > REMINDER_DAYS[0] * DAY_MS) return 'active';
  if (left > 0) return 'expiring';
  if (-left < GRACE_DAYS * DAY_MS) return 'grace';
  return 'read_only';
}

/** Whole days left before expiry (rounded up; 0 or less once expired). */
export function daysLeft(expiresAt: Date | string, now: Date = new Date()): number {
  return Math.ceil((new Date(expiresAt).getTime() - now.getTime()) / DAY_MS);
}

/**
 * Adds calendar months in the school's zone: the school's wall clock (local day and time) moves by whole months, a
 * month end clamped to the last day of a shorter month (00:30 on 31 August + 6 months = 00:30 on 28/29 February,
 * Beijing time), and the instant is where that wall clock falls (a DST gap: the instant after it). Never the UTC day.
 */
export function addMonths(from: Date, months: number, timeZone: string = DEFAULT_TIME_ZONE): Date {
  const p = zonedParts(from, timeZone);
  const day = addMonthsToDay(`${p.year}-${p.month}-${p.day}`, months);
  const at = instantOf(day, `${p.hour}:${p.minute}:${p.second}`, timeZone);
  return new Date(at.getTime() + (((from.getTime() % 1000) + 1000) % 1000));
}

/** A renewal extends the service from the later of now and the current expiry, by calendar months in the school's zone. */
export function renewedUntil(
  expiresAt: Date | string | null,
  period: RenewalPeriod,
  now: Date = new Date(),
  timeZone: string = DEFAULT_TIME_ZONE,
): Date {
  const current = expiresAt === null ? now : new Date(expiresAt);
  const from = current.getTime() > now.getTime() ? current : now;
  return addMonths(from, PERIOD_MONTHS[period], timeZone);
}

/** The reminder due at `now` (the smallest REMINDER_DAYS mark already reached before expiry), or null. */
export function reminderDue(expiresAt: Date | string | null, now: Date = new Date()): (typeof REMINDER_DAYS)[number] | null {
  if (expiresAt === null) return null;
  const left = new Date(expiresAt).getTime() - now.getTime();
  if (left <= 0) return null;
  let due: (typeof REMINDER_DAYS)[number] | null = null;
  for (const mark of REMINDER_DAYS) if (left <= mark * DAY_MS) due = mark;
  return due;
}

/** What an expired school's staff may still do past the grace period: pay, and manage their own sign-in. */
const WRITABLE_WHEN_EXPIRED = new Set([
  'recharge',
  'wechatPaySchool',
  'balancePaySchool',
  'setDealPwd',
  'logout',
  'changepwd',
  'profile',
  'sms/send',
  'qrLoginScan',
  'qrLoginConfirm',
  'qrLoginCancel',
]);
export const mayWriteWhenExpired = (action: string | undefined): boolean => action !== undefined && WRITABLE_WHEN_EXPIRED.has(action);
