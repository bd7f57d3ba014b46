import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Form, Input, Modal, Select, Space, Tabs, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import {
  loggedActionLabel,
  CHILD_DATA_KINDS,
  PRIVACY_REQUEST_KINDS,
  PRIVACY_REQUEST_STATUSES,
  type AccessLogRow,
  type ChildDataKind,
  type PrivacyRequestKind,
  type PrivacyRequestRow,
  type PrivacyRequestStatus,
} from '@wantuo/shared';
import { useState } from 'react';
import { usePreferences } from '../../stores/preferences';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { useSchoolClock } from '../../lib/school-time';
import { privacyConsoleStrings } from './console-strings';
import { privacyStrings, roleLabel } from './strings';

const PAGE = 20;
type Child = { id: number; name: string };
const STATUS_COLOR: Record<PrivacyRequestStatus, string> = { open: 'orange', done: 'green', refused: 'default' };

/**
 * /principal_privacy 隐私与儿童数据 (issue 37): the school's access log (who read, exported or called about which
 * children, server-paged, filtered by child, kind of data and dates) and the guardians' correction and deletion
 * requests, completed or refused with a note; completing a deletion asks for the child's name typed in first.
 */
export default function PrincipalPrivacy() {
  const cs = privacyConsoleStrings.use();
  const [tab, setTab] = useState<'log' | 'requests'>('log');
  // the count on the tab: open requests (one row asked for, its total read)
  const open = useQuery({
    queryKey: queryKey('privacyRequests', { status: 'open', page: 1, limit: 1 }),
    queryFn: () => get('privacyRequests', { status: 'open', page: 1, limit: 1 }),
  });
  const openCount = open.data?.total ?? 0;
  return (
    <Card title={cs('pp.title')}>
      <Typography.Paragraph type="secondary">{cs('pp.intro')}</Typography.Paragraph>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as 'log' | 'requests')}
        items={[
          { key: 'log', label: cs('pp.tab_log'), children: <AccessLog /> },
          {
            key: 'requests',
            label: openCount ? cs('pp.tab_requests_open', { n: openCount }) : cs('pp.tab_requests'),
            children: <Requests />,
          },
        ]}
      />
    </Card>
  );
}

/**
 * A child of the school by name: the school's students are asked for only once a name is typed (a list of them is
 * itself a logged read), the one picked kept while another search runs.
 */
function ChildSelect({ value, onChange }: { value: Child | null; onChange: (v: Child | null) => void }) {
  const cs = privacyConsoleStrings.use();
  const [keyword, setKeyword] = useState('');
  const input = { page: 1, limit: 20, keyword };
  const q = useQuery({
    queryKey: queryKey('studentList', input),
    queryFn: () => get('studentList', input),
    enabled: keyword !== '',
    placeholderData: keepPreviousData,
  });
  const options = keyword ? (q.data?.list ?? []).map((r) => ({ value: r.id, label: r.name })) : [];
  if (value && !options.some((o) => o.value === value.id)) options.unshift({ value: value.id, label: value.name });
  return (
    <Select<number>
      allowClear
      showSearch={{ filterOption: false, onSearch: (v) => setKeyword(v.trim().slice(0, 32)) }}
      loading={q.isFetching}
      placeholder={cs('log.student_search')}
      aria-label={cs('log.student')}
      value={value?.id}
      notFoundContent={null}
      onChange={(id) => {
        const o = options.find((x) => x.value === id);
        onChange(o ? { id: o.value, name: o.label } : null);
        setKeyword('');
      }}
      options={options}
      style={{ width: 200, maxWidth: '100%' }}
    />
  );
}

