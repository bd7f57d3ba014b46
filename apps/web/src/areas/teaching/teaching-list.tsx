import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Input, Segmented, Space, Tag } from 'antd';
import { formatFen, type TeachingClass } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { teachingStrings } from './strings';

const PAGE = 20;
type StatusFilter = 'all' | 0 | 1;

export const editPath = (id: number, tab?: string) => `/principal_class_Editing?type=teaching&id=${id}${tab ? `&tab=${tab}` : ''}`;

/** The teaching classes of /principal_class (teachingClassList, server-paged). */
export default function TeachingClassList() {
  const s = teachingStrings.use();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const input = { page, limit: PAGE, ...(name ? { name } : {}), ...(status === 'all' ? {} : { status }) };
  const q = useQuery({
    queryKey: queryKey('teachingClassList', input),
    queryFn: () => get('teachingClassList', input),
    placeholderData: keepPreviousData,
  });
  return (
    <Card title={s('tab.teaching')}>
      <Space wrap style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Input.Search
            allowClear
            maxLength={50}
            placeholder={s('list.search')}
            style={{ width: 220, maxWidth: '100%' }}
            onSearch={(v) => {
              setName(v.trim());
              setPage(1);
            }}
          />
          <Segmented<StatusFilter>
            value={status}
            onChange={(v) => {
              setStatus(v);
              setPage(1);
            }}
            options={[
              { value: 'all', label: s('list.all') },
              { value: 1, label: s('list.running') },
              { value: 0, label: s('list.stopped') },
            ]}
          />
        </Space>
        <Button type="primary" onClick={() => navigate('/principal_add_class?type=teaching')}>
          {s('list.new')}
        </Button>
      </Space>
      <ServerTable<TeachingClass>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        scroll={{ x: 1100 }}
        onRow={(c) => ({ onDoubleClick: () => navigate(editPath(c.id)) })}
        locale={{ emptyText: <EmptyState description={name || status !== 'all' ? s('list.empty_search') : s('list.empty')} /> }}
        columns={[
          { title: s('col.name'), dataIndex: 'name', fixed: 'left', width: 150 },
          { title: s('col.subject'), dataIndex: 'subject', width: 100 },
          { title: s('col.teacher'), dataIndex: 'teacher_name', width: 100 },
          { title: s('col.room'), dataIndex: 'room_name', width: 100, render: (v: string | null) => v ?? '-' },
          { title: s('col.students'), key: 'students', width: 110, render: (_, c) => `${c.students} / ${c.capacity}` },
          {
            title: s('col.sessions'),
            key: 'sessions',
            width: 150,
            render: (_, c) => `${c.sessions_held} / ${c.sessions_scheduled} / ${c.sessions_count}`,
          },
          { title: s('col.fee'), dataIndex: 'fee_fen', width: 100, render: (v: number) => `¥${formatFen(v)}` },
          {
            title: s('col.state'),
            dataIndex: 'status',
            width: 90,
            render: (v: number) => (v === 1 ? <Tag color="green">{s('list.running')}</Tag> : <Tag>{s('list.stopped')}</Tag>),
          },
          {
            title: s('col.actions'),
            key: 'actions',
            fixed: 'right',
            width: 200,
            render: (_, c) => (
              <Space size={4}>
                <Button size="small" onClick={() => navigate(editPath(c.id))}>
                  {s('act.open')}
                </Button>
                <Button size="small" onClick={() => navigate(editPath(c.id, 'students'))}>
                  {s('act.edit')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
