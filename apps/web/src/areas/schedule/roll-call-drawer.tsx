import { useQuery } from '@tanstack/react-query';
import { Button, Drawer, Flex, List, Radio, Tag, Typography } from 'antd';
import { ROLL_CALL_STATUSES, type RollCallStatus } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Role } from '@wantuo/shared';
import { useSession } from '../../stores/session';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useIsPhone } from './common';
import { scheduleStrings } from './strings';
import type { ViewEntry } from './week-view';

/** A session of the week (care slots, which have no id, have no roll call). */
export type RollCallEntry = ViewEntry & { id: number };

/** Roll call of one of today's sessions from the week (rollCall GET → mark → POST); the session becomes held. */
export function RollCallDrawer({ entry, onClose, onSaved }: { entry: RollCallEntry; onClose: () => void; onSaved: () => void }) {
  const s = scheduleStrings.use();
  const phone = useIsPhone();
  const navigate = useNavigate();
  const role = useSession((st) => st.user?.role);
  // a lesson plan for this session: the new-plan editor with its class and day filled in
  const prepare = () =>
    navigate(
      `${role === Role.HeadTeacher ? '/A_lessons' : '/teacher_lessons'}?${new URLSearchParams({ plan: 'new', class: `${entry.kind}:${entry.class_id}`, date: entry.day })}`,
    );
  const [marks, setMarks] = useState<Record<number, RollCallStatus>>({});
  const q = useQuery({ queryKey: queryKey('rollCall', { session_id: entry.id }), queryFn: () => get('rollCall', { session_id: entry.id }) });
  const students = q.data?.students ?? [];
  const statusOf = (id: number, saved: RollCallStatus | null) => marks[id] ?? saved;
  const marked = students.filter((x) => statusOf(x.student_id, x.status));
  const call = useAction('rollCall', {
    success: s('roll.saved'),
    onDone: () => {
      setMarks({});
      onSaved();
      onClose();
    },
  });
  const busy = call.busy;
  const save = () =>
    call.run({
      session_id: entry.id,
      entries: marked.map((x) => ({ student_id: x.student_id, status: statusOf(x.student_id, x.status) })),
    });
  return (
    <Drawer
      open
      onClose={onClose}
      placement={phone ? 'bottom' : 'right'}
      size={phone ? '85%' : 480}
      title={s('roll.title', { name: entry.class_name ?? '', start: entry.start_time, end: entry.end_time })}
      styles={{ body: { padding: 12 } }}
      footer={
        <Flex justify="space-between" gap={8} wrap>
          <Button onClick={prepare} data-testid="roll-prepare">
            {s('roll.prepare')}
          </Button>
          <Button
            disabled={students.length === 0}
            onClick={() => setMarks(Object.fromEntries(students.map((x) => [x.student_id, x.on_leave ? 'leave' : 'present'])))}
          >
            {s('roll.all_present')}
          </Button>
          <Button type="primary" loading={busy} disabled={marked.length === 0} onClick={() => void save()}>
            {s('roll.save', { n: marked.length })}
          </Button>
        </Flex>
      }
    >
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : students.length === 0 ? (
        <EmptyState description={s('roll.empty')} />
      ) : (
        <List
          dataSource={students}
          renderItem={(x) => (
            <List.Item data-testid="roll-student">
              <Flex vertical gap={4} style={{ width: '100%' }}>
                <Flex gap={6} align="center">
                  <Typography.Text strong>{x.name}</Typography.Text>
                  {x.on_leave && <Tag color="orange">{s('roll.on_leave')}</Tag>}
                </Flex>
                <Radio.Group
                  size="small"
                  optionType="button"
                  value={statusOf(x.student_id, x.status)}
                  onChange={(ev) => setMarks((m) => ({ ...m, [x.student_id]: ev.target.value as RollCallStatus }))}
                  options={ROLL_CALL_STATUSES.map((k) => ({ value: k, label: s(`roll.${k}`) }))}
                />
              </Flex>
            </List.Item>
          )}
        />
      )}
    </Drawer>
  );
}
