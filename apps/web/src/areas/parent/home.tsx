import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Avatar, Badge, Card, Space, Tabs, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { childDays } from './child-day';
import { early } from '../../lib/early-data';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSchoolToday } from '../../lib/school-time';
import { useFlowLive } from '../flow/use-flow-live';
import { ChildToday } from './child-today';
import { parentStrings } from './strings';
import { flowStrings } from '../flow/strings';

/** The leave requests tab (its form and date picker) loads when it is opened, not with the children's day. */
const LeaveRequests = lazy(() => import('./leave-requests').then((m) => ({ default: m.LeaveRequests })));

/** The parent's home: each child's day as it happens (live), and leave requests. */
export default function ParentHome() {
  const tp = parentStrings.use();
  const tf = flowStrings.use();
  const client = useQueryClient();
  const q = useQuery({ queryKey: queryKey('parentChildren'), queryFn: () => early('parentChildren', () => get('parentChildren')) });
  const today = useSchoolToday();
  const { live } = useFlowLive((e) => void client.invalidateQueries(childDays(e.student_id)));

  const children = q.data?.list ?? [];
  const childrenCard = q.isLoading ? (
    <Loading />
  ) : q.isError ? (
    <LoadError onRetry={() => q.refetch()} />
  ) : children.length === 0 ? (
    <EmptyState description={tp('parent.children_empty')} />
  ) : (
    <Space orientation="vertical" style={{ width: '100%' }} size="middle">
      {children.map((c) => (
        <Card key={c.id} size="small" className="child-card">
          <Space align="start">
            <Avatar size={48} src={c.photo_url || undefined} style={{ backgroundColor: c.gender === 2 ? '#eb2f96' : '#1677ff' }}>
              {c.name.slice(-1)}
            </Avatar>
            <div>
              <Typography.Text strong style={{ fontSize: 16 }}>
                {c.name}
              </Typography.Text>
              <div>
                <Typography.Text type="secondary">
                  {c.care_class
                    ? tp('parent.care_class', { name: c.care_class.name, head: c.care_class.head_teacher_name ?? '-' })
                    : tp('parent.no_care_class')}
                </Typography.Text>
              </div>
            </div>
          </Space>
          <ChildToday child={c} date={today} />
        </Card>
      ))}
    </Space>
  );

  return (
    <Card title={tp('parent.children')} extra={<Badge status={live ? 'success' : 'default'} text={live ? tf('board.live') : ''} />}>
      <Tabs
        items={[
          { key: 'today', label: `${tp('parent.today')} ${today}`, children: childrenCard },
          {
            key: 'leave',
            label: tf('leave.title'),
            children: (
              <Suspense fallback={<Loading />}>
                <LeaveRequests kids={children} />
              </Suspense>
            ),
          },
        ]}
      />
    </Card>
  );
}
