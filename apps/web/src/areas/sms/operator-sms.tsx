import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Flex, Row, Space, Statistic, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import type { SmsOverview } from '@wantuo/shared';
import { get } from '../../api/http';
import { LoadError, Loading } from '../../components/states';
import { SmsMessagesTable, SmsUsageTable, useKindLabel } from './sms-tables';
import { providerKey, smsStrings } from './strings';
import { queryKey } from '../../api/query';

type Gateway = SmsOverview['gateways'][number];
const COUNT_KEYS = ['total', 'sent', 'delivered', 'failed', 'waiting', 'units'] as const;
const COUNT_COLOR: Partial<Record<(typeof COUNT_KEYS)[number], string>> = { delivered: '#389e0d', failed: '#cf1322', waiting: '#d48806' };

/** /operator_sms 短信通道: the gateways and their templates, the report callbacks, today's counts, every school's usage and texts. */
export default function OperatorSms() {
  const s = smsStrings.use();
  const q = useQuery({ queryKey: queryKey('smsOverview'), queryFn: () => get('smsOverview') });
  return (
    <Flex vertical gap={16}>
      {q.isLoading ? (
        <Card>
          <Loading />
        </Card>
      ) : q.isError || !q.data ? (
        <Card>
          <LoadError onRetry={() => void q.refetch()} />
        </Card>
      ) : (
        <Overview o={q.data} />
      )}
      <Card>
        <Tabs
          items={[
            { key: 'usage', label: s('op.usage'), children: <SmsUsageTable operator /> },
            { key: 'messages', label: s('op.messages'), children: <SmsMessagesTable operator /> },
          ]}
        />
      </Card>
    </Flex>
  );
}

function Overview({ o }: { o: SmsOverview }) {
  const s = smsStrings.use();
  const origin = window.location.origin;
  return (
    <>
      <Card
        title={s('op.gateways')}
        extra={
          <Space wrap size={4}>
            <span>{s('op.provider')}</span>
            <Tag color="blue">{s(providerKey(o.provider))}</Tag>
            <span>{s('op.fallback')}</span>
            {o.fallback ? <Tag color="purple">{s(providerKey(o.fallback))}</Tag> : <Tag>{s('op.no_fallback')}</Tag>}
          </Space>
        }
      >
        {o.gateways.length === 0 ? (
          <Alert type="warning" showIcon title={s('op.no_gateways')} />
        ) : (
          <Row gutter={[16, 16]}>
            {o.gateways.map((g) => (
              <Col key={g.provider} xs={24} xl={12}>
                <GatewayCard g={g} />
              </Col>
            ))}
          </Row>
        )}
      </Card>

      {o.report_paths.length > 0 && (
        <Card title={s('op.reports')}>
          <Flex vertical gap={8}>
            {o.report_paths.map((p) => (
              <Flex key={p.provider} gap={8} wrap align="baseline">
                <Tag>{s(providerKey(p.provider))}</Tag>
                <Typography.Text code copyable={{ text: `${origin}${p.path}?token=` }} style={{ wordBreak: 'break-all' }}>
                  {`${origin}${p.path}`}
                </Typography.Text>
              </Flex>
            ))}
            <Alert type="info" showIcon title={s('op.reports_hint')} />
          </Flex>
        </Card>
      )}

      <Card title={s('op.today')}>
        <Row gutter={[16, 16]}>
          {COUNT_KEYS.map((k) => (
            <Col key={k} xs={12} sm={8} lg={4}>
              <Statistic
                title={s(`count.${k}`)}
                value={o.today[k]}
                styles={COUNT_COLOR[k] && o.today[k] > 0 ? { content: { color: COUNT_COLOR[k] } } : undefined}
              />
            </Col>
          ))}
        </Row>
      </Card>
    </>
  );
}

/** One gateway: its kinds and template codes, the kinds without one highlighted. */
function GatewayCard({ g }: { g: Gateway }) {
  const s = smsStrings.use();
  const kindLabel = useKindLabel();
  return (
    <Card
      size="small"
      type="inner"
      title={
        <Space size={6} wrap>
          <span>{s(providerKey(g.provider))}</span>
          {g.sandbox && (
            <Tooltip title={s('op.sandbox_hint')}>
              <Tag color="gold">{s('op.sandbox')}</Tag>
            </Tooltip>
          )}
        </Space>
      }
      extra={
        g.missing > 0 ? (
          <Tooltip title={s('op.missing_hint')}>
            <Tag color="error">{s('op.missing', { n: g.missing })}</Tag>
          </Tooltip>
        ) : (
          <Tag color="success">{s('op.complete')}</Tag>
        )
      }
    >
      <Table
        size="small"
        rowKey="kind"
        pagination={false}
        dataSource={g.templates}
        onRow={(t) => (t.code ? {} : { style: { background: '#fff1f0' } })}
        columns={[
          {
            title: s('col.kind'),
            key: 'kind',
            render: (_, t) => (
              <Space size={6} wrap>
                <span>{kindLabel(t.kind)}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t.kind}
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: s('op.template_code'),
            key: 'code',
            render: (_, t) => (t.code ? <Typography.Text code>{t.code}</Typography.Text> : <Tag color="error">{s('op.no_template')}</Tag>),
          },
        ]}
      />
    </Card>
  );
}
