import { Alert, Button, Card, Descriptions, Flex, Result, Spin, Typography } from 'antd';
import { ticketOfScan, type QrScanResult } from '@wantuo/shared';
import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError, post } from '../../api/http';
import { useSession } from '../../stores/session';
import { localDateTime, useSchoolZone } from '../../lib/school-time';
import { decodeQr, decodeQrFile } from './qr-decode';
import { qrStrings } from './qr-strings';

type Step =
  | { kind: 'scan'; problem?: string }
  | { kind: 'checking' }
  | { kind: 'confirm'; ticket: string; info: QrScanResult }
  | { kind: 'done' }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string };

/** How often a camera frame is read. */
const FRAME_MS = 250;

const messageOf = (e: unknown) => (e instanceof ApiError ? e.message : e instanceof Error ? e.message : String(e));

/**
 * 扫码登录 on the phone (issue 21): read the desktop's QR code with the camera (BarcodeDetector where the browser has
 * it, jsQR otherwise) or from a photo, or arrive from the phone's own camera app at /qr_scan?ticket=…; the ticket is
 * marked scanned, the page shows which browser asked and where from, and 确认登录 signs that desktop in as this account
 * (取消 refuses it).
 */
export default function QrScanPage() {
  const s = qrStrings.use();
  const nickname = useSession((x) => x.user?.nickname ?? '');
  const timeZone = useSchoolZone();
  const [params, setParams] = useSearchParams();
  const [step, setStep] = useState<Step>({ kind: 'scan' });
  const [busy, setBusy] = useState<'confirm' | 'cancel' | 'photo' | null>(null);
  const [camera, setCamera] = useState<'off' | 'starting' | 'on'>('off');
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const handled = useRef(false);

  const stopCamera = useCallback(() => {
    streamRef.current?.getTracks().forEach((track) => track.stop());
    streamRef.current = null;
    setCamera('off');
  }, []);
  useEffect(() => stopCamera, [stopCamera]);

  const scanTicket = useCallback(
    async (ticket: string) => {
      stopCamera();
      setStep({ kind: 'checking' });
      try {
        const info = await post('qrLoginScan', { ticket }, { silent: true });
        setStep({ kind: 'confirm', ticket, info });
      } catch (e) {
        setStep({ kind: 'failed', message: messageOf(e) });
      }
    },
    [stopCamera],
  );

  /** A decoded text: our sign-in code goes to the API, anything else is said to be no sign-in code. */
  const onText = useCallback(
    (text: string) => {
      const ticket = ticketOfScan(text);
      if (ticket) void scanTicket(ticket);
      else setStep({ kind: 'scan', problem: s('scan.not_login_code') });
    },
    [scanTicket, s],
  );

  // arriving from the phone's own camera app: /qr_scan?ticket=…
  useEffect(() => {
    const fromUrl = params.get('ticket');
    if (handled.current || fromUrl === null) return;
    handled.current = true;
    setParams({}, { replace: true });
    onText(fromUrl);
  }, [params, setParams, onText]);

  // the camera: read a frame every 250 ms until a code is found
  useEffect(() => {
    if (camera !== 'on') return;
    let stopped = false;
    let reading = false;
    const id = setInterval(async () => {
      const video = videoRef.current;
      if (stopped || reading || !video || video.readyState < 2) return;
      reading = true;
      try {
        const text = await decodeQr(video, video.videoWidth, video.videoHeight);
        if (text && !stopped) {
          stopped = true;
          onText(text);
        }
      } finally {
        reading = false;
      }
    }, FRAME_MS);
    return () => {
      stopped = true;
      clearInterval(id);
    };
  }, [camera, onText]);

  const startCamera = async () => {
    setStep({ kind: 'scan' });
    if (!navigator.mediaDevices?.getUserMedia) {
      setStep({ kind: 'scan', problem: s('scan.no_camera') });
      return;
    }
    setCamera('starting');
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
      streamRef.current = stream;
      const video = videoRef.current;
      if (video) {
        video.srcObject = stream;
        await video.play().catch(() => undefined);
      }
      setCamera('on');
    } catch {
      stopCamera();
      setStep({ kind: 'scan', problem: s('scan.no_camera') });
    }
  };

  const onPhoto = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    stopCamera();
    setBusy('photo');
    setStep({ kind: 'scan' });
    try {
      const text = await decodeQrFile(file);
      if (text) onText(text);
      else setStep({ kind: 'scan', problem: s('scan.no_code') });
    } catch {
      setStep({ kind: 'scan', problem: s('scan.no_code') });
    } finally {
      setBusy(null);
    }
  };

  const answer = async (ticket: string, action: 'confirm' | 'cancel') => {
    setBusy(action);
    try {
      await post(action === 'confirm' ? 'qrLoginConfirm' : 'qrLoginCancel', { ticket }, { silent: true });
      setStep({ kind: action === 'confirm' ? 'done' : 'cancelled' });
    } catch (e) {
      setStep({ kind: 'failed', message: messageOf(e) });
    } finally {
      setBusy(null);
    }
  };

  const again = (
    <Button type="primary" onClick={() => setStep({ kind: 'scan' })}>
      {s('scan.again')}
    </Button>
  );

  let body;
  if (step.kind === 'checking') {
    body = (
      <div style={{ padding: 48, textAlign: 'center' }} role="status">
        <Spin description={s('scan.reading')} />
      </div>
    );
  } else if (step.kind === 'confirm') {
    const d = step.info.device;
    body = (
      <Flex vertical gap={16} data-testid="qr-confirm">
        <Typography.Title level={4} style={{ margin: 0, textAlign: 'center' }}>
          {s('scan.confirm_title')}
        </Typography.Title>
        <Descriptions
          column={1}
          size="small"
          bordered
          items={[
            { key: 'account', label: s('scan.account'), children: nickname },
            { key: 'device', label: s('scan.device'), children: [d.browser || s('scan.unknown_device'), d.os].filter(Boolean).join(' · ') },
            { key: 'ip', label: s('scan.ip'), children: d.ip || '—' },
            { key: 'time', label: s('scan.time'), children: localDateTime(d.requested_at, timeZone) },
          ]}
        />
        <Alert type="warning" showIcon title={s('scan.warning')} />
        <Button
          type="primary"
          size="large"
          block
          loading={busy === 'confirm'}
          disabled={busy !== null}
          onClick={() => void answer(step.ticket, 'confirm')}
        >
          {s('scan.confirm')}
        </Button>
        <Button size="large" block loading={busy === 'cancel'} disabled={busy !== null} onClick={() => void answer(step.ticket, 'cancel')}>
          {s('scan.cancel')}
        </Button>
      </Flex>
    );
  } else if (step.kind === 'done') {
    body = <Result status="success" title={s('scan.done')} subTitle={s('scan.done_hint', { name: nickname })} extra={again} />;
  } else if (step.kind === 'cancelled') {
    body = <Result status="info" title={s('scan.cancelled')} extra={again} />;
  } else if (step.kind === 'failed') {
    body = <Result status="warning" title={s('scan.failed')} subTitle={step.message} extra={again} />;
  } else {
    body = (
      <Flex vertical gap={12}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {s('scan.intro')}
        </Typography.Paragraph>
        <div className="qr-scan-view" hidden={camera === 'off'}>
          <video ref={videoRef} playsInline muted aria-label={s('scan.aim')} />
          <div className="qr-scan-frame" aria-hidden />
        </div>
        {camera !== 'off' && <Typography.Text type="secondary">{s('scan.aim')}</Typography.Text>}
        {step.problem && <Alert type="error" showIcon title={step.problem} role="alert" />}
        {camera === 'off' ? (
          <Button type="primary" size="large" block onClick={() => void startCamera()}>
            {s('scan.start_camera')}
          </Button>
        ) : (
          <Button size="large" block loading={camera === 'starting'} onClick={stopCamera}>
            {s('scan.stop_camera')}
          </Button>
        )}
        <Button size="large" block loading={busy === 'photo'} onClick={() => fileRef.current?.click()}>
          {s('scan.pick_photo')}
        </Button>
        <input ref={fileRef} type="file" accept="image/*" hidden data-testid="qr-photo" onChange={(e) => void onPhoto(e)} />
      </Flex>
    );
  }

  return (
    <Flex justify="center">
      <Card title={s('scan.title')} style={{ width: '100%', maxWidth: 480 }}>
        <style>{SCAN_CSS}</style>
        {body}
      </Card>
    </Flex>
  );
}

const SCAN_CSS = `
.qr-scan-view { position: relative; width: 100%; aspect-ratio: 1; background: #000; border-radius: 8px; overflow: hidden; }
.qr-scan-view video { width: 100%; height: 100%; object-fit: cover; display: block; }
.qr-scan-frame { position: absolute; inset: 15%; border: 3px solid rgba(255, 255, 255, 0.85); border-radius: 12px; box-shadow: 0 0 0 100vmax rgba(0, 0, 0, 0.35); }
`;
