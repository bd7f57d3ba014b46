import { useQuery } from '@tanstack/react-query';
import { Alert, Checkbox, DatePicker, Form, Input, InputNumber, Modal, Radio, Statistic, Typography } from 'antd';
import {
  contractTerms,
  formatFen,
  renewalStartDay,
  type CancelContractInput,
  type ContractDetail,
  type EditContractInput,
  type RenewContractInput,
} from '@wantuo/shared';
import dayjs, { type Dayjs } from 'dayjs';
import { useRef } from 'react';
import { useAction } from '../../api/action';
import { feedback } from '../../api/feedback';
import { get } from '../../api/http';
import { LoadError, Loading } from '../../components/states';
import { newRequestId } from '../../lib/request-id';
import { useSchoolToday } from '../../lib/school-time';
import { deskPayment, DeskPaymentFields, kindUnit, usePackages, type DeskPaymentValues } from './common';
import { contractStrings } from './strings';
import { queryKey } from '../../api/query';

/** The contract drawer's dialogs: record an offline payment, edit, renew, cancel (with the refund preview). */

interface Dlg {
  c: ContractDetail;
  onClose: () => void;
  onDone: () => void;
}

export function PayOfflineDialog({ c, onClose, onDone }: Dlg) {
  const s = contractStrings.use();
  const [form] = Form.useForm<{ payment: DeskPaymentValues }>();
  const pay = useAction('payContractOffline', {
    success: s('act.saved'),
    onDone: () => {
      onDone();
      onClose();
    },
  });
  const save = (v: { payment: DeskPaymentValues }) => pay.run({ id: c.id, version: c.version, payment: deskPayment(v.payment) });
  return (
    <Modal
      open
      title={s('payoff.title', { amount: formatFen(c.price_fen) })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={s('payoff.submit')}
      confirmLoading={pay.busy}
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

export function EditDialog({ c, onClose, onDone }: Dlg) {
  const s = contractStrings.use();
  const [form] = Form.useForm<EditValues>();
  const edit = useAction('editContract', {
    success: s('act.saved'),
    onDone: () => {
      onDone();
      onClose();
    },
  });
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
    await edit.run(input);
  };
  return (
    <Modal
      open
      title={s('edit.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={s('edit.submit')}
      confirmLoading={edit.busy}
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

export function RenewDialog({ c, onClose, onDone }: Dlg) {
  const s = contractStrings.use();
  const today = useSchoolToday();
  const packages = usePackages();
  const [form] = Form.useForm<{ paid: 'no' | 'desk'; payment?: DeskPaymentValues }>();
  const paid = (Form.useWatch('paid', form) as 'no' | 'desk' | undefined) ?? 'no';
  const renew = useAction('renewContract', {
    success: s('renew.done'),
    onDone: () => {
      onDone();
      onClose();
    },
  });
  const requestId = useRef(newRequestId());
  const pkg = packages.data?.list.find((p) => p.id === c.package_id);
  const terms = pkg ? contractTerms(pkg, renewalStartDay(c.end_day, today)) : null;
  const save = (v: { paid: 'no' | 'desk'; payment?: DeskPaymentValues }) => {
    const input: RenewContractInput = {
      id: c.id,
      version: c.version,
      request_id: requestId.current,
      ...(v.paid === 'desk' && v.payment ? { payment: deskPayment(v.payment) } : {}),
    };
    return renew.run(input);
  };
  return (
    <Modal
      open
      title={s('renew.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={s('renew.submit')}
      confirmLoading={renew.busy}
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

export function CancelDialog({ c, onClose, onDone }: Dlg) {
  const s = contractStrings.use();
  const [form] = Form.useForm<{ reason: string; refund_method?: 'cash' | 'bank' | 'external' }>();
  const requestId = useRef(newRequestId());
  const preview = useQuery({
    queryKey: queryKey('contractRefundPreview', { id: c.id }),
    queryFn: () => get('contractRefundPreview', { id: c.id }),
    gcTime: 0,
  });
  const cancel = useAction('cancellationContract', {
    success: s('cancel.done'),
    onDone: () => {
      onDone();
      onClose();
    },
    // a changed figure is refused: show the new one
    onError: () => void preview.refetch(),
  });
  const p = preview.data;
  const save = async (v: { reason: string; refund_method?: 'cash' | 'bank' | 'external' }) => {
    if (!p) return;
    const input: CancelContractInput = {
      id: c.id,
      version: c.version,
      reason: v.reason.trim(),
      refund_fen: p.refund_fen,
      ...(p.via === 'offline' && v.refund_method ? { refund_method: v.refund_method } : {}),
      request_id: requestId.current,
    };
    await cancel.run(input);
  };
  return (
    <Modal
      open
      title={s('cancel.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={p && p.refund_fen > 0 ? s('cancel.confirm', { amount: formatFen(p.refund_fen) }) : s('cancel.confirm_plain')}
      okButtonProps={{ danger: true, disabled: !p }}
      confirmLoading={cancel.busy}
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
