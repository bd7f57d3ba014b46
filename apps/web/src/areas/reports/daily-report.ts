import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { DailyReport } from '@wantuo/shared';
import { get } from '../../api/http';
import { nextPageOf, queryKey } from '../../api/query';

/** The steps of a child's day before leaving, in order (the label's key in reportsStrings, when, by whom). */
export type ReportStep = { label: 'picked_up' | 'arrived' | 'dinner' | 'tutor_started' | 'tutor_ended'; at: string | null; by: string | null };

/**
 * What a day's report shows as its timeline before the departure: picked up from school (only when it happened: a
 * child brought by a guardian is never picked up), arrived, dinner, tutoring started and ended. No UI library: the
 * consoles' report and the phone's draw it.
 */
export function reportSteps(r: DailyReport): ReportStep[] {
  const steps: ReportStep[] = [
    { label: 'picked_up', at: r.picked_up_at, by: null },
    { label: 'arrived', at: r.arrived_at, by: r.arrived_by_name },
    { label: 'dinner', at: r.dinner_at, by: null },
    { label: 'tutor_started', at: r.tutor_started_at, by: null },
    { label: 'tutor_ended', at: r.tutor_ended_at, by: null },
  ];
  return steps.filter((s, i) => s.at || i !== 0);
}

/** Whether the day has nothing to show (no state, comment, homework or points). */
export const reportIsEmpty = (r: DailyReport): boolean => !r.state && !r.comment && !r.homework.length && !r.points_entries.length;

/** A child's report of a day (dailyReport). */
export function useDailyReport(studentId: number, day: string) {
  return useQuery({
    queryKey: queryKey('dailyReport', { student_id: studentId, day }),
    queryFn: () => get('dailyReport', { student_id: studentId, day }),
  });
}

/** A child's earlier days (dailyReportDays), paged by the server, 20 at a time. */
export function useReportDays(studentId: number) {
  return useInfiniteQuery({
    queryKey: queryKey('dailyReportDays', { student_id: studentId, limit: 20 }),
    initialPageParam: 1,
    queryFn: ({ pageParam }) => get('dailyReportDays', { student_id: studentId, page: pageParam, limit: 20 }),
    getNextPageParam: nextPageOf,
  });
}
