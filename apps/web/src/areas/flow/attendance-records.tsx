import { useQuery } from '@tanstack/react-query';
import { Card, DatePicker, Select, Space, Tag, Typography } from 'antd';
import { addDays, FLOW_RANGE_MAX_DAYS, Role, type StudentDayRow } from '@wantuo/shared';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { get } from '../../api/http';
import { EmptyState } from '../../components/states';
import { ServerTable } from '../../components/server-table';
import { localDay, localTime, useSchoolZone } from '../../lib/school-time';
import { useSession } from '../../stores/session';
import { useExamClasses } from '../exams/common';
import { PickupMark } from './pickup-mark';
import { StudentDayDrawer } from './transport-board';
import { flowStrings } from './strings';
import { flowLabel, flowTag, SHOWN_STATES } from './flow-look';

const PAGE = 20;

/**
 * Attendance records (clockingInList): student-days over a date range (at most FLOW_RANGE_MAX_DAYS days; the last 7
 * by default), by class and state, paged on the server; a row opens the day's timeline (clockingInInfo). The head
 * teacher sees their classes (a tab of /AStudentAttendance), the admin every class of the school (/principal_attendance).
 */
export function AttendanceRecords() {
  const tf = flowStrings.use();
  const tz = useSchoolZone();
  const today = localDay(new Date(), tz);
  const [range, setRange] = useState<{ from: string; to: string }>({ from: addDays(today, -6), to: today });
  const [state, setState] = useState<string | undefined>();
  const [classId, setClassId] = useState<number | undefined>();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<StudentDayRow | null>(null);
  // the classes of the filter: the school's (admin), the head teacher's own
  const classes = useExamClasses(useSession((s) => s.user?.role) === Role.Admin);
  const q = useQuery({
    queryKey: ['clockingInList', range, state, classId, page],
    queryFn: () => get('clockingInList', { date_from: range.from, date_to: range.to, state, class_id: classId, page, limit: PAGE }),
  });
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  const tooFar = (d: Dayjs, info: { from?: Dayjs }) =>
    d.isAfter(dayjs(today), 'day') || (!!info.from && Math.abs(d.diff(info.from, 'day')) >= FLOW_RANGE_MAX_DAYS);

  return (
    <div data-testid="attendance-records">
      <Space wrap style={{ marginBottom: 12, width: '100%' }}>
        <DatePicker.RangePicker
          aria-label={tf('records.range')}
          inputReadOnly
          allowClear={false}
          value={[dayjs(range.from), dayjs(range.to)]}
          disabledDate={tooFar}
          onChange={(v) => {
            if (v?.[0] && v[1]) reset(setRange)({ from: v[0].format('YYYY-MM-DD'), to: v[1].format('YYYY-MM-DD') });
          }}
          style={{ maxWidth: 280 }}
        />
        <Select
          aria-label={tf('records.class')}
          allowClear
          placeholder={tf('records.all_classes')}
          style={{ minWidth: 130 }}
          loading={classes.isLoading}
          value={classId}
          onChange={reset(setClassId)}
          options={(classes.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
        />
        <Select
          aria-label={tf('records.state')}
          allowClear
          placeholder={tf('records.all_states')}
          style={{ minWidth: 120 }}
          value={state}
          onChange={reset(setState)}
          options={SHOWN_STATES.map((s) => ({ value: s, label: tf(flowLabel(s)) }))}
        />
        {q.data && <Typography.Text type="secondary">{tf('records.total', { n: q.data.total })}</Typography.Text>}
      </Space>
      <ServerTable<StudentDayRow>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        size="small"
        scroll={{ x: 560 }}
        locale={{ emptyText: <EmptyState description={tf('records.empty')} /> }}
        onRow={(r) => ({ onClick: () => setOpen(r), style: { cursor: 'pointer' } })}
        columns={[
          { title: tf('records.day'), dataIndex: 'day', width: 104 },
          { title: tf('records.student'), dataIndex: 'student_name', width: 90 },
          { title: tf('records.class'), dataIndex: 'class_name', width: 100, render: (v: string | null) => v ?? '-' },
          {
            title: tf('records.state'),
            dataIndex: 'state',
            width: 84,
            render: (v: string) => <Tag color={flowTag(v)}>{tf(flowLabel(v))}</Tag>,
          },
          {
            title: tf('records.times'),
            key: 'times',
            render: (_: unknown, r) => (
              <>
                {[r.picked_up_at, r.entered_at, r.left_at].map((x) => (x ? localTime(x, tz) : '-')).join(' / ') +
                  (r.left_with_name && !r.pickup_verified ? ` · ${r.left_with_name}` : '')}
                {r.left_at && (r.pickup_verified || r.pickup_override !== null) && (
                  <div>
                    <PickupMark verified={r.pickup_verified} override={r.pickup_override} scope="records" />
                  </div>
                )}
              </>
            ),
          },
        ]}
      />
      {q.data && q.data.total > 0 && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {tf('records.open_hint')}
        </Typography.Text>
      )}
      <StudentDayDrawer
        student={open && { id: open.student_id, name: open.student_name }}
        day={open?.day ?? ''}
        onClose={() => setOpen(null)}
        onChanged={() => void q.refetch()}
      />
    </div>
  );
}

/** /principal_attendance: the admin's attendance records of the school, with each day's timeline. */
export default function AttendanceRecordsPage() {
  const tf = flowStrings.use();
  return (
    <Card size="small" title={tf('records.title')}>
      <AttendanceRecords />
    </Card>
  );
}
