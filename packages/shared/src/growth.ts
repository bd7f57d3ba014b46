import { addDays, addMonthsToDay } from './contracts';
import { periodOf, periodsBetween } from './data-centre';

/**
 * A student's growth record over time (teacherStudentGrowth, issue 21): beside the comments, the published exam scores
 * and the attendance per week or month. The periods are the data centre's (periodOf: a week from Monday, a calendar
 * month, each named by its first day), the last GROWTH_PERIODS of them up to the school's today.
 */
export const GROWTH_GROUPS = ['week', 'month'] as const;
export type GrowthGroup = (typeof GROWTH_GROUPS)[number];

/** How many periods the attendance covers, the current one included: a quarter of weeks, a year of months. */
export const GROWTH_PERIODS: Record<GrowthGroup, number> = { week: 12, month: 12 };

/** The most exams the scores line carries (the latest ones). */
export const GROWTH_MAX_SCORES = 60;

/** The attendance window ending on `today` (the school's day): its first day, and every period's first day, oldest first. */
export function growthWindow(today: string, group: GrowthGroup): { from: string; to: string; periods: string[] } {
  const last = periodOf(today, group);
  const n = GROWTH_PERIODS[group] - 1;
  const from = group === 'week' ? addDays(last, -7 * n) : addMonthsToDay(last, -n);
  return { from, to: today, periods: periodsBetween(from, today, group) };
}
