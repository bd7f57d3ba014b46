import { useQuery } from '@tanstack/react-query';
import { Card, Flex, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { SchoolScheduleEntry } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSchoolToday } from '../../lib/school-time';
import { DayMarks, KIND_COLOR, KindLegend, mondayOf, STATE_COLOR, WeekNav, wdKey } from './common';
import { scheduleStrings } from './strings';

type Row = { key: string; name: string; days: SchoolScheduleEntry[][] };

function Cell({ entries }: { entries: SchoolScheduleEntry[] }) {
  const s = scheduleStrings.use();
  return (
    <Flex vertical gap={4}>
      {entries.map((e) => (
        <div
          key={`${e.kind}:${e.id ?? e.class_id}:${e.start_time}`}
          data-testid="school-entry"
          style={{
            borderInlineStart: `3px solid ${KIND_COLOR[e.kind].border}`,
            background: KIND_COLOR[e.kind].bg,
            borderRadius: 4,
            padding: '2px 6px',
            fontSize: 12,
            textDecoration: e.state === 'cancelled' ? 'line-through' : undefined,
          }}
        >
          <div>
            {e.start_time}-{e.end_time}
          </div>
          <div style={{ fontWeight: 600 }}>{e.class_name ?? s(`kind.${e.kind}`)}</div>
          <div>
            {e.teacher_name}
            {e.state !== 'planned' && (
              <Tag color={STATE_COLOR[e.state]} style={{ marginInlineStart: 4, fontSize: 11, lineHeight: '16px' }}>
                {s(`state.${e.state}`)}
              </Tag>
            )}
          </div>
        </div>
      ))}
    </Flex>
  );
}

/** /principal_schedule: the school's week of teaching and tutoring sessions, rooms × days (schoolTeachingSchedule). */
export default function SchoolSchedulePage() {
  const s = scheduleStrings.use();
  const today = useSchoolToday();
  const thisWeek = mondayOf(today);
  const [week, setWeek] = useState(thisWeek);
  const q = useQuery({
    queryKey: queryKey('schoolTeachingSchedule', { week }),
    queryFn: () => get('schoolTeachingSchedule', { week }),
  });
  const a = q.data;
  const rows: Row[] = a
    ? [
        ...a.rooms.map((r) => ({ key: `r${r.id}`, name: r.name, days: r.days })),
        ...(a.no_room.some((d) => d.length > 0) ? [{ key: 'none', name: s('school.no_room'), days: a.no_room }] : []),
      ]
    : [];
  const columns: ColumnsType<Row> = [
    {
      title: s('school.room'),
      dataIndex: 'name',
      key: 'name',
      fixed: 'left',
      width: 96,
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    ...(a?.days ?? []).map((d, i) => ({
      key: d.day,
      width: 124,
      title: (
        <Flex vertical gap={2} data-testid={`school-day-${d.day}`}>
          <span style={{ fontWeight: d.day === today ? 700 : undefined }}>
            {s(wdKey(d.weekday))} {d.day.slice(5)}
            {d.day === today ? ` · ${s('day.today')}` : ''}
          </span>
          <DayMarks day={d} />
        </Flex>
      ),
      onCell: () => ({ style: { verticalAlign: 'top', background: d.calendar?.kind === 'holiday' ? '#fff1f0' : undefined } }),
      render: (_: unknown, r: Row) => <Cell entries={r.days[i] ?? []} />,
    })),
  ];
  return (
    <Card title={s('school.title')} styles={{ body: { padding: 12 } }}>
      <Flex vertical gap={8}>
        <Flex justify="space-between" wrap="wrap" gap={8}>
          <WeekNav week={week} thisWeek={thisWeek} onChange={setWeek} />
          <Flex gap={8} align="center">
            <KindLegend kinds={['teaching', 'tutoring']} />
            {a && <Typography.Text type="secondary">{s('school.count', { n: a.sessions })}</Typography.Text>}
          </Flex>
        </Flex>
        {q.isLoading ? (
          <Loading />
        ) : q.isError || !a ? (
          <LoadError onRetry={() => void q.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState description={s('school.no_rooms')} />
        ) : (
          <Table<Row>
            data-testid="school-grid"
            size="small"
            bordered
            pagination={false}
            rowKey="key"
            columns={columns}
            dataSource={rows}
            scroll={{ x: 96 + 124 * 7 }}
          />
        )}
      </Flex>
    </Card>
  );
}
