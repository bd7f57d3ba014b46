import { useQuery } from '@tanstack/react-query';
import { Button, Card, Input, List, Segmented, Space, Tag, Typography } from 'antd';
import type { CareClassStudent } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { AddStudentsModal } from './add-students';
import { classSlot, DutyTags, useSlotText } from './care-common';
import { RemoveStudentButton } from './remove-student';
import { careStrings, type CareKey } from './strings';

const PAGE_SIZE = 20;

/**
 * The caller's care class (teacherWantuoInfo) and its students (teacherWantuoStudent), as a list that fits 375 px.
 * `view`: read only; `manage`: the head teacher adds and removes students of the class they head; `mentor`: each
 * student with their tutor.
 */
export function MyClass({ mode, title }: { mode: 'view' | 'manage' | 'mentor'; title: CareKey }) {
  const tc = careStrings.use();
  const slotText = useSlotText();
  const [chosen, setChosen] = useState<number | undefined>();
  const [name, setName] = useState('');
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const infoInput = chosen ? { id: chosen } : {};
  const info = useQuery({ queryKey: queryKey('teacherWantuoInfo', infoInput), queryFn: () => get('teacherWantuoInfo', infoInput) });
  const classId = info.data?.class?.id;
  const studentsInput = { id: classId, page, limit: PAGE_SIZE, ...(name ? { name } : {}) };
  const students = useQuery({
    queryKey: queryKey('teacherWantuoStudent', studentsInput),
    queryFn: () => get('teacherWantuoStudent', studentsInput),
    enabled: classId !== undefined,
  });
  const refresh = () => {
    void info.refetch();
    void students.refetch();
  };

  if (info.isLoading) return <Loading />;
  if (info.isError || !info.data)
    return (
      <Card>
        <LoadError onRetry={() => info.refetch()} />
      </Card>
    );
  const { classes, class: c } = info.data;
  if (!c)
    return (
      <Card title={tc(title)}>
        <EmptyState description={tc('care.no_my_class')} />
      </Card>
    );
  const isHead = classes.find((x) => x.id === c.id)?.is_head ?? false;
  const canManage = mode === 'manage' && isHead;

  return (
    <Card title={tc(title)} styles={{ body: { padding: 12 } }}>
      {classes.length > 1 && (
        <div style={{ overflowX: 'auto', marginBottom: 12 }}>
          <Segmented<number>
            value={c.id}
            onChange={(v) => {
              setChosen(v);
              setPage(1);
            }}
            options={classes.map((x) => ({ value: x.id, label: x.name }))}
          />
        </div>
      )}
      <Space orientation="vertical" size={4} style={{ width: '100%', marginBottom: 12 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {c.name} {c.status === 1 ? <Tag color="green">{tc('care.running')}</Tag> : <Tag>{tc('care.stopped')}</Tag>}
        </Typography.Title>
        <Typography.Text type="secondary">
          {tc('care.head_teacher')}：{c.head_teacher_name ?? '-'} · {tc('care.headcount')}：{c.headcount} / {c.capacity}
        </Typography.Text>
        <Typography.Text type="secondary">
          {tc('care.slot')}：{c.class_time_id ? `${c.class_time_name}（${slotText(classSlot(c))}）` : '-'}
        </Typography.Text>
        {/* the head teacher is named above: tags for the other duties only */}
        {c.duties.some((d) => d.duty !== 'head') && (
          <div>
            <DutyTags duties={c.duties.filter((d) => d.duty !== 'head')} />
          </div>
        )}
        {mode === 'manage' && !isHead && <Typography.Text type="warning">{tc('care.not_head')}</Typography.Text>}
      </Space>
      <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Input.Search
          allowClear
          maxLength={50}
          placeholder={tc('care.search_student')}
          style={{ width: 220, maxWidth: '100%' }}
          onSearch={(v) => {
            setName(v.trim());
            setPage(1);
          }}
        />
        {canManage && (
          <Button type="primary" disabled={c.headcount >= c.capacity} onClick={() => setAdding(true)}>
            {c.headcount >= c.capacity ? tc('care.full') : tc('care.add_students')}
          </Button>
        )}
      </Space>
      {students.isError ? (
        <LoadError onRetry={() => students.refetch()} />
      ) : (
        <List<CareClassStudent>
          loading={students.isLoading}
          dataSource={students.data?.list}
          locale={{ emptyText: <EmptyState description={name ? tc('care.empty_search') : tc('care.empty_students')} /> }}
          pagination={
            (students.data?.total ?? 0) > PAGE_SIZE
              ? {
                  current: page,
                  pageSize: PAGE_SIZE,
                  total: students.data?.total,
                  onChange: setPage,
                  showSizeChanger: false,
                  size: 'small',
                  align: 'center',
                }
              : false
          }
          renderItem={(s) => {
            const tutor = s.duties.find((d) => d.duty === 'tutor');
            return (
              <List.Item actions={canManage ? [<RemoveStudentButton key="rm" classId={c.id} student={s} asHead onDone={refresh} />] : undefined}>
                <List.Item.Meta
                  title={s.name}
                  description={
                    <Space orientation="vertical" size={2}>
                      <span>{[s.grade, s.class_name, s.day_school].filter(Boolean).join(' · ') || '-'}</span>
                      {mode === 'mentor' ? (
                        tutor ? (
                          <Tag color="geekblue">{tc('care.tutor_is', { name: tutor.teacher_name })}</Tag>
                        ) : (
                          <Tag>{tc('care.no_tutor')}</Tag>
                        )
                      ) : (
                        s.duties.length > 0 && (
                          <div>
                            <DutyTags duties={s.duties} />
                          </div>
                        )
                      )}
                    </Space>
                  }
                />
              </List.Item>
            );
          }}
        />
      )}
      {canManage && (
        <AddStudentsModal
          classId={c.id}
          room={c.capacity - c.headcount}
          asHead
          open={adding}
          onClose={(added) => {
            setAdding(false);
            if (added) refresh();
          }}
        />
      )}
    </Card>
  );
}
