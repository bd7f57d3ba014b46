import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Descriptions, Divider, Drawer, Flex, Grid, Progress, Space, Statistic, Timeline, Typography } from 'antd';
import { formatFen, type ContractDetail, type ContractEvent } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { LoadError, Loading } from '../../components/states';
import { useSchoolClock } from '../../lib/school-time';
import { kindUnit, StateTag, useUnitsText } from './common';
import { CancelDialog, EditDialog, PayOfflineDialog, RenewDialog } from './contract-dialogs';
import { contractStrings } from './strings';
import { queryKey } from '../../api/query';

/** Every list that shows contracts is read again after a change. */
function useContractsRefresh(id: number | null) {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: queryKey('contractInfo', { id }) });
    void qc.invalidateQueries({ queryKey: queryKey('contractList') });
    void qc.invalidateQueries({ queryKey: queryKey('studentContractList') });
  };
}

type Dialog = 'pay' | 'edit' | 'renew' | 'cancel' | null;

/** The detail drawer of one contract (contractInfo): terms, money, use, history; record a payment, edit, renew, cancel. */
export function ContractDrawer({ id, onClose, onChanged }: { id: number | null; onClose: () => void; onChanged?: () => void }) {
  const s = contractStrings.use();
  // the last contract shown stays in the drawer while it closes
  const [shown, setShown] = useState(id);
  if (id !== null && id !== shown) setShown(id);
  const q = useQuery({
    queryKey: queryKey('contractInfo', { id: shown }),
    queryFn: () => get('contractInfo', { id: shown }),
    enabled: shown !== null,
  });
  const [dialog, setDialog] = useState<Dialog>(null);
  const screens = Grid.useBreakpoint();
  const refreshAll = useContractsRefresh(shown);
  const changed = () => {
    refreshAll();
    onChanged?.();
  };
  const c = q.data;
  const open = c?.state === 'active' || c?.state === 'expiring';
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={screens.sm === false ? '100%' : 640}
      title={c ? s('detail.title', { no: c.no }) : ''}
      destroyOnHidden
      extra={
        c && (
          <Space wrap>
            {c.status === 'unpaid' && (
              <Button type="primary" onClick={() => setDialog('pay')}>
                {s('act.pay_offline')}
              </Button>
            )}
            {(c.status === 'unpaid' || c.status === 'active') && <Button onClick={() => setDialog('edit')}>{s('act.edit')}</Button>}
            {(open || c.state === 'expired') && c.status !== 'cancelled' && <Button onClick={() => setDialog('renew')}>{s('act.renew')}</Button>}
            {(c.status === 'unpaid' || c.status === 'active') && (
              <Button danger onClick={() => setDialog('cancel')}>
                {s('act.cancel')}
              </Button>
            )}
          </Space>
        )
      }
    >
      {q.isLoading ? <Loading /> : q.isError || !c ? <LoadError onRetry={() => void q.refetch()} /> : <ContractBody c={c} />}
      {c && dialog === 'pay' && <PayOfflineDialog c={c} onClose={() => setDialog(null)} onDone={changed} />}
      {c && dialog === 'edit' && <EditDialog c={c} onClose={() => setDialog(null)} onDone={changed} />}
      {c && dialog === 'renew' && <RenewDialog c={c} onClose={() => setDialog(null)} onDone={changed} />}
      {c && dialog === 'cancel' && <CancelDialog c={c} onClose={() => setDialog(null)} onDone={changed} />}
    </Drawer>
  );
}

