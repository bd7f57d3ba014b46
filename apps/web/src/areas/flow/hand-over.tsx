import { Alert, Button, Input, List, Modal, Radio, Typography } from 'antd';
import type { HandoverDuty } from '@wantuo/shared';
import { useState } from 'react';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { flowStrings } from './strings';
import { useHandOver } from './use-hand-over';

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
  const { query: q, teachers, setKeyword, chosen, setChosen, busy, submit } = useHandOver(duty, student, onDone);

  return (
    <Modal
      open
      title={t(duty === 'shuttle' ? 'handover.title_shuttle' : 'handover.title_tutor', { name: student.name })}
      onCancel={onClose}
      onOk={() => void submit().then((ok) => ok && onClose())}
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
