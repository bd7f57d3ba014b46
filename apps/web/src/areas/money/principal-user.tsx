import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Flex,
  Form,
  Input,
  Modal,
  Radio,
  Row,
  Select,
  Space,
  Statistic,
  Tag,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import {
  daysLeft,
  formatFen,
  LEDGER_TYPES,
  renewedUntil,
  TOP_UP_LIMITS,
  yuanToFen,
  type BalancePaySchoolInput,
  type LedgerEntry,
  type LedgerType,
  type RenewalPeriod,
  type SchoolInfo,
} from '@wantuo/shared';
import { useState } from 'react';
import { download } from '../../api/download';
import { feedback } from '../../api/feedback';
import { useAction } from '../../api/action';
import { get, post } from '../../api/http';
import { queryKey } from '../../api/query';
import { MoneyInput } from '../../components/money-input';
import { ServerTable } from '../../components/server-table';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { DealPwdDialog } from './deal-pwd-dialog';
import { PaymentDialog } from './payment-dialog';
import { moneyStrings } from './strings';
import { localDateTime, localDay } from '../../lib/school-time';
import { STATE_COLOR, useMoneyRefresh, useSchool } from './use-school';

const LEDGER_PAGE = 20;
const TYPE_COLOR: Record<LedgerType, string> = { top_up: 'green', payment: 'blue', refund: 'gold', adjustment: 'purple' };

/**
 * The admin's personal centre (/principal_user): the institution, balance and service, renewal, top-up, payment password,
 * whether parents can pay online (在线收款), ledger.
 */
export default function PrincipalUser() {
  const school = useSchool();
  if (school.isLoading) return <Loading />;
  if (school.isError || !school.data) return <LoadError onRetry={() => void school.refetch()} />;
  return (
    <Flex vertical gap={16}>
      <AccountCard school={school.data} />
      <SchoolCard school={school.data} />
      <OnlinePayCard timezone={school.data.timezone} />
      <LedgerCard timezone={school.data.timezone} />
    </Flex>
  );
}

