import { useQuery } from '@tanstack/react-query';
import { Button, Card, Drawer, Form, Input, Modal, Radio, Space, Tabs, Tag, Typography } from 'antd';
import {
  formatFen,
  yuanToFen,
  type AdjustBalanceInput,
  type LedgerEntry,
  type OperatorSchoolRow,
  type RefundSchoolPaymentInput,
  type SchoolPayment,
  type SetSchoolPriceInput,
} from '@wantuo/shared';
import { useRef, useState } from 'react';
import { feedback } from '../../api/feedback';
import { get, post } from '../../api/http';
import { MoneyInput } from '../../components/money-input';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { defineStrings } from '../../i18n/strings';
import { newRequestId } from '../../lib/request-id';
import { moneyStrings } from '../money/strings';
import { localDateTime, localDay } from '../../lib/school-time';
import { STATE_COLOR } from '../money/use-school';

const strings = defineStrings({
  title: { zh: '机构管理', en: 'Schools' },
  search: { zh: '搜索机构名称或联系电话', en: 'Search by name or contact mobile' },
  name: { zh: '机构', en: 'School' },
  contact: { zh: '联系人', en: 'Contact' },
  balance: { zh: '余额（元）', en: 'Balance (yuan)' },
  expiry: { zh: '服务到期', en: 'Service until' },
  price: { zh: '续费价格（元）', en: 'Renewal price (yuan)' },
  price_line: { zh: '学期 {term} / 年 {year}', en: 'term {term} / year {year}' },
  size: { zh: '学生 / 教职工', en: 'Students / staff' },
  actions: { zh: '操作', en: 'Actions' },
  set_price: { zh: '设置价格', en: 'Set price' },
  adjust: { zh: '调整余额', en: 'Adjust balance' },
  ledger: { zh: '流水', en: 'Ledger' },
  empty: { zh: '还没有机构：在“入驻申请”中通过申请后，机构会出现在这里', en: 'No schools yet: approved applications appear here' },
  empty_search: { zh: '没有符合条件的机构', en: 'No school matches' },
  price_title: { zh: '设置续费价格：{name}', en: 'Renewal price: {name}' },
  term_price: { zh: '每学期（元）', en: 'Per term (yuan)' },
  year_price: { zh: '每年（元）', en: 'Per year (yuan)' },
  price_invalid: { zh: '价格需在 0.01 元到 1000000 元之间', en: 'Between 0.01 and 1000000 yuan' },
  adjust_title: { zh: '调整余额：{name}', en: 'Adjust the balance: {name}' },
  direction: { zh: '方向', en: 'Direction' },
  credit: { zh: '增加', en: 'Credit' },
  debit: { zh: '扣减', en: 'Debit' },
  amount: { zh: '金额（元）', en: 'Amount (yuan)' },
  amount_invalid: { zh: '金额需在 0.01 元到 1000000 元之间', en: 'Between 0.01 and 1000000 yuan' },
  reason: { zh: '原因（机构可在流水中看到）', en: 'Reason (the school sees it in its ledger)' },
  reason_required: { zh: '请填写调整原因（至少 2 个字）', en: 'Give the reason (at least 2 characters)' },
  saved: { zh: '已保存', en: 'Saved' },
  ledger_title: { zh: '{name} 的账户与支付', en: 'Account and payments of {name}' },
  tab_ledger: { zh: '账户流水', en: 'Ledger' },
  tab_payments: { zh: '支付记录', en: 'Payments' },
  pay_time: { zh: '时间', en: 'Time' },
  pay_what: { zh: '内容', en: 'For' },
  pay_method: { zh: '方式', en: 'Method' },
  pay_amount: { zh: '金额（元）', en: 'Amount (yuan)' },
  pay_refunded: { zh: '已退（元）', en: 'Refunded (yuan)' },
  pay_state: { zh: '状态', en: 'State' },
  method_wechat: { zh: '微信支付', en: 'WeChat Pay' },
  method_balance: { zh: '余额', en: 'Balance' },
  state_pending: { zh: '待支付', en: 'Pending' },
  state_paid: { zh: '已支付', en: 'Paid' },
  state_closed: { zh: '已关闭', en: 'Closed' },
  state_refunded: { zh: '已退款', en: 'Refunded' },
  refund: { zh: '退款', en: 'Refund' },
  payments_empty: { zh: '暂无支付记录', en: 'No payments yet' },
  refund_title: { zh: '退款：{what}', en: 'Refund: {what}' },
  refund_left: { zh: '可退金额 ¥{left}（已付 ¥{paid}）', en: '¥{left} can be refunded (¥{paid} paid)' },
  refund_amount: { zh: '退款金额（元）', en: 'Amount (yuan)' },
  refund_amount_invalid: { zh: '退款金额需大于 0 且不超过可退金额', en: 'More than 0 and at most what can be refunded' },
  refund_reason: { zh: '退款原因（付款人可见，最多 80 字）', en: 'Reason (the payer sees it, at most 80 characters)' },
  refund_rule: {
    zh: '微信支付原路退回；余额支付退回机构余额。充值退款会从机构余额扣回，续费退款会按比例缩短服务期。',
    en: 'WeChat payments go back through WeChat Pay, balance payments to the balance. A refunded top-up is taken back from the balance; a refunded renewal shortens the service by its share.',
  },
  refund_done: { zh: '已退款 ¥{amount}', en: '¥{amount} refunded' },
  refund_pending: { zh: '退款已提交微信支付，处理中', en: 'Refund sent to WeChat Pay: in progress' },
});

