import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Card, Col, List, Row, Space, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError, get, post } from '../../api/http';
import { feedback } from '../../api/feedback';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useT } from '../../stores/preferences';
import { localTime, useSchoolZone } from '../../lib/school-time';
import { useFlowLive } from './use-flow-live';
import { flowStrings, type FlowKey } from './strings';
import { TodayTiles } from './today-tiles';

const LINKS: { to: string; label: FlowKey }[] = [
  { to: '/AStudentAttendance', label: 'ops.link_attendance' },
  { to: '/AStudentTransport', label: 'ops.link_transport' },
  { to: '/ALeaveReview', label: 'ops.link_leave' },
  { to: '/teacher_today', label: 'ops.link_today' },
  { to: '/A_data', label: 'ops.link_data' },
];

/** The head teacher's home (/AAccountManagement): today's live counts per step, open alerts, clock-in and the boards. */
export default function AdviserHome() {
  const t = useT();
  const tf = flowStrings.use();
  const tz = useSchoolZone();
  const today = useQuery({ queryKey: ['teacherTodayTask'], queryFn: () => get('teacherTodayTask'), refetchInterval: 30_000 });
  const alerts = useQuery({
    queryKey: ['flowAlerts', 'open'],
    queryFn: () => get('flowAlerts', { open_only: 1, limit: 50 }),
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
      await post(action, {}, { silent: true });
      feedback().message.success(tf(action === 'teacherClockIn' ? 'ops.clock_in_done' : 'ops.clock_out_done'));
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
        title={`${tf('flow.today')} ${d.day} · ${tf('ops.total', { n: d.total })}`}
        extra={<Badge status={live ? 'success' : 'default'} text={live ? tf('board.live') : tf('board.offline')} />}
        style={{ marginBottom: 12 }}
      >
        {d.classes.length === 0 ? (
          <EmptyState description={tf('ops.no_class')} />
        ) : (
          <>
            <div style={{ marginBottom: 8 }}>
              {d.classes.map((c) => (
                <Tag key={c.id} color={c.head_teacher ? 'blue' : 'default'}>
                  {c.name}
                </Tag>
              ))}
            </div>
            <TodayTiles d={d} />
          </>
        )}
      </Card>
      <Row gutter={[12, 12]}>
        <Col xs={24} md={12}>
          <Card size="small" title={tf('ops.clock_title')} style={{ height: '100%' }}>
            <Typography.Paragraph>
              {outAt
                ? tf('ops.clocked_out', { in: localTime(inAt, tz) || '-', out: localTime(outAt, tz) })
                : inAt
                  ? tf('ops.clocked_in', { time: localTime(inAt, tz) || '-' })
                  : tf('ops.not_clocked')}
            </Typography.Paragraph>
            <Space wrap>
              <Button type="primary" size="large" loading={clocking} disabled={!!inAt} onClick={() => void doClock('teacherClockIn')}>
                {tf('ops.clock_in')}
              </Button>
              <Button size="large" loading={clocking} disabled={!inAt || !!outAt} onClick={() => void doClock('teacherClockOut')}>
                {tf('ops.clock_out')}
              </Button>
            </Space>
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card size="small" title={tf('ops.links')} style={{ height: '100%' }}>
            <Space wrap>
              {LINKS.map((l) => (
                <Link key={l.to} to={l.to}>
                  <Button>{tf(l.label)}</Button>
                </Link>
              ))}
            </Space>
          </Card>
        </Col>
        <Col xs={24}>
          <Card size="small" title={tf('board.alerts')}>
            {alerts.isLoading ? (
              <Loading />
            ) : alerts.isError ? (
              <LoadError onRetry={() => alerts.refetch()} />
            ) : !alerts.data?.list.length ? (
              <EmptyState description={tf('ops.no_alerts')} />
            ) : (
              <List
                size="small"
                dataSource={alerts.data.list}
                renderItem={(a) => (
                  <List.Item>
                    <span>
                      <Tag color="red">{tf(`board.alert_${a.kind}` as FlowKey)}</Tag> {a.student_name}（{a.class_name}）
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
