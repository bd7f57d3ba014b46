import { addDays, addMonthsToDay, dayDiff } from './contracts';
import type { BilingualLabel } from './labels';
import { mondayOf } from './schedule';

/**
 * The data centre's periods (/principal_data, /A_data): counts by day, by week (Monday to Sunday, as PostgreSQL's
 * date_trunc('week')) or by calendar month, each period named by its first day (YYYY-MM-DD). The API groups with
 * the SQL twin (DATA_PERIOD_SQL) and the web lays out every period of a range, empty ones included, with
 * periodsBetween, so both agree on the buckets.
 */
export const DATA_GROUPS = ['day', 'week', 'month'] as const;
export type DataGroup = (typeof DATA_GROUPS)[number];
/** The one wording of a grouping: the data centre's switch and the count exports' file names. */
export const DATA_GROUP_LABELS: Record<DataGroup, BilingualLabel> = {
  day: { zh: '按日', en: 'By day' },
  week: { zh: '按周', en: 'By week' },
  month: { zh: '按月', en: 'By month' },
};

/** The most periods one query may span, per group: two months of days, half a year of weeks, a year of months. */
export const DATA_MAX_PERIODS: Record<DataGroup, number> = { day: 62, week: 27, month: 13 };

/** The first day of the period holding `day`. */
export function periodOf(day: string, group: DataGroup): string {
  if (group === 'day') return day;
  if (group === 'month') return `${day.slice(0, 7)}-01`;
  return mondayOf(day);
}

/** The periods from the one holding `from` to the one holding `to` (first days, oldest first). */
export function periodsBetween(from: string, to: string, group: DataGroup): string[] {
  const out: string[] = [];
  const last = periodOf(to, group);
  for (
    let p = periodOf(from, group);
    p <= last && out.length <= 400;
    p = group === 'day' ? addDays(p, 1) : group === 'week' ? addDays(p, 7) : addMonthsToDay(p, 1)
  )
    out.push(p);
  return out;
}

/** Whether a range is well formed and within DATA_MAX_PERIODS for its group. */
export function dataRangeOk(from: string, to: string, group: DataGroup): boolean {
  return from <= to && dayDiff(from, to) <= 400 && periodsBetween(from, to, group).length <= DATA_MAX_PERIODS[group];
}

/** A period's short label: 11-23 for a day, 11-23 (the Monday) for a week, 2026-11 for a month. */
export function periodLabel(period: string, group: DataGroup): string {
  return group === 'month' ? period.slice(0, 7) : period.slice(5);
}

/** The SQL of the period of a date expression (the twin of periodOf). */
export const DATA_PERIOD_SQL: Record<DataGroup, (day: string) => string> = {
  day: (day) => `(${day})::date`,
  week: (day) => `date_trunc('week', ${day})::date`,
  month: (day) => `date_trunc('month', ${day})::date`,
};
