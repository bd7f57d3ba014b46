import { useQuery } from '@tanstack/react-query';
import { Button, Card, Input, Popconfirm, Segmented, Space, Tabs, Tag } from 'antd';
import { formatFen, type CareClass } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { useT } from '../../stores/preferences';
import { classSlot, useSlotText } from './care-common';
import TimeSlots from './time-slots';
import { careStrings } from './strings';

const PAGE_SIZE = 20;
type StatusFilter = 'all' | 0 | 1;

function Classes() {
  const t = useT();
  const tc = careStrings.use();
  const navigate = useNavigate();
  const slotText = useSlotText();
  const [name, setName] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const listInput = { page, limit: PAGE_SIZE, ...(name ? { name } : {}), ...(status === 'all' ? {} : { status }) };
  const q = useQuery({
    queryKey: queryKey('classList', listInput),
    queryFn: () => get('classList', listInput),
  });
  // refreshed after a refusal too (a stale version: the class as it is now)
  const done = { success: t('common.saved'), onDone: () => void q.refetch(), onError: () => void q.refetch() };
  const startAndEnd = useAction('startAndEnd', done);
  const delClass = useAction('delClass', done);

  return (
    <>
      <Space wrap style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Input.Search
            allowClear
            maxLength={50}
            placeholder={tc('care.search_class')}
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
              { value: 'all', label: tc('care.all') },
              { value: 1, label: tc('care.running') },
              { value: 0, label: tc('care.stopped') },
            ]}
          />
        </Space>
        <Button type="primary" onClick={() => navigate('/principal_add_class')}>
          {tc('care.new_class')}
        </Button>
      </Space>
      <ServerTable<CareClass>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE_SIZE}
        scroll={{ x: 1050 }}
        locale={{ emptyText: <EmptyState description={name || status !== 'all' ? tc('care.empty_search') : tc('care.empty_classes')} /> }}
        columns={[
          { title: tc('care.class_name'), dataIndex: 'name', fixed: 'left', width: 150 },
          { title: tc('care.head_teacher'), dataIndex: 'head_teacher_name', width: 110, render: (v: string | null) => v ?? '-' },
          {
            title: tc('care.slot'),
            key: 'slot',
            width: 220,
            render: (_, c) => (c.class_time_id ? `${c.class_time_name}（${slotText(classSlot(c))}）` : '-'),
          },
          { title: tc('care.headcount'), key: 'headcount', width: 100, render: (_, c) => `${c.headcount} / ${c.capacity}` },
          { title: tc('care.fee'), dataIndex: 'fee_fen', width: 110, render: (v: number) => `¥${formatFen(v)}` },
          {
            title: tc('care.status'),
            dataIndex: 'status',
            width: 90,
            render: (v: number) => (v === 1 ? <Tag color="green">{tc('care.running')}</Tag> : <Tag>{tc('care.stopped')}</Tag>),
          },
          {
            title: tc('care.actions'),
            key: 'actions',
            width: 300,
            render: (_, c) => (
              <Space wrap size={[4, 4]}>
                <Button size="small" onClick={() => navigate(`/principal_class_Editing?id=${c.id}`)}>
                  {tc('care.edit')}
                </Button>
                <Button size="small" onClick={() => navigate(`/principal_classCompile?id=${c.id}`)}>
                  {tc('care.manage_students')}
                </Button>
                <Popconfirm
                  title={c.status === 1 ? tc('care.confirm_stop') : tc('care.confirm_start')}
                  onConfirm={() => startAndEnd.run({ id: c.id, version: c.version, status: c.status === 1 ? 0 : 1 })}
                >
                  <Button size="small">{c.status === 1 ? tc('care.stop') : tc('care.start')}</Button>
                </Popconfirm>
                <Popconfirm
                  title={tc('care.confirm_delete_class', { name: c.name })}
                  description={c.headcount > 0 ? tc('care.delete_has_students', { count: c.headcount }) : undefined}
                  onConfirm={() => delClass.run({ id: c.id })}
                >
                  <Button size="small" danger>
                    {tc('care.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}

/** /principal_class: the care classes (server-paged) and, in a second tab, the school's time slots. */
export default function ClassList() {
  const tc = careStrings.use();
  return (
    <Card title={tc('care.classes')}>
      <Tabs
        items={[
          { key: 'classes', label: tc('care.classes'), children: <Classes /> },
          { key: 'slots', label: tc('care.slots'), children: <TimeSlots /> },
        ]}
      />
    </Card>
  );
}
