import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';

/** The classes the caller may plan for (the picker: the admin's running classes, a teacher's own). */
export function useLessonClasses() {
  return useQuery({ queryKey: queryKey('prepareLessonsClasses'), queryFn: () => get('prepareLessonsClasses'), staleTime: 60_000 });
}

/** A class's key in selects: kind and id. */
export const classKey = (c: { kind: string; id: number }) => `${c.kind}:${c.id}`;
