import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, DatePicker, Form, Input, Modal, Select, Space, Tabs, Tag, Tooltip, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { formatFen, type BillCheckRow, type BillDifferenceRow } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { feedback } from '../../api/feedback';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { localDateTime, localDay } from '../../lib/school-time';
import { billStrings } from './bills-strings';

const PAGE = 20;
type CheckState = BillCheckRow['state'];
type DiffState = BillDifferenceRow['state'];
type School = { id: number; name: string };

const CHECK_COLOR: Record<CheckState, string> = { matched: 'green', differences: 'orange', failed: 'red' };
const KIND_COLOR: Record<BillDifferenceRow['kind'], string> = { missing_here: 'volcano', missing_there: 'gold', amount_differs: 'magenta' };
const CHECK_STATES: CheckState[] = ['matched', 'differences', 'failed'];

const money = (fen: number | null) => (fen === null ? '-' : <span style={{ fontVariantNumeric: 'tabular-nums' }}>{formatFen(fen)}</span>);
const mono = (text: string | null) =>
  text ? (
    <Typography.Text copyable={{ text }} style={{ fontFamily: 'monospace', fontSize: 12, overflowWrap: 'anywhere' }}>
      {text}
    </Typography.Text>
  ) : (
    '-'
  );

/** The check a differences list is narrowed to (from a check's row). */
interface CheckFilter {
  id: number;
  label: string;
}

/**
 * /operator_bills 对账: each merchant's reconciliation of each day (the platform's own merchant and every school's
 * sub-merchant), the differences found with their resolution, and reconciling a past day again.
 */
export default function OperatorBills() {
  const s = billStrings.use();
  const [tab, setTab] = useState<'checks' | 'differences'>('checks');
  const [checkFilter, setCheckFilter] = useState<CheckFilter | null>(null);
  const [rechecking, setRechecking] = useState(false);
  // the count on the tab: open differences of every merchant (one row asked for, its total read)
  const open = useQuery({
    queryKey: queryKey('billDifferences', { state: 'open', page: 1, limit: 1 }),
    queryFn: () => get('billDifferences', { state: 'open', page: 1, limit: 1 }),
  });
  const openCount = open.data?.total ?? 0;
  return (
    <Card
      title={s('title')}
      extra={
        <Button type="primary" onClick={() => setRechecking(true)} data-testid="bills-recheck">
          {s('recheck')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{s('what')}</Typography.Paragraph>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as 'checks' | 'differences')}
        items={[
          {
            key: 'checks',
            label: s('tab_checks'),
            children: (
              <Checks
                onShowDifferences={(f) => {
                  setCheckFilter(f);
                  setTab('differences');
                }}
              />
            ),
          },
          {
            key: 'differences',
            label: openCount ? s('tab_differences_open', { n: openCount }) : s('tab_differences'),
            children: <Differences checkFilter={checkFilter} onClearCheck={() => setCheckFilter(null)} />,
          },
        ]}
      />
      {rechecking && <RecheckDialog onClose={() => setRechecking(false)} />}
    </Card>
  );
}

/** Schools by name, searched on the server (schoolList), the picked one kept while another search runs. */
function SchoolSelect({
  value,
  onChange,
  placeholder,
  width = 240,
}: {
  value: School | null;
  onChange: (v: School | null) => void;
  placeholder: string;
  width?: number | string;
}) {
  const [keyword, setKeyword] = useState('');
  const q = useQuery({
    queryKey: queryKey('schoolList', { page: 1, limit: 20, ...(keyword ? { keyword } : {}) }),
    queryFn: () => get('schoolList', { page: 1, limit: 20, ...(keyword ? { keyword } : {}) }),
    placeholderData: keepPreviousData,
  });
  const options = (q.data?.list ?? []).map((r) => ({ value: r.id, label: r.name }));
  if (value && !options.some((o) => o.value === value.id)) options.unshift({ value: value.id, label: value.name });
  return (
    <Select<number>
      allowClear
      showSearch={{ filterOption: false, onSearch: (v) => setKeyword(v.trim().slice(0, 50)) }}
      loading={q.isFetching}
      placeholder={placeholder}
      aria-label={placeholder}
      value={value?.id}
      onChange={(id) => {
        const o = options.find((x) => x.value === id);
        onChange(o ? { id: o.value, name: o.label } : null);
        setKeyword('');
      }}
      options={options}
      style={{ width, maxWidth: '100%' }}
    />
  );
}

