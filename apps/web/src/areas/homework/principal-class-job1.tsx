import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Flex, Image, Segmented, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { HomeworkState, HomeworkSubmission } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { get } from '../../api/http';
import { ServerTable } from '../../components/server-table';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { localMonthDayTime, useSchoolZone } from '../../lib/school-time';
import { Attachments, Counts, KindTag, StateTag } from './common';
import { homeworkStrings } from './strings';
import './homework.css';
import { queryKey } from '../../api/query';

const PAGE_SIZE = 20;

/** /principal_class_Job1?id=: one homework (text, attachments, class, due) and each student's state, notes and photo. */
export default function PrincipalClassJob1() {
  const s = homeworkStrings.use();
  const navigate = useNavigate();
  const tz = useSchoolZone();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const [page, setPage] = useState(1);
  const [state, setState] = useState<HomeworkState | 'all'>('all');
  const q = useQuery({
    queryKey: queryKey('homeWorkInfo', { id, page, limit: PAGE_SIZE, state: state === 'all' ? undefined : state }),
    queryFn: () => get('homeWorkInfo', { id, page, limit: PAGE_SIZE, state: state === 'all' ? undefined : state }),
    enabled: valid,
    placeholderData: keepPreviousData,
  });
  const back = <Button onClick={() => navigate('/principal_class_Job')}>{s('back')}</Button>;
  if (!valid)
    return (
      <Card title={s('detail.title')} extra={back}>
        <EmptyState description={s('detail.missing')} />
      </Card>
    );
  if (q.isLoading) return <Loading />;
  if (q.isError && !q.data) return <LoadError onRetry={() => void q.refetch()} />;
  const h = q.data!.homework;

  const columns: ColumnsType<HomeworkSubmission> = [
    { title: s('col.student'), dataIndex: 'student_name' },
    { title: s('col.state'), dataIndex: 'state', render: (v: HomeworkState) => <StateTag state={v} /> },
    { title: s('teacher_note'), dataIndex: 'note', render: (v: string | null) => v ?? '-' },
    {
      title: s('photo'),
      dataIndex: 'photo_url',
      render: (v: string | null, r) =>
        v ? (
          <Flex gap={8} align="center">
            <Image src={v} width={48} height={48} style={{ objectFit: 'cover', borderRadius: 4 }} alt={s('photo')} />
            {r.home_note && <Typography.Text type="secondary">{r.home_note}</Typography.Text>}
          </Flex>
        ) : (
          '-'
        ),
    },
    {
      title: s('col.updated'),
      key: 'updated',
      render: (_, r) => (r.updated_at ? `${localMonthDayTime(r.updated_at, tz)} · ${r.updated_by_name ?? '-'}` : '-'),
    },
  ];

  return (
    <Flex vertical gap={12}>
      <Card title={s('detail.title')} extra={back}>
        <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered>
          <Descriptions.Item label={s('col.title')}>{h.title}</Descriptions.Item>
          <Descriptions.Item label={s('col.class')}>
            <KindTag kind={h.kind} />
            {h.class_name}
            {h.session_day ? ` · ${h.session_day}` : ''}
          </Descriptions.Item>
          <Descriptions.Item label={s('col.teacher')}>{h.teacher_name}</Descriptions.Item>
          <Descriptions.Item label={s('col.due_day')}>
            {h.set_day} → {h.due_day}
          </Descriptions.Item>
          <Descriptions.Item label={s('form.content')} span={2}>
            <Typography.Paragraph style={{ marginBottom: 0, whiteSpace: 'pre-wrap' }}>{h.content}</Typography.Paragraph>
          </Descriptions.Item>
          {h.attachments.length > 0 && (
            <Descriptions.Item label={s('attachments')} span={2}>
              <Attachments files={h.attachments} />
            </Descriptions.Item>
          )}
          <Descriptions.Item label={s('col.progress')} span={2}>
            <Counts h={h} />
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card>
        <Segmented
          style={{ marginBottom: 12 }}
          value={state}
          onChange={(v) => {
            setState(v as HomeworkState | 'all');
            setPage(1);
          }}
          options={[
            { value: 'all', label: `${s('all')} ${h.students}` },
            { value: 'todo', label: `${s('state.todo')} ${h.todo}` },
            { value: 'done', label: `${s('state.done')} ${h.done}` },
            { value: 'checked', label: `${s('state.checked')} ${h.checked}` },
          ]}
        />
        <ServerTable<HomeworkSubmission>
          query={q}
          page={page}
          onPage={setPage}
          pageSize={PAGE_SIZE}
          rowKey="student_id"
          columns={columns}
          scroll={{ x: 720 }}
          locale={{ emptyText: <EmptyState description={s('detail.students_empty')} /> }}
        />
      </Card>
    </Flex>
  );
}
