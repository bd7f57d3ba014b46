import { useQuery } from '@tanstack/react-query';
import { Role } from '@wantuo/shared';
import { useLocation } from 'react-router';
import { get } from '../../api/http';
import { useSession } from '../../stores/session';

/** The actions and paths of the caller: the admin's, or the teacher's versions (own classes only). */
export function useExamApi() {
  const role = useSession((x) => x.user?.role);
  const { pathname } = useLocation();
  const admin = role === Role.Admin;
  return {
    admin,
    list: admin ? ('studentExamList' as const) : ('teacherStudentExamList' as const),
    add: admin ? ('addExam' as const) : ('teacherAddExam' as const),
    edit: admin ? ('editExam' as const) : ('teacherEditExam' as const),
    scores: admin ? ('examScore' as const) : ('teacherExamScore' as const),
    addScores: admin ? ('addExamScore' as const) : ('teacherAddExamScore' as const),
    delScore: admin ? ('delExamScore' as const) : ('teacherDelExamScore' as const),
    listPath: admin ? '/principal_exams' : pathname.startsWith('/A_') ? '/A_exams' : '/teacher_exams',
    scoresPath: admin ? '/principal_exam_scores' : pathname.startsWith('/A_') ? '/A_exam_scores' : '/teacher_exam_scores',
  };
}

/** The classes an exam may cover: the school's running care classes (admin), the caller's own classes (teacher). */
export function useExamClasses(admin: boolean) {
  return useQuery({
    queryKey: ['examClasses', admin],
    queryFn: async () =>
      admin
        ? (await get('classList', { page: 1, limit: 100, status: 1 })).list.map((c) => ({ id: c.id, name: c.name }))
        : (await get('teacherWantuoInfo')).classes.map((c) => ({ id: c.id, name: c.name })),
  });
}

/** A mark as shown: 87.5, 90 (no trailing .0). */
export const mark = (v: number | null | undefined) => (v === null || v === undefined ? '-' : String(v));
