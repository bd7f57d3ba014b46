import { Card, Flex } from 'antd';
import type { ParentChild } from '@wantuo/shared';
import { lazy, Suspense, useState } from 'react';
import { Loading } from '../../components/states';
import { CommentList } from '../students/comment-list';
import { StudentTeachingClasses } from '../students/student-overview';
import { ChildSwitcher, ParentChildren } from './children-gate';
import { parentStrings } from './strings';

// the charts (and ECharts with them) load with this page only
const GrowthCharts = lazy(() => import('../students/growth-charts'));

/**
 * /parent_growth: a child's growth record as the teachers see it (teacherStudentGrowth: published scores, attendance
 * by month or week, the comments, read only) and the child's teaching classes (studentTeachingClassList). Phone-first.
 */
export default function ParentGrowth() {
  const tp = parentStrings.use();
  return (
    <Flex vertical gap={12} style={{ maxWidth: 720 }} data-testid="parent-growth">
      <ParentChildren empty={tp('growth.no_children')}>{(kids) => <ChildGrowth kids={kids} />}</ParentChildren>
    </Flex>
  );
}

function ChildGrowth({ kids }: { kids: ParentChild[] }) {
  const tp = parentStrings.use();
  const [current, setCurrent] = useState(kids[0].id);
  return (
    <>
      <ChildSwitcher kids={kids} value={current} onChange={(id) => setCurrent(id)} />
      <Suspense fallback={<Loading />}>
        <GrowthCharts key={current} studentId={current} />
      </Suspense>
      <Card size="small" title={tp('growth.comments')} styles={{ body: { padding: 12 } }}>
        <CommentList key={current} studentId={current} action="teacherStudentGrowth" />
      </Card>
      <Card size="small" title={tp('growth.classes')} styles={{ body: { padding: 12 } }} data-testid="parent-classes">
        <StudentTeachingClasses key={current} studentId={current} />
      </Card>
    </>
  );
}
