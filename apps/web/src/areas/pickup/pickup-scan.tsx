import { Alert, Button, Descriptions, Flex, Modal, Typography } from 'antd';
import { ScanOutlined } from '@ant-design/icons';
import { useEffect, useRef, useState } from 'react';
import { isUnauthorisedPickup } from '@wantuo/shared';
import { ApiError, post } from '../../api/http';
import { decodeQr, decodeQrFile } from '../auth/qr-decode';
import { pickupStrings, type PickupKey } from './strings';
import { checkLocally, enqueue, flushQueue, isOffline, markUsed, verifyKey } from './verify';

interface Scanned {
  code: string;
  at: string;
  person?: { name: string; relation: string };
}

/** A refusal loud: the phone vibrates where it can. */
const buzz = () => (navigator as Navigator & { vibrate?: (p: number[]) => boolean }).vibrate?.([200, 100, 200]);

/**
 * 扫码核验 at 离园: the camera (BarcodeDetector, else jsQR) or a photo, the code checked on the phone with the school's
 * public key (cached: works offline), the person and children shown, then the departure with the code; offline it is
 * queued with verified_at and sent when back online.
 */
export function PickupScan({ students, onDone }: { students: Array<{ id: number; name: string }>; onDone: () => void }) {
  const pt = pickupStrings.use();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [scanned, setScanned] = useState<Scanned | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [noCamera, setNoCamera] = useState(false);
  const videoRef = useRef<HTMLVideoElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const ids = students.map((s) => s.id);

  useEffect(() => {
    const back = () => void flushQueue().then(() => onDone());
    window.addEventListener('online', back);
    return () => window.removeEventListener('online', back);
  }, [onDone]);

  const refuse = (msg: string) => {
    setError(msg);
    setScanned(null);
    buzz();
  };

  const onText = async (text: string | null) => {
    if (!text) return refuse(pt('pickup.scan_none'));
    const key = await verifyKey();
    if (!key) return refuse(pt('pickup.r.malformed'));
    const local = checkLocally(key, text, ids);
    if (!local.ok) {
      // another child's code or a revoked person's: the API hears of it too, and alerts the head teacher and guardians
      if (isUnauthorisedPickup(local.reason!) && navigator.onLine !== false) {
        post('reportPickupAttempt', { student_ids: ids, pickup_code: text.trim() }, { silent: true }).catch(() => undefined);
      }
      return refuse(pt(local.reason!.replace('pickup.', 'pickup.r.') as PickupKey));
    }
    setError(null);
    setScanned({ code: text.trim(), at: new Date().toISOString(), person: local.person });
  };

  // the camera while the dialog is open and nothing is scanned yet
  useEffect(() => {
    if (!open || scanned) return;
    let stream: MediaStream | null = null;
    let stop = false;
    void (async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw new Error('none');
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
        const video = videoRef.current;
        if (!video || stop) return;
        video.srcObject = stream;
        await video.play();
        while (!stop) {
          const text = await decodeQr(video, video.videoWidth, video.videoHeight).catch(() => null);
          if (text) {
            await onText(text);
            return;
          }
          await new Promise((r) => setTimeout(r, 300));
        }
      } catch {
        setNoCamera(true);
      }
    })();
    return () => {
      stop = true;
      stream?.getTracks().forEach((t) => t.stop());
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, scanned]);

  const confirm = async () => {
    if (!scanned) return;
    setBusy(true);
    const eventId = crypto.randomUUID();
    try {
      await post('studentLiyuan', { student_ids: ids, picked_up_by: null, pickup_code: scanned.code, event_id: eventId }, { silent: true });
      markUsed(scanned.code);
      setDone(pt('pickup.done'));
      setOpen(false);
      onDone();
    } catch (err) {
      if (isOffline(err)) {
        enqueue({ student_ids: ids, pickup_code: scanned.code, verified_at: scanned.at, event_id: eventId });
        markUsed(scanned.code);
        setDone(pt('pickup.queued'));
        setOpen(false);
      } else refuse((err as ApiError).message);
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    setOpen(false);
    setScanned(null);
    setError(null);
  };

  return (
    <>
      <Button
        size="large"
        icon={<ScanOutlined />}
        data-testid="pickup-scan"
        onClick={() => {
          setDone(null);
          setOpen(true);
        }}
      >
        {pt('pickup.scan')}
      </Button>
      {done && <Alert type="success" showIcon title={done} data-testid="pickup-done" style={{ marginTop: 8 }} />}
      <Modal open={open} title={pt('pickup.scan_title')} onCancel={close} footer={null} destroyOnHidden>
        <Flex vertical gap={12}>
          {error && <Alert type="error" showIcon title={error} data-testid="pickup-refused" />}
          {!scanned && (
            <>
              {!noCamera && <video ref={videoRef} muted playsInline style={{ width: '100%', maxHeight: 280, background: '#000' }} />}
              {noCamera && <Typography.Text type="secondary">{pt('pickup.scan_no_camera')}</Typography.Text>}
              <Button size="large" block onClick={() => fileRef.current?.click()}>
                {pt('pickup.scan_photo')}
              </Button>
              <input
                ref={fileRef}
                type="file"
                accept="image/*"
                hidden
                data-testid="pickup-scan-file"
                onChange={async (e) => {
                  const file = e.target.files?.[0];
                  e.target.value = '';
                  if (file) await onText(await decodeQrFile(file).catch(() => null));
                }}
              />
            </>
          )}
          {scanned && (
            <>
              <Alert
                type="success"
                showIcon
                data-testid="pickup-verified"
                title={pt('pickup.verified', {
                  name: scanned.person?.name || pt('pickup.unknown_person'),
                  relation: scanned.person?.relation || '-',
                })}
                description={!navigator.onLine ? pt('pickup.verified_offline') : undefined}
              />
              <Descriptions
                size="small"
                column={1}
                items={[{ key: 'c', label: '', children: pt('pickup.children', { names: students.map((s) => s.name).join('、') }) }]}
              />
              <Button type="primary" size="large" block loading={busy} onClick={() => void confirm()} data-testid="pickup-confirm">
                {pt('pickup.confirm')}
              </Button>
            </>
          )}
        </Flex>
      </Modal>
    </>
  );
}
