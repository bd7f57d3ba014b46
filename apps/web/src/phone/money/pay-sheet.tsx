import Button from 'antd-mobile/es/components/button';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import NoticeBar from 'antd-mobile/es/components/notice-bar';
import Popup from 'antd-mobile/es/components/popup';
import CheckCircleFill from 'antd-mobile-icons/es/CheckCircleFill';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatFen, type ParentPayOptions, type PayChannel, type PendingPayment } from '@wantuo/shared';
import { useCallback, useState } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { choosePayChannel, userAgent } from '../../lib/wechat-env';
import { mmss, useH5Payment, useJsapiPayment, useNativePayment } from '../../areas/money/pay-flow';
import { moneyStrings } from '../../areas/money/strings';
import { QrSvg } from '../../areas/pickup/qr-svg';
import { phoneStrings } from '../strings';
import './pay-sheet.css';

export interface PaySheetProps {
  open: boolean;
  title: string;
  amountFen: number;
  /** starts the WeChat Pay payment of the channel the sheet chose */
  start: ((channel: PayChannel) => Promise<PendingPayment>) | null;
  /** the server says it is paid (the sheet shows success until closed) */
  onPaid?: () => void;
  onClose: () => void;
}

/**
 * The phone's one payment sheet (a bottom sheet; the desktop's is payment-dialog.tsx, the flows are pay-flow.ts for
 * both): inside WeChat 微信支付 opens WeChat's payment sheet (JSAPI), in another phone browser it goes to WeChat's
 * cashier (H5) and comes back to /pay/result, in a desktop browser it shows the QR. Paid is what the server's payment
 * state says, never the bridge's answer. A school without its WeChat Pay sub-merchant takes no online payment: the sheet
 * says so and where to pay instead (parentPayOptions, read before any pay button is shown).
 */
export function PaySheet({ open, title, amountFen, start, onPaid, onClose }: PaySheetProps) {
  const t = phoneStrings.use();
  return (
    <Popup
      visible={open}
      onMaskClick={onClose}
      onClose={onClose}
      destroyOnClose
      bodyStyle={{ borderTopLeftRadius: 12, borderTopRightRadius: 12, maxHeight: '90vh', overflowY: 'auto' }}
    >
      <div className="m-pay-sheet" data-testid="pay-sheet" role="dialog" aria-label={title}>
        <div className="m-pay-head">
          <div className="m-pay-title">{title}</div>
          <button type="button" className="m-pay-close" onClick={onClose} aria-label={t('m.cancel')}>
            ✕
          </button>
        </div>
        {open && start && <SheetBody amountFen={amountFen} start={start} onPaid={onPaid} onClose={onClose} />}
      </div>
    </Popup>
  );
}

function SheetBody({
  amountFen,
  start,
  onPaid,
  onClose,
}: {
  amountFen: number;
  start: (c: PayChannel) => Promise<PendingPayment>;
  onPaid?: () => void;
  onClose: () => void;
}) {
  const s = moneyStrings.use();
  const qc = useQueryClient();
  const [channel] = useState<PayChannel>(() => choosePayChannel(userAgent(), true));
  const [paid, setPaid] = useState(false);
  const [refused, setRefused] = useState(false);
  const options = usePayOptions();
  const done = useCallback(() => {
    setPaid(true);
    onPaid?.();
  }, [onPaid]);
  // a start the server refuses because the school has no merchant (recorded or withdrawn since the options were read)
  const guarded = useCallback(
    async (c: PayChannel) => {
      try {
        return await start(c);
      } catch (e) {
        if (e instanceof Error && e.message === moneyStrings.t('pay.no_merchant')) {
          setRefused(true);
          qc.setQueryData<ParentPayOptions>(PAY_OPTIONS_KEY, (o) => (o ? { ...o, online: false } : o));
        }
        // whatever the wording, the options say again whether the school takes online payments
        void qc.invalidateQueries({ queryKey: PAY_OPTIONS_KEY });
        throw e;
      }
    },
    [start, qc],
  );
  if (paid) {
    return (
      <div className="m-pay-center" role="status">
        <CheckCircleFill className="m-pay-done-icon" />
        <div className="m-pay-title">{s('pay.success')}</div>
        <div className="m-pay-hint">{s('pay.success_hint', { amount: formatFen(amountFen) })}</div>
        <Button block color="primary" size="large" onClick={onClose}>
          {s('pay.done')}
        </Button>
      </div>
    );
  }
  const amount = (
    <div className="m-pay-amount">
      <div className="m-pay-label">{s('pay.amount')}</div>
      <div className="m-pay-figure">¥{formatFen(amountFen)}</div>
    </div>
  );
  if (options.isPending) {
    return (
      <>
        {amount}
        <div className="m-pay-center" role="status">
          <DotLoading color="primary" />
          <div className="m-pay-hint">{s('pay.options_loading')}</div>
        </div>
      </>
    );
  }
  // options that could not be read do not stop a payment: the start says why if it is refused
  if (refused || options.data?.online === false) {
    return (
      <>
        {amount}
        <DeskOnly options={options.data} onClose={onClose} />
      </>
    );
  }
  return (
    <>
      {amount}
      {channel === 'jsapi' && <Jsapi start={() => guarded('jsapi')} onPaid={done} />}
      {channel === 'h5' && <H5 start={() => guarded('h5')} />}
      {channel === 'native' && <Native start={() => guarded('native')} onPaid={done} />}
    </>
  );
}

