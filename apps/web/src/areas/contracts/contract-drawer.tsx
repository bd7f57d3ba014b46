import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Checkbox,
  DatePicker,
  Descriptions,
  Divider,
  Drawer,
  Flex,
  Form,
  Grid,
  Input,
  InputNumber,
  Modal,
  Progress,
  Radio,
  Space,
  Statistic,
  Timeline,
  Typography,
} from 'antd';
import {
  contractTerms,
  formatFen,
  renewalStartDay,
  type CancelContractInput,
  type ContractDetail,
  type ContractEvent,
  type EditContractInput,
  type RenewContractInput,
} from '@wantuo/shared';
import dayjs, { type Dayjs } from 'dayjs';
import { useRef, useState } from 'react';
import { feedback } from '../../api/feedback';
import { get, post } from '../../api/http';
import { LoadError, Loading } from '../../components/states';
import { newRequestId } from '../../lib/request-id';
import { useSchoolClock, useSchoolToday } from '../../lib/school-time';
import { deskPayment, DeskPaymentFields, kindUnit, StateTag, usePackages, useUnitsText, type DeskPaymentValues } from './common';
import { contractStrings } from './strings';

/** Every list that shows contracts is read again after a change. */
function useContractsRefresh(id: number | null) {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: ['contractInfo', id] });
    void qc.invalidateQueries({ queryKey: ['contractList'] });
    void qc.invalidateQueries({ queryKey: ['studentContractList'] });
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
    queryKey: ['contractInfo', shown],
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

interface Dlg {
  c: ContractDetail;
  onClose: () => void;
  onDone: () => void;
}

function PayOfflineDialog({ c, onClose, onDone }: Dlg) {
  const s = contractStrings.use();
  const [form] = Form.useForm<{ payment: DeskPaymentValues }>();
  const [busy, setBusy] = useState(false);
  const save = async (v: { payment: DeskPaymentValues }) => {
    setBusy(true);
    try {
      await post('payContractOffline', { id: c.id, version: c.version, payment: deskPayment(v.payment) });
      feedback().message.success(s('act.saved'));
      onDone();
      onClose();
    } catch {
      // shown by the request wrapper
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={s('payoff.title', { amount: formatFen(c.price_fen) })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={s('payoff.submit')}
      confirmLoading={busy}
      width={420}
      maskClosable={false}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ payment: { method: 'cash' } }} onFinish={(v) => void save(v)}>
        <DeskPaymentFields />
      </Form>
    </Modal>
  );
}

interface EditValues {
  end: Dayjs | null;
  units_total?: number | null;
  auto_renew: boolean;
  remark?: string;
  reason: string;
}

