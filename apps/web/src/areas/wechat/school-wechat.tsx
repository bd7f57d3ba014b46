import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Col, DatePicker, Flex, Grid, Progress, Row, Space, Statistic, Table, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import {
  WECHAT_STATS_DEFAULT_SCHOOL_DAYS,
  WECHAT_STATS_MAX_DAYS,
  type SchoolWechatStats,
  type WechatDeliveryCounts,
  type WechatStatsRow,
} from '@wantuo/shared';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { get } from '../../api/http';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { useSchoolClock } from '../../lib/school-time';
import { countKey, useKindLabel, wechatStrings } from './strings';
import { queryKey } from '../../api/query';

const PAGE = 20;
export const COUNT_KEYS = [
  'wechat_sent',
  'wechat_delivered',
  'wechat_failed',
  'wechat_waiting',
  'sms_fallback',
  'sms_direct',
] as const satisfies readonly (keyof WechatDeliveryCounts)[];
/** the counts a phone shows (the others are in the totals row) */
const PHONE_COUNTS: readonly (keyof WechatDeliveryCounts)[] = ['wechat_delivered', 'wechat_failed', 'sms_fallback', 'sms_direct'];
const HINTS: Partial<
  Record<keyof WechatDeliveryCounts, 'count.wechat_sent_hint' | 'count.wechat_waiting_hint' | 'count.sms_fallback_hint' | 'count.sms_direct_hint'>
> = {
  wechat_sent: 'count.wechat_sent_hint',
  wechat_waiting: 'count.wechat_waiting_hint',
  sms_fallback: 'count.sms_fallback_hint',
  sms_direct: 'count.sms_direct_hint',
};

type Range = { from: string; to: string } | null;

/** /principal_wechat 微信消息: the school's guardians bound to the official account, and message delivery per day and kind. */
export default function SchoolWechat() {
  const s = wechatStrings.use();
  const phone = !Grid.useBreakpoint().md;
  const kindLabel = useKindLabel();
  const clock = useSchoolClock();
  // null: the API's default (the last 7 school days); the answer says which days it took
  const [range, setRange] = useState<Range>(null);
  const [page, setPage] = useState(1);
  const params = { page, limit: PAGE, ...(range ?? {}) };
  const q = useQuery({
    queryKey: queryKey('schoolWechatStats', params),
    queryFn: () => get('schoolWechatStats', params),
    placeholderData: keepPreviousData,
  });
  const data: SchoolWechatStats | undefined = q.data;
  const counts = phone ? PHONE_COUNTS : COUNT_KEYS;
  const today = clock.day();

  const columns: ColumnsType<WechatStatsRow> = [
    { title: s('col.day'), dataIndex: 'day', width: phone ? 92 : 110 },
    { title: s('col.kind'), dataIndex: 'kind', width: phone ? undefined : 160, render: (k: string) => kindLabel(k) },
    ...counts.map((k) => {
      const hint = HINTS[k];
      return {
        title: hint ? <Tooltip title={s(hint)}>{s(countKey(k))}</Tooltip> : s(countKey(k)),
        dataIndex: k,
        align: 'right' as const,
        width: phone ? undefined : 96,
        render: (v: number) => (k === 'wechat_failed' && v > 0 ? <Typography.Text type="danger">{v}</Typography.Text> : v),
      };
    }),
  ];

  const guardians = data?.guardians;
  const rate = guardians && guardians.total > 0 ? Math.round((guardians.bound / guardians.total) * 100) : 0;

  return (
    <Flex vertical gap={16}>
      <Card styles={phone ? { body: { padding: 12 } } : undefined}>
        <Row gutter={[16, 16]} align="middle">
          <Col xs={14} sm={8}>
            <Statistic
              title={s('school.bound')}
              loading={!guardians && q.isLoading}
              value={guardians?.bound ?? '—'}
              suffix={guardians ? <span style={{ fontSize: 14 }}>/ {guardians.total}</span> : undefined}
            />
          </Col>
          <Col xs={10} sm={6}>
            <Progress type="circle" size={phone ? 64 : 80} percent={rate} aria-label={s('school.rate')} />
          </Col>
          <Col xs={24} sm={10}>
            <Typography.Text type="secondary">{s('school.hint')}</Typography.Text>
          </Col>
        </Row>
      </Card>

      <Card title={s('school.delivery')} styles={phone ? { body: { padding: 12 } } : undefined}>
        <Space wrap style={{ marginBottom: 12, width: '100%' }}>
          <Tooltip title={s('school.range_max', { n: WECHAT_STATS_MAX_DAYS, d: WECHAT_STATS_DEFAULT_SCHOOL_DAYS })}>
            <DatePicker.RangePicker
              aria-label={s('school.range')}
              inputReadOnly
              allowClear={false}
              value={data ? [dayjs(range?.from ?? data.from), dayjs(range?.to ?? data.to)] : null}
              disabledDate={(d: Dayjs, info: { from?: Dayjs }) =>
                d.isAfter(dayjs(today), 'day') || (!!info.from && Math.abs(d.diff(info.from, 'day')) >= WECHAT_STATS_MAX_DAYS)
              }
              onChange={(v) => {
                if (v?.[0] && v[1]) {
                  setRange({ from: v[0].format('YYYY-MM-DD'), to: v[1].format('YYYY-MM-DD') });
                  setPage(1);
                }
              }}
              style={{ maxWidth: 280 }}
            />
          </Tooltip>
        </Space>
        <div data-testid="wechat-stats">
          <ServerTable<WechatStatsRow>
            query={q}
            page={page}
            onPage={setPage}
            pageSize={PAGE}
            size="small"
            rowKey={(r) => `${r.day}-${r.kind}`}
            scroll={phone ? undefined : { x: 860 }}
            pagination={{ size: 'small', hideOnSinglePage: true }}
            locale={{ emptyText: <EmptyState description={s('school.empty')} /> }}
            columns={columns}
            summary={() =>
              data?.total ? (
                <Table.Summary.Row style={{ fontWeight: 600 }}>
                  <Table.Summary.Cell index={0} colSpan={2}>
                    {s('school.totals')}
                  </Table.Summary.Cell>
                  {counts.map((k, i) => (
                    <Table.Summary.Cell key={k} index={i + 2} align="right">
                      {data.totals[k]}
                    </Table.Summary.Cell>
                  ))}
                </Table.Summary.Row>
              ) : null
            }
          />
        </div>
      </Card>
    </Flex>
  );
}
