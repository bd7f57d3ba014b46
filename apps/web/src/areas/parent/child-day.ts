import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/http';

/** One child's day as it happens (clockingInInfo: the state, who took the child home, the events), live-invalidated by the pages. */
export function useChildDay(studentId: number, date: string) {
  return useQuery({
    queryKey: ['clockingInInfo', studentId, date],
    queryFn: () => get('clockingInInfo', { student_id: studentId, date }, { silent: true }),
  });
}
