import { useQuery } from '@tanstack/react-query';
import { Button, Card, Drawer } from 'antd';
import type { TeacherStudentRow } from '@wantuo/shared';
import { lazy, Suspense, useState } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { Loading, LoadError } from '../../components/states';
import { CommentList } from './comment-list';
import { STUDENT_PAGE_SIZE, StudentSummary, useMyStudents, useStudentColumns } from './student-common';
import { studentStrings } from './strings';

// the charts (and ECharts with them) load when a drawer opens, not with the list
const GrowthCharts = lazy(() => import('./growth-charts'));

function StudentDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const ss = studentStrings.use();
  const q = useQuery({ queryKey: queryKey('teacherStudentInfo', { id }), queryFn: () => get('teacherStudentInfo', { id }) });
  return (
    <Drawer open onClose={onClose} title={q.data?.name ?? ''} size="large" styles={{ wrapper: { maxWidth: '100vw' } }}>
      {q.isLoading ? <Loading /> : q.isError || !q.data ? <LoadError onRetry={() => q.refetch()} /> : <StudentSummary s={q.data} />}
      <Suspense fallback={<Loading />}>
        <GrowthCharts studentId={id} />
      </Suspense>
      <h3 style={{ marginTop: 24 }}>{ss('stu.comments')}</h3>
      <CommentList studentId={id} action="teacherStudentGrowth" canWrite />
    </Drawer>
  );
}

/** /Teacher_educationals: the students of the care classes the teacher heads or has a duty in; profile, growth over time (scores, attendance), comments. */
export default function TeacherStudents() {
  const ss = studentStrings.use();
  const [open, setOpen] = useState<number | null>(null);
  const col = useStudentColumns();
  const { query: q, page, setPage, search } = useMyStudents();
  return (
    <Card title={ss('stu.my_students')}>
      {search}
      <ServerTable<TeacherStudentRow>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={STUDENT_PAGE_SIZE}
        scroll={{ x: 800 }}
        columns={[
          col.name,
          col.gender,
          col.care,
          col.school,
          col.allergies,
          col.dinner,
          {
            title: ss('stu.actions'),
            key: 'a',
            width: 90,
            render: (_, s) => (
              <Button type="link" size="small" onClick={() => setOpen(s.id)}>
                {ss('stu.view')}
              </Button>
            ),
          },
        ]}
      />
      {open !== null && <StudentDrawer id={open} onClose={() => setOpen(null)} />}
    </Card>
  );
}