function AccessLog() {
  const lang = usePreferences((st) => st.lang);
  const s = privacyStrings.use();
  const cs = privacyConsoleStrings.use();
  const clock = useSchoolClock();
  const [child, setChildOf] = useState<Child | null>(null);
  const [what, setWhatOf] = useState<ChildDataKind | undefined>();
  const [range, setRangeOf] = useState<{ from: string; to: string } | null>(null);
  const [page, setPage] = useState(1);
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  const filters = { ...(child ? { student_id: child.id } : {}), ...(what ? { what } : {}), ...(range ?? {}) };
  const input = { ...filters, page, limit: PAGE };
  const q = useQuery({
    queryKey: queryKey('childAccessLog', input),
    queryFn: () => get('childAccessLog', input),
    placeholderData: keepPreviousData,
  });
  const filtered = Object.keys(filters).length > 0;
  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <ChildSelect value={child} onChange={reset(setChildOf)} />
        <Select<ChildDataKind>
          allowClear
          aria-label={cs('log.what')}
          placeholder={cs('log.all_what')}
          style={{ width: 140 }}
          value={what}
          onChange={reset(setWhatOf)}
          options={CHILD_DATA_KINDS.map((k) => ({ value: k, label: s(`what.${k}`) }))}
        />
        <DatePicker.RangePicker
          aria-label={cs('log.range')}
          inputReadOnly
          value={range ? [dayjs(range.from), dayjs(range.to)] : null}
          disabledDate={(d) => d.isAfter(dayjs(clock.day()), 'day')}
          onChange={(v) => reset(setRangeOf)(v?.[0] && v[1] ? { from: v[0].format('YYYY-MM-DD'), to: v[1].format('YYYY-MM-DD') } : null)}
          style={{ maxWidth: 280 }}
        />
      </Space>
      <ServerTable<AccessLogRow>
        query={q}
        page={q.data?.page ?? page}
        onPage={setPage}
        pageSize={q.data?.limit ?? PAGE}
        size="middle"
        scroll={{ x: 960 }}
        data-testid="access-log"
        locale={{ emptyText: <EmptyState description={filtered ? cs('log.empty_filtered') : cs('log.empty')} /> }}
        columns={[
          { title: cs('log.col.time'), key: 'at', width: 160, render: (_, r) => clock.dateTime(r.created_at, true) },
          {
            title: cs('log.col.actor'),
            key: 'actor',
            width: 150,
            render: (_, r) => (
              <>
                {r.actor_name || '-'} <Typography.Text type="secondary">· {roleLabel(s, r.actor_role)}</Typography.Text>
              </>
            ),
          },
          {
            title: cs('log.col.what'),
            key: 'what',
            width: 200,
            render: (_, r) =>
              r.what.map((w) => (
                <Tag key={w} color={w === 'export' || w === 'call' ? 'purple' : 'blue'}>
                  {s(`what.${w}`)}
                </Tag>
              )),
          },
          {
            title: cs('log.col.action'),
            key: 'action',
            width: 150,
            // the action's name in the reader's language, its code beside it for whoever traces it
            render: (_, r) => (
              <Tooltip title={r.action}>
                <span>{loggedActionLabel(r.action, lang === 'en' ? 'en' : 'zh')}</span>
              </Tooltip>
            ),
          },
          { title: cs('log.col.ip'), key: 'ip', width: 130, render: (_, r) => r.ip ?? '-' },
          {
            title: cs('log.col.students'),
            key: 'students',
            render: (_, r) => (
              <span data-testid="log-children">
                {r.students.map((c, i) => (
                  <span key={c.id}>
                    {i > 0 && '、'}
                    <Tooltip title={cs('log.only_child', { name: c.name })}>
                      <Button type="link" size="small" style={{ padding: 0, height: 'auto' }} onClick={() => reset(setChildOf)(c)}>
                        {c.name}
                      </Button>
                    </Tooltip>
                  </span>
                ))}
                {r.student_count > r.students.length && (
                  <Tooltip title={cs('log.more_hint', { n: r.student_count })}>
                    <Tag style={{ marginInlineStart: 6 }}>{cs('log.more', { n: r.student_count - r.students.length })}</Tag>
                  </Tooltip>
                )}
              </span>
            ),
          },
        ]}
      />
    </>
  );
}

type Handling = { row: PrivacyRequestRow; outcome: 'done' | 'refused' };

