import { useQuery } from '@tanstack/react-query';
import { Button, Card, Drawer, Form, Input, Modal, Radio, Space, Tabs, Tag, Typography } from 'antd';
import { formatFen, yuanToFen, type AdjustBalanceInput, type OperatorSchoolRow, type SetSchoolPriceInput } from '@wantuo/shared';
import { useRef, useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { MoneyInput } from '../../components/money-input';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { newRequestId } from '../../lib/request-id';
import { moneyStrings } from '../money/strings';
import { localDay } from '../../lib/school-time';
import { STATE_COLOR } from '../money/use-school';
import { PAGE, SchoolLedger, SchoolPayments } from './school-ledger';
import { schoolStrings } from './schools-strings';
import { SubMerchantDrawer } from './sub-merchant';
import { queryKey } from '../../api/query';

const MAX_FEN = 100_000_000;
const validFen = (yuan: string | undefined) => {
  const fen = yuanToFen(yuan ?? '');
  return fen !== null && fen >= 1 && fen <= MAX_FEN;
};

/**
 * The operator's schools: balance, expiry, price and size; set the renewal price, adjust a balance with a reason, read a
 * ledger, record the school's WeChat Pay sub-merchant (收款商户: its own drawer, the list answer does not carry it).
 */
export default function OperatorSchools() {
  const s = schoolStrings.use();
  const m = moneyStrings.use();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [pricing, setPricing] = useState<OperatorSchoolRow | null>(null);
  const [adjusting, setAdjusting] = useState<OperatorSchoolRow | null>(null);
  const [ledger, setLedger] = useState<OperatorSchoolRow | null>(null);
  const [merchant, setMerchant] = useState<OperatorSchoolRow | null>(null);
  const q = useQuery({
    queryKey: queryKey('schoolList', { page, limit: PAGE, ...(keyword ? { keyword } : {}) }),
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
            title: s('merchant'),
            key: 'merchant',
            width: 150,
            render: (_, r) =>
              r.sub_mchid ? (
                <Tag color="green">
                  {s('merchant_active')} {r.sub_mchid}
                </Tag>
              ) : (
                <Tag>{s('merchant_none')}</Tag>
              ),
          },
          {
            title: s('actions'),
            key: 'actions',
            fixed: 'right',
            width: 300,
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
                <Button type="link" onClick={() => setMerchant(r)}>
                  {s('merchant')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {pricing && <PriceDialog school={pricing} onClose={() => setPricing(null)} onSaved={() => void q.refetch()} />}
      {adjusting && <AdjustDialog school={adjusting} onClose={() => setAdjusting(null)} onSaved={() => void q.refetch()} />}
      <SubMerchantDrawer
        school={merchant}
        onClose={() => {
          setMerchant(null);
          void q.refetch();
        }}
      />
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
  const s = schoolStrings.use();
  const setPrice = useAction('setSchoolPrice', {
    success: s('saved'),
    onDone: () => {
      onSaved();
      onClose();
    },
  });
  const [form] = Form.useForm<{ term: string; year: string }>();
  const rule = { validator: (_: unknown, v: string) => (validFen(v) ? Promise.resolve() : Promise.reject(new Error(s('price_invalid')))) };
  const save = (v: { term: string; year: string }) => {
    const input: SetSchoolPriceInput = { school_id: school.id, term_fen: yuanToFen(v.term)!, year_fen: yuanToFen(v.year)! };
    return setPrice.run(input);
  };
  return (
    <Modal
      open
      title={s('price_title', { name: school.name })}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={setPrice.busy}
      width={400}
    >
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
  const s = schoolStrings.use();
  // a debit past the balance is refused (shown by the request wrapper)
  const adjust = useAction('adjustSchoolBalance', {
    success: s('saved'),
    onDone: () => {
      onSaved();
      onClose();
    },
  });
  const requestId = useRef(newRequestId());
  const [form] = Form.useForm<{ direction: 1 | -1; yuan: string; reason: string }>();
  const save = (v: { direction: 1 | -1; yuan: string; reason: string }) => {
    const input: AdjustBalanceInput = {
      school_id: school.id,
      amount_fen: v.direction * yuanToFen(v.yuan)!,
      reason: v.reason.trim(),
      request_id: requestId.current,
    };
    return adjust.run(input);
  };
  return (
    <Modal
      open
      title={s('adjust_title', { name: school.name })}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={adjust.busy}
      width={420}
    >
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
