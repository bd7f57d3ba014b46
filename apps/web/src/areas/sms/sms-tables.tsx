import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DatePicker, Descriptions, Flex, Grid, Input, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import {
  addDays,
  isSmsKind,
  SMS_KIND_NAMES,
  SMS_PROVIDERS,
  SMS_STATES,
  SMS_USAGE_MAX_DAYS,
  type SmsCounts,
  type SmsMessageRow,
  type SmsMessagesQuery,
  type SmsProviderName,
  type SmsState,
  type SmsUsageRow,
} from '@wantuo/shared';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { get } from '../../api/http';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { useSchoolClock } from '../../lib/school-time';
import { kindKey, providerKey, smsStrings, stateKey } from './strings';
import { queryKey } from '../../api/query';

/**
 * The SMS tables both consoles show: the usage per school and day (smsUsage) and the texts themselves (smsMessages).
 * The operator's page passes `operator` (a school column, a school filter); the admin's page leaves it out and the
 * API limits both to their own school.
 */

const PAGE = 20;
const STATE_COLOR: Record<SmsState, string> = { queued: 'default', sending: 'processing', sent: 'cyan', delivered: 'success', failed: 'error' };
const COUNT_KEYS = ['total', 'sent', 'delivered', 'failed', 'waiting', 'units'] as const satisfies readonly (keyof SmsCounts)[];
/** the counts a phone shows (the others are in the totals line) */
const PHONE_COUNTS: readonly (keyof SmsCounts)[] = ['total', 'delivered', 'failed', 'units'];
const MOBILE_FILTER = /^\d{3,11}$/;

type Range = { from: string; to: string };

/** The label of a kind (the raw name for a kind this web does not know yet). */
export function useKindLabel() {
  const s = smsStrings.use();
  return (kind: string) => (isSmsKind(kind) ? s(kindKey(kind)) : kind);
}

export function SmsStateTag({ state }: { state: SmsState }) {
  const s = smsStrings.use();
  return (
    <Tag color={STATE_COLOR[state]} style={{ marginInlineEnd: 0 }}>
      {s(stateKey(state))}
    </Tag>
  );
}

export function ProviderLabel({ provider, handedOver }: { provider: SmsProviderName; handedOver?: boolean }) {
  const s = smsStrings.use();
  return (
    <Space size={4} wrap>
      <span>{s(providerKey(provider))}</span>
      {handedOver && (
        <Tooltip title={s('handed_over_hint')}>
          <Tag color="orange" style={{ marginInlineEnd: 0 }}>
            {s('handed_over')}
          </Tag>
        </Tooltip>
      )}
    </Space>
  );
}

/** The default range: the last 30 days up to today (the API's own default), in the user's school zone. */
function useDefaultRange(): Range {
  const clock = useSchoolClock();
  const today = clock.day();
  return { from: addDays(today, -29), to: today };
}

function RangeFilter({ value, onChange }: { value: Range; onChange: (r: Range) => void }) {
  const s = smsStrings.use();
  const clock = useSchoolClock();
  const today = clock.day();
  const disabled = (d: Dayjs, info: { from?: Dayjs }) =>
    d.isAfter(dayjs(today), 'day') || (!!info.from && Math.abs(d.diff(info.from, 'day')) >= SMS_USAGE_MAX_DAYS);
  return (
    <Tooltip title={s('range_max', { n: SMS_USAGE_MAX_DAYS })}>
      <DatePicker.RangePicker
        aria-label={s('range')}
        inputReadOnly
        allowClear={false}
        value={[dayjs(value.from), dayjs(value.to)]}
        disabledDate={disabled}
        onChange={(v) => {
          if (v?.[0] && v[1]) onChange({ from: v[0].format('YYYY-MM-DD'), to: v[1].format('YYYY-MM-DD') });
        }}
        style={{ maxWidth: 280 }}
      />
    </Tooltip>
  );
}

type SchoolChoice = { value: number; label: string } | undefined;

