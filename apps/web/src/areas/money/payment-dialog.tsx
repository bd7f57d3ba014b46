import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Flex, Input, Modal, QRCode, Result, Segmented, Spin, Statistic, Typography } from 'antd';
import { formatFen, type PayChannel, type PendingPayment } from '@wantuo/shared';
import { useCallback, useRef, useState } from 'react';
import { newRequestId } from '../../lib/request-id';
import { localTime, useSchoolZone } from '../../lib/school-time';
import { choosePayChannel, userAgent } from '../../lib/wechat-env';
import { mmss, useH5Payment, useJsapiPayment, useNativePayment } from './pay-flow';
import { moneyStrings } from './strings';

// the flows themselves are in pay-flow.ts (shared with the phone's pay sheet)
export { browserNav, PAYMENT_POLL_MS } from './pay-flow';

export type PayMethod = 'wechat' | 'balance';

export interface BalanceOption {
  balanceFen: number;
  hasDealPwd: boolean;
  /** when set, balance payments are locked until then */
  lockedUntil?: string | null;
  /** pays; `requestId` stays the same for every try of this dialog */
  pay(dealPwd: string, requestId: string): Promise<unknown>;
  /** opens the payment-password form (shown when none is set) */
  onSetDealPwd?: () => void;
}

export interface PaymentDialogProps {
  open: boolean;
  title: string;
  amountFen: number;
  /** starts a WeChat Pay payment of the channel the dialog chose; absent: balance only */
  wechat?: (channel: PayChannel) => Promise<PendingPayment>;
  /**
   * the kind is paid by a guardian on the phone (dinners, contracts): JSAPI inside WeChat, H5 in another phone browser,
   * the QR on a desktop. Absent: always the QR (a school's top-up, renewal, mall, courseware).
   */
  phoneChannels?: boolean;
  /** absent: WeChat Pay only */
  balance?: BalanceOption;
  /** the payment went through (the dialog shows success until closed) */
  onPaid?: (method: PayMethod) => void;
  onClose: () => void;
}

/**
 * The one payment dialog of the product (design.md §5a, §5b): every module that takes money opens it with the amount
 * and how to pay, and the dialog chooses WeChat Pay's channel by where it runs (choosePayChannel): inside WeChat a
 * 微信支付 button opens WeChat's payment sheet (JSAPI, `getBrandWCPayRequest`; outside production the sandbox's bridge
 * stand-in), in another phone browser it goes to WeChat's cashier page (H5) and comes back to /pay/result, on a desktop
 * it shows the order's `code_url` as a QR code with the amount and a countdown (outside production the sandbox's
 * 模拟扫码支付 stands in for the payer's phone). Whatever the channel it polls the payment's state until it is paid:
 * the server's notify and its own check decide, never the browser or the bridge's answer. The balance asks for the 6-digit payment
 * password and sends one request key for all its tries, so a retry is never charged twice.
 */
export function PaymentDialog({ open, title, onClose, ...rest }: PaymentDialogProps) {
  return (
    <Modal open={open} title={title} onCancel={onClose} footer={null} destroyOnHidden width={420} maskClosable={false}>
      {/* mounted while open only (destroyOnHidden): each opening starts afresh */}
      <PaymentBody onClose={onClose} {...rest} />
    </Modal>
  );
}

