import Button from 'antd-mobile/es/components/button';
import CheckList from 'antd-mobile/es/components/check-list';
import ScanningOutline from 'antd-mobile-icons/es/ScanningOutline';
import { useRef, useState } from 'react';
import { pickupStrings } from '../../areas/pickup/strings';
import { usePickupScan, useQrCamera, type ScanStudent } from '../../areas/pickup/use-pickup-scan';
import { decodeQrFile } from '../../areas/auth/qr-decode';
import { inWechat, userAgent } from '../../lib/wechat-env';
import { Notice } from './parts';
import { teacherPhoneStrings } from './strings';

/**
 * WeChat's own scanner (src/phone/wechat/jssdk.ts, loaded on first use, only inside WeChat): the text scanned, or null
 * when it could not be used (not configured, cancelled, refused, its code not loaded): the camera then.
 */
async function wechatScan(): Promise<string | null> {
  if (!inWechat(userAgent())) return null;
  try {
    const { wechatScan: scan } = await import('../wechat/jssdk');
    return await scan();
  } catch {
    return null;
  }
}

/**
 * 扫码核验 on the phone: WeChat's scanner inside WeChat, else the camera (BarcodeDetector, else jsQR), or a photo of
 * the code; checked on the phone with the school's public key (offline too), the person shown, then the departure of
 * the children (those of `studentsFor`; with `choose`, the teacher may leave some out).
 */
export function ScanPanel({
  studentsFor,
  noneMessage,
  onDone,
  choose = false,
  autoStart = true,
}: {
  studentsFor: (code: string) => ScanStudent[];
  noneMessage?: string;
  onDone: () => void;
  choose?: boolean;
  /** the camera starts at once (else after a tap) */
  autoStart?: boolean;
}) {
  const pt = pickupStrings.use();
  const tp = teacherPhoneStrings.use();
  const fileRef = useRef<HTMLInputElement>(null);
  const wechat = inWechat(userAgent());
  // inside WeChat its own scanner first; the camera when it cannot be used
  const [camera, setCamera] = useState(autoStart && !wechat);
  const { error, scanned, busy, done, setDone, onText, confirm, reset } = usePickupScan({ studentsFor, noneMessage, onDone });
  const { videoRef, noCamera } = useQrCamera(camera && !scanned, onText);
  // the children of this scan the teacher left out (every one leaves unless unticked)
  const [omitted, setOmitted] = useState<{ code: string; ids: string[] }>({ code: '', ids: [] });
  const left = scanned && omitted.code === scanned.code ? omitted.ids : [];
  const leaving = (scanned?.students ?? []).map((s) => String(s.id)).filter((id) => !left.includes(id));
  const setLeaving = (ids: string[]) =>
    scanned && setOmitted({ code: scanned.code, ids: scanned.students.map((s) => String(s.id)).filter((id) => !ids.includes(id)) });

  const scanInWechat = async () => {
    setDone(null);
    const text = await wechatScan();
    if (text === null) setCamera(true);
    else await onText(text);
  };

  return (
    <div className="m-scan" data-testid="pickup-scan-panel">
      {error && (
        <Notice kind="error" testId="pickup-refused">
          {error}
        </Notice>
      )}
      {done && (
        <Notice kind="ok" testId="pickup-done">
          {done}
        </Notice>
      )}
      {!scanned && (
        <div style={{ marginTop: 8 }}>
          {wechat && (
            <Button block color="primary" onClick={() => void scanInWechat()} data-testid="pickup-scan-wechat">
              <ScanningOutline /> {tp('tp.wechat_scan')}
            </Button>
          )}
          {camera && !noCamera && (
            <>
              <video ref={videoRef} className="m-video" muted playsInline aria-label={tp('tp.camera_hint')} />
              <div className="m-state-desc" style={{ textAlign: 'center', marginTop: 6 }}>
                {tp('tp.camera_hint')}
              </div>
            </>
          )}
          {!camera && !wechat && (
            <Button
              block
              color="primary"
              onClick={() => {
                setDone(null);
                setCamera(true);
              }}
              data-testid="pickup-scan"
            >
              <ScanningOutline /> {pt('pickup.scan')}
            </Button>
          )}
          {camera && noCamera && <div className="m-state-desc">{pt('pickup.scan_no_camera')}</div>}
          <Button block onClick={() => fileRef.current?.click()} style={{ marginTop: 8 }}>
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
              setDone(null);
              if (file) await onText(await decodeQrFile(file).catch(() => null));
            }}
          />
        </div>
      )}
      {scanned && (
        <div style={{ marginTop: 8 }}>
          <Notice kind="ok" testId="pickup-verified">
            {pt('pickup.verified', { name: scanned.person?.name || pt('pickup.unknown_person'), relation: scanned.person?.relation || '-' })}
            {!navigator.onLine && <div style={{ fontSize: 12, marginTop: 4 }}>{pt('pickup.verified_offline')}</div>}
          </Notice>
          {choose && scanned.students.length > 1 ? (
            <>
              <div className="m-sheet-sub">{tp('tp.scan_choose')}</div>
              <CheckList multiple value={leaving} onChange={(v) => setLeaving(v.map(String))}>
                {scanned.students.map((s) => (
                  <CheckList.Item key={s.id} value={String(s.id)}>
                    {s.name}
                  </CheckList.Item>
                ))}
              </CheckList>
            </>
          ) : (
            <div className="m-sheet-sub" data-testid="pickup-children">
              {pt('pickup.children', { names: scanned.students.map((s) => s.name).join('、') })}
            </div>
          )}
          <Button
            block
            color="primary"
            loading={busy}
            disabled={leaving.length === 0}
            data-testid="pickup-confirm"
            style={{ marginTop: 12 }}
            onClick={() => void confirm(leaving.map(Number))}
          >
            {pt('pickup.confirm')}
          </Button>
          <Button block onClick={reset}>
            {tp('tp.scan_again')}
          </Button>
        </div>
      )}
    </div>
  );
}
