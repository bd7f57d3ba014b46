import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, List, Radio, Tag, Typography } from 'antd';
import { ROLL_CALL_STATUSES, type RollCallStatus, type TeachManageAnswer, type TeachingSession } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSchoolToday } from '../../lib/school-time';
import { ClassLessons } from './class-lessons';
import { SessionStateTag } from './common';
import { teachingStrings } from './strings';

type Session = TeachManageAnswer['next_sessions'][number];

/**
 * /teacher_rollcall: the teacher's sessions today (teachManage) and every lesson of a class (teachingClassSection), then
 * one session's roll call (rollCall GET → mark → POST); made for a phone.
 */
export default function RollCallPage() {
  const s = teachingStrings.use();
  const today = useSchoolToday();
  const [open, setOpen] = useState<Session | null>(null);
  const q = useQuery({ queryKey: queryKey('teachManage'), queryFn: () => get('teachManage') });
  if (open)
    return (
      <RollCall
        session={open}
        onBack={() => {
          setOpen(null);
          void q.refetch();
        }}
      />
    );
  const todays = (q.data?.next_sessions ?? []).filter((x) => x.day === today);
  const classes = q.data?.classes ?? [];
  /** a lesson of the class list, as the roll call shows it */
  const call = (x: TeachingSession) => setOpen({ ...x, class_name: classes.find((c) => c.id === x.class_id)?.name ?? '' });
  return (
    <Flex vertical gap={12}>
      <Card title={s('roll.today')} styles={{ body: { padding: 12 } }}>
        {q.isLoading ? (
          <Loading />
        ) : q.isError ? (
          <LoadError onRetry={() => void q.refetch()} />
        ) : todays.length === 0 ? (
          <EmptyState description={s('roll.none_today')} />
        ) : (
          <List
            dataSource={todays}
            renderItem={(x) => (
              <List.Item
                actions={[
                  <Button key="call" type="primary" onClick={() => setOpen(x)}>
                    {s('roll.pick')}
                  </Button>,
                ]}
              >
                <List.Item.Meta title={x.class_name} description={`${x.start_time}-${x.end_time}${x.room_name ? ` · ${x.room_name}` : ''}`} />
              </List.Item>
            )}
          />
        )}
      </Card>
      {classes.length > 0 && <ClassLessons classes={classes} onCall={call} />}
    </Flex>
  );
}

function RollCall({ session, onBack }: { session: Session; onBack: () => void }) {
  const s = teachingStrings.use();
  const [marks, setMarks] = useState<Record<number, RollCallStatus>>({});
  const q = useQuery({ queryKey: queryKey('rollCall', { session_id: session.id }), queryFn: () => get('rollCall', { session_id: session.id }) });
  const statusOf = (id: number, saved: RollCallStatus | null) => marks[id] ?? saved;
  const students = q.data?.students ?? [];
  const marked = students.filter((x) => statusOf(x.student_id, x.status));
  const call = useAction('rollCall', {
    success: s('roll.saved'),
    onDone: () => {
      setMarks({});
      void q.refetch();
    },
  });
  const busy = call.busy;
  const save = () =>
    call.run({
      session_id: session.id,
      entries: marked.map((x) => ({ student_id: x.student_id, status: statusOf(x.student_id, x.status) })),
    });
  const counts = Object.fromEntries(ROLL_CALL_STATUSES.map((k) => [k, students.filter((x) => statusOf(x.student_id, x.status) === k).length]));
  return (
    <Card
      title={`${session.class_name} ${session.start_time}-${session.end_time}`}
      extra={<Button onClick={onBack}>{s('back')}</Button>}
      styles={{ body: { padding: 12 } }}
    >
      {q.isLoading ? (
        <Loading />
      ) : q.isError || !q.data ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : students.length === 0 ? (
        <EmptyState description={s('roll.empty')} />
      ) : (
        <Flex vertical gap={12}>
          <Flex justify="space-between" align="center" wrap gap={8}>
            <SessionStateTag state={q.data.session.state} />
            <Typography.Text type="secondary">{s('roll.counts', counts)}</Typography.Text>
          </Flex>
          <Button
            onClick={() =>
              setMarks(Object.fromEntries(students.map((x) => [x.student_id, x.on_leave ? 'leave' : 'present'])) as Record<number, RollCallStatus>)
            }
          >
            {s('roll.all_present')}
          </Button>
          <List
            dataSource={students}
            renderItem={(x) => (
              <List.Item data-testid={`roll-${x.name}`} style={{ display: 'block' }}>
                <Flex justify="space-between" align="center" style={{ marginBottom: 6 }}>
                  <Typography.Text strong>{x.name}</Typography.Text>
                  {x.on_leave && <Tag color="blue">{s('roll.on_leave')}</Tag>}
                </Flex>
                <Radio.Group
                  block
                  optionType="button"
                  buttonStyle="solid"
                  value={statusOf(x.student_id, x.status)}
                  onChange={(e) => setMarks((m) => ({ ...m, [x.student_id]: e.target.value as RollCallStatus }))}
                  options={ROLL_CALL_STATUSES.map((k) => ({ value: k, label: s(`roll.${k}`) }))}
                />
              </List.Item>
            )}
          />
          {marked.length < students.length && (
            <Typography.Text type="warning">{s('roll.unmarked', { n: students.length - marked.length })}</Typography.Text>
          )}
          <Button type="primary" size="large" block loading={busy} disabled={marked.length === 0} onClick={() => void save()}>
            {s('roll.save', { n: marked.length })}
          </Button>
        </Flex>
      )}
    </Card>
  );
}
