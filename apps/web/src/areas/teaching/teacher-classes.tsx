import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Flex, Select, Tag } from 'antd';
import { Role } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSession } from '../../stores/session';
import { teachingStrings } from './strings';
import { StudentsTab } from './students';

/**
 * /teacher_classes: the teaching classes the teacher teaches (teachManage), one at a time: its details
 * (teachingClassInfo) and its students (teachingClassStudent, read only: the admin decides who is in a class). Phone-first.
 */
export default function TeacherClasses() {
  const s = teachingStrings.use();
  const [picked, setPicked] = useState<number | null>(null);
  // teaching classes are taught by teachers (teachManage, teachingClassInfo: T); a head teacher has none here
  const teacher = useSession((x) => x.user?.role) === Role.Teacher;
  const mine = useQuery({ queryKey: queryKey('teachManage'), queryFn: () => get('teachManage'), enabled: teacher });
  const classes = mine.data?.classes ?? [];
  const current = classes.find((c) => c.id === picked) ?? classes[0];
  return (
    <Card size="small" title={s('mine.title')} styles={{ body: { padding: 12 } }} data-testid="teacher-classes">
      {!teacher ? (
        <EmptyState description={s('mine.none')} />
      ) : mine.isLoading ? (
        <Loading />
      ) : mine.isError ? (
        <LoadError onRetry={() => void mine.refetch()} />
      ) : !current ? (
        <EmptyState description={s('mine.none')} />
      ) : (
        <Flex vertical gap={12}>
          <Select
            style={{ width: '100%', maxWidth: 360 }}
            size="large"
            aria-label={s('mine.pick')}
            value={current.id}
            onChange={setPicked}
            options={classes.map((c) => ({ value: c.id, label: `${c.name}（${c.subject}）` }))}
          />
          <ClassDetail key={current.id} id={current.id} />
        </Flex>
      )}
    </Card>
  );
}

function ClassDetail({ id }: { id: number }) {
  const s = teachingStrings.use();
  const q = useQuery({ queryKey: queryKey('teachingClassInfo', { id }), queryFn: () => get('teachingClassInfo', { id }) });
  if (q.isLoading) return <Loading />;
  if (q.isError || !q.data) return <LoadError onRetry={() => void q.refetch()} />;
  const c = q.data;
  return (
    <>
      <Descriptions size="small" column={1} bordered data-testid="teacher-class-info">
        <Descriptions.Item label={s('info.subject')}>{c.subject}</Descriptions.Item>
        <Descriptions.Item label={s('info.room')}>{c.room_name ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={s('info.students')}>{`${c.students} / ${c.capacity}`}</Descriptions.Item>
        <Descriptions.Item label={s('info.sessions')}>
          {s('info.sessions_val', { held: c.sessions_held, scheduled: c.sessions_scheduled, count: c.sessions_count })}
        </Descriptions.Item>
        <Descriptions.Item label={s('info.state')}>
          {c.status === 1 ? <Tag color="green">{s('list.running')}</Tag> : <Tag>{s('list.stopped')}</Tag>}
        </Descriptions.Item>
      </Descriptions>
      <StudentsTab cls={c} onChanged={() => void q.refetch()} readOnly />
    </>
  );
}
