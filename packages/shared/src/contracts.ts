/**
 * After-school-care contracts (issue 11): packages, terms, states, consumption and the refund figure. Pure rules on
 * school-local dates (YYYY-MM-DD strings), used by the API (signing, the daily job, cancellation) and the web (the
 * price and refund previews, badges).
 */
import { dayOfUtcMs } from './school-time';

import type { BilingualLabel } from './labels';

/** How a package is measured: calendar time (terms, months) or units used by attendance (days, sessions). */
export const PACKAGE_KINDS = ['term', 'month', 'days', 'sessions'] as const;
export type PackageKind = (typeof PACKAGE_KINDS)[number];
/** Kinds used up by attendance: one unit per day the student entered the centre within the contract's period. */
export const COUNTED_KINDS: readonly PackageKind[] = ['days', 'sessions'];
export const isCounted = (kind: PackageKind) => kind === 'days' || kind === 'sessions';

/** One term of a term package, in calendar months. */
export const TERM_MONTHS = 5;
/** A days or sessions package is valid this many months from its start unless the package says otherwise. */
export const DEFAULT_VALID_MONTHS = 6;
/** What a package may include besides care. */
export const PACKAGE_INCLUDES = ['care', 'dinner', 'tutoring'] as const;
export type PackageInclude = (typeof PACKAGE_INCLUDES)[number];

/** A contract is "expiring" within this many days of its end, or with this many units left. */
export const EXPIRING_DAYS = 14;
export const EXPIRING_UNITS = 3;
/** The teacher's phone shows a badge from this many units left. */
export const LOW_UNITS_BADGE = 3;

/** Stored statuses; `expiring` is derived (contractState). */
export const CONTRACT_STATUSES = ['unpaid', 'active', 'expired', 'cancelled'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];
export const CONTRACT_STATES = ['unpaid', 'active', 'expiring', 'expired', 'cancelled'] as const;
export type ContractState = (typeof CONTRACT_STATES)[number];
/** The one wording of each state: the screens' tags and filters and the export's 状态 column. */
export const CONTRACT_STATE_LABELS: Record<ContractState, BilingualLabel> = {
  unpaid: { zh: '待支付', en: 'Unpaid' },
  active: { zh: '生效中', en: 'Active' },
  expiring: { zh: '即将到期', en: 'Expiring' },
  expired: { zh: '已到期', en: 'Expired' },
  cancelled: { zh: '已解除', en: 'Cancelled' },
};
/** The one wording of each package kind (screens and export). */
export const PACKAGE_KIND_LABELS: Record<PackageKind, BilingualLabel> = {
  term: { zh: '按学期', en: 'By term' },
  month: { zh: '按月', en: 'By month' },
  days: { zh: '按天数', en: 'By days' },
  sessions: { zh: '按次数', en: 'By sessions' },
};

/** How a contract was paid. */
export const PAY_METHODS = ['cash', 'bank', 'external', 'wechat'] as const;
export type ContractPayMethod = (typeof PAY_METHODS)[number];

const DAY_MS = 86_400_000;
const toUtc = (day: string) => Date.parse(`${day}T00:00:00Z`);
const fromUtc = dayOfUtcMs;

/** `day` plus n days (n may be negative). */
export function addDays(day: string, n: number): string {
  return fromUtc(toUtc(day) + n * DAY_MS);
}

/** `day` plus n calendar months, a month end clamped (Aug 31 + 6 = Feb 28/29). */
export function addMonthsToDay(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return fromUtc(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last)));
}

/** Days from `a` to `b` (b - a; both school-local dates). */
export function dayDiff(a: string, b: string): number {
  return Math.round((toUtc(b) - toUtc(a)) / DAY_MS);
}

export interface PackageTerms {
  kind: PackageKind;
  /** terms, months, days or sessions */
  length: number;
  /** for days and sessions: how long the units may be used (months); null: DEFAULT_VALID_MONTHS */
  valid_months?: number | null;
}

