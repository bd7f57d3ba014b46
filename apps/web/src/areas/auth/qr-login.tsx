import Button from 'antd/es/button';
import QRCode from 'antd/es/qr-code';
import Spin from 'antd/es/spin';
import Typography from 'antd/es/typography';
import { QR_LOGIN, qrPayload, type LoginResult, type QrState, type QrTicket } from '@wantuo/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, post } from '../../api/http';
import { useT } from '../../stores/preferences';
import { qrStrings } from './qr-strings';

type View = { kind: 'loading' } | { kind: 'ticket'; ticket: QrTicket; state: QrState } | { kind: 'failed'; message: string };

/**
 * QR sign-in on the desktop (issue 21): asks the API for a 2-minute ticket, shows it as a QR code (the scan page's
 * address with the ticket) and polls its state every 1.5 s with the secret only this page knows. 已扫描 while the phone
 * asks its user; on confirmation the poll brings the session once and the page signs in as a password sign-in does;
 * expired or cancelled: 刷新 asks for a new ticket.
 */
export default function QrLogin({
  remember,
  onDone,
  onSignedIn,
}: {
  remember: boolean;
  onDone: () => void;
  onSignedIn: (result: LoginResult) => Promise<void>;
}) {
  const t = useT();
  const s = qrStrings.use();
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [now, setNow] = useState(() => Date.now());
  const generation = useRef(0);
  const signIn = useRef(onSignedIn);
  useEffect(() => {
    signIn.current = onSignedIn;
  }, [onSignedIn]);

  /** Asks for a ticket; `mine` is the generation it belongs to (a newer one, or leaving, makes its answer moot). */
  const fetchTicket = useCallback(
    async (mine: number) => {
      try {
        const ticket = await post('qrLoginTicket', { remember }, { silent: true });
        if (mine === generation.current) setView({ kind: 'ticket', ticket, state: 'waiting' });
      } catch (e) {
        if (mine === generation.current) setView({ kind: 'failed', message: e instanceof ApiError ? e.message : String(e) });
      }
    },
    [remember],
  );

  useEffect(() => {
    const g = generation;
    void fetchTicket(++g.current);
    return () => {
      g.current++;
    };
  }, [fetchTicket]);

  // the poll: one request at a time, every 1.5 s, while the ticket is waiting or scanned
  const ticket = view.kind === 'ticket' ? view.ticket : null;
  const live = view.kind === 'ticket' && (view.state === 'waiting' || view.state === 'scanned');
  useEffect(() => {
    if (!ticket || !live) return;
    const mine = generation.current;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      try {
        const r = await post('qrLoginPoll', { ticket: ticket.ticket, secret: ticket.secret }, { silent: true });
        if (mine !== generation.current) return;
        if (r.state === 'confirmed' && r.userinfo) {
          generation.current++;
          setView({ kind: 'ticket', ticket, state: 'confirmed' });
          await signIn.current({ userinfo: r.userinfo });
          return;
        }
        setView((v) => (v.kind === 'ticket' && v.ticket === ticket && v.state !== r.state ? { ...v, state: r.state } : v));
        if (r.state === 'waiting' || r.state === 'scanned') timer = setTimeout(tick, QR_LOGIN.pollMs);
      } catch (e) {
        if (mine !== generation.current) return;
        // the network or the server failed for a moment: ask again; the API refused (used, disabled account): say why
        if (e instanceof ApiError && e.code === 100) setView({ kind: 'failed', message: e.message });
        else timer = setTimeout(tick, QR_LOGIN.pollMs * 2);
      }
    };
    timer = setTimeout(tick, QR_LOGIN.pollMs);
    return () => clearTimeout(timer);
  }, [ticket, live]);

  // the countdown under the code (the server's expiry is what counts; this only tells the user)
  useEffect(() => {
    if (!live) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [live]);

  const refresh = () => {
    setView({ kind: 'loading' });
    void fetchTicket(++generation.current);
  };
  const left = ticket ? Math.max(0, Math.ceil((Date.parse(ticket.expires_at) - now) / 1000)) : 0;
  const state = view.kind === 'ticket' ? view.state : null;
  const cover = (title: string, withRefresh: boolean) => (
    <div className="login-qr-cover" role="status">
      <Typography.Text strong>{title}</Typography.Text>
      {withRefresh && (
        <Button type="primary" size="small" onClick={refresh}>
          {s('qr.refresh')}
        </Button>
      )}
    </div>
  );

  return (
    <div className="login-qr">
      <Typography.Title level={4}>{t('login.qr')}</Typography.Title>
      {view.kind === 'failed' ? (
        <div className="login-qr-box login-qr-failed" role="alert">
          <Typography.Text type="danger">{view.message || s('qr.loading_failed')}</Typography.Text>
          <Button type="primary" onClick={refresh}>
            {s('qr.refresh')}
          </Button>
        </div>
      ) : (
        <div className="login-qr-box" data-testid="qr-login-code" data-state={state ?? 'loading'}>
          <QRCode
            value={ticket ? qrPayload(window.location.origin, ticket.ticket) : '-'}
            size={200}
            errorLevel="M"
            status={
              view.kind === 'loading'
                ? 'loading'
                : state === 'expired' || state === 'cancelled'
                  ? 'expired'
                  : state === 'scanned' || state === 'confirmed'
                    ? 'scanned'
                    : 'active'
            }
            onRefresh={refresh}
            statusRender={({ status }) =>
              status === 'loading' ? (
                <Spin />
              ) : status === 'expired' ? (
                cover(state === 'cancelled' ? s('qr.cancelled') : s('qr.expired'), true)
              ) : (
                cover(state === 'confirmed' ? s('qr.confirmed') : s('qr.scanned'), false)
              )
            }
          />
        </div>
      )}
      <Typography.Text aria-live="polite">
        {state === 'scanned' ? s('qr.scanned') : state === 'expired' ? s('qr.expired') : state === 'cancelled' ? s('qr.cancelled') : s('qr.hint')}
      </Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {live ? `${s('qr.where')} · ${s('qr.expires_in', { s: left })}` : s('qr.where')}
      </Typography.Text>
      <Button type="link" onClick={onDone}>
        {t('common.back')}
      </Button>
    </div>
  );
}
