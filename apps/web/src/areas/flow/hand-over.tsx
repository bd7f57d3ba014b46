import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Input, List, Modal, Radio, Typography } from 'antd';
import type { GetAction, HandoverDuty } from '@wantuo/shared';
import { useState } from 'react';
import { get, post } from '../../api/http';
import { feedback } from '../../api/feedback';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSession } from '../../stores/session';
import { flowStrings } from './strings';

const PICKER = { shuttle: 'teacherShuttleTeacher', tutor: 'teacherTutorTeacher' } as const satisfies Record<HandoverDuty, GetAction>;

/**
 * 转交给… : a teacher hands one student's task of the day (pick-up or tutoring) to another teacher with that duty
 * (teacherShuttleTeacher / teacherTutorTeacher, then teacherHandOverStudent). The student then leaves the caller's
 * list; `onDone` reloads it.
 */
export function HandOverButton({ duty, student, onDone }: { duty: HandoverDuty; student: { id: number; name: string }; onDone: () => void }) {
  const t = flowStrings.use();
  const [open, setOpen] = useState(false);
  // the dialog renders in a portal, but its clicks still bubble through React to the list row (which toggles it)
  return (
    <span onClick={(e) => e.stopPropagation()}>
      <Button
        size="small"
        aria-label={`${t('handover.button')} ${student.name}`}
        onClick={(e) => {
          e.stopPropagation();
          setOpen(true);
        }}
      >
        {t('handover.button')}
      </Button>
      {open && <HandOverDialog duty={duty} student={student} onClose={() => setOpen(false)} onDone={onDone} />}
    </span>
  );
}

function HandOverDialog({
  duty,
  student,
  onClose,
  onDone,
}: {
  duty: HandoverDuty;
  student: { id: number; name: string };
  onClose: () => void;
  onDone: () => void;
}) {
  const t = flowStrings.use();
  const me = useSession((s) => s.user?.id);
  const [keyword, setKeyword] = useState('');
  const [chosen, setChosen] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const q = useQuery({
    queryKey: [PICKER[duty], keyword],
    queryFn: () => get(PICKER[duty], { page: 1, limit: 50, keyword: keyword || undefined }),
  });
  const teachers = (q.data?.list ?? []).filter((x) => x.id !== me);

  const submit = async () => {
    if (chosen === null) {
      feedback().message.info(t('handover.pick_first'));
      return;
    }
    setBusy(true);
    try {
      const r = await post('teacherHandOverStudent', { student_id: student.id, duty, teacher_id: chosen });
      feedback().message.success(t('handover.done', { name: r.teacher_name }));
      onClose();
      onDone();
    } catch {
      // shown by the request wrapper
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t(duty === 'shuttle' ? 'handover.title_shuttle' : 'handover.title_tutor', { name: student.name })}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('handover.confirm')}
      okButtonProps={{ loading: busy, disabled: chosen === null }}
      width={Math.min(480, typeof window === 'undefined' ? 480 : window.innerWidth - 16)}
      destroyOnHidden
    >
      <Alert type="info" showIcon title={t('handover.hint')} style={{ marginBottom: 12 }} />
      <Input.Search
        allowClear
        placeholder={t('handover.search')}
        aria-label={t('handover.search')}
        onSearch={(v) => setKeyword(v.trim())}
        style={{ marginBottom: 8 }}
      />
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => q.refetch()} />
      ) : teachers.length === 0 ? (
        <EmptyState description={t('handover.empty')} />
      ) : (
        <Radio.Group value={chosen} onChange={(e) => setChosen(e.target.value as number)} style={{ width: '100%' }}>
          <List
            size="small"
            dataSource={teachers}
            style={{ maxHeight: 320, overflowY: 'auto' }}
            renderItem={(x) => (
              <List.Item style={{ padding: '10px 4px' }}>
                <Radio value={x.id}>
                  <strong>{x.name}</strong>
                  {x.nickname && x.nickname !== x.name ? <Typography.Text type="secondary"> （{x.nickname}）</Typography.Text> : null}
                </Radio>
              </List.Item>
            )}
          />
        </Radio.Group>
      )}
    </Modal>
  );
}
