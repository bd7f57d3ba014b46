import { useQuery } from '@tanstack/react-query';
import { Badge, Card, Col, Empty, List, Row, Statistic, Tabs, Tag, Typography } from 'antd';
import { boardState, type FlowBoardStudent } from '@wantuo/shared';
import { useMemo, useRef } from 'react';
import { get } from '../../api/http';
import { LoadError, Loading } from '../../components/states';
import { localTime, useSchoolZone } from '../../lib/school-time';
import { AttendanceRecords } from './attendance-records';
import { PickupMark } from './pickup-mark';
import { flowStrings, type FlowKey } from './strings';
import { useFlowLive } from './use-flow-live';
import { FLOW_HEX, flowLabel, SHOWN_STATES, type ShownState } from './flow-look';

type BoardColumn = ShownState;
const COLUMNS = SHOWN_STATES;
const COLOR = FLOW_HEX;

/** The board data, refreshed on every committed flow event (debounced) and every 30 s as a fallback. */
export function useLiveBoard() {
  const board = useQuery({ queryKey: ['flowBoard'], queryFn: () => get('flowBoard'), refetchInterval: 30_000 });
  const alerts = useQuery({
    queryKey: ['flowAlerts'],
    queryFn: () => get('flowAlerts', { open_only: 1, limit: 50 }),
    refetchInterval: 60_000,
  });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refresh = () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void board.refetch();
      void alerts.refetch();
    }, 150);
  };
  const { live } = useFlowLive(refresh, refresh);
  return { board, alerts, live };
}

function StudentChip({ s, tf, tz }: { s: FlowBoardStudent; tf: ReturnType<typeof flowStrings.use>; tz?: string }) {
  const time = s.left_at ?? s.tutor_ended_at ?? s.tutor_started_at ?? s.dinner_at ?? s.entered_at ?? s.picked_up_at;
  return (
    <div className="board-chip">
      <strong>{s.name}</strong>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {' '}
        {s.care_class_name}
        {time ? ` · ${localTime(time, tz)}` : ''}
        {s.state === 'in_centre' && s.dinner_at ? ` · ${tf('flow.btn_dinner')}` : ''}
        {s.tutor_started_at && !s.tutor_ended_at ? ` · ${tf('flow.btn_start_tutor')}` : ''}
      </Typography.Text>
      {s.state === 'left' && (s.pickup_verified || s.pickup_override !== null) && (
        <div>
          <PickupMark verified={s.pickup_verified} override={s.pickup_override} />
        </div>
      )}
    </div>
  );
}

/** Head teacher's live attendance board (/AStudentAttendance): the class by state, with the open alerts. */
/** /AStudentAttendance: today's live board, and the attendance records of a date range (clockingInList). */
export default function AttendanceBoard() {
  const tf = flowStrings.use();
  return (
    <Tabs
      items={[
        { key: 'board', label: tf('records.tab_board'), children: <TodayBoard /> },
        { key: 'records', label: tf('records.tab_records'), children: <AttendanceRecords /> },
      ]}
    />
  );
}

function TodayBoard() {
  const tf = flowStrings.use();
  const { board, alerts, live } = useLiveBoard();
  const tz = useSchoolZone();
  const byState = useMemo(() => {
    const m = new Map<BoardColumn, FlowBoardStudent[]>(COLUMNS.map((c) => [c, []]));
    for (const s of board.data?.students ?? []) m.get(boardState(s))!.push(s);
    return m;
  }, [board.data]);
  if (board.isLoading) return <Loading />;
  if (board.isError) return <LoadError onRetry={() => board.refetch()} />;
  return (
    <div>
      <Card
        size="small"
        title={`${tf('board.title')} ${board.data?.day ?? ''}`}
        extra={<Badge status={live ? 'success' : 'default'} text={live ? tf('board.live') : tf('board.offline')} />}
        style={{ marginBottom: 12 }}
      >
        <Row gutter={[12, 12]}>
          {COLUMNS.map((c) => (
            <Col xs={12} sm={8} md={4} key={c}>
              <Statistic title={tf(flowLabel(c))} value={byState.get(c)!.length} styles={{ content: { color: COLOR[c] } }} />
            </Col>
          ))}
        </Row>
      </Card>
      {(alerts.data?.list.length ?? 0) > 0 && (
        <Card size="small" title={tf('board.alerts')} style={{ marginBottom: 12 }}>
          <List
            size="small"
            dataSource={alerts.data!.list}
            renderItem={(a) => (
              <List.Item>
                <Tag color="red">{tf(`board.alert_${a.kind}` as FlowKey)}</Tag> {a.student_name}（{a.class_name}）
                <Typography.Text type="secondary" style={{ marginLeft: 8, fontSize: 12 }}>
                  {localTime(a.raised_at, tz)}
                </Typography.Text>
              </List.Item>
            )}
          />
        </Card>
      )}
      {board.data?.students.length === 0 ? (
        <Empty description={tf('board.empty')} />
      ) : (
        <Row gutter={[12, 12]}>
          {COLUMNS.map((c) => (
            <Col xs={24} md={12} xl={Math.floor(24 / 5)} key={c} style={{ flex: '1 1 0' }}>
              <Card
                size="small"
                title={
                  <span style={{ color: COLOR[c] }}>
                    {tf(flowLabel(c))} {byState.get(c)!.length}
                  </span>
                }
              >
                {byState.get(c)!.length === 0 ? (
                  <Typography.Text type="secondary">-</Typography.Text>
                ) : (
                  byState.get(c)!.map((s) => <StudentChip key={s.id} s={s} tf={tf} tz={tz} />)
                )}
              </Card>
            </Col>
          ))}
        </Row>
      )}
    </div>
  );
}