function MerchantCell({ name, sub }: { name: string | null; sub?: string }) {
  const s = billStrings.use();
  return (
    <div>
      <div>{name ?? <Tag>{s('platform')}</Tag>}</div>
      {sub && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {sub}
        </Typography.Text>
      )}
    </div>
  );
}

/**
 * The state and school filters of one of the page's server-paged lists, and its page: a filter changed goes back to
 * page 1. `filters` is what the list's action is asked with.
 */
function useListFilters<S extends string>() {
  const [state, setStateOf] = useState<S | undefined>();
  const [school, setSchoolOf] = useState<School | null>(null);
  const [page, setPage] = useState(1);
  return {
    state,
    school,
    page,
    setPage,
    setState: (v: S | 'all') => {
      setStateOf(v === 'all' ? undefined : v);
      setPage(1);
    },
    setSchool: (v: School | null) => {
      setSchoolOf(v);
      setPage(1);
    },
    filters: { ...(state ? { state } : {}), ...(school ? { school_id: school.id } : {}) },
  };
}

function Checks({ onShowDifferences }: { onShowDifferences: (f: CheckFilter) => void }) {
  const s = billStrings.use();
  const { state, setState, school, setSchool, page, setPage, filters } = useListFilters<CheckState>();
  const q = useQuery({
    queryKey: queryKey('billChecks', { ...filters, page, limit: PAGE }),
    queryFn: () => get('billChecks', { ...filters, page, limit: PAGE }),
    placeholderData: keepPreviousData,
  });
  const filtered = Object.keys(filters).length > 0;
  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select<CheckState | 'all'>
          style={{ width: 140 }}
          aria-label={s('state')}
          value={state ?? 'all'}
          onChange={setState}
          options={[{ value: 'all', label: s('all_states') }, ...CHECK_STATES.map((x) => ({ value: x, label: s(`state_${x}`) }))]}
        />
        <SchoolSelect value={school} placeholder={s('school_search')} onChange={setSchool} />
      </Space>
      <ServerTable<BillCheckRow>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        size="middle"
        scroll={{ x: 960 }}
        data-testid="bill-checks"
        locale={{ emptyText: <EmptyState description={filtered ? s('checks_empty_filtered') : s('checks_empty')} /> }}
        columns={[
          { title: s('date'), key: 'date', width: 105, render: (_, r) => r.bill_date },
          { title: s('merchant'), key: 'merchant', render: (_, r) => <MerchantCell name={r.school_name} /> },
          { title: s('sub_mchid'), key: 'no', width: 120, render: (_, r) => <span style={{ fontFamily: 'monospace' }}>{r.sub_mchid}</span> },
          {
            title: s('state'),
            key: 'state',
            width: 90,
            render: (_, r) => {
              const tag = <Tag color={CHECK_COLOR[r.state]}>{s(`state_${r.state}`)}</Tag>;
              return r.error ? <Tooltip title={r.error}>{tag}</Tooltip> : tag;
            },
          },
          { title: s('lines'), key: 'lines', width: 85, align: 'right', render: (_, r) => r.bill_lines },
          { title: s('payments'), key: 'paid', width: 110, align: 'right', render: (_, r) => money(r.payments_fen) },
          { title: s('refunds'), key: 'refunded', width: 110, align: 'right', render: (_, r) => money(r.refunds_fen) },
          {
            title: s('differences'),
            key: 'diffs',
            width: 70,
            align: 'right',
            render: (_, r) =>
              r.differences > 0 ? (
                <Button
                  type="link"
                  size="small"
                  style={{ padding: 0 }}
                  aria-label={s('show_differences')}
                  onClick={() =>
                    onShowDifferences({ id: r.id, label: s('check_filter', { date: r.bill_date, merchant: r.school_name ?? s('platform') }) })
                  }
                >
                  {r.differences}
                </Button>
              ) : (
                0
              ),
          },
          { title: s('checked_at'), key: 'at', width: 140, render: (_, r) => localDateTime(r.checked_at) },
        ]}
      />
    </>
  );
}

