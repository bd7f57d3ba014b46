import { useQuery, type Query } from '@tanstack/react-query';
import type { ClockingInInfoQuery } from '@wantuo/shared';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';

/** One child's day as it happens (clockingInInfo: the state, who took the child home, the events), live-invalidated by the pages. */
export function useChildDay(studentId: number, date: string) {
  const input = { student_id: studentId, date };
  return useQuery({ queryKey: queryKey('clockingInInfo', input), queryFn: () => get('clockingInInfo', input, { silent: true }) });
}

/** Every day read of one child (what a live event of that child invalidates): `invalidateQueries(childDays(id))`. */
export const childDays = (studentId: number) => ({
  queryKey: queryKey('clockingInInfo'),
  predicate: (q: Query) => (q.queryKey[1] as Partial<ClockingInInfoQuery> | undefined)?.student_id === studentId,
});