function EditDialog({ c, onClose, onDone }: Dlg) {
  const s = contractStrings.use();
  const [form] = Form.useForm<EditValues>();
  const [busy, setBusy] = useState(false);
  const save = async (v: EditValues) => {
    const input: EditContractInput = { id: c.id, version: c.version, reason: v.reason.trim() };
    const end = v.end?.format('YYYY-MM-DD');
    if (end && end !== c.end_day) input.end_day = end;
    if (c.units_total !== null && v.units_total && v.units_total !== c.units_total) input.units_total = v.units_total;
    if (v.auto_renew !== c.auto_renew) input.auto_renew = v.auto_renew;
    if ((v.remark ?? '').trim() !== (c.remark ?? '')) input.remark = (v.remark ?? '').trim();
    if (Object.keys(input).length === 3) {
      feedback().message.info(s('edit.nothing'));
      return;
    }
    setBusy(true);
    try {
      await post('editContract', input);
      feedback().message.success(s('act.saved'));
      onDone();
      onClose();
    } catch {
      // shown by the request wrapper
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={s('edit.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={s('edit.submit')}
      confirmLoading={busy}
      width={460}
      maskClosable={false}
      destroyOnHidden
    >
      <Form<EditValues>
        form={form}
        layout="vertical"
        initialValues={{ end: dayjs(c.end_day), auto_renew: c.auto_renew, units_total: c.units_total, remark: c.remark ?? '' }}
        onFinish={(v) => void save(v)}
      >
        <Form.Item name="end" label={s('field.end_day')} extra={`${s('col.period')} ${c.start_day} ~ ${c.end_day}`}>
          <DatePicker inputReadOnly allowClear={false} style={{ width: '100%' }} disabledDate={(d) => d.format('YYYY-MM-DD') < c.start_day} />
        </Form.Item>
        {c.units_total !== null && (
          <Form.Item name="units_total" label={s('field.units_total')} rules={[{ type: 'integer', min: Math.max(1, c.units_used), max: 400 }]}>
            <InputNumber min={Math.max(1, c.units_used)} max={400} precision={0} suffix={s(kindUnit(c.kind))} style={{ width: '100%' }} />
          </Form.Item>
        )}
        <Form.Item name="auto_renew" valuePropName="checked">
          <Checkbox>{s('sign.auto_renew')}</Checkbox>
        </Form.Item>
        <Form.Item name="remark" label={s('field.remark')} rules={[{ max: 500 }]}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
        <Form.Item
          name="reason"
          label={s('edit.reason')}
          rules={[{ required: true, whitespace: true, min: 2, message: s('edit.reason_required') }, { max: 200 }]}
        >
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function RenewDialog({ c, onClose, onDone }: Dlg) {
  const s = contractStrings.use();
  const today = useSchoolToday();
  const packages = usePackages();
  const [form] = Form.useForm<{ paid: 'no' | 'desk'; payment?: DeskPaymentValues }>();
  const paid = (Form.useWatch('paid', form) as 'no' | 'desk' | undefined) ?? 'no';
  const [busy, setBusy] = useState(false);
  const requestId = useRef(newRequestId());
  const pkg = packages.data?.list.find((p) => p.id === c.package_id);
  const terms = pkg ? contractTerms(pkg, renewalStartDay(c.end_day, today)) : null;
  const save = async (v: { paid: 'no' | 'desk'; payment?: DeskPaymentValues }) => {
    setBusy(true);
    try {
      const input: RenewContractInput = {
        id: c.id,
        version: c.version,
        request_id: requestId.current,
        ...(v.paid === 'desk' && v.payment ? { payment: deskPayment(v.payment) } : {}),
      };
      await post('renewContract', input);
      feedback().message.success(s('renew.done'));
      onDone();
      onClose();
    } catch {
      // shown by the request wrapper
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={s('renew.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={s('renew.submit')}
      confirmLoading={busy}
      width={460}
      maskClosable={false}
      destroyOnHidden
    >
      <Alert
        type="info"
        style={{ marginBottom: 16 }}
        title={
          terms && pkg ? s('renew.hint', { start: terms.start_day, end: terms.end_day, price: formatFen(pkg.price_fen) }) : s('renew.hint_plain')
        }
      />
      <Form form={form} layout="vertical" initialValues={{ paid: 'no' }} onFinish={(v) => void save(v)}>
        <Form.Item name="paid" label={s('sign.pay')}>
          <Radio.Group
            options={[
              { value: 'no', label: s('sign.pay_none') },
              { value: 'desk', label: s('sign.pay_desk') },
            ]}
          />
        </Form.Item>
        {paid === 'desk' && <DeskPaymentFields />}
      </Form>
    </Modal>
  );
}

function CancelDialog({ c, onClose, onDone }: Dlg) {
  const s = contractStrings.use();
  const [form] = Form.useForm<{ reason: string; refund_method?: 'cash' | 'bank' | 'external' }>();
  const [busy, setBusy] = useState(false);
  const requestId = useRef(newRequestId());
  const preview = useQuery({
    queryKey: ['contractRefundPreview', c.id, c.version],
    queryFn: () => get('contractRefundPreview', { id: c.id }),
    gcTime: 0,
  });
  const p = preview.data;
  const save = async (v: { reason: string; refund_method?: 'cash' | 'bank' | 'external' }) => {
    if (!p) return;
    setBusy(true);
    try {
      const input: CancelContractInput = {
        id: c.id,
        version: c.version,
        reason: v.reason.trim(),
        refund_fen: p.refund_fen,
        ...(p.via === 'offline' && v.refund_method ? { refund_method: v.refund_method } : {}),
        request_id: requestId.current,
      };
      await post('cancellationContract', input);
      feedback().message.success(s('cancel.done'));
      onDone();
      onClose();
    } catch {
      // a changed figure is refused: show the new one
      void preview.refetch();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={s('cancel.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={p && p.refund_fen > 0 ? s('cancel.confirm', { amount: formatFen(p.refund_fen) }) : s('cancel.confirm_plain')}
      okButtonProps={{ danger: true, disabled: !p }}
      confirmLoading={busy}
      width={480}
      maskClosable={false}
      destroyOnHidden
    >
      {preview.isLoading ? (
        <Loading />
      ) : preview.isError || !p ? (
        <LoadError onRetry={() => void preview.refetch()} />
      ) : (
        <div data-testid="refund-preview" style={{ marginBottom: 16 }}>
          <Statistic
            title={s('cancel.refund')}
            prefix="¥"
            value={formatFen(p.refund_fen)}
            styles={{ content: { fontSize: 28, color: p.refund_fen > 0 ? '#cf1322' : undefined } }}
          />
          {p.via !== 'none' && (
            <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
              {s('cancel.figure', {
                unused: p.unused,
                total: p.total,
                unit: c.units_total === null ? s('unit.days') : s(kindUnit(c.kind)),
                unit_price: (p.unit_price_fen / 100).toFixed(2),
                value: formatFen(p.unused_value_fen),
              })}
              {p.discount_fen > 0 && (
                <>
                  <br />
                  {s('cancel.discount', { amount: formatFen(p.discount_fen) })}
                </>
              )}
            </Typography.Paragraph>
          )}
          <Alert style={{ marginTop: 8 }} type={p.via === 'none' ? 'info' : 'warning'} showIcon title={s(`cancel.via_${p.via}`)} />
        </div>
      )}
      <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
        {p?.via === 'offline' && p.refund_fen > 0 && (
          <Form.Item name="refund_method" label={s('cancel.refund_method')} rules={[{ required: true, message: s('required') }]}>
            <Radio.Group options={(['cash', 'bank', 'external'] as const).map((m) => ({ value: m, label: s(`method.${m}`) }))} />
          </Form.Item>
        )}
        <Form.Item
          name="reason"
          label={s('cancel.reason')}
          rules={[{ required: true, whitespace: true, min: 2, message: s('edit.reason_required') }, { max: 200 }]}
        >
          <Input.TextArea rows={2} maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