function Differences({ checkFilter, onClearCheck }: { checkFilter: CheckFilter | null; onClearCheck: () => void }) {
  const s = billStrings.use();
  const list = useListFilters<DiffState>();
  const { state, setState, school, setSchool, page, setPage } = list;
  const [resolving, setResolving] = useState<BillDifferenceRow | null>(null);
  const filters = { ...list.filters, ...(checkFilter ? { check_id: checkFilter.id } : {}) };
  const q = useQuery({
    queryKey: queryKey('billDifferences', { ...filters, page, limit: PAGE }),
    queryFn: () => get('billDifferences', { ...filters, page, limit: PAGE }),
    placeholderData: keepPreviousData,
  });
  const filtered = Object.keys(filters).length > 0;
  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select<DiffState | 'all'>
          style={{ width: 200 }}
          aria-label={s('diff_state')}
          value={state ?? 'all'}
          onChange={setState}
          options={[
            { value: 'all', label: `${s('all_differences')}（${s('open_first')}）` },
            { value: 'open', label: s('diff_open') },
            { value: 'resolved', label: s('diff_resolved') },
          ]}
        />
        <SchoolSelect value={school} placeholder={s('school_search')} onChange={setSchool} />
        {checkFilter && (
          <Tag
            closable
            color="blue"
            onClose={() => {
              onClearCheck();
              setPage(1);
            }}
          >
            {checkFilter.label}
          </Tag>
        )}
      </Space>
      <ServerTable<BillDifferenceRow>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        size="middle"
        scroll={{ x: 1040 }}
        data-testid="bill-differences"
        locale={{ emptyText: <EmptyState description={filtered ? s('differences_empty_filtered') : s('differences_empty')} /> }}
        columns={[
          { title: s('date'), key: 'date', width: 105, render: (_, r) => r.bill_date },
          { title: s('merchant'), key: 'merchant', width: 150, render: (_, r) => <MerchantCell name={r.school_name} sub={r.sub_mchid} /> },
          { title: s('kind'), key: 'kind', width: 125, render: (_, r) => <Tag color={KIND_COLOR[r.kind]}>{s(`kind_${r.kind}`)}</Tag> },
          { title: s('line'), key: 'line', width: 60, render: (_, r) => s(`line_${r.line}`) },
          {
            title: s('numbers'),
            key: 'numbers',
            width: 200,
            render: (_, r) => (
              <div>
                <div>{mono(r.out_trade_no)}</div>
                {r.out_refund_no && (
                  <div>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {s('out_refund_no')}{' '}
                    </Typography.Text>
                    {mono(r.out_refund_no)}
                  </div>
                )}
              </div>
            ),
          },
          { title: s('ours'), key: 'ours', width: 95, align: 'right', render: (_, r) => money(r.ours_fen) },
          { title: s('theirs'), key: 'theirs', width: 95, align: 'right', render: (_, r) => money(r.theirs_fen) },
          {
            title: s('diff_state'),
            key: 'state',
            render: (_, r) =>
              r.state === 'open' ? (
                <Tag color="orange">{s('diff_open')}</Tag>
              ) : (
                <div>
                  <Tag color="green">{s('diff_resolved')}</Tag>
                  <div style={{ overflowWrap: 'anywhere' }}>{r.resolution}</div>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {s('resolved_line', { name: r.resolved_by_name ?? '-', at: localDateTime(r.resolved_at) })}
                  </Typography.Text>
                </div>
              ),
          },
          {
            title: s('actions'),
            key: 'actions',
            width: 70,
            fixed: 'right',
            render: (_, r) =>
              r.state === 'open' ? (
                <Button type="link" size="small" onClick={() => setResolving(r)}>
                  {s('resolve')}
                </Button>
              ) : null,
          },
        ]}
      />
      {resolving && <ResolveDialog row={resolving} onClose={() => setResolving(null)} />}
    </>
  );
}

