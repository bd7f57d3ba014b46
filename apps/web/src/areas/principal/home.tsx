import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Flex, List, Progress, Row, Space, Statistic, Tag, Typography } from 'antd';
import { daysLeft, formatFen } from '@wantuo/shared';
import { useNavigate } from 'react-router';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { LoadError, Loading } from '../../components/states';
import { defineStrings } from '../../i18n/strings';
import { moneyStrings } from '../money/strings';
import { useSchoolClock } from '../../lib/school-time';
import { FLOW_HEX, SHOWN_STATES } from '../flow/flow-look';
import { STATE_COLOR } from '../money/use-school';
import { flowStrings, type FlowKey } from '../flow/strings';

const strings = defineStrings({
  today: { zh: '今日 {day}', en: 'Today, {day}' },
  students: { zh: '在托学生', en: 'Enrolled students' },
  flow: { zh: '今日接送', en: 'Today’s flow' },
  expected: { zh: '未到', en: 'Not arrived' },
  picked_up: { zh: '已接到', en: 'Picked up' },
  in_centre: { zh: '在园', en: 'In the centre' },
  left: { zh: '已离园', en: 'Gone home' },
  on_leave: { zh: '请假', en: 'On leave' },
  alerts: { zh: '未处理提醒', en: 'Open alerts' },
  no_alerts: { zh: '今天暂无异常', en: 'Nothing to look at today' },
  leave: { zh: '待审核请假', en: 'Leave to review' },
  leave_hint: { zh: '由班主任在“请假审核”中处理', en: 'Head teachers decide them under Leave review' },
  account: { zh: '账户余额', en: 'Balance' },
  expires: { zh: '服务到期 {date}', en: 'Service until {date}' },
  days_left: { zh: '剩余 {n} 天', en: '{n} days left' },
  to_account: { zh: '个人中心', en: 'Personal centre' },
  to_data: { zh: '数据中心', en: 'Data centre' },
  refresh: { zh: '刷新', en: 'Refresh' },
  contracts: { zh: '即将到期的合同', en: 'Contracts running out' },
  contracts_unpaid: { zh: '另有 {n} 份待付款', en: '{n} more waiting for payment' },
  contracts_none: { zh: '近期没有到期的合同', en: 'No contract runs out soon' },
  contracts_all: { zh: '合同管理', en: 'Contracts' },
  ends: { zh: '{day} 到期', en: 'ends {day}' },
  units_left: { zh: '剩 {n} 次', en: '{n} left' },
});

const FLOW = SHOWN_STATES;
// the not-yet-arrived in a lighter grey than the flow pages': the bar's empty part
const FLOW_COLOR = { ...FLOW_HEX, expected: '#bfbfbf' };
/** how often the landing page reads today's figures again while it is open */
const REFRESH_MS = 60_000;

/** The admin's landing page (/principalIndex): today at a glance, the account, ways into the details. */
export default function PrincipalHomePage() {
  const s = strings.use();
  const clock = useSchoolClock();
  const m = moneyStrings.use();
  const tf = flowStrings.use();
  const navigate = useNavigate();
  const q = useQuery({ queryKey: queryKey('principalHome'), queryFn: () => get('principalHome'), refetchInterval: REFRESH_MS });
  if (q.isLoading) return <Loading />;
  if (q.isError || !q.data) return <LoadError onRetry={() => void q.refetch()} />;
  const d = q.data;
  const total = FLOW.reduce((n, k) => n + d.flow[k], 0);
  const expires = d.school.service_expires_at;
  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {d.school.name} · {s('today', { day: d.day })}
        </Typography.Title>
        <Button onClick={() => void q.refetch()} loading={q.isFetching}>
          {s('refresh')}
        </Button>
      </Flex>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={16}>
          <Card title={s('flow')} extra={<a onClick={() => navigate('/principal_data')}>{s('to_data')}</a>} style={{ height: '100%' }}>
            <Row gutter={[16, 16]}>
              <Col xs={12} sm={8} md={4}>
                <Statistic title={s('students')} value={d.students} />
              </Col>
              {FLOW.map((k) => (
                <Col key={k} xs={12} sm={8} md={4}>
                  <Statistic title={s(k)} value={d.flow[k]} styles={{ content: { color: FLOW_COLOR[k] } }} />
                </Col>
              ))}
            </Row>
            {total > 0 && (
              <Progress
                aria-hidden
                showInfo={false}
                percent={100}
                success={{ percent: Math.round(((d.flow.left + d.flow.in_centre) / total) * 100), strokeColor: FLOW_COLOR.in_centre }}
                strokeColor={FLOW_COLOR.expected}
                style={{ marginTop: 16 }}
              />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card title={s('account')} extra={<a onClick={() => navigate('/principal_user')}>{s('to_account')}</a>} style={{ height: '100%' }}>
            <Statistic value={formatFen(d.school.balance_fen)} prefix="¥" />
            {expires && (
              <Space wrap style={{ marginTop: 12 }}>
                <Typography.Text>{s('expires', { date: clock.day(expires) })}</Typography.Text>
                <Tag color={STATE_COLOR[d.school.service_state]}>{m(`state.${d.school.service_state}`)}</Tag>
                {daysLeft(expires) > 0 && <Typography.Text type="secondary">{s('days_left', { n: daysLeft(expires) })}</Typography.Text>}
              </Space>
            )}
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card title={s('alerts')} style={{ height: '100%' }}>
            <Statistic value={d.open_alerts} styles={{ content: { color: d.open_alerts ? '#cf1322' : undefined } }} />
            <Space wrap style={{ marginTop: 12 }}>
              {d.open_alerts === 0 ? (
                <Typography.Text type="secondary">{s('no_alerts')}</Typography.Text>
              ) : (
                Object.entries(d.alerts_by_kind).map(([kind, n]) => (
                  <Tag key={kind} color="red">
                    {tf(`board.alert_${kind}` as FlowKey)} {n}
                  </Tag>
                ))
              )}
            </Space>
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card title={s('leave')} style={{ height: '100%' }}>
            <Statistic value={d.pending_leave} />
            <Typography.Text type="secondary">{s('leave_hint')}</Typography.Text>
          </Card>
        </Col>
        <Col xs={24}>
          <Card title={s('contracts')} extra={<a onClick={() => navigate('/principal_contract')}>{s('contracts_all')}</a>}>
            <Space align="baseline" wrap>
              <Statistic value={d.contracts.expiring} styles={{ content: { color: d.contracts.expiring ? '#d46b08' : undefined } }} />
              {d.contracts.unpaid > 0 && <Typography.Text type="secondary">{s('contracts_unpaid', { n: d.contracts.unpaid })}</Typography.Text>}
            </Space>
            {d.contracts.soonest.length === 0 ? (
              <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
                {s('contracts_none')}
              </Typography.Paragraph>
            ) : (
              <List
                size="small"
                dataSource={d.contracts.soonest}
                rowKey="id"
                renderItem={(c) => (
                  <List.Item>
                    <Space wrap>
                      <Typography.Text strong>{c.student_name}</Typography.Text>
                      <Typography.Text type="secondary">{c.package_name}</Typography.Text>
                      <Tag color="orange">{s('ends', { day: c.end_day })}</Tag>
                      {c.units_left !== null && <Tag color="red">{s('units_left', { n: c.units_left })}</Tag>}
                    </Space>
                  </List.Item>
                )}
              />
            )}
          </Card>
        </Col>
      </Row>
    </Flex>
  );
}