function PaymentBody({ amountFen, wechat, phoneChannels, balance, onPaid, onClose }: Omit<PaymentDialogProps, 'open' | 'title'>) {
  const s = moneyStrings.use();
  const [channel] = useState<PayChannel>(() => choosePayChannel(userAgent(), Boolean(phoneChannels)));
  const [method, setMethod] = useState<PayMethod>(() =>
    balance && (!wechat || (balance.balanceFen >= amountFen && balance.hasDealPwd)) ? 'balance' : 'wechat',
  );
  const [paid, setPaid] = useState<PayMethod | null>(null);

  const done = useCallback(
    (m: PayMethod) => {
      setPaid(m);
      onPaid?.(m);
    },
    [onPaid],
  );

  if (paid) {
    return (
      <Result
        status="success"
        title={s('pay.success')}
        subTitle={s('pay.success_hint', { amount: formatFen(amountFen) })}
        extra={
          <Button type="primary" onClick={onClose}>
            {s('pay.done')}
          </Button>
        }
      />
    );
  }
  return (
    <Flex vertical gap={16}>
      <Statistic title={s('pay.amount')} prefix="¥" value={formatFen(amountFen)} styles={{ content: { fontSize: 28 } }} />
      {wechat && balance && (
        <Segmented<PayMethod>
          block
          value={method}
          onChange={setMethod}
          options={[
            { value: 'balance', label: s('pay.method_balance') },
            { value: 'wechat', label: s('pay.method_wechat') },
          ]}
        />
      )}
      {method === 'wechat' && wechat && channel === 'native' && <WechatPane start={() => wechat('native')} onPaid={() => done('wechat')} />}
      {method === 'wechat' && wechat && channel === 'jsapi' && <JsapiPane start={() => wechat('jsapi')} onPaid={() => done('wechat')} />}
      {method === 'wechat' && wechat && channel === 'h5' && <H5Pane start={() => wechat('h5')} />}
      {method === 'balance' && balance && <BalancePane amountFen={amountFen} option={balance} onPaid={() => done('balance')} />}
    </Flex>
  );
}

/** The QR of a provider payment, its countdown and the polling of its state. */
function WechatPane({ start, onPaid }: { start: () => Promise<PendingPayment>; onPaid: () => void }) {
  const s = moneyStrings.use();
  const p = useNativePayment(start, onPaid);
  if (p.order.isLoading) {
    return (
      <Flex vertical align="center" gap={8} style={{ padding: 32 }} role="status">
        <Spin />
        <Typography.Text type="secondary">{s('pay.creating')}</Typography.Text>
      </Flex>
    );
  }
  if (p.order.isError && p.order.error instanceof Error && p.order.error.message === moneyStrings.t('pay.no_merchant')) {
    // the school takes no online payment (no WeChat Pay sub-merchant yet): where to pay instead, nothing to retry
    return <Result status="info" title={s('pay.no_merchant')} />;
  }
  if (p.order.isError || !p.codeUrl) {
    return (
      <Result
        status="warning"
        title={s('pay.create_failed')}
        subTitle={p.order.error instanceof Error ? p.order.error.message : undefined}
        extra={<Button onClick={p.regenerate}>{s('pay.regenerate')}</Button>}
      />
    );
  }
  if (p.expired) {
    return (
      <Result
        status="info"
        title={s('pay.expired')}
        subTitle={s('pay.expired_hint')}
        extra={
          <Button type="primary" onClick={p.regenerate}>
            {s('pay.regenerate')}
          </Button>
        }
      />
    );
  }
  return (
    <Flex vertical align="center" gap={12}>
      <QRCode value={p.codeUrl} size={200} status={p.state.data?.state === 'paid' ? 'scanned' : 'active'} aria-label={s('pay.scan')} />
      <Typography.Text>{s('pay.scan')}</Typography.Text>
      <Typography.Text type="secondary" aria-live="polite">
        {s('pay.expires_in', { time: mmss(p.msLeft) })} · {s('pay.waiting')}
      </Typography.Text>
      {p.sandbox && (
        <Flex vertical align="center" gap={4}>
          <Button onClick={() => void p.simulate()} loading={p.simulating} data-testid="simulate-pay">
            {s('pay.simulate')}
          </Button>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {s('pay.simulate_hint')}
          </Typography.Text>
        </Flex>
      )}
    </Flex>
  );
}

/**
 * Inside WeChat: 微信支付 opens WeChat's payment sheet (useJsapiPayment: one order, the bridge or the sandbox's
 * stand-in); paid is what the payment's state says.
 */