/** The operator's school filter: a search over schoolList (the selected school keeps its name while searching). */
function SchoolSelect({ value, onChange }: { value: SchoolChoice; onChange: (v: SchoolChoice) => void }) {
  const s = smsStrings.use();
  const [keyword, setKeyword] = useState('');
  const q = useQuery({
    queryKey: queryKey('schoolList', { page: 1, limit: 20, ...(keyword ? { keyword } : {}) }),
    queryFn: () => get('schoolList', { page: 1, limit: 20, ...(keyword ? { keyword } : {}) }),
    placeholderData: keepPreviousData,
  });
  return (
    <Select<{ value: number; label: string }>
      aria-label={s('col.school')}
      labelInValue
      allowClear
      showSearch={{ filterOption: false, onSearch: (v) => setKeyword(v.trim().slice(0, 50)) }}
      placeholder={s('all_schools')}
      style={{ width: 200, maxWidth: '100%' }}
      loading={q.isFetching}
      value={value}
      onChange={(v) => {
        setKeyword('');
        onChange(v ?? undefined);
      }}
      options={(q.data?.list ?? []).map((x) => ({ value: x.id, label: x.name }))}
    />
  );
}

/** The filters both tables start with: the day range, and for the operator the school. */
function RangeAndSchool(props: { operator: boolean; range: Range; school: SchoolChoice; onChange: (range: Range, school: SchoolChoice) => void }) {
  const { operator, range, school, onChange } = props;
  return (
    <>
      <RangeFilter value={range} onChange={(r) => onChange(r, school)} />
      {operator && <SchoolSelect value={school} onChange={(v) => onChange(range, v)} />}
    </>
  );
}

