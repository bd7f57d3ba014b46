import { useQuery } from '@tanstack/react-query';
import { Descriptions, Grid, Table, Tag, Typography } from 'antd';
import type { StudentInfo, StudentInfoContract, TeachingClass } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { StateTag } from '../contracts/common';
import { contractStrings } from '../contracts/strings';
import { studentStrings } from './strings';

const CLASS_PAGE = 10;

/** "剩余": units left of a sessions or days contract, days left of a running term or month one. */
function useRemaining() {
  const s = studentStrings.use();
  return (c: StudentInfoContract) =>
    c.units_total !== null
      ? s('info.units_left', { left: c.units_left ?? 0, total: c.units_total })
      : c.days_left !== null
        ? s('info.days_left', { n: c.days_left })
        : '-';
}

/**
 * The overview tab of the admin's student page, all from studentInfo: points balance, care class, guardians and
 * pick-up people, the contracts (open first: number, package, state, period, remaining) and the teaching classes.
 */
export function StudentOverview({ student }: { student: StudentInfo }) {
  const s = studentStrings.use();
  const cs = contractStrings.use();
  const remaining = useRemaining();
  const wide = Grid.useBreakpoint().sm ?? true;
  return (
    <div data-testid="student-overview">
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, md: 3 }}
        bordered
        layout={wide ? 'horizontal' : 'vertical'}
        styles={{ label: { whiteSpace: 'nowrap' } }}
      >
        <Descriptions.Item label={s('info.points')}>
          <Typography.Text strong>{student.points_balance}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={s('info.care_class')}>
          {student.care_class
            ? `${student.care_class.name}${student.care_class.head_teacher_name ? `（${student.care_class.head_teacher_name}）` : ''}`
            : '-'}
        </Descriptions.Item>
        <Descriptions.Item label={s('info.teaching')}>
          {student.teaching_classes.length ? student.teaching_classes.map((c) => <Tag key={c.id}>{c.name}</Tag>) : '-'}
        </Descriptions.Item>
        <Descriptions.Item label={s('info.guardians')} span={{ xs: 1, sm: 2, md: 3 }}>
          {student.guardians.map((g) => (
            <span key={g.user_id} style={{ marginRight: 12, display: 'inline-block' }}>
              {`${g.name}（${g.relation}）${g.mobile}`} {g.is_primary && <Tag color="blue">{s('stu.primary')}</Tag>}
            </span>
          ))}
        </Descriptions.Item>
        <Descriptions.Item label={s('info.pickup')} span={{ xs: 1, sm: 2, md: 3 }}>
          {student.pickup_people.length ? student.pickup_people.map((p) => `${p.name}（${p.relation}）${p.mobile}`).join('；') : '-'}
        </Descriptions.Item>
      </Descriptions>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {s('info.contracts')}
      </Typography.Title>
      {student.contracts_total > student.contracts.length && (
        <Typography.Paragraph type="secondary">
          {s('info.contracts_more', { n: student.contracts_total, shown: student.contracts.length })}
        </Typography.Paragraph>
      )}
      <Table<StudentInfoContract>
        rowKey="id"
        size="small"
        pagination={false}
        scroll={{ x: 620 }}
        dataSource={student.contracts}
        locale={{ emptyText: <EmptyState description={s('info.contracts_empty')} /> }}
        columns={[
          { title: cs('col.no'), dataIndex: 'no', width: 150 },
          { title: cs('col.package'), dataIndex: 'package_name', width: 140 },
          { title: cs('col.state'), dataIndex: 'state', width: 80, render: (v: StudentInfoContract['state']) => <StateTag state={v} /> },
          { title: cs('col.period'), key: 'period', width: 190, render: (_, c) => `${c.start_day} ~ ${c.end_day}` },
          { title: s('info.remaining'), key: 'left', width: 90, render: (_, c) => remaining(c) },
        ]}
      />
    </div>
  );
}

/** The teaching classes tab of the admin's student page: studentTeachingClassList, a server page at a time. */
export function StudentTeachingClasses({ studentId }: { studentId: number }) {
  const s = studentStrings.use();
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: queryKey('studentTeachingClassList', { student_id: studentId, page, limit: CLASS_PAGE }),
    queryFn: () => get('studentTeachingClassList', { student_id: studentId, page, limit: CLASS_PAGE }),
  });
  return (
    <ServerTable<TeachingClass>
      query={q}
      page={page}
      onPage={setPage}
      pageSize={CLASS_PAGE}
      size="small"
      scroll={{ x: 640 }}
      pagination={{ hideOnSinglePage: true }}
      locale={{ emptyText: <EmptyState description={s('info.teaching_empty')} /> }}
      columns={[
        { title: s('tc.name'), dataIndex: 'name', width: 140 },
        { title: s('tc.subject'), dataIndex: 'subject', width: 90 },
        { title: s('tc.teacher'), dataIndex: 'teacher_name', width: 90 },
        { title: s('tc.room'), dataIndex: 'room_name', width: 90, render: (v: string | null) => v ?? '-' },
        {
          title: s('tc.sessions'),
          key: 'sessions',
          width: 160,
          render: (_, c) => `${c.sessions_held} / ${c.sessions_scheduled} / ${c.sessions_count}`,
        },
        {
          title: s('tc.status'),
          dataIndex: 'status',
          width: 80,
          render: (v: number) => (v === 1 ? <Tag color="green">{s('tc.running')}</Tag> : <Tag>{s('tc.stopped')}</Tag>),
        },
      ]}
    />
  );
}
