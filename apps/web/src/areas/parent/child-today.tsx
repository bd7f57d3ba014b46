import { Tag, Typography } from 'antd';
import type { ParentChild } from '@wantuo/shared';
import { useChildDay } from './child-day';
import { useT } from '../../stores/preferences';
import { useSchoolZone } from '../../lib/school-time';
import { DayTimeline } from '../flow/timeline';
import { flowStrings } from '../flow/strings';
import { flowLabel, flowTag } from '../flow/flow-look';

/** One child's day, as it happens: the state and the timeline (who did what, when), in the school's time. */
export function ChildToday({ child, date }: { child: ParentChild; date: string }) {
  const t = useT();
  const tf = flowStrings.use();
  const tz = useSchoolZone();
  const q = useChildDay(child.id, date);
  if (q.isLoading) return <Typography.Text type="secondary">{t('common.loading')}</Typography.Text>;
  if (q.isError || !q.data) return <Typography.Text type="secondary">{t('common.load_failed')}</Typography.Text>;
  const d = q.data;
  return (
    <div className="child-today" data-student={child.id}>
      <div style={{ margin: '8px 0' }}>
        <Tag color={flowTag(d.state)} className="child-state">
          {tf(flowLabel(d.state))}
        </Tag>
        {d.left_with && (
          <Typography.Text type="secondary">{tf('parent.left_with', { name: d.left_with.name, relation: d.left_with.relation })}</Typography.Text>
        )}
      </div>
      <DayTimeline events={d.events} tz={tz} />
    </div>
  );
}
