import { Button, Typography } from 'antd';
import { formatFen, type CareClassStudent, type DelWantuoStudentPreview } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { feedback } from '../../api/feedback';
import { useT } from '../../stores/preferences';
import { defineStrings } from '../../i18n/strings';
import { DutyTags } from './care-common';
import { careStrings } from './strings';

/** What stays with the student after the removal (the admin's preview). */
const keptStrings = defineStrings({
  contracts: {
    zh: '以下合同不会因移出而结束或退费，如需处理请到“晚托合同”：',
    en: 'These contracts do not end or get refunded with the removal; handle them under Contracts:',
  },
  meals: { zh: '以下晚餐预订仍然有效，如需取消请到“晚餐预订”：', en: 'These dinner bookings stay; cancel them under Meals if needed:' },
  contract_line: { zh: '{no} · {pkg} · {start} ~ {end}{left}', en: '{no} · {pkg} · {start} ~ {end}{left}' },
  units_left: { zh: '（剩 {n} 次）', en: ' ({n} left)' },
  days_left: { zh: '（剩 {n} 天）', en: ' ({n} days left)' },
  unpaid: { zh: '（未支付）', en: ' (unpaid)' },
  meal_line: { zh: '{day} {goods} ¥{price}{unpaid}', en: '{day} {goods} ¥{price}{unpaid}' },
});

function KeptList({ preview }: { preview: Pick<DelWantuoStudentPreview, 'contracts' | 'meal_bookings'> }) {
  const k = keptStrings.use();
  const box = { margin: '4px 0 12px', paddingLeft: 20 };
  return (
    <>
      {preview.contracts.length > 0 && (
        <>
          <Typography.Paragraph style={{ marginBottom: 0 }}>{k('contracts')}</Typography.Paragraph>
          <ul style={box} data-testid="remove-contracts">
            {preview.contracts.map((c) => (
              <li key={c.id}>
                {k('contract_line', {
                  no: c.no,
                  pkg: c.package_name,
                  start: c.start_day,
                  end: c.end_day,
                  left:
                    c.state === 'unpaid'
                      ? k('unpaid')
                      : c.units_left !== null
                        ? k('units_left', { n: c.units_left })
                        : c.days_left !== null
                          ? k('days_left', { n: c.days_left })
                          : '',
                })}
              </li>
            ))}
          </ul>
        </>
      )}
      {preview.meal_bookings.length > 0 && (
        <>
          <Typography.Paragraph style={{ marginBottom: 0 }}>{k('meals')}</Typography.Paragraph>
          <ul style={box} data-testid="remove-meals">
            {preview.meal_bookings.map((b) => (
              <li key={b.id}>
                {k('meal_line', {
                  day: b.day,
                  goods: b.goods_name ?? '',
                  price: formatFen(b.price_fen),
                  unpaid: b.status === 'unpaid' ? k('unpaid') : '',
                })}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

/**
 * Removes a student from a class after confirming. The admin first sees the preview (GET delWantuoStudent: what the
 * removal affects, and the open contracts and dinner bookings from today on that stay); the head teacher sees the
 * student's duties from the list row.
 */
export function RemoveStudentButton({
  classId,
  student,
  asHead,
  onDone,
}: {
  classId: number;
  student: CareClassStudent;
  asHead: boolean;
  onDone: () => void;
}) {
  const t = useT();
  const tc = careStrings.use();
  const [busy, setBusy] = useState(false);
  const remove = useAction(asHead ? 'teacherDelWantuoStudent' : 'delWantuoStudent', {
    success: tc('care.removed', { name: student.name }),
    onDone,
    onError: onDone,
  });
  const confirm = (duties: CareClassStudent['duties'], kept?: Pick<DelWantuoStudentPreview, 'contracts' | 'meal_bookings'>) =>
    feedback().modal.confirm({
      title: tc('care.confirm_remove', { name: student.name }),
      content: (
        <div>
          <Typography.Paragraph>{duties.length ? tc('care.remove_affects') : tc('care.remove_affects_none')}</Typography.Paragraph>
          {duties.length > 0 && <DutyTags duties={duties} />}
          {kept && <KeptList preview={kept} />}
        </div>
      ),
      okButtonProps: { danger: true },
      okText: tc('care.remove'),
      cancelText: t('common.cancel'),
      onOk: () => remove.run({ class_id: classId, student_id: student.id }),
    });
  const click = async () => {
    if (asHead) return confirm(student.duties);
    setBusy(true);
    try {
      const preview = await get('delWantuoStudent', { class_id: classId, student_id: student.id });
      confirm(preview.duties, preview);
    } catch {
      onDone();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" danger loading={busy} onClick={click}>
      {tc('care.remove')}
    </Button>
  );
}
