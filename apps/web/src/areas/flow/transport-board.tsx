import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Card, Col, Drawer, Input, List, Modal, Row, Tag, Typography } from 'antd';
import { Role } from '@wantuo/shared';
import { useMemo, useRef, useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useT } from '../../stores/preferences';
import { useSession } from '../../stores/session';
import { localTime, useSchoolZone } from '../../lib/school-time';
import { DayTimeline, EVENT_LABEL } from './timeline';
import { useFlowLive } from './use-flow-live';
import './teacher-today.css';
import { flowStrings } from './strings';
import { flowLabel, flowTag } from './flow-look';

/** A student's day in a drawer (clockingInInfo): the timeline, and for a head teacher the void of the latest step with a reason. */
export function StudentDayDrawer({
  student,
  day,
  onClose,
  onChanged,
}: {
  student: { id: number; name: string } | null;
  day: string;
  onClose: () => void;
  onChanged: () => void;
}) {
  const t = useT();
  const tf = flowStrings.use();
  const tz = useSchoolZone();
  const role = useSession((s) => s.user?.role);
  const [voiding, setVoiding] = useState(false);
  const [reason, setReason] = useState('');
  const q = useQuery({
    queryKey: queryKey('clockingInInfo', student && day ? { student_id: student.id, date: day } : undefined),
    queryFn: () => get('clockingInInfo', { student_id: student!.id, date: day }),
    enabled: !!student && !!day,
  });
  const latest = useMemo(() => {
    const effective = (q.data?.events ?? []).filter((e) => !e.voided && e.type.startsWith('student.'));
    return effective[effective.length - 1] ?? null;
  }, [q.data]);

  const voidEvent = useAction('voidFlowEvent', {
    success: tf('ops.void_done'),
    onDone: async () => {
      setVoiding(false);
      setReason('');
      await q.refetch();
      onChanged();
    },
    // shown by the request wrapper (a lost race answers the server's message)
    onError: () => void q.refetch(),
  });
  const busy = voidEvent.busy;
  const doVoid = async () => {
    if (!student || !latest || !reason.trim()) return;
    await voidEvent.run({ student_id: student.id, event_id: latest.event_id, reason: reason.trim(), date: day });
  };

  return (
    <Drawer
      open={!!student}
      onClose={onClose}
      title={student ? tf('ops.timeline', { name: student.name }) : ''}
      size={Math.min(420, typeof window === 'undefined' ? 420 : window.innerWidth)}
    >
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => q.refetch()} />
      ) : q.data ? (
        <>
          <div style={{ marginBottom: 12 }}>
            <Tag color={flowTag(q.data.state)}>{tf(flowLabel(q.data.state))}</Tag>
            {q.data.left_with && (
              <Typography.Text>{tf('parent.left_with', { name: q.data.left_with.name, relation: q.data.left_with.relation })}</Typography.Text>
            )}
          </div>
          <DayTimeline events={q.data.events} tz={tz} />
          {role === Role.HeadTeacher && latest && (
            <Button danger block size="large" onClick={() => setVoiding(true)}>
              {tf('ops.void')}：{localTime(latest.at, tz)} {tf(EVENT_LABEL[latest.type] ?? 'parent.ev_other')}
            </Button>
          )}
        </>
      ) : null}
      <Modal
        open={voiding}
        title={tf('ops.void_title')}
        okText={tf('ops.void')}
        okButtonProps={{ danger: true, disabled: !reason.trim(), loading: busy }}
        cancelText={t('common.cancel')}
        onCancel={() => setVoiding(false)}
        onOk={() => void doVoid()}
      >
        <Typography.Paragraph type="secondary">{tf('ops.void_hint')}</Typography.Paragraph>
        <Input.TextArea
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={200}
          showCount
          rows={3}
          placeholder={tf('ops.void_reason')}
          aria-label={tf('ops.void_reason')}
        />
      </Modal>
    </Drawer>
  );
}