export interface ContractTerms {
  start_day: string;
  /** the last day the contract covers (inclusive) */
  end_day: string;
  /** units bought (days, sessions); null for calendar kinds */
  units_total: number | null;
}

/**
 * The period a package buys from `start`: terms and months end the day before the same date so many months on; days
 * and sessions give `length` units to use within their valid months.
 */
export function contractTerms(p: PackageTerms, start: string): ContractTerms {
  const months = p.kind === 'term' ? p.length * TERM_MONTHS : p.kind === 'month' ? p.length : (p.valid_months ?? DEFAULT_VALID_MONTHS);
  return { start_day: start, end_day: addDays(addMonthsToDay(start, months), -1), units_total: isCounted(p.kind) ? p.length : null };
}

/** Where a renewal starts: the day after the current contract ends, or today when it has already ended. */
export function renewalStartDay(currentEnd: string, today: string): string {
  const next = addDays(currentEnd, 1);
  return next > today ? next : today;
}

export interface ContractLike {
  status: ContractStatus;
  kind: PackageKind;
  start_day: string;
  end_day: string;
  units_total: number | null;
  units_used: number;
}

/** Units left (counted kinds), or null. */
export const unitsLeft = (c: Pick<ContractLike, 'units_total' | 'units_used'>): number | null =>
  c.units_total === null ? null : Math.max(0, c.units_total - c.units_used);

/**
 * The state a contract shows on `today`: unpaid and cancelled as stored; an active one is expired past its end or with
 * no units left, expiring within EXPIRING_DAYS of its end or with EXPIRING_UNITS or fewer units left.
 */
export function contractState(c: ContractLike, today: string): ContractState {
  if (c.status !== 'active') return c.status;
  const left = unitsLeft(c);
  if (today > c.end_day || left === 0) return 'expired';
  if (dayDiff(today, c.end_day) < EXPIRING_DAYS || (left !== null && left <= EXPIRING_UNITS)) return 'expiring';
  return 'active';
}

export interface RefundCase {
  kind: PackageKind;
  /** the package's price when signed (fen) */
  list_price_fen: number;
  /** what was agreed (fen): list price less the discount */
  price_fen: number;
  /** what was paid (fen) */
  paid_fen: number;
  start_day: string;
  end_day: string;
  units_total: number | null;
  units_used: number;
  /** the cancellation day (school-local): days from it on are unused */
  today: string;
}

export interface RefundFigure {
  /** unused days (calendar kinds) or units (counted kinds) */
  unused: number;
  /** days in the period or units bought */
  total: number;
  /** list price per day or unit, in fen (not rounded) */
  unit_price_fen: number;
  /** unused × unit price, rounded down to the fen */
  unused_value_fen: number;
  /** the discount agreed at signing, kept by the school on a cancellation */
  discount_fen: number;
  /** what goes back: unused value less the discount, never below 0 nor above what was paid */
  refund_fen: number;
}

/**
 * The refund of a cancelled contract: unused days or sessions × the list price per unit, rounded down to the fen,
 * less any discount agreed, between 0 and what was paid. Calendar kinds count the days from `today` (or the start,
 * if later) to the end; counted kinds the units not used.
 */
export function refundFigure(c: RefundCase): RefundFigure {
  const counted = isCounted(c.kind);
  const total = counted ? (c.units_total ?? 0) : dayDiff(c.start_day, c.end_day) + 1;
  const from = c.today > c.start_day ? c.today : c.start_day;
  const unused = counted ? Math.max(0, (c.units_total ?? 0) - c.units_used) : Math.max(0, Math.min(total, dayDiff(from, c.end_day) + 1));
  const unusedValue = total > 0 ? Math.floor((unused * c.list_price_fen) / total) : 0;
  const discount = Math.max(0, c.list_price_fen - c.price_fen);
  const refund = Math.max(0, Math.min(c.paid_fen, unusedValue - discount));
  return {
    unused,
    total,
    unit_price_fen: total > 0 ? c.list_price_fen / total : 0,
    unused_value_fen: unusedValue,
    discount_fen: discount,
    refund_fen: refund,
  };
}
