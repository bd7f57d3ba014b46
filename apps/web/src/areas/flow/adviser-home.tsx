import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Card, Col, List, Row, Space, Statistic, Tag, Typography } from 'antd';
import type { Page, StaffClockRecord, TeacherTodayTask } from '@wantuo/shared';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError, get, post } from '../../api/http';
import { feedback } from '../../api/feedback';
import { EmptyState, LoadError, Loading } from '../../components/states';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../stores/preferences';
import { localTime, useSchoolZone } from '../../lib/school-time';
import { useFlowLive } from './use-flow-live';

interface FlowAlert {
  id: number;
  student_name: string;
  class_name: string;
  kind: 'not_picked_up' | 'not_entered' | 'absent' | 'after_closing';
  raised_at: string;
}

const TILES: { key: MessageKey; color: string; value: (d: TeacherTodayTask) => number }[] = [
  { key: 'ops.to_pick_up', color: '#8c8c8c', value: (d) => d.to_pick_up },
  { key: 'flow.state_picked_up', color: '#1677ff', value: (d) => d.states.picked_up },
  { key: 'flow.state_in_centre', color: '#52c41a', value: (d) => d.states.in_centre },
  { key: 'ops.to_feed', color: '#13c2c2', value: (d) => d.to_feed },
  { key: 'ops.to_tutor', color: '#faad14', value: (d) => d.to_tutor },
  { key: 'ops.tutoring', color: '#eb2f96', value: (d) => d.tutoring },
  { key: 'flow.state_left', color: '#722ed1', value: (d) => d.states.left },
  { key: 'flow.state_on_leave', color: '#fa8c16', value: (d) => d.states.on_leave },
];

const LINKS: { to: string; label: MessageKey }[] = [
  { to: '/AStudentAttendance', label: 'ops.link_attendance' },
  { to: '/AStudentTransport', label: 'ops.link_transport' },
  { to: '/ALeaveReview', label: 'ops.link_leave' },
  { to: '/teacher_today', label: 'ops.link_today' },
  { to: '/A_data', label: 'ops.link_data' },
];

/** The head teacher's home (/AAccountManagement): today's live counts per step, open alerts, clock-in and the boards. */
export default function AdviserHome() {
  const t = useT();
  const tz = useSchoolZone();
  const today = useQuery({ queryKey: ['teacherTodayTask'], queryFn: () => get<TeacherTodayTask>('teacherTodayTask'), refetchInterval: 30_000 });
  const alerts = useQuery({
    queryKey: ['flowAlerts', 'open'],
    queryFn: () => get<Page<FlowAlert>>('flowAlerts', { open_only: 1, limit: 50 }),
    refetchInterval: 60_000,
  });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refresh = () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void today.refetch();
      void alerts.refetch();
    }, 150);
  };
  const { live } = useFlowLive(refresh, refresh);
  const [clocking, setClocking] = useState(false);

  // today's record comes with teacherTodayTask; after clocking in or out the list is read again
  const doClock = async (action: 'teacherClockIn' | 'teacherClockOut') => {
    setClocking(true);
    try {
      await post<StaffClockRecord>(action, {}, { silent: true });
      feedback().message.success(t(action === 'teacherClockIn' ? 'ops.clock_in_done' : 'ops.clock_out_done'));
    } catch (e) {
      feedback().message.error(e instanceof ApiError ? e.message : t('common.load_failed'));
    } finally {
      await today.refetch();
      setClocking(false);
    }
  };

  if (today.isLoading) return <Loading />;
  if (today.isError) return <LoadError onRetry={() => today.refetch()} />;
  const d = today.data!;
  const inAt = d.clock?.clock_in_at ?? null;
  const outAt = d.clock?.clock_out_at ?? null;

  return (
    <div>
      <Card
        size="small"
        title={`${t('flow.today')} ${d.day} · ${t('ops.total', { n: d.total })}`}
        extra={<Badge status={live ? 'success' : 'default'} text={live ? t('board.live') : t('board.offline')} />}
        style={{ marginBottom: 12 }}
      >
        {d.classes.length === 0 ? (
          <EmptyState description={t('ops.no_class')} />
        ) : (
          <>
            <div style={{ marginBottom: 8 }}>
              {d.classes.map((c) => (
                <Tag key={c.id} color={c.head_teacher ? 'blue' : 'default'}>
                  {c.name}
                </Tag>
              ))}
            </div>
            <Row gutter={[12, 12]}>
              {TILES.map((x) => (
                <Col xs={12} sm={8} md={6} xl={3} key={x.key}>
                  <Statistic title={t(x.key)} value={x.value(d)} styles={{ content: { color: x.color } }} />
                </Col>
              ))}
            </Row>
          </>
        )}
      </Card>
      <Row gutter={[12, 12]}>
        <Col xs={24} md={12}>
          <Card size="small" title={t('ops.clock_title')} style={{ height: '100%' }}>
            <Typography.Paragraph>
              {outAt
                ? t('ops.clocked_out', { in: localTime(inAt, tz) || '-', out: localTime(outAt, tz) })
                : inAt
                  ? t('ops.clocked_in', { time: localTime(inAt, tz) || '-' })
                  : t('ops.not_clocked')}
            </Typography.Paragraph>
            <Space wrap>
              <Button type="primary" size="large" loading={clocking} disabled={!!inAt} onClick={() => void doClock('teacherClockIn')}>
                {t('ops.clock_in')}
              </Button>
              <Button size="large" loading={clocking} disabled={!inAt || !!outAt} onClick={() => void doClock('teacherClockOut')}>
                {t('ops.clock_out')}
              </Button>
            </Space>
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card size="small" title={t('ops.links')} style={{ height: '100%' }}>
            <Space wrap>
              {LINKS.map((l) => (
                <Link key={l.to} to={l.to}>
                  <Button>{t(l.label)}</Button>
                </Link>
              ))}
            </Space>
          </Card>
        </Col>
        <Col xs={24}>
          <Card size="small" title={t('board.alerts')}>
            {alerts.isLoading ? (
              <Loading />
            ) : alerts.isError ? (
              <LoadError onRetry={() => alerts.refetch()} />
            ) : !alerts.data?.list.length ? (
              <EmptyState description={t('ops.no_alerts')} />
            ) : (
              <List
                size="small"
                dataSource={alerts.data.list}
                renderItem={(a) => (
                  <List.Item>
                    <span>
                      <Tag color="red">{t(`board.alert_${a.kind}` as MessageKey)}</Tag> {a.student_name}（{a.class_name}）
                    </span>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {localTime(a.raised_at, tz)}
                    </Typography.Text>
                  </List.Item>
                )}
              />
            )}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
