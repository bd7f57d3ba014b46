import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Tag, Typography } from 'antd';
import { formatFen, yuanToFen, type LedgerEntry, type RefundSchoolPaymentInput, type SchoolPayment } from '@wantuo/shared';
import { useRef, useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { MoneyInput } from '../../components/money-input';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { newRequestId } from '../../lib/request-id';
import { localDateTime } from '../../lib/school-time';
import { moneyStrings } from '../money/strings';
import { schoolStrings } from './schools-strings';
import { queryKey } from '../../api/query';

/** The rows of a page of the schools screen's lists (schools, ledger, payments). */
export const PAGE = 20;

/** A school's ledger (the operator's schools drawer, first tab). */
export function SchoolLedger({ schoolId }: { schoolId: number }) {
  const m = moneyStrings.use();
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: queryKey('schoolLedger', { school_id: schoolId, page, limit: PAGE }),
    queryFn: () => get('schoolLedger', { school_id: schoolId, page, limit: PAGE }),
  });
  return (
    <ServerTable<LedgerEntry>
      query={q}
      page={page}
      onPage={setPage}
      pageSize={PAGE}
      size="small"
      scroll={{ x: 640 }}
      locale={{ emptyText: <EmptyState description={m('ledger.empty')} /> }}
      columns={[
        { title: m('ledger.time'), key: 'at', width: 140, render: (_, r) => localDateTime(r.created_at) },
        { title: m('ledger.type'), key: 'type', width: 80, render: (_, r) => m(`ledger.type_${r.type}`) },
        {
          title: m('ledger.amount'),
          key: 'amount',
          width: 110,
          align: 'right',
          render: (_, r) => `${r.amount_fen > 0 ? '+' : ''}${formatFen(r.amount_fen)}`,
        },
        { title: m('ledger.balance_after'), key: 'after', width: 110, align: 'right', render: (_, r) => formatFen(r.balance_after_fen) },
        { title: m('ledger.note'), key: 'note', ellipsis: true, render: (_, r) => r.note ?? '-' },
      ]}
    />
  );
}

const PAY_STATE_COLOR: Record<SchoolPayment['state'], string> = { pending: 'default', paid: 'green', closed: 'default', refunded: 'gold' };

/** A school's payments, newest first, with a refund on each paid one. */
export function SchoolPayments({ schoolId, onRefunded }: { schoolId: number; onRefunded: () => void }) {
  const s = schoolStrings.use();
  const [page, setPage] = useState(1);
  const [refunding, setRefunding] = useState<SchoolPayment | null>(null);
  const q = useQuery({
    queryKey: queryKey('schoolPayments', { school_id: schoolId, page, limit: PAGE }),
    queryFn: () => get('schoolPayments', { school_id: schoolId, page, limit: PAGE }),
  });
  return (
    <>
      <ServerTable<SchoolPayment>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        rowKey="out_trade_no"
        size="small"
        scroll={{ x: 700 }}
        locale={{ emptyText: <EmptyState description={s('payments_empty')} /> }}
        columns={[
          { title: s('pay_time'), key: 'at', width: 140, render: (_, r) => localDateTime(r.paid_at ?? r.created_at) },
          { title: s('pay_what'), key: 'what', ellipsis: true, render: (_, r) => r.description },
          { title: s('pay_method'), key: 'method', width: 80, render: (_, r) => s(r.method === 'wechat' ? 'method_wechat' : 'method_balance') },
          { title: s('pay_amount'), key: 'amount', width: 100, align: 'right', render: (_, r) => formatFen(r.amount_fen) },
          {
            title: s('pay_refunded'),
            key: 'refunded',
            width: 90,
            align: 'right',
            render: (_, r) => (r.refunded_fen ? formatFen(r.refunded_fen) : '-'),
          },
          { title: s('pay_state'), key: 'state', width: 80, render: (_, r) => <Tag color={PAY_STATE_COLOR[r.state]}>{s(`state_${r.state}`)}</Tag> },
          {
            title: '',
            key: 'refund',
            width: 70,
            render: (_, r) =>
              r.state === 'paid' && r.refunded_fen < r.amount_fen ? (
                <Button type="link" size="small" onClick={() => setRefunding(r)}>
                  {s('refund')}
                </Button>
              ) : null,
          },
        ]}
      />
      {refunding && (
        <RefundDialog
          schoolId={schoolId}
          payment={refunding}
          onClose={() => setRefunding(null)}
          onDone={() => {
            void q.refetch();
            onRefunded();
          }}
        />
      )}
    </>
  );
}

/** Refunds (part of) a paid payment with a reason; one request key per dialog, so a double click refunds once. */
function RefundDialog({ schoolId, payment, onClose, onDone }: { schoolId: number; payment: SchoolPayment; onClose: () => void; onDone: () => void }) {
  const s = schoolStrings.use();
  // a refusal (a spent top-up, a refusal from WeChat Pay) is shown by the request wrapper
  const refund = useAction('refundSchoolPayment', {
    success: (r) => (r.state === 'succeeded' ? s('refund_done', { amount: formatFen(r.amount_fen) }) : s('refund_pending')),
    onDone: () => {
      onDone();
      onClose();
    },
  });
  const requestId = useRef(newRequestId());
  const left = payment.amount_fen - payment.refunded_fen;
  const [form] = Form.useForm<{ yuan: string; reason: string }>();
  const valid = (v: string | undefined) => {
    const fen = yuanToFen(v ?? '');
    return fen !== null && fen >= 1 && fen <= left;
  };
  const save = (v: { yuan: string; reason: string }) => {
    const fen = yuanToFen(v.yuan)!;
    const input: RefundSchoolPaymentInput = {
      school_id: schoolId,
      out_trade_no: payment.out_trade_no,
      ...(fen === left ? {} : { amount_fen: fen }),
      reason: v.reason.trim(),
      request_id: requestId.current,
    };
    return refund.run(input);
  };
  return (
    <Modal
      open
      title={s('refund_title', { what: payment.description })}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={refund.busy}
      width={440}
    >
      <Typography.Paragraph>{s('refund_left', { left: formatFen(left), paid: formatFen(payment.amount_fen) })}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{s('refund_rule')}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ yuan: formatFen(left) }} onFinish={(v) => void save(v)}>
        <Form.Item
          name="yuan"
          label={s('refund_amount')}
          rules={[{ validator: (_, v) => (valid(v) ? Promise.resolve() : Promise.reject(new Error(s('refund_amount_invalid')))) }]}
        >
          <MoneyInput />
        </Form.Item>
        <Form.Item
          name="reason"
          label={s('refund_reason')}
          rules={[{ validator: (_, v) => ((v ?? '').trim().length >= 2 ? Promise.resolve() : Promise.reject(new Error(s('reason_required')))) }]}
        >
          <Input maxLength={80} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
