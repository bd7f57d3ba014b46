import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Modal, Space, Tag } from 'antd';
import type { CareClassStudent, ClassTimeOption } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSlotText } from './care-common';
import { careStrings } from './strings';

/** The student's own time slots as tags (none: the class's slot applies). */
export function OwnSlotTags({ slots }: { slots: ClassTimeOption[] }) {
  const s = careStrings.use();
  const slotText = useSlotText();
  if (!slots.length) return <Tag>{s('own_slots.none')}</Tag>;
  return (
    <Space size={[4, 4]} wrap>
      {slots.map((x) => (
        <Tag key={x.id} color="blue" title={slotText(x)}>
          {x.name}
        </Tag>
      ))}
    </Space>
  );
}

/** 时间段: the admin gives a student of the class individual time slots (addStudentClassTime replaces the set). */
export function StudentSlotsButton({ student, onDone }: { student: CareClassStudent; onDone: () => void }) {
  const s = careStrings.use();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)}>
        {s('own_slots.button')}
      </Button>
      {open && <StudentSlotsModal student={student} onClose={() => setOpen(false)} onDone={onDone} />}
    </>
  );
}

function StudentSlotsModal({ student, onClose, onDone }: { student: CareClassStudent; onClose: () => void; onDone: () => void }) {
  const s = careStrings.use();
  const slotText = useSlotText();
  const q = useQuery({ queryKey: queryKey('selectClassTime'), queryFn: () => get('selectClassTime') });
  const [chosen, setChosen] = useState<number[]>((student.class_times ?? []).map((x) => x.id));
  const save = useAction('addStudentClassTime', {
    success: s('own_slots.saved', { name: student.name }),
    onDone: () => {
      onClose();
      onDone();
    },
  });
  return (
    <Modal
      open
      title={s('own_slots.title', { name: student.name })}
      onCancel={onClose}
      onOk={() => void save.run({ student_id: student.id, class_time_ids: chosen })}
      okButtonProps={{ loading: save.busy, disabled: q.isLoading || q.isError }}
      destroyOnHidden
    >
      <Alert type="info" showIcon title={s('own_slots.hint')} style={{ marginBottom: 12 }} />
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => q.refetch()} />
      ) : (q.data?.list.length ?? 0) === 0 ? (
        <EmptyState description={s('care.no_slots')} />
      ) : (
        <Checkbox.Group value={chosen} onChange={(v) => setChosen(v as number[])} style={{ width: '100%' }}>
          <Space orientation="vertical">
            {q.data!.list.map((x) => (
              <Checkbox key={x.id} value={x.id}>
                {x.name}（{slotText(x)}）
              </Checkbox>
            ))}
          </Space>
        </Checkbox.Group>
      )}
    </Modal>
  );
}
