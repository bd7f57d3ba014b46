import { useQuery } from '@tanstack/react-query';
import { Button, Card, Space, Tabs } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, Loading, LoadError } from '../../components/states';
import { useT } from '../../stores/preferences';
import { StudentContracts } from '../contracts/student-contracts';
import { contractStrings } from '../contracts/strings';
import { CommentList } from './comment-list';
import { StudentOverview, StudentTeachingClasses } from './student-overview';
import { studentStrings } from './strings';

/**
 * /principal_educationals_studentrecord?id=: the admin's student page: an overview (points balance, classes, guardians,
 * contracts with what is left; all from studentInfo), the growth record and comments, the contracts, and the teaching
 * classes (studentTeachingClassList).
 */
export default function StudentRecord() {
  const t = useT();
  const cs = contractStrings.use();
  const ss = studentStrings.use();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isSafeInteger(id) && id > 0;
  const q = useQuery({ queryKey: queryKey('studentInfo', { id }), queryFn: () => get('studentInfo', { id }), enabled: valid });
  const back = () => navigate('/principal_educationals');
  if (!valid)
    return (
      <Card>
        <EmptyState description={ss('stu.no_student')}>
          <Button onClick={back}>{ss('stu.back_list')}</Button>
        </EmptyState>
      </Card>
    );
  if (q.isLoading) return <Loading />;
  if (q.isError || !q.data)
    return (
      <Card>
        <LoadError onRetry={() => q.refetch()} />
      </Card>
    );
  const s = q.data;
  return (
    <Card
      title={ss('info.title', { name: s.name })}
      extra={
        <Space>
          <Button onClick={() => navigate(`/principal_educationals_student?id=${s.id}`)}>{ss('stu.edit')}</Button>
          <Button onClick={back}>{t('common.back')}</Button>
        </Space>
      }
    >
      <div style={{ color: '#888', marginBottom: 16 }}>{[s.day_school, s.grade, s.class_name, s.care_class?.name].filter(Boolean).join(' · ')}</div>
      <Tabs
        items={[
          { key: 'overview', label: ss('info.overview'), children: <StudentOverview student={s} /> },
          { key: 'record', label: ss('stu.record'), children: <CommentList studentId={s.id} action="studentComments" /> },
          { key: 'contracts', label: cs('student.tab'), children: <StudentContracts student={s} /> },
          { key: 'teaching', label: `${ss('info.teaching')}（${s.teaching_classes.length}）`, children: <StudentTeachingClasses studentId={s.id} /> },
        ]}
      />
    </Card>
  );
}
