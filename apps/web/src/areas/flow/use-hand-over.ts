import { useQuery } from '@tanstack/react-query';
import type { GetAction, HandoverDuty } from '@wantuo/shared';
import { useState } from 'react';
import { feedback } from '../../api/feedback';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { useSession } from '../../stores/session';
import { flowStrings } from './strings';

const PICKER = { shuttle: 'teacherShuttleTeacher', tutor: 'teacherTutorTeacher' } as const satisfies Record<HandoverDuty, GetAction>;

/**
 * 转交给… without a UI kit: the colleagues with that duty (teacherShuttleTeacher / teacherTutorTeacher, searched by
 * `keyword`, the caller left out), the one chosen, and the hand-over (teacherHandOverStudent); `onDone` runs after it
 * went. The desktop's dialog (hand-over.tsx) and the phone's sheet use it.
 */
export function useHandOver(duty: HandoverDuty, student: { id: number; name: string }, onDone: () => void) {
  const t = flowStrings.use();
  const me = useSession((s) => s.user?.id);
  const [keyword, setKeyword] = useState('');
  const [chosen, setChosen] = useState<number | null>(null);
  const handOver = useAction('teacherHandOverStudent', { success: (r) => t('handover.done', { name: r.teacher_name }), onDone });
  const query = useQuery({
    queryKey: queryKey(PICKER[duty], { page: 1, limit: 50, keyword: keyword || undefined }),
    queryFn: () => get(PICKER[duty], { page: 1, limit: 50, keyword: keyword || undefined }),
  });
  const teachers = (query.data?.list ?? []).filter((x) => x.id !== me);

  /** answers whether the student was handed over */
  const submit = async (): Promise<boolean> => {
    if (chosen === null) {
      feedback().message.info(t('handover.pick_first'));
      return false;
    }
    // a refusal is shown by the request wrapper
    return (await handOver.run({ student_id: student.id, duty, teacher_id: chosen })) !== undefined;
  };

  return { query, teachers, keyword, setKeyword, chosen, setChosen, busy: handOver.busy, submit };
}