function SchoolCard({ school }: { school: SchoolInfo }) {
  const s = moneyStrings.use();
  const refresh = useMoneyRefresh();
  const [editing, setEditing] = useState(false);
  const [form] = Form.useForm<{ contact_name: string; contact_phone: string; city: string; address: string }>();
  const open = () => {
    form.setFieldsValue({
      contact_name: school.contact_name ?? '',
      contact_phone: school.contact_phone ?? '',
      city: school.city ?? '',
      address: school.address ?? '',
    });
    setEditing(true);
  };
  // a stale version (someone else saved first) is shown by the request wrapper; the school is read again either way
  const edit = useAction('editSchoolInfo', {
    onDone: () => {
      setEditing(false);
      refresh();
    },
    onError: refresh,
  });
  const save = (v: { contact_name: string; contact_phone: string; city: string; address: string }) => {
    const orNull = (x: string) => (x.trim() ? x.trim() : null);
    return edit.run({
      version: school.version,
      contact_name: orNull(v.contact_name),
      contact_phone: orNull(v.contact_phone),
      city: orNull(v.city),
      address: orNull(v.address),
    });
  };
  return (
    <Card title={s('me.school')} extra={<Button onClick={open}>{s('me.edit')}</Button>}>
      <Descriptions column={{ xs: 1, sm: 2 }} size="small">
        <Descriptions.Item label={s('me.name')}>{school.name}</Descriptions.Item>
        <Descriptions.Item label={s('me.contact_name')}>{school.contact_name ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={s('me.contact_phone')}>{school.contact_phone ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={s('me.city')}>{school.city ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={s('me.address')}>{school.address ?? '-'}</Descriptions.Item>
      </Descriptions>
      <Modal
        open={editing}
        title={s('me.edit_title')}
        onCancel={() => setEditing(false)}
        onOk={() => form.submit()}
        confirmLoading={edit.busy}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
          <Form.Item name="contact_name" label={s('me.contact_name')} rules={[{ max: 64 }]}>
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item name="contact_phone" label={s('me.contact_phone')} rules={[{ pattern: /^1\d{10}$/, message: '1xxxxxxxxxx' }]}>
            <Input inputMode="tel" maxLength={11} />
          </Form.Item>
          <Form.Item name="city" label={s('me.city')} rules={[{ max: 64 }]}>
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item name="address" label={s('me.address')} rules={[{ max: 200 }]}>
            <Input.TextArea maxLength={200} autoSize={{ minRows: 2, maxRows: 4 }} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}

/**
 * 在线收款: whether the school has its WeChat Pay sub-merchant (recorded by the platform after the school's onboarding),
 * without which parents can only pay at the desk.
 */
export function OnlinePayCard({ timezone }: { timezone: string }) {
  const s = moneyStrings.use();
  const q = useQuery({ queryKey: queryKey('schoolSubMerchant'), queryFn: () => get('schoolSubMerchant') });
  const cur = q.data?.current ?? null;
  return (
    <Card
      title={s('online.title')}
      extra={q.data && <Tag color={cur ? 'green' : 'default'}>{cur ? s('online.active') : s('online.none')}</Tag>}
      data-testid="online-pay"
    >
      {q.isLoading ? (
        <Loading />
      ) : q.isError || !q.data ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : cur ? (
        <>
          <Descriptions column={{ xs: 1, sm: 2 }} size="small">
            <Descriptions.Item label={s('online.sub_mchid')}>{cur.sub_mchid}</Descriptions.Item>
            <Descriptions.Item label={s('online.since')}>{localDateTime(cur.recorded_at, timezone)}</Descriptions.Item>
          </Descriptions>
          <Typography.Text type="secondary">{s('online.active_hint')}</Typography.Text>
        </>
      ) : (
        <Alert type="warning" showIcon title={s('online.none_hint')} description={s('online.steps')} />
      )}
    </Card>
  );
}

/** Balance, service expiry, and the three ways money moves from here: top-up, renewal, the payment password. */
function AccountCard({ school }: { school: SchoolInfo }) {
  const s = moneyStrings.use();
  const refresh = useMoneyRefresh();
  const [dialog, setDialog] = useState<'top_up' | 'renew' | 'pwd' | null>(null);
  const expires = school.service_expires_at;
  const left = expires ? daysLeft(expires) : null;
  return (
    <Card title={s('me.account')}>
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={8}>
          <Statistic title={s('me.balance')} value={formatFen(school.balance_fen)} prefix="¥" />
          <Button type="primary" style={{ marginTop: 12 }} onClick={() => setDialog('top_up')}>
            {s('me.top_up')}
          </Button>
        </Col>
        <Col xs={24} sm={8}>
          <Statistic title={s('me.expires')} value={expires ? localDay(expires, school.timezone) : s('me.no_expiry')} />
          <Space style={{ marginTop: 8 }} wrap>
            <Tag color={STATE_COLOR[school.service_state]}>{s(`state.${school.service_state}`)}</Tag>
            {left !== null && (
              <Typography.Text type="secondary">{left > 0 ? s('me.days_left', { n: left }) : s('me.expired_days', { n: -left })}</Typography.Text>
            )}
          </Space>
          <div>
            <Button type="primary" style={{ marginTop: 12 }} onClick={() => setDialog('renew')}>
              {s('me.renew')}
            </Button>
          </div>
        </Col>
        <Col xs={24} sm={8}>
          <Statistic title={s('me.deal_pwd')} value={school.has_deal_pwd ? s('me.deal_pwd_set') : s('me.deal_pwd_unset')} />
          <Button style={{ marginTop: 12 }} onClick={() => setDialog('pwd')}>
            {school.has_deal_pwd ? s('me.deal_pwd_change') : s('me.deal_pwd_new')}
          </Button>
        </Col>
      </Row>
      <TopUpDialog open={dialog === 'top_up'} onClose={() => setDialog(null)} onPaid={refresh} />
      <RenewDialog open={dialog === 'renew'} school={school} onClose={() => setDialog(null)} onPaid={refresh} onSetDealPwd={() => setDialog('pwd')} />
      <DealPwdDialog
        open={dialog === 'pwd'}
        change={school.has_deal_pwd}
        onClose={() => setDialog(null)}
        onSaved={() => {
          setDialog(null);
          refresh();
        }}
      />
    </Card>
  );
}

/** Top-up: the amount first, then the payment dialog with WeChat Pay (a top-up cannot be paid from the balance). */
function TopUpDialog({ open, onClose, onPaid }: { open: boolean; onClose: () => void; onPaid: () => void }) {
  const s = moneyStrings.use();
  const [amount, setAmount] = useState<number | null>(null);
  const [form] = Form.useForm<{ yuan: string }>();
  const close = () => {
    setAmount(null);
    form.resetFields();
    onClose();
  };
  const valid = (yuan: string) => {
    const fen = yuanToFen(yuan ?? '');
    return fen !== null && fen >= TOP_UP_LIMITS.minFen && fen <= TOP_UP_LIMITS.maxFen;
  };
  return (
    <>
      <Modal
        open={open && amount === null}
        title={s('topup.title')}
        onCancel={close}
        onOk={() => form.submit()}
        okText={s('topup.next')}
        destroyOnHidden
        width={400}
      >
        <Form form={form} layout="vertical" onFinish={(v) => setAmount(yuanToFen(v.yuan))}>
          <Form.Item
            name="yuan"
            label={s('topup.amount')}
            rules={[{ validator: (_, v) => (valid(v) ? Promise.resolve() : Promise.reject(new Error(s('topup.amount_invalid')))) }]}
          >
            <MoneyInput autoFocus size="large" />
          </Form.Item>
          <Space wrap>
            {[1000, 5000, 10000].map((y) => (
              <Button key={y} onClick={() => form.setFieldsValue({ yuan: String(y) })}>
                ¥{y}
              </Button>
            ))}
          </Space>
        </Form>
      </Modal>
      {amount !== null && (
        <PaymentDialog
          open={open}
          title={s('topup.pay_title', { amount: formatFen(amount) })}
          amountFen={amount}
          wechat={() => post('recharge', { amount_fen: amount })}
          onPaid={onPaid}
          onClose={close}
        />
      )}
    </>
  );
}

/** Renewal: the period with its price and the new expiry, then the payment dialog (balance with the payment password, or WeChat Pay). */
export function RenewDialog({
  open,
  school,
  onClose,
  onPaid,
  onSetDealPwd,
}: {
  open: boolean;
  school: SchoolInfo;
  onClose: () => void;
  onPaid: () => void;
  onSetDealPwd: () => void;
}) {
  const s = moneyStrings.use();
  const [period, setPeriod] = useState<RenewalPeriod>('year');
  const [paying, setPaying] = useState(false);
  // the price of now, read each time the dialog opens: what the operator set since the page loaded is what is charged
  const prices = useQuery({ queryKey: queryKey('getSchoolPrice'), queryFn: () => get('getSchoolPrice'), enabled: open, staleTime: 0, gcTime: 0 });
  const priceOf = (p: RenewalPeriod) => (p === 'term' ? prices.data?.term_fen : prices.data?.year_fen) ?? 0;
  const price = priceOf(period);
  const until = localDay(renewedUntil(school.service_expires_at, period, new Date(), school.timezone), school.timezone);
  const close = () => {
    setPaying(false);
    onClose();
  };
  return (
    <>
      <Modal
        open={open && !paying}
        title={s('renew.title')}
        onCancel={close}
        onOk={() => setPaying(true)}
        okText={s('topup.next')}
        okButtonProps={{ disabled: !prices.data }}
        destroyOnHidden
        width={440}
      >
        <Typography.Paragraph type="secondary">{s('renew.period')}</Typography.Paragraph>
        {prices.isError ? (
          <div data-testid="renew-price-error">
            <LoadError message={prices.error.message} onRetry={() => void prices.refetch()} />
          </div>
        ) : !prices.data ? (
          <Loading />
        ) : (
          <Radio.Group value={period} onChange={(e) => setPeriod(e.target.value as RenewalPeriod)} style={{ width: '100%' }}>
            <Flex vertical gap={8}>
              {(['term', 'year'] as const).map((p) => (
                <Radio key={p} value={p}>
                  {s(`renew.${p}`)} · <Typography.Text strong>¥{formatFen(priceOf(p))}</Typography.Text>
                </Radio>
              ))}
            </Flex>
          </Radio.Group>
        )}
        <Typography.Paragraph style={{ marginTop: 16 }}>{s('renew.until', { date: until })}</Typography.Paragraph>
      </Modal>
      {paying && (
        <PaymentDialog
          open={open}
          title={s('renew.pay_title', { period: s(`renew.period_${period}`) })}
          amountFen={price}
          wechat={() => post('wechatPaySchool', { period })}
          balance={{
            balanceFen: school.balance_fen,
            hasDealPwd: school.has_deal_pwd,
            lockedUntil: school.deal_pwd_locked_until,
            pay: async (deal_pwd, request_id) => {
              const input: BalancePaySchoolInput = { period, deal_pwd, request_id };
              const r = await post('balancePaySchool', input);
              feedback().message.success(s('renew.done', { date: localDay(r.service_expires_at, school.timezone) }));
            },
            onSetDealPwd: () => {
              close();
              onSetDealPwd();
            },
          }}
          onPaid={onPaid}
          onClose={close}
        />
      )}
    </>
  );
}

/** The school's ledger: filters by type and dates, server pages, the same filters exported to .xlsx. */
function LedgerCard({ timezone }: { timezone: string }) {
  const s = moneyStrings.use();
  const [type, setType] = useState<LedgerType | undefined>();
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [page, setPage] = useState(1);
  const filters = {
    ...(type ? { type } : {}),
    ...(range?.[0] ? { from: range[0].format('YYYY-MM-DD') } : {}),
    ...(range?.[1] ? { to: range[1].format('YYYY-MM-DD') } : {}),
  };
  const input = { ...filters, page, limit: LEDGER_PAGE };
  const q = useQuery({ queryKey: queryKey('consumeLog', input), queryFn: () => get('consumeLog', input) });
  const filtered = Object.keys(filters).length > 0;
  const money = (fen: number, signed = false) => (
    <Typography.Text type={signed ? (fen < 0 ? 'danger' : 'success') : undefined} style={{ fontVariantNumeric: 'tabular-nums' }}>
      {signed && fen > 0 ? '+' : ''}
      {formatFen(fen)}
    </Typography.Text>
  );
  return (
    <Card
      title={s('ledger.title')}
      extra={
        <Button onClick={() => void download('consumeLogExport', filters, `账户流水-${localDay(new Date(), timezone)}.xlsx`).catch(() => {})}>
          {s('ledger.export')}
        </Button>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <Select<LedgerType | 'all'>
          style={{ width: 140 }}
          value={type ?? 'all'}
          aria-label={s('ledger.type')}
          onChange={(v) => {
            setType(v === 'all' ? undefined : v);
            setPage(1);
          }}
          options={[{ value: 'all', label: s('ledger.all_types') }, ...LEDGER_TYPES.map((x) => ({ value: x, label: s(`ledger.type_${x}`) }))]}
        />
        <DatePicker.RangePicker
          inputReadOnly
          value={range}
          onChange={(v) => {
            setRange(v);
            setPage(1);
          }}
        />
      </Space>
      <ServerTable<LedgerEntry>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={LEDGER_PAGE}
        scroll={{ x: 760 }}
        size="middle"
        locale={{ emptyText: <EmptyState description={filtered ? s('ledger.empty_filtered') : s('ledger.empty')} /> }}
        columns={[
          { title: s('ledger.time'), key: 'at', width: 150, render: (_, r) => localDateTime(r.created_at, timezone) },
          { title: s('ledger.type'), key: 'type', width: 90, render: (_, r) => <Tag color={TYPE_COLOR[r.type]}>{s(`ledger.type_${r.type}`)}</Tag> },
          { title: s('ledger.amount'), key: 'amount', width: 120, align: 'right', render: (_, r) => money(r.amount_fen, true) },
          { title: s('ledger.balance_after'), key: 'balance', width: 120, align: 'right', render: (_, r) => money(r.balance_after_fen) },
          { title: s('ledger.note'), key: 'note', ellipsis: true, render: (_, r) => r.note ?? '-' },
          { title: s('ledger.actor'), key: 'actor', width: 100, render: (_, r) => r.actor_name ?? '-' },
        ]}
      />
    </Card>
  );
}