/** Marks a difference resolved with what was done (the server keeps who and when). */
function ResolveDialog({ row, onClose }: { row: BillDifferenceRow; onClose: () => void }) {
  const s = billStrings.use();
  const qc = useQueryClient();
  const [form] = Form.useForm<{ resolution: string }>();
  const resolve = useAction('resolveBillDifference', {
    success: s('resolved'),
    invalidates: ['billDifferences'],
    onDone: onClose,
    // a difference someone else resolved meanwhile: the list is read again to show it
    onError: () => void qc.invalidateQueries({ queryKey: queryKey('billDifferences') }),
  });
  return (
    <Modal
      open
      title={s('resolve_title', { no: row.out_refund_no ?? row.out_trade_no })}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={resolve.busy}
      width={460}
    >
      <Typography.Paragraph>
        <Tag color={KIND_COLOR[row.kind]}>{s(`kind_${row.kind}`)}</Tag>
        {s(`line_${row.line}`)} · {s('ours')} {row.ours_fen === null ? '-' : formatFen(row.ours_fen)} · {s('theirs')}{' '}
        {row.theirs_fen === null ? '-' : formatFen(row.theirs_fen)}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => void resolve.run({ id: row.id, resolution: v.resolution.trim() })}>
        <Form.Item
          name="resolution"
          label={s('resolution')}
          rules={[{ validator: (_, v) => ((v ?? '').trim().length >= 2 ? Promise.resolve() : Promise.reject(new Error(s('resolution_required')))) }]}
        >
          <Input.TextArea maxLength={200} showCount autoSize={{ minRows: 2, maxRows: 4 }} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 重新对账: one merchant's bill of one past day (a school's sub-merchant, or the platform's own without a school). */
function RecheckDialog({ onClose }: { onClose: () => void }) {
  const s = billStrings.use();
  const [form] = Form.useForm<{ date: Dayjs | null }>();
  const [school, setSchool] = useState<School | null>(null);
  // the operator has no school: the days are the platform's (the default zone's), and only one that has ended
  const today = localDay();
  const check = useAction('checkBill', {
    invalidates: ['billChecks', 'billDifferences'],
    onDone: (r) => {
      const text =
        r.state === 'matched'
          ? s('recheck_done_matched', { date: r.bill_date })
          : r.state === 'differences'
            ? s('recheck_done_differences', { date: r.bill_date, n: r.differences })
            : s('recheck_done_failed', { date: r.bill_date, error: r.error ?? '' });
      if (r.state === 'failed') feedback().message.error(text);
      else if (r.state === 'differences') feedback().message.info(text);
      else feedback().message.success(text);
      onClose();
    },
  });
  return (
    <Modal open title={s('recheck_title')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={check.busy} width={460}>
      <Typography.Paragraph type="secondary">{s('recheck_hint')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) => void check.run({ bill_date: v.date!.format('YYYY-MM-DD'), ...(school ? { school_id: school.id } : {}) })}
      >
        <Form.Item name="date" label={s('recheck_date')} rules={[{ required: true, message: s('recheck_date_required') }]}>
          <DatePicker inputReadOnly style={{ width: '100%' }} disabledDate={(d) => d.format('YYYY-MM-DD') >= today} />
        </Form.Item>
        <Form.Item label={s('recheck_school')}>
          <SchoolSelect value={school} onChange={setSchool} placeholder={s('platform')} width="100%" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