function ContractBody({ c }: { c: ContractDetail }) {
  const s = contractStrings.use();
  const clock = useSchoolClock();
  const unitsText = useUnitsText();
  const yes = (v: boolean) => (v ? s('detail.yes') : s('detail.no'));
  return (
    <>
      <Flex align="center" gap={8} wrap style={{ marginBottom: 16 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {c.student_name}
        </Typography.Title>
        {c.class_name && <Typography.Text type="secondary">{c.class_name}</Typography.Text>}
        <StateTag state={c.state} />
      </Flex>
      <Descriptions size="small" column={{ xs: 1, sm: 2 }} title={s('detail.terms')} bordered>
        <Descriptions.Item label={s('col.package')}>{c.package_name}</Descriptions.Item>
        <Descriptions.Item label={s('detail.kind')}>{s(`kind.${c.kind}`)}</Descriptions.Item>
        <Descriptions.Item label={s('col.period')} span={2}>
          {c.start_day} ~ {c.end_day}
        </Descriptions.Item>
        <Descriptions.Item label={s('col.guardian')}>{c.guardian_name ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={s('detail.auto_renew')}>{yes(c.auto_renew)}</Descriptions.Item>
        <Descriptions.Item label={s('detail.created')}>{clock.dateTime(c.created_at)}</Descriptions.Item>
        {c.renewed_from !== null && <Descriptions.Item label={s('detail.renewed_from')}>#{c.renewed_from}</Descriptions.Item>}
        {c.remark && (
          <Descriptions.Item label={s('detail.remark')} span={2}>
            {c.remark}
          </Descriptions.Item>
        )}
      </Descriptions>
      <Descriptions size="small" column={{ xs: 1, sm: 2 }} title={s('detail.money')} bordered style={{ marginTop: 16 }}>
        <Descriptions.Item label={s('detail.list_price')}>¥{formatFen(c.list_price_fen)}</Descriptions.Item>
        <Descriptions.Item label={s('detail.price')}>¥{formatFen(c.price_fen)}</Descriptions.Item>
        {c.discount_reason && (
          <Descriptions.Item label={s('detail.discount')} span={2}>
            {c.discount_reason}
          </Descriptions.Item>
        )}
        <Descriptions.Item label={s('detail.paid')}>¥{formatFen(c.paid_fen)}</Descriptions.Item>
        <Descriptions.Item label={s('detail.refunded')}>¥{formatFen(c.refunded_fen)}</Descriptions.Item>
        {c.pay_method && (
          <Descriptions.Item label={s('detail.pay_method')}>
            {(METHOD_KEYS as readonly string[]).includes(c.pay_method) ? s(`method.${c.pay_method as (typeof METHOD_KEYS)[number]}`) : c.pay_method}
          </Descriptions.Item>
        )}
        {c.receipt_no && <Descriptions.Item label={s('detail.receipt')}>{c.receipt_no}</Descriptions.Item>}
      </Descriptions>
      {c.units_total !== null ? (
        <>
          <Divider titlePlacement="start">{s('detail.units')}</Divider>
          <Flex gap={24} wrap align="center">
            <Statistic title={s('detail.used')} value={c.units_used} suffix={s(kindUnit(c.kind))} />
            <Statistic title={s('detail.left')} value={c.units_left ?? 0} suffix={s(kindUnit(c.kind))} />
            <Progress type="circle" size={64} percent={Math.round((100 * c.units_used) / Math.max(1, c.units_total))} />
          </Flex>
        </>
      ) : (
        (c.state === 'active' || c.state === 'expiring') && (
          <Typography.Paragraph style={{ marginTop: 12 }} type="secondary">
            {s('detail.left')}：{unitsText(c)}
          </Typography.Paragraph>
        )
      )}
      <Divider titlePlacement="start">{s('detail.history')}</Divider>
      <History events={c.history} />
    </>
  );
}

const METHOD_KEYS = ['cash', 'bank', 'external', 'wechat'] as const;

const FIELD_KEYS = ['end_day', 'units_total', 'auto_renew', 'remark'] as const;
/** The keys of an event's data worth showing, in this order (ids, request keys and the like stay out). */
const DATA_KEYS = [
  'package_name',
  'from_no',
  'to_no',
  'start_day',
  'end_day',
  'units_total',
  'price_fen',
  'discount_reason',
  'amount_fen',
  'method',
  'receipt_no',
  'unused',
  'refund_fen',
  'via',
] as const;

/** A value of the history's data as text (yuan for *_fen, yes/no for booleans). */
function useShow() {
  const s = contractStrings.use();
  return (key: string, v: unknown): string => {
    if (v === null || v === undefined || v === '') return '-';
    if (typeof v === 'boolean') return v ? s('detail.yes') : s('detail.no');
    if (key === 'method' && typeof v === 'string' && (METHOD_KEYS as readonly string[]).includes(v))
      return s(`method.${v as (typeof METHOD_KEYS)[number]}`);
    if (key === 'via' && (v === 'wechat' || v === 'offline' || v === 'none')) return s(`via.${v}`);
    if (key.endsWith('_fen') && typeof v === 'number') return `¥${formatFen(v)}`;
    if (typeof v === 'object') return JSON.stringify(v);
    return String(v as string | number);
  };
}

function History({ events }: { events: ContractEvent[] }) {
  const s = contractStrings.use();
  const clock = useSchoolClock();
  const show = useShow();
  if (events.length === 0) return <Typography.Text type="secondary">{s('detail.no_history')}</Typography.Text>;
  const color: Record<ContractEvent['type'], string> = {
    signed: 'blue',
    paid: 'green',
    edited: 'orange',
    renewed: 'blue',
    cancelled: 'red',
    refunded: 'red',
    expired: 'gray',
    reminded: 'gray',
  };
  return (
    <Timeline
      items={events.map((e) => {
        const before = (e.data.before ?? null) as Record<string, unknown> | null;
        const after = (e.data.after ?? null) as Record<string, unknown> | null;
        const changes = before || after ? Object.keys({ ...before, ...after }) : [];
        const rest = DATA_KEYS.filter((k) => e.data[k] !== undefined && e.data[k] !== null && e.data[k] !== '');
        return {
          key: e.id,
          color: color[e.type] ?? 'gray',
          content: (
            <div>
              <Flex gap={8} wrap>
                <Typography.Text strong>{s(`ev.${e.type}`)}</Typography.Text>
                <Typography.Text type="secondary">{s('ev.by', { who: e.actor_name ?? s('ev.system'), at: clock.dateTime(e.at) })}</Typography.Text>
              </Flex>
              {changes.map((k) => (
                <div key={k}>
                  {s('ev.change', {
                    field: (FIELD_KEYS as readonly string[]).includes(k) ? s(`field.${k as (typeof FIELD_KEYS)[number]}`) : k,
                    before: show(k, before?.[k]),
                    after: show(k, after?.[k]),
                  })}
                </div>
              ))}
              {rest.length > 0 && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {rest.map((k) => `${s(`field.${k}`)}：${show(k, e.data[k])}`).join(' · ')}
                </Typography.Text>
              )}
              {e.reason && <div>{s('ev.reason', { reason: e.reason })}</div>}
            </div>
          ),
        };
      })}
    />
  );
}
