import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Badge, Button, Card, DatePicker, Flex, Input, Select, Space, Tabs, Typography } from 'antd';
import { CONTRACT_STATES, formatFen, type ContractListQuery, type ContractRow, type ContractState } from '@wantuo/shared';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { download } from '../../api/download';
import { get } from '../../api/http';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { StateTag, usePackageLabel, usePackages, useUnitsText } from './common';
import { ContractDrawer } from './contract-drawer';
import { PackageManager } from './packages';
import { SignDialog } from './sign-dialog';
import { contractStrings } from './strings';
import { queryKey } from '../../api/query';

const PAGE = 20;

/** /principal_contract: the school's care contracts (state tabs with counts, search, filters, export, sign) and its packages. */
export default function PrincipalContracts() {
  const s = contractStrings.use();
  const [tab, setTab] = useState<'contracts' | 'packages'>('contracts');
  return (
    <Card>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as typeof tab)}
        items={[
          { key: 'contracts', label: s('page.contracts'), children: <ContractList /> },
          { key: 'packages', label: s('page.packages'), children: <PackageManager /> },
        ]}
      />
    </Card>
  );
}

type StateTab = ContractState | 'all';

function ContractList() {
  const s = contractStrings.use();
  const packages = usePackages();
  const packageLabel = usePackageLabel();
  const unitsText = useUnitsText();
  const [state, setState] = useState<StateTab>('all');
  const [keyword, setKeyword] = useState('');
  const [packageId, setPackageId] = useState<number | undefined>();
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [page, setPage] = useState(1);
  const [signing, setSigning] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);

  const filters: Omit<ContractListQuery, 'page' | 'limit'> = {
    ...(keyword ? { keyword } : {}),
    ...(packageId ? { package_id: packageId } : {}),
    ...(range?.[0] ? { end_from: range[0].format('YYYY-MM-DD') } : {}),
    ...(range?.[1] ? { end_to: range[1].format('YYYY-MM-DD') } : {}),
  };
  const withState = { ...filters, ...(state !== 'all' ? { state } : {}) };
  const q = useQuery({
    queryKey: queryKey('contractList', { page, limit: PAGE, ...withState }),
    queryFn: () => get('contractList', { page, limit: PAGE, ...withState }),
    placeholderData: keepPreviousData,
  });
  const counts = q.data?.counts;
  const total = counts ? CONTRACT_STATES.reduce((n, k) => n + (counts[k] ?? 0), 0) : undefined;
  const filtered = Boolean(keyword || packageId || range || state !== 'all');
  const reset = () => setPage(1);

  const exportList = async () => {
    setExporting(true);
    try {
      await download('contractExport', withState, s('list.export_name'));
    } catch {
      // shown by the request wrapper
    } finally {
      setExporting(false);
    }
  };

  const tabLabel = (k: StateTab) => {
    const n = k === 'all' ? total : counts?.[k];
    return (
      <Space size={4}>
        {s(`state.${k}`)}
        {n !== undefined && (
          <Badge
            count={n}
            showZero
            overflowCount={9999}
            color={k === 'expiring' && n > 0 ? 'orange' : k === 'unpaid' && n > 0 ? 'gold' : '#bfbfbf'}
          />
        )}
      </Space>
    );
  };

  return (
    <>
      <Tabs
        activeKey={state}
        onChange={(k) => {
          setState(k as StateTab);
          reset();
        }}
        items={(['all', ...CONTRACT_STATES] as StateTab[]).map((k) => ({ key: k, label: tabLabel(k) }))}
        size="small"
      />
      <Flex wrap gap={8} justify="space-between" style={{ marginBottom: 16 }}>
        <Flex wrap gap={8}>
          <Input.Search
            allowClear
            placeholder={s('list.search')}
            maxLength={32}
            style={{ width: 240 }}
            onSearch={(v) => {
              setKeyword(v.trim());
              reset();
            }}
          />
          <Select
            allowClear
            placeholder={s('list.package')}
            style={{ width: 220 }}
            value={packageId}
            loading={packages.isLoading}
            onChange={(v: number | undefined) => {
              setPackageId(v);
              reset();
            }}
            options={packages.data?.list.map((p) => ({ value: p.id, label: packageLabel(p) }))}
          />
          <DatePicker.RangePicker
            inputReadOnly
            allowEmpty={[true, true]}
            placeholder={[s('list.end_from'), s('list.end_to')]}
            value={range}
            onChange={(v) => {
              setRange(v && (v[0] || v[1]) ? v : null);
              reset();
            }}
          />
        </Flex>
        <Space>
          <Button onClick={() => void exportList()} loading={exporting}>
            {s('list.export')}
          </Button>
          <Button type="primary" onClick={() => setSigning(true)}>
            {s('list.sign')}
          </Button>
        </Space>
      </Flex>
      <ServerTable<ContractRow>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        scroll={{ x: 1100 }}
        onRow={(r) => ({ onDoubleClick: () => setOpen(r.id) })}
        locale={{ emptyText: <EmptyState description={filtered ? s('list.empty_filtered') : s('list.empty')} /> }}
        columns={[
          {
            title: s('col.student'),
            key: 'student',
            fixed: 'left',
            width: 110,
            render: (_, r) => (
              <div>
                <div>{r.student_name}</div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {r.class_name ?? ''}
                </Typography.Text>
              </div>
            ),
          },
          { title: s('col.state'), key: 'state', width: 90, render: (_, r) => <StateTag state={r.state} /> },
          { title: s('col.package'), dataIndex: 'package_name', width: 140 },
          { title: s('col.period'), key: 'period', width: 190, render: (_, r) => `${r.start_day} ~ ${r.end_day}` },
          { title: s('col.units'), key: 'units', width: 100, render: (_, r) => unitsText(r) },
          { title: s('col.price'), dataIndex: 'price_fen', width: 90, align: 'right', render: (v: number) => formatFen(v) },
          { title: s('col.paid'), dataIndex: 'paid_fen', width: 90, align: 'right', render: (v: number) => formatFen(v) },
          { title: s('col.no'), dataIndex: 'no', width: 180 },
          { title: s('col.guardian'), dataIndex: 'guardian_name', width: 100, render: (v: string | null) => v ?? '-' },
          {
            title: s('col.actions'),
            key: 'actions',
            fixed: 'right',
            width: 80,
            render: (_, r) => (
              <Button type="link" onClick={() => setOpen(r.id)}>
                {s('act.view')}
              </Button>
            ),
          },
        ]}
      />
      {signing && (
        <SignDialog
          onClose={() => setSigning(false)}
          onSigned={(id) => {
            void q.refetch();
            setOpen(id);
          }}
        />
      )}
      <ContractDrawer id={open} onClose={() => setOpen(null)} onChanged={() => void q.refetch()} />
    </>
  );
}