/** The pick-up and leaving board (/AStudentTransport), live: who was picked up by whom, who left with whom. */
export default function TransportBoard() {
  const tf = flowStrings.use();
  const tz = useSchoolZone();
  const shuttle = useQuery({ queryKey: ['shuttleTask'], queryFn: () => get('shuttleTask'), refetchInterval: 30_000 });
  const board = useQuery({ queryKey: ['flowBoard'], queryFn: () => get('flowBoard'), refetchInterval: 30_000 });
  const [open, setOpen] = useState<{ id: number; name: string } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refresh = () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void shuttle.refetch();
      void board.refetch();
    }, 150);
  };
  const { live } = useFlowLive(refresh, refresh);
  const left = useMemo(
    () => (board.data?.students ?? []).filter((s) => s.left_at).sort((a, b) => (b.left_at ?? '').localeCompare(a.left_at ?? '')),
    [board.data],
  );

  if (shuttle.isLoading || board.isLoading) return <Loading />;
  if (shuttle.isError || board.isError) return <LoadError onRetry={() => void Promise.all([shuttle.refetch(), board.refetch()])} />;
  const groups = shuttle.data?.groups ?? [];
  const day = shuttle.data?.day ?? board.data?.day ?? '';
  const pickedCount = groups.reduce((n, g) => n + g.students.filter((s) => s.picked_up_at).length, 0);
  const shuttleCount = groups.reduce((n, g) => n + g.students.length, 0);

  return (
    <div>
      <Card
        size="small"
        title={`${tf('ops.transport_title')} ${day}`}
        extra={<Badge status={live ? 'success' : 'default'} text={live ? tf('board.live') : tf('board.offline')} />}
        style={{ marginBottom: 12 }}
      >
        <Typography.Text>{tf('ops.transport_sum', { picked: pickedCount, total: shuttleCount, left: left.length })}</Typography.Text>
      </Card>
      <Row gutter={[12, 12]}>
        <Col xs={24} lg={14}>
          <Card size="small" title={tf('ops.shuttle_list')}>
            {groups.length === 0 ? (
              <EmptyState description={tf('ops.no_shuttle')} />
            ) : (
              groups.map((g) => (
                <div key={`${g.dismissal_time}-${g.day_school}`} style={{ marginBottom: 12 }}>
                  <Typography.Title level={5} style={{ margin: '4px 0' }}>
                    {g.dismissal_time ?? tf('ops.no_time')} · {g.day_school ?? tf('ops.no_school')}{' '}
                    <Typography.Text type="secondary" style={{ fontSize: 13, fontWeight: 'normal' }}>
                      {g.students.filter((s) => s.picked_up_at).length}/{g.students.length}
                    </Typography.Text>
                  </Typography.Title>
                  <ul className="flow-list">
                    {g.students.map((s) => (
                      <li key={s.id} className="flow-row" onClick={() => setOpen({ id: s.id, name: s.name })}>
                        <div className="flow-row-main">
                          <div>
                            <strong>{s.name}</strong> <Tag color={flowTag(s.state)}>{tf(flowLabel(s.state))}</Tag>
                          </div>
                          <Typography.Text type="secondary" className="flow-times">
                            {s.picked_up_at
                              ? tf('ops.picked_by', { name: s.picked_up_by_name ?? '-', time: localTime(s.picked_up_at, tz) })
                              : [s.care_class?.name, s.grade, s.class_name].filter(Boolean).join(' · ')}
                          </Typography.Text>
                        </div>
                      </li>
                    ))}
                  </ul>
                </div>
              ))
            )}
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card size="small" title={`${tf('ops.left_list')} ${left.length}`}>
            {left.length === 0 ? (
              <EmptyState description={tf('ops.no_left')} />
            ) : (
              <List
                size="small"
                dataSource={left}
                renderItem={(s) => {
                  const who = s.pickup_people.find((p) => p.id === s.left_with);
                  return (
                    <List.Item onClick={() => setOpen({ id: s.id, name: s.name })} style={{ cursor: 'pointer' }}>
                      <div>
                        <strong>{s.name}</strong> <Typography.Text type="secondary">{s.care_class_name}</Typography.Text>
                        <div>
                          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                            {who
                              ? tf('ops.left_with', { time: localTime(s.left_at, tz), name: who.name, relation: who.relation })
                              : tf('ops.left_at', { time: localTime(s.left_at, tz) })}
                          </Typography.Text>
                        </div>
                      </div>
                    </List.Item>
                  );
                }}
              />
            )}
          </Card>
        </Col>
      </Row>
      <StudentDayDrawer student={open} day={day} onClose={() => setOpen(null)} onChanged={refresh} />
    </div>
  );
}