const PAGE = 20;
const MAX_FEN = 100_000_000;
const validFen = (yuan: string | undefined) => {
  const fen = yuanToFen(yuan ?? '');
  return fen !== null && fen >= 1 && fen <= MAX_FEN;
};

/** The operator's schools: balance, expiry, price and size; set the renewal price, adjust a balance with a reason, read a ledger. */
export default function OperatorSchools() {
  const s = strings.use();
  const m = moneyStrings.use();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [pricing, setPricing] = useState<OperatorSchoolRow | null>(null);
  const [adjusting, setAdjusting] = useState<OperatorSchoolRow | null>(null);
  const [ledger, setLedger] = useState<OperatorSchoolRow | null>(null);
  const q = useQuery({
    queryKey: ['schoolList', keyword, page],
    queryFn: () => get('schoolList', { page, limit: PAGE, ...(keyword ? { keyword } : {}) }),
  });
  return (
    <Card title={s('title')}>
      <Input.Search
        allowClear
        placeholder={s('search')}
        maxLength={50}
        style={{ width: 300, maxWidth: '100%', marginBottom: 16 }}
        onSearch={(v) => {
          setKeyword(v.trim());
          setPage(1);
        }}
      />
      <ServerTable<OperatorSchoolRow>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        scroll={{ x: 1100 }}
        locale={{ emptyText: <EmptyState description={keyword ? s('empty_search') : s('empty')} /> }}
        columns={[
          {
            title: s('name'),
            key: 'name',
            fixed: 'left',
            width: 180,
            render: (_, r) => (
              <div>
                <div>{r.name}</div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {r.city ?? ''}
                </Typography.Text>
              </div>
            ),
          },
          { title: s('contact'), key: 'contact', width: 150, render: (_, r) => [r.contact_name, r.contact_phone].filter(Boolean).join(' ') || '-' },
          { title: s('balance'), key: 'balance', width: 120, align: 'right', render: (_, r) => formatFen(r.balance_fen) },
          {
            title: s('expiry'),
            key: 'expiry',
            width: 180,
            render: (_, r) => (
              <Space size={4} wrap>
                {r.service_expires_at ? localDay(r.service_expires_at) : '-'}
                <Tag color={STATE_COLOR[r.service_state]}>{m(`state.${r.service_state}`)}</Tag>
              </Space>
            ),
          },
          {
            title: s('price'),
            key: 'price',
            width: 190,
            render: (_, r) => s('price_line', { term: formatFen(r.price.term_fen), year: formatFen(r.price.year_fen) }),
          },
          { title: s('size'), key: 'size', width: 110, render: (_, r) => `${r.students} / ${r.staff}` },
          {
            title: s('actions'),
            key: 'actions',
            fixed: 'right',
            width: 230,
            render: (_, r) => (
              <Space size={0} wrap>
                <Button type="link" onClick={() => setPricing(r)}>
                  {s('set_price')}
                </Button>
                <Button type="link" onClick={() => setAdjusting(r)}>
                  {s('adjust')}
                </Button>
                <Button type="link" onClick={() => setLedger(r)}>
                  {s('ledger')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {pricing && <PriceDialog school={pricing} onClose={() => setPricing(null)} onSaved={() => void q.refetch()} />}
      {adjusting && <AdjustDialog school={adjusting} onClose={() => setAdjusting(null)} onSaved={() => void q.refetch()} />}
      <Drawer
        open={ledger !== null}
        onClose={() => setLedger(null)}
        size={760}
        title={ledger ? s('ledger_title', { name: ledger.name }) : ''}
        destroyOnHidden
      >
        {ledger && (
          <Tabs
            items={[
              { key: 'ledger', label: s('tab_ledger'), children: <SchoolLedger schoolId={ledger.id} /> },
              { key: 'payments', label: s('tab_payments'), children: <SchoolPayments schoolId={ledger.id} onRefunded={() => void q.refetch()} /> },
            ]}
          />
        )}
      </Drawer>
    </Card>
  );
}

function PriceDialog({ school, onClose, onSaved }: { school: OperatorSchoolRow; onClose: () => void; onSaved: () => void }) {
  const s = strings.use();
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ term: string; year: string }>();
  const rule = { validator: (_: unknown, v: string) => (validFen(v) ? Promise.resolve() : Promise.reject(new Error(s('price_invalid')))) };
  const save = async (v: { term: string; year: string }) => {
    setBusy(true);
    try {
      const input: SetSchoolPriceInput = { school_id: school.id, term_fen: yuanToFen(v.term)!, year_fen: yuanToFen(v.year)! };
      await post('setSchoolPrice', input);
      feedback().message.success(s('saved'));
      onSaved();
      onClose();
    } catch {
      // shown by the request wrapper
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={s('price_title', { name: school.name })} onCancel={onClose} onOk={() => form.submit()} confirmLoading={busy} width={400}>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ term: formatFen(school.price.term_fen), year: formatFen(school.price.year_fen) }}
        onFinish={(v) => void save(v)}
      >
        <Form.Item name="term" label={s('term_price')} rules={[rule]}>
          <MoneyInput />
        </Form.Item>
        <Form.Item name="year" label={s('year_price')} rules={[rule]}>
          <MoneyInput />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** A manual credit or debit with a reason; one request key per dialog, so a double click adjusts once. */
function AdjustDialog({ school, onClose, onSaved }: { school: OperatorSchoolRow; onClose: () => void; onSaved: () => void }) {
  const s = strings.use();
  const [busy, setBusy] = useState(false);
  const requestId = useRef(newRequestId());
  const [form] = Form.useForm<{ direction: 1 | -1; yuan: string; reason: string }>();
  const save = async (v: { direction: 1 | -1; yuan: string; reason: string }) => {
    setBusy(true);
    try {
      const input: AdjustBalanceInput = {
        school_id: school.id,
        amount_fen: v.direction * yuanToFen(v.yuan)!,
        reason: v.reason.trim(),
        request_id: requestId.current,
      };
      await post('adjustSchoolBalance', input);
      feedback().message.success(s('saved'));
      onSaved();
      onClose();
    } catch {
      // shown by the request wrapper (a debit past the balance is refused)
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={s('adjust_title', { name: school.name })} onCancel={onClose} onOk={() => form.submit()} confirmLoading={busy} width={420}>
      <Typography.Paragraph type="secondary">
        {s('balance')}: ¥{formatFen(school.balance_fen)}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ direction: 1 }} onFinish={(v) => void save(v)}>
        <Form.Item name="direction" label={s('direction')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 1, label: s('credit') },
              { value: -1, label: s('debit') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="yuan"
          label={s('amount')}
          rules={[{ validator: (_, v) => (validFen(v) ? Promise.resolve() : Promise.reject(new Error(s('amount_invalid')))) }]}
        >
          <MoneyInput />
        </Form.Item>
        <Form.Item
          name="reason"
          label={s('reason')}
          rules={[{ validator: (_, v) => ((v ?? '').trim().length >= 2 ? Promise.resolve() : Promise.reject(new Error(s('reason_required')))) }]}
        >
          <Input.TextArea maxLength={200} showCount autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function SchoolLedger({ schoolId }: { schoolId: number }) {
  const m = moneyStrings.use();
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ['schoolLedger', schoolId, page],
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
function SchoolPayments({ schoolId, onRefunded }: { schoolId: number; onRefunded: () => void }) {
  const s = strings.use();
  const [page, setPage] = useState(1);
  const [refunding, setRefunding] = useState<SchoolPayment | null>(null);
  const q = useQuery({
    queryKey: ['schoolPayments', schoolId, page],
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
  const s = strings.use();
  const [busy, setBusy] = useState(false);
  const requestId = useRef(newRequestId());
  const left = payment.amount_fen - payment.refunded_fen;
  const [form] = Form.useForm<{ yuan: string; reason: string }>();
  const valid = (v: string | undefined) => {
    const fen = yuanToFen(v ?? '');
    return fen !== null && fen >= 1 && fen <= left;
  };
  const save = async (v: { yuan: string; reason: string }) => {
    setBusy(true);
    try {
      const fen = yuanToFen(v.yuan)!;
      const input: RefundSchoolPaymentInput = {
        school_id: schoolId,
        out_trade_no: payment.out_trade_no,
        ...(fen === left ? {} : { amount_fen: fen }),
        reason: v.reason.trim(),
        request_id: requestId.current,
      };
      const r = await post('refundSchoolPayment', input);
      feedback().message.success(r.state === 'succeeded' ? s('refund_done', { amount: formatFen(r.amount_fen) }) : s('refund_pending'));
      onDone();
      onClose();
    } catch {
      // shown by the request wrapper (a spent top-up, a refusal from WeChat Pay)
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={s('refund_title', { what: payment.description })}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={busy}
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
