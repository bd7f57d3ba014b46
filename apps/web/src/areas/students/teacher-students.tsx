import { useQuery } from '@tanstack/react-query';
import { Button, Card, Drawer, Input } from 'antd';
import type { Page, StudentDetail, StudentRow } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { ServerTable } from '../../components/server-table';
import { Loading, LoadError } from '../../components/states';
import { useT } from '../../stores/preferences';
import { CommentList } from './comment-list';
import { StudentSummary, useStudentColumns } from './student-common';

const PAGE_SIZE = 20;

function StudentDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const t = useT();
  const q = useQuery({ queryKey: ['teacherStudentInfo', id], queryFn: () => get<StudentDetail>('teacherStudentInfo', { id }) });
  return (
    <Drawer open onClose={onClose} title={q.data?.name ?? ''} size="large" styles={{ wrapper: { maxWidth: '100vw' } }}>
      {q.isLoading ? <Loading /> : q.isError || !q.data ? <LoadError onRetry={() => q.refetch()} /> : <StudentSummary s={q.data} />}
      <h3 style={{ marginTop: 24 }}>{t('stu.comments')}</h3>
      <CommentList studentId={id} action="teacherStudentGrowth" canWrite />
    </Drawer>
  );
}

/** /Teacher_educationals: the students of the care classes the teacher heads or has a duty in; profile, growth, comments. */
export default function TeacherStudents() {
  const t = useT();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const col = useStudentColumns();
  const q = useQuery({
    queryKey: ['teacherStudentList', keyword, page],
    queryFn: () => get<Page<StudentRow>>('teacherStudentList', { page, limit: PAGE_SIZE, ...(keyword ? { keyword } : {}) }),
  });
  return (
    <Card title={t('stu.my_students')}>
      <Input.Search allowClear placeholder={t('stu.name')} maxLength={32} style={{ width: 240, marginBottom: 16 }} onSearch={(v) => { setKeyword(v.trim()); setPage(1); }} />
      <ServerTable<StudentRow>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE_SIZE}
        scroll={{ x: 800 }}
        columns={[
          col.name,
          col.gender,
          col.care,
          col.school,
          col.allergies,
          col.dinner,
          { title: t('stu.actions'), key: 'a', width: 90, render: (_, s) => <Button type="link" size="small" onClick={() => setOpen(s.id)}>{t('stu.view')}</Button> },
        ]}
      />
      {open !== null && <StudentDrawer id={open} onClose={() => setOpen(null)} />}
    </Card>
  );
}