export const PAY_OPTIONS_KEY = queryKey('parentPayOptions');

/** Whether the guardian's school takes online payments, read once and kept a few minutes (every sheet asks it). */
function usePayOptions() {
  return useQuery({ queryKey: PAY_OPTIONS_KEY, queryFn: () => get('parentPayOptions', undefined, { silent: true }), staleTime: 5 * 60_000 });
}

/** No online payment for this school: pay at its desk, with its name and phone (a tel: link). */
function DeskOnly({ options, onClose }: { options: ParentPayOptions | undefined; onClose: () => void }) {
  const s = moneyStrings.use();
  const phone = options?.contact_phone?.replace(/[^0-9+-]/g, '') ?? '';
  return (
    <div className="m-pay-desk" role="alert" data-testid="pay-desk-only">
      <div className="m-pay-desk-text">{s('pay.no_merchant')}</div>
      {options && <div className="m-pay-desk-school">{options.school_name}</div>}
      {phone ? (
        <a className="m-pay-tel" href={`tel:${phone}`} data-testid="pay-desk-phone">
          <span className="m-pay-tel-label">{s('pay.desk_phone')}</span>
          <span className="m-pay-tel-number">{options?.contact_phone}</span>
        </a>
      ) : (
        options && <div className="m-pay-hint">{s('pay.no_phone')}</div>
      )}
      <Button block size="large" onClick={onClose}>
        {s('pay.got_it')}
      </Button>
    </div>
  );
}

function Jsapi({ start, onPaid }: { start: () => Promise<PendingPayment>; onPaid: () => void }) {
  const s = moneyStrings.use();
  const { phase, pay, busy, retry } = useJsapiPayment(start, onPaid);
  if (phase === 'confirming') {
    return (
      <div className="m-pay-center" role="status">
        <DotLoading color="primary" />
        <div className="m-pay-hint">{s('pay.confirming')}</div>
      </div>
    );
  }
  return (
    <>
      {phase === 'cancelled' && <NoticeBar content={s('pay.cancelled')} color="info" wrap />}
      {phase === 'failed' && <NoticeBar content={s('pay.phone_failed')} color="alert" wrap />}
      <Button block color="success" size="large" loading={busy} onClick={() => void pay()} data-testid="wechat-jsapi-pay">
        {retry ? s('pay.again') : s('pay.method_wechat')}
      </Button>
      <div className="m-pay-hint">{s('pay.jsapi_hint')}</div>
    </>
  );
}

function H5({ start }: { start: () => Promise<PendingPayment> }) {
  const s = moneyStrings.use();
  const { phase, go } = useH5Payment(start);
  return (
    <>
      {phase === 'failed' && <NoticeBar content={s('pay.phone_failed')} color="alert" wrap />}
      <Button block color="success" size="large" loading={phase === 'starting'} onClick={() => void go()} data-testid="wechat-h5-pay">
        {s('pay.method_wechat')}
      </Button>
      <div className="m-pay-hint">{s('pay.h5_hint')}</div>
    </>
  );
}

/** A browser that is not a phone's (the phone app opened on a computer): the QR to scan with WeChat. */
function Native({ start, onPaid }: { start: () => Promise<PendingPayment>; onPaid: () => void }) {
  const s = moneyStrings.use();
  const p = useNativePayment(start, onPaid);
  if (p.order.isPending) {
    return (
      <div className="m-pay-center" role="status">
        <DotLoading color="primary" />
        <div className="m-pay-hint">{s('pay.creating')}</div>
      </div>
    );
  }
  if (p.order.isError || !p.codeUrl || p.expired) {
    return (
      <div className="m-pay-center" role="alert">
        <div className="m-pay-title">{p.expired ? s('pay.expired') : s('pay.create_failed')}</div>
        <div className="m-pay-hint">{p.expired ? s('pay.expired_hint') : p.order.error instanceof Error ? p.order.error.message : ''}</div>
        <Button block color="primary" onClick={p.regenerate}>
          {s('pay.regenerate')}
        </Button>
      </div>
    );
  }
  return (
    <div className="m-pay-center">
      <QrSvg value={p.codeUrl} size={200} label={s('pay.scan')} />
      <div>{s('pay.scan')}</div>
      <div className="m-pay-hint" aria-live="polite">
        {s('pay.expires_in', { time: mmss(p.msLeft) })} · {s('pay.waiting')}
      </div>
      {p.sandbox && (
        <>
          <Button block onClick={() => void p.simulate()} loading={p.simulating} data-testid="simulate-pay">
            {s('pay.simulate')}
          </Button>
          <div className="m-pay-hint">{s('pay.simulate_hint')}</div>
        </>
      )}
    </div>
  );
}
