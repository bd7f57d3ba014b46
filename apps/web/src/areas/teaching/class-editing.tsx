import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions, Space, Tabs, Tag } from 'antd';
import { formatFen } from '@wantuo/shared';
import { lazy, Suspense, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { ClassEditDialog } from './class-edit-dialog';
import { ScheduleGenerator } from './schedule-generator';
import { SessionsTab } from './sessions';
import { teachingStrings } from './strings';
import { StudentsTab } from './students';

const CareClassForm = lazy(() => import('../care/class-form'));

/** /principal_class_Editing?id=: the care class form, or with type=teaching the teaching class page. */
export default function ClassEditing() {
  const [params] = useSearchParams();
  if (params.get('type') !== 'teaching')
    return (
      <Suspense fallback={<Loading />}>
        <CareClassForm />
      </Suspense>
    );
  return <TeachingClassPage />;
}

type Tab = 'sessions' | 'students' | 'generate';

function TeachingClassPage() {
  const s = teachingStrings.use();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isSafeInteger(id) && id > 0;
  const tab = (['sessions', 'students', 'generate'] as Tab[]).find((t) => t === params.get('tab')) ?? 'sessions';
  const [editing, setEditing] = useState(false);
  const q = useQuery({ queryKey: queryKey('teachingClassInfo', { id }), queryFn: () => get('teachingClassInfo', { id }), enabled: valid });
  const back = <Button onClick={() => navigate('/principal_class?tab=teaching')}>{s('back')}</Button>;
  if (!valid)
    return (
      <Card>
        <EmptyState description={s('edit.no_class')}>{back}</EmptyState>
      </Card>
    );
  if (q.isLoading)
    return (
      <Card>
        <Loading />
      </Card>
    );
  if (q.isError || !q.data)
    return (
      <Card>
        <LoadError onRetry={() => void q.refetch()} />
      </Card>
    );
  const c = q.data;
  const changed = () => {
    void client.invalidateQueries({ queryKey: queryKey('teachingClassInfo', { id }) });
    void client.invalidateQueries({ queryKey: queryKey('teachingClassScheduling', { class_id: id }) });
    void client.invalidateQueries({ queryKey: queryKey('teachingClassStudent', { class_id: id }) });
  };
  return (
    <Card
      title={s('edit.title', { name: c.name })}
      extra={
        <Space>
          <Button type="primary" onClick={() => setEditing(true)}>
            {s('edit.edit')}
          </Button>
          {back}
        </Space>
      }
    >
      {editing && (
        <ClassEditDialog
          cls={c}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            changed();
          }}
        />
      )}
      <Descriptions size="small" column={{ xs: 1, sm: 2, md: 3 }} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={s('info.subject')}>{c.subject}</Descriptions.Item>
        <Descriptions.Item label={s('info.teacher')}>{c.teacher_name}</Descriptions.Item>
        <Descriptions.Item label={s('info.room')}>{c.room_name ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={s('info.students')}>{`${c.students} / ${c.capacity}`}</Descriptions.Item>
        <Descriptions.Item label={s('info.sessions')}>
          {s('info.sessions_val', { held: c.sessions_held, scheduled: c.sessions_scheduled, count: c.sessions_count })}
        </Descriptions.Item>
        <Descriptions.Item label={s('info.fee')}>{`¥${formatFen(c.fee_fen)}`}</Descriptions.Item>
        <Descriptions.Item label={s('info.state')}>
          {c.status === 1 ? <Tag color="green">{s('list.running')}</Tag> : <Tag>{s('list.stopped')}</Tag>}
        </Descriptions.Item>
      </Descriptions>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams({ type: 'teaching', id: String(id), tab: k }, { replace: true })}
        items={[
          { key: 'sessions', label: s('edit.tab_sessions'), children: <SessionsTab cls={c} onChanged={changed} /> },
          { key: 'students', label: s('edit.tab_students'), children: <StudentsTab cls={c} onChanged={changed} /> },
          {
            key: 'generate',
            label: s('edit.tab_generate'),
            children: (
              <ScheduleGenerator
                classId={c.id}
                onWritten={() => {
                  changed();
                  setParams({ type: 'teaching', id: String(id), tab: 'sessions' }, { replace: true });
                }}
              />
            ),
          },
        ]}
      />
    </Card>
  );
}