function JsapiPane({ start, onPaid }: { start: () => Promise<PendingPayment>; onPaid: () => void }) {
  const s = moneyStrings.use();
  const { phase, pay, busy, retry } = useJsapiPayment(start, onPaid);
  return (
    <Flex vertical gap={12}>
      {phase === 'confirming' ? (
        <Flex vertical align="center" gap={8} style={{ padding: 16 }} role="status">
          <Spin />
          <Typography.Text type="secondary">{s('pay.confirming')}</Typography.Text>
        </Flex>
      ) : (
        <>
          {phase === 'cancelled' && <Alert type="info" showIcon title={s('pay.cancelled')} />}
          {phase === 'failed' && <Alert type="warning" showIcon title={s('pay.phone_failed')} />}
          <Button type="primary" block size="large" loading={busy} onClick={() => void pay()} data-testid="wechat-jsapi-pay">
            {retry ? s('pay.again') : s('pay.method_wechat')}
          </Button>
          <Typography.Text type="secondary" style={{ textAlign: 'center' }}>
            {s('pay.jsapi_hint')}
          </Typography.Text>
        </>
      )}
    </Flex>
  );
}

/** In a phone browser outside WeChat: 微信支付 goes to WeChat's cashier page (useH5Payment), back to /pay/result. */
function H5Pane({ start }: { start: () => Promise<PendingPayment> }) {
  const s = moneyStrings.use();
  const { phase, go } = useH5Payment(start);
  return (
    <Flex vertical gap={12}>
      {phase === 'failed' && <Alert type="warning" showIcon title={s('pay.phone_failed')} />}
      <Button type="primary" block size="large" loading={phase === 'starting'} onClick={() => void go()} data-testid="wechat-h5-pay">
        {s('pay.method_wechat')}
      </Button>
      <Typography.Text type="secondary" style={{ textAlign: 'center' }}>
        {s('pay.h5_hint')}
      </Typography.Text>
    </Flex>
  );
}

/** The balance, the payment password, one request key for every try. */
function BalancePane({ amountFen, option, onPaid }: { amountFen: number; option: BalanceOption; onPaid: () => void }) {
  const s = moneyStrings.use();
  const [pwd, setPwd] = useState('');
  const zone = useSchoolZone();
  const requestId = useRef(newRequestId());
  const [openedAt] = useState(() => Date.now());
  const low = option.balanceFen < amountFen;
  const locked = option.lockedUntil && Date.parse(option.lockedUntil) > openedAt ? option.lockedUntil : null;

  // the module's own balance write (option.pay): its busy state here; a refusal (wrong password with the tries left,
  // locked, the balance changed) is shown by the request wrapper and clears the password for the next try
  const payment = useMutation({
    mutationFn: (dealPwd: string) => option.pay(dealPwd, requestId.current),
    onSuccess: () => onPaid(),
    onError: () => setPwd(''),
  });
  const pay = () => {
    if (!payment.isPending) payment.mutate(pwd);
  };

  return (
    <Flex vertical gap={12}>
      <Typography.Text>
        {s('pay.balance')}: <Typography.Text strong>¥{formatFen(option.balanceFen)}</Typography.Text>
      </Typography.Text>
      {low ? (
        <Alert type="warning" showIcon title={s('pay.balance_low')} />
      ) : !option.hasDealPwd ? (
        <Alert
          type="info"
          showIcon
          title={s('pay.no_deal_pwd')}
          action={
            option.onSetDealPwd && (
              <Button size="small" onClick={option.onSetDealPwd}>
                {s('pay.set_deal_pwd')}
              </Button>
            )
          }
        />
      ) : locked ? (
        <Alert type="error" showIcon title={s('pay.locked', { time: localTime(locked, zone) })} />
      ) : (
        <>
          <Typography.Text type="secondary">{s('pay.deal_pwd_hint')}</Typography.Text>
          <Input.OTP
            length={6}
            mask="•"
            value={pwd}
            onChange={setPwd}
            formatter={(v) => v.replace(/\D/g, '')}
            aria-label={s('pay.deal_pwd')}
            inputMode="numeric"
          />
          <Button type="primary" block size="large" disabled={!/^\d{6}$/.test(pwd)} loading={payment.isPending} onClick={pay}>
            {s('pay.confirm', { amount: formatFen(amountFen) })}
          </Button>
        </>
      )}
    </Flex>
  );
}
