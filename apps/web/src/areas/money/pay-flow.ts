import { useMutation, useQuery } from '@tanstack/react-query';
import type { PendingPayment } from '@wantuo/shared';
import { useEffect, useState } from 'react';
import { get, wechatSandbox } from '../../api/http';
import { queryKey } from '../../api/query';
import { h5PayUrl, requestPayment, wechatBridge } from './phone-pay';

/**
 * The WeChat Pay flows without their looks (no antd, no antd-mobile): the desktop's payment dialog and the phone's pay
 * sheet both run them, so a payment is started, opened and followed in one way whatever draws it.
 */

/** How often an open payment asks for its state. */
export const PAYMENT_POLL_MS = 2_000;

/** mm:ss, or h:mm:ss from an hour up */
export const mmss = (ms: number): string => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  return h ? `${h}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}` : `${two(Math.floor(s / 60))}:${two(s % 60)}`;
};

/** Where the H5 payment sends the browser (replaced in tests). */
export const browserNav = { assign: (url: string) => window.location.assign(url) };

/** The state of a started payment, polled while it is pending (the server decides when it is paid). */
export function usePaymentState(outTradeNo: string | undefined, onPaid: () => void, enabled = true) {
  const state = useQuery({
    queryKey: queryKey('paymentState', { out_trade_no: outTradeNo ?? '' }),
    queryFn: () => get('paymentState', { out_trade_no: outTradeNo! }, { silent: true }),
    enabled: Boolean(outTradeNo) && enabled,
    refetchInterval: (q) => (q.state.data?.state === 'pending' || !q.state.data ? PAYMENT_POLL_MS : false),
    gcTime: 0,
  });
  const settled = state.data?.state;
  useEffect(() => {
    if (settled === 'paid') onPaid();
  }, [settled, onPaid]);
  return state;
}

/** Whether the sandbox (outside production) stands in for WeChat Pay here. */
export function useSandboxAvailable(): boolean {
  const q = useQuery({ queryKey: ['wechat.sandbox'], queryFn: () => wechatSandbox.available(), staleTime: Infinity });
  return q.data === true;
}

/**
 * A Native (QR) payment: the order (started once per attempt), its countdown, its state polled until paid, closed or
 * expired; `regenerate` starts a new order; `simulate` is the sandbox's payer (outside production only).
 */
export function useNativePayment(start: () => Promise<PendingPayment>, onPaid: () => void) {
  const [attempt, setAttempt] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const order = useQuery({ queryKey: ['payment.start', attempt], queryFn: start, staleTime: Infinity, gcTime: 0, retry: false });
  const expiresAt = order.data ? Date.parse(order.data.expires_at) : null;
  const expired = expiresAt !== null && now >= expiresAt;
  const state = usePaymentState(order.data?.out_trade_no, onPaid, !expired);
  const sandbox = useSandboxAvailable();
  useEffect(() => {
    if (!order.data || expired) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [order.data, expired]);
  // the sandbox's payer is no action of the API (no useAction): its mutation keeps the busy state; a refusal is shown by
  // the request wrapper
  const sandboxPay = useMutation({ mutationFn: (no: string) => wechatSandbox.pay(no), onSuccess: () => state.refetch() });
  const simulate = () => {
    if (order.data && !sandboxPay.isPending) sandboxPay.mutate(order.data.out_trade_no);
  };
  return {
    order,
    state,
    /** the order's QR link, when the order is a Native one */
    codeUrl: order.data?.channel === 'native' ? order.data.code_url : null,
    expired: expired || state.data?.state === 'closed',
    msLeft: (expiresAt ?? now) - now,
    sandbox,
    simulating: sandboxPay.isPending,
    simulate,
    regenerate: () => setAttempt((a) => a + 1),
  };
}

export type JsapiPhase = 'idle' | 'starting' | 'paying' | 'confirming' | 'cancelled' | 'failed';
type JsapiPending = Extract<PendingPayment, { channel: 'jsapi' }>;

/**
 * Inside WeChat: `pay` starts a JSAPI order (once; a cancelled sheet is opened again for the same order) and opens
 * WeChat's payment sheet through WeixinJSBridge (outside production the sandbox's stand-in is loaded when there is no
 * bridge). The sheet's answer only says what to show meanwhile; paid is what the payment's state says.
 */
export function useJsapiPayment(start: () => Promise<PendingPayment>, onPaid: () => void) {
  const [order, setOrder] = useState<JsapiPending | null>(null);
  const [phase, setPhase] = useState<JsapiPhase>('idle');
  const state = usePaymentState(order?.out_trade_no, onPaid);
  const closed = state.data?.state === 'closed';
  const pay = async () => {
    setPhase('starting');
    try {
      let o = order && !closed && Date.parse(order.expires_at) > Date.now() ? order : null;
      if (!o) {
        const started = await start();
        if (started.channel !== 'jsapi') throw new Error('not a JSAPI order');
        o = started;
        setOrder(o);
      }
      const bridge = await wechatBridge();
      setPhase('paying');
      const outcome = await requestPayment(bridge, o.jsapi);
      setPhase(outcome === 'ok' ? 'confirming' : outcome === 'cancel' ? 'cancelled' : 'failed');
      if (outcome === 'ok') void state.refetch();
    } catch {
      // not bound to WeChat, the provider, no bridge: the request wrapper said why, or the page's hint does
      setPhase('failed');
    }
  };
  return { phase, pay, busy: phase === 'starting' || phase === 'paying', retry: phase === 'cancelled' || phase === 'failed' };
}

/**
 * In a phone browser outside WeChat: `go` starts an H5 order and goes to WeChat's cashier page, which comes back to
 * /pay/result (it polls the payment's state, then links back to the page that was open).
 */
export function useH5Payment(start: () => Promise<PendingPayment>) {
  const [phase, setPhase] = useState<'idle' | 'starting' | 'failed'>('idle');
  const go = async () => {
    setPhase('starting');
    try {
      const o = await start();
      if (o.channel !== 'h5') throw new Error('not an H5 order');
      const { origin, pathname, search } = window.location;
      browserNav.assign(h5PayUrl(o.h5_url, o.out_trade_no, origin, `${pathname}${search}`));
    } catch {
      setPhase('failed');
    }
  };
  return { phase, go };
}