/** Usage per school and day, newest first, with the range's totals as the table's last row. */
export function SmsUsageTable({ operator = false }: { operator?: boolean }) {
  const s = smsStrings.use();
  const phone = !Grid.useBreakpoint().md;
  const [range, setRange] = useState<Range>(useDefaultRange());
  const [school, setSchool] = useState<SchoolChoice>();
  const [page, setPage] = useState(1);
  const params = { page, limit: PAGE, ...range, ...(operator && school ? { school_id: school.value } : {}) };
  const q = useQuery({ queryKey: queryKey('smsUsage', params), queryFn: () => get('smsUsage', params), placeholderData: keepPreviousData });
  const totals = q.data?.totals;
  const counts = phone ? PHONE_COUNTS : COUNT_KEYS;

  const columns: ColumnsType<SmsUsageRow> = [
    { title: s('col.day'), dataIndex: 'day', width: phone ? 96 : 110 },
    ...(operator
      ? [
          {
            title: s('col.school'),
            key: 'school',
            width: 200,
            render: (_: unknown, r: SmsUsageRow) =>
              r.school_id === null ? (
                <Typography.Text type="secondary">{s('platform')}</Typography.Text>
              ) : (
                (r.school_name ?? s('school_n', { id: r.school_id }))
              ),
          },
        ]
      : []),
    ...counts.map((k) => ({
      title:
        k === 'sent' || k === 'units' ? (
          <Tooltip title={s(k === 'sent' ? 'count.sent_hint' : 'count.units_hint')}>{s(`count.${k}`)}</Tooltip>
        ) : (
          s(`count.${k}`)
        ),
      dataIndex: k,
      align: 'right' as const,
      width: phone ? undefined : 90,
      render: (v: number) => (k === 'failed' && v > 0 ? <Typography.Text type="danger">{v}</Typography.Text> : v),
    })),
  ];

  return (
    <div data-testid="sms-usage">
      <Space wrap style={{ marginBottom: 12, width: '100%' }}>
        <RangeAndSchool
          operator={operator}
          range={range}
          school={school}
          onChange={(r, sc) => {
            setRange(r);
            setSchool(sc);
            setPage(1);
          }}
        />
      </Space>
      {totals && (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
          {s('totals_line', { ...range, ...totals })}
        </Typography.Paragraph>
      )}
      <ServerTable<SmsUsageRow>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        size="small"
        rowKey={(r) => `${r.day}-${r.school_id ?? 0}`}
        scroll={phone ? undefined : { x: operator ? 760 : 560 }}
        pagination={{ size: 'small', hideOnSinglePage: true }}
        locale={{ emptyText: <EmptyState description={s('usage_empty')} /> }}
        columns={columns}
        summary={() =>
          totals && q.data?.total ? (
            <Table.Summary.Row style={{ fontWeight: 600 }}>
              <Table.Summary.Cell index={0} colSpan={operator ? 2 : 1}>
                {s('totals')}
              </Table.Summary.Cell>
              {counts.map((k, i) => (
                <Table.Summary.Cell key={k} index={i + (operator ? 2 : 1)} align="right">
                  {totals[k]}
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          ) : null
        }
      />
    </div>
  );
}

/** The failure (or, while it waits, the last transient refusal) of a text: the provider's code and message. */
function ErrorText({ r }: { r: SmsMessageRow }) {
  const s = smsStrings.use();
  if (!r.error_code && !r.error_message) return null;
  // provider codes are long unbroken words (isv.BUSINESS_LIMIT_CONTROL): they may wrap anywhere
  const style = { overflowWrap: 'anywhere' as const };
  const failed = r.state === 'failed';
  return (
    <Flex vertical>
      {r.error_code && (
        <Typography.Text type={failed ? 'danger' : 'secondary'} style={style}>
          {failed ? r.error_code : s('last_error', { e: r.error_code })}
        </Typography.Text>
      )}
      {r.error_message && (
        <Typography.Text type={failed ? 'danger' : 'secondary'} style={{ ...style, fontSize: 12 }}>
          {r.error_message}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** The expanded row: the full text and what the provider answered. */
function MessageDetail({ r }: { r: SmsMessageRow }) {
  const s = smsStrings.use();
  const clock = useSchoolClock();
  const none = s('none');
  return (
    <Descriptions
      size="small"
      column={{ xs: 1, md: 2 }}
      items={[
        {
          key: 'content',
          label: s('content'),
          span: 'filled',
          children: <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{r.content}</Typography.Text>,
        },
        { key: 'provider', label: s('col.provider'), children: <ProviderLabel provider={r.provider} handedOver={r.handed_over} /> },
        { key: 'template', label: s('template'), children: r.template_code ?? none },
        {
          key: 'pid',
          label: s('provider_id'),
          children: r.provider_message_id ? <Typography.Text copyable>{r.provider_message_id}</Typography.Text> : none,
        },
        { key: 'units', label: s('col.units'), children: r.units },
        { key: 'tries', label: s('tries'), children: r.tries },
        { key: 'created', label: s('created_at'), children: clock.dateTime(r.created_at, true) },
        { key: 'sent', label: s('sent_at'), children: clock.dateTime(r.sent_at, true) || none },
        { key: 'done', label: s('done_at'), children: clock.dateTime(r.done_at, true) || none },
        ...(r.error_code || r.error_message ? [{ key: 'error', label: s('col.error'), span: 'filled' as const, children: <ErrorText r={r} /> }] : []),
      ]}
    />
  );
}

type MessageFilters = Pick<SmsMessagesQuery, 'state' | 'kind' | 'provider' | 'mobile'>;

/** The texts, newest first: filters by range, state, kind, provider, mobile (and school for the operator); a row expands to the text. */
export function SmsMessagesTable({ operator = false }: { operator?: boolean }) {
  const s = smsStrings.use();
  const kindLabel = useKindLabel();
  const clock = useSchoolClock();
  const phone = !Grid.useBreakpoint().md;
  const [range, setRange] = useState<Range>(useDefaultRange());
  const [filters, setFilters] = useState<MessageFilters>({});
  const [school, setSchool] = useState<SchoolChoice>();
  const [mobileInvalid, setMobileInvalid] = useState(false);
  const [page, setPage] = useState(1);
  const params = { page, limit: PAGE, ...range, ...filters, ...(operator && school ? { school_id: school.value } : {}) };
  const q = useQuery({ queryKey: queryKey('smsMessages', params), queryFn: () => get('smsMessages', params), placeholderData: keepPreviousData });
  const filter = (patch: MessageFilters) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };
  const schoolName = (r: SmsMessageRow) => (r.school_id === null ? s('platform') : (r.school_name ?? s('school_n', { id: r.school_id })));

  const wide: ColumnsType<SmsMessageRow> = [
    { title: s('col.time'), key: 'time', width: 140, render: (_, r) => clock.dateTime(r.created_at) },
    ...(operator
      ? [
          {
            title: s('col.school'),
            key: 'school',
            width: 150,
            ellipsis: true,
            render: (_: unknown, r: SmsMessageRow) =>
              r.school_id === null ? <Typography.Text type="secondary">{s('platform')}</Typography.Text> : schoolName(r),
          },
        ]
      : []),
    { title: s('col.mobile'), dataIndex: 'mobile', width: 110 },
    { title: s('col.kind'), key: 'kind', width: 110, render: (_, r) => kindLabel(r.kind) },
    { title: s('col.provider'), key: 'provider', width: 130, render: (_, r) => <ProviderLabel provider={r.provider} handedOver={r.handed_over} /> },
    { title: s('col.state'), key: 'state', width: 80, render: (_, r) => <SmsStateTag state={r.state} /> },
    { title: s('col.units'), dataIndex: 'units', width: 56, align: 'right' },
    { title: s('col.error'), key: 'error', width: 240, render: (_, r) => <ErrorText r={r} /> },
  ];
  // a phone: two stacked columns, the rest in the expanded row
  const compact: ColumnsType<SmsMessageRow> = [
    {
      title: `${s('col.time')} / ${s('col.mobile')}`,
      key: 'who',
      width: 118,
      render: (_, r) => (
        <Flex vertical>
          <span>{clock.monthDayTime(r.created_at)}</span>
          <Typography.Text type="secondary">{r.mobile}</Typography.Text>
          {operator && <Typography.Text type="secondary">{schoolName(r)}</Typography.Text>}
        </Flex>
      ),
    },
    {
      title: `${s('col.kind')} / ${s('col.state')}`,
      key: 'what',
      render: (_, r) => (
        <Flex vertical gap={2} align="flex-start">
          <span>{kindLabel(r.kind)}</span>
          <Space size={4} wrap>
            <SmsStateTag state={r.state} />
            {r.handed_over && <Tag color="orange">{s('handed_over')}</Tag>}
          </Space>
          <ErrorText r={r} />
        </Flex>
      ),
    },
  ];

  return (
    <div data-testid="sms-messages">
      <Space wrap style={{ marginBottom: 12, width: '100%' }}>
        <RangeAndSchool
          operator={operator}
          range={range}
          school={school}
          onChange={(r, sc) => {
            setRange(r);
            setSchool(sc);
            setPage(1);
          }}
        />
        <Select<SmsState>
          aria-label={s('col.state')}
          allowClear
          placeholder={s('all_states')}
          style={{ width: 120 }}
          value={filters.state}
          onChange={(v) => filter({ state: v })}
          options={SMS_STATES.map((v) => ({ value: v, label: s(stateKey(v)) }))}
        />
        <Select<string>
          aria-label={s('col.kind')}
          allowClear
          placeholder={s('all_kinds')}
          style={{ width: 150 }}
          value={filters.kind}
          onChange={(v) => filter({ kind: v })}
          options={SMS_KIND_NAMES.map((v) => ({ value: v, label: kindLabel(v) }))}
        />
        <Select<SmsProviderName>
          aria-label={s('col.provider')}
          allowClear
          placeholder={s('all_providers')}
          style={{ width: 130 }}
          value={filters.provider}
          onChange={(v) => filter({ provider: v })}
          options={SMS_PROVIDERS.map((v) => ({ value: v, label: s(providerKey(v)) }))}
        />
        <Flex vertical>
          <Input.Search
            aria-label={s('col.mobile')}
            allowClear
            inputMode="numeric"
            maxLength={11}
            placeholder={s('mobile_search')}
            status={mobileInvalid ? 'error' : undefined}
            style={{ width: 210, maxWidth: '100%' }}
            onChange={() => setMobileInvalid(false)}
            onSearch={(v) => {
              const mobile = v.trim();
              if (mobile && !MOBILE_FILTER.test(mobile)) return setMobileInvalid(true);
              filter({ mobile: mobile || undefined });
            }}
          />
          {mobileInvalid && (
            <Typography.Text type="danger" style={{ fontSize: 12 }}>
              {s('mobile_invalid')}
            </Typography.Text>
          )}
        </Flex>
        {q.data && <Typography.Text type="secondary">{s('messages_total', { n: q.data.total })}</Typography.Text>}
      </Space>
      <ServerTable<SmsMessageRow>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        size="small"
        scroll={phone ? undefined : { x: operator ? 1070 : 920 }}
        pagination={{ size: 'small', hideOnSinglePage: true }}
        locale={{ emptyText: <EmptyState description={s('messages_empty')} /> }}
        expandable={{ expandedRowRender: (r) => <MessageDetail r={r} /> }}
        columns={phone ? compact : wide}
      />
    </div>
  );
}
