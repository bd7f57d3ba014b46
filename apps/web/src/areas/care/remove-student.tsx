import { Button, Typography } from 'antd';
import type { CareClassStudent, DelWantuoStudentPreview } from '@wantuo/shared';
import { useState } from 'react';
import { get, post } from '../../api/http';
import { feedback } from '../../api/feedback';
import { useT } from '../../stores/preferences';
import { DutyTags } from './care-common';

/**
 * Removes a student from a class after confirming. The admin first sees the preview (GET delWantuoStudent: what the
 * removal affects); the head teacher sees the student's duties from the list row.
 */
export function RemoveStudentButton({ classId, student, asHead, onDone }: { classId: number; student: CareClassStudent; asHead: boolean; onDone: () => void }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const confirm = (duties: CareClassStudent['duties']) =>
    feedback().modal.confirm({
      title: t('care.confirm_remove', { name: student.name }),
      content: (
        <div>
          <Typography.Paragraph>{duties.length ? t('care.remove_affects') : t('care.remove_affects_none')}</Typography.Paragraph>
          {duties.length > 0 && <DutyTags duties={duties} />}
        </div>
      ),
      okButtonProps: { danger: true },
      okText: t('care.remove'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await post(asHead ? 'teacherDelWantuoStudent' : 'delWantuoStudent', { class_id: classId, student_id: student.id });
          feedback().message.success(t('care.removed', { name: student.name }));
        } catch {
          // shown by the request wrapper
        } finally {
          onDone();
        }
      },
    });
  const click = async () => {
    if (asHead) return confirm(student.duties);
    setBusy(true);
    try {
      const preview = await get<DelWantuoStudentPreview>('delWantuoStudent', { class_id: classId, student_id: student.id });
      confirm(preview.duties);
    } catch {
      onDone();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" danger loading={busy} onClick={click}>
      {t('care.remove')}
    </Button>
  );
}