function Requests() {
  const s = privacyStrings.use();
  const cs = privacyConsoleStrings.use();
  const clock = useSchoolClock();
  const [status, setStatusOf] = useState<PrivacyRequestStatus | undefined>('open');
  const [kind, setKindOf] = useState<PrivacyRequestKind | undefined>();
  const [page, setPage] = useState(1);
  const [handling, setHandling] = useState<Handling | null>(null);
  const filters = { ...(status ? { status } : {}), ...(kind ? { kind } : {}) };
  const input = { ...filters, page, limit: PAGE };
  const q = useQuery({
    queryKey: queryKey('privacyRequests', input),
    queryFn: () => get('privacyRequests', input),
    placeholderData: keepPreviousData,
  });
  const empty = kind ? cs('rq.empty_filtered') : status === 'open' ? cs('rq.empty_open') : status ? cs('rq.empty_filtered') : cs('rq.empty');
  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select<PrivacyRequestStatus | 'all'>
          aria-label={cs('rq.status')}
          style={{ width: 130 }}
          value={status ?? 'all'}
          onChange={(v) => {
            setStatusOf(v === 'all' ? undefined : v);
            setPage(1);
          }}
          options={[{ value: 'all', label: cs('rq.all_status') }, ...PRIVACY_REQUEST_STATUSES.map((x) => ({ value: x, label: s(`pd.status.${x}`) }))]}
        />
        <Select<PrivacyRequestKind | 'all'>
          aria-label={cs('rq.kind')}
          style={{ width: 130 }}
          value={kind ?? 'all'}
          onChange={(v) => {
            setKindOf(v === 'all' ? undefined : v);
            setPage(1);
          }}
          options={[{ value: 'all', label: cs('rq.all_kinds') }, ...PRIVACY_REQUEST_KINDS.map((x) => ({ value: x, label: s(`pd.kind.${x}`) }))]}
        />
      </Space>
      <ServerTable<PrivacyRequestRow>
        query={q}
        page={q.data?.page ?? page}
        onPage={setPage}
        pageSize={q.data?.limit ?? PAGE}
        size="middle"
        scroll={{ x: 1100 }}
        data-testid="privacy-requests"
        locale={{ emptyText: <EmptyState description={empty} /> }}
        columns={[
          {
            title: cs('rq.col.kind'),
            key: 'kind',
            width: 80,
            render: (_, r) => <Tag color={r.kind === 'deletion' ? 'red' : 'blue'}>{s(`pd.kind.${r.kind}`)}</Tag>,
          },
          { title: cs('rq.col.student'), key: 'student', width: 110, render: (_, r) => r.student_name },
          { title: cs('rq.col.guardian'), key: 'guardian', width: 110, render: (_, r) => r.guardian_name || '-' },
          {
            title: cs('rq.col.body'),
            key: 'body',
            render: (_, r) => <span style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{r.body || '-'}</span>,
          },
          { title: cs('rq.col.created'), key: 'created', width: 140, render: (_, r) => clock.dateTime(r.created_at) },
          {
            title: cs('rq.col.due'),
            key: 'due',
            width: 150,
            render: (_, r) =>
              r.status === 'open' && r.overdue ? (
                <Typography.Text type="danger" strong data-testid="request-overdue">
                  {cs('rq.overdue', { day: clock.day(r.due_at) })}
                </Typography.Text>
              ) : (
                clock.day(r.due_at)
              ),
          },
          {
            title: cs('rq.col.status'),
            key: 'status',
            width: 90,
            render: (_, r) => <Tag color={STATUS_COLOR[r.status]}>{s(`pd.status.${r.status}`)}</Tag>,
          },
          {
            title: cs('rq.col.result'),
            key: 'result',
            width: 200,
            render: (_, r) =>
              r.status === 'open' ? (
                '-'
              ) : (
                <>
                  {r.result_note && <div style={{ overflowWrap: 'anywhere' }}>{r.result_note}</div>}
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {cs('rq.handled', { name: r.handled_by_name ?? '-', at: clock.dateTime(r.handled_at) })}
                  </Typography.Text>
                </>
              ),
          },
          {
            title: cs('rq.col.actions'),
            key: 'actions',
            width: 120,
            fixed: 'right',
            render: (_, r) =>
              r.status === 'open' ? (
                <Space size={4}>
                  <Button type="link" size="small" onClick={() => setHandling({ row: r, outcome: 'done' })} data-testid={`request-complete-${r.id}`}>
                    {cs('rq.complete')}
                  </Button>
                  <Button
                    type="link"
                    size="small"
                    danger
                    onClick={() => setHandling({ row: r, outcome: 'refused' })}
                    data-testid={`request-refuse-${r.id}`}
                  >
                    {cs('rq.refuse')}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      {handling && <HandleDialog key={handling.row.id} {...handling} onClose={() => setHandling(null)} />}
    </>
  );
}

/**
 * Completing or refusing a request, with its note (a refusal needs one). Completing a deletion says what the erasure
 * does and stays disabled until the child's name is typed exactly. The API's refusals (another admin handled it meanwhile,
 * the erasure not available yet) are shown by the request wrapper; the list is read again either way.
 */
function HandleDialog({ row, outcome, onClose }: Handling & { onClose: () => void }) {
  const s = privacyStrings.use();
  const cs = privacyConsoleStrings.use();
  const qc = useQueryClient();
  const [form] = Form.useForm<{ note?: string; confirm_name?: string }>();
  const typed = (Form.useWatch('confirm_name', form) as string | undefined) ?? '';
  const erasing = outcome === 'done' && row.kind === 'deletion';
  const handle = useAction('handlePrivacyRequest', {
    success: cs('rq.saved'),
    invalidates: ['privacyRequests'],
    onDone: onClose,
    onError: () => void qc.invalidateQueries({ queryKey: queryKey('privacyRequests') }),
  });
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    void handle.run({ id: row.id, version: row.version, outcome, note: (v.note ?? '').trim() });
  };
  const title = erasing
    ? cs('rq.erase_title', { name: row.student_name })
    : outcome === 'done'
      ? cs('rq.complete_title', { name: row.student_name })
      : cs('rq.refuse_title', { name: row.student_name, kind: s(`pd.kind.${row.kind}`) });
  return (
    <Modal
      open
      title={title}
      okText={erasing ? cs('rq.erase_ok') : outcome === 'done' ? cs('rq.complete') : cs('rq.refuse')}
      cancelText={cs('pp.cancel')}
      okButtonProps={{
        danger: erasing || outcome === 'refused',
        disabled: erasing && typed.trim() !== row.student_name,
        loading: handle.busy,
      }}
      onOk={() => void submit()}
      onCancel={onClose}
      data-testid="handle-dialog"
    >
      {erasing ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={cs('rq.erase_intro')}
          description={
            <>
              <ul style={{ margin: '4px 0', paddingInlineStart: 20 }}>
                <li>{cs('rq.erase_name')}</li>
                <li>{cs('rq.erase_content')}</li>
                <li>{cs('rq.erase_guardians')}</li>
                <li>{cs('rq.erase_money')}</li>
              </ul>
              <strong>{cs('rq.erase_final')}</strong>
            </>
          }
        />
      ) : (
        outcome === 'done' && <Typography.Paragraph type="secondary">{cs('rq.complete_hint')}</Typography.Paragraph>
      )}
      {row.body && (
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>
          {s(`pd.kind.${row.kind}`)} · {row.guardian_name}：{row.body}
        </Typography.Paragraph>
      )}
      <Form form={form} layout="vertical" autoComplete="off">
        <Form.Item
          name="note"
          label={outcome === 'refused' ? cs('rq.refuse_reason') : cs('rq.note')}
          rules={outcome === 'refused' ? [{ required: true, whitespace: true, message: cs('rq.reason_required') }] : []}
        >
          <Input.TextArea maxLength={500} rows={3} showCount />
        </Form.Item>
        {erasing && (
          <Form.Item name="confirm_name" label={cs('rq.erase_type', { name: row.student_name })} style={{ marginBottom: 0 }}>
            <Input maxLength={40} autoComplete="off" data-testid="erase-name" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
