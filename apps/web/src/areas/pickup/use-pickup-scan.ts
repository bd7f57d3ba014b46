import { isUnauthorisedPickup } from '@wantuo/shared';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { ApiError, post } from '../../api/http';
import { decodeQr } from '../auth/qr-decode';
import { pickupStrings, type PickupKey } from './strings';
import { checkLocally, enqueue, flushQueue, isOffline, markUsed, verifyKey } from './verify';

export interface ScanStudent {
  id: number;
  name: string;
}

export interface Scanned {
  code: string;
  /** when it was verified (sent as verified_at when the departure goes out later) */
  at: string;
  person?: { name: string; relation: string };
  /** the children this code collects here */
  students: ScanStudent[];
}

/** A refusal loud: the phone vibrates where it can. */
const buzz = () => (navigator as Navigator & { vibrate?: (p: number[]) => boolean }).vibrate?.([200, 100, 200]);

export interface PickupScanOptions {
  /**
   * The children a scanned code would collect here: the desktop's dialog and the phone's leave sheet know them before
   * the scan (one child); the phone's scan page takes them from the code (those of its children on today's list).
   */
  studentsFor: (code: string) => ScanStudent[];
  /** said when `studentsFor` finds none */
  noneMessage?: string;
  /** after a departure was recorded (or queued offline, or queued ones went out) */
  onDone: () => void;
}

/**
 * 扫码核验 at 离园 without a UI kit: a scanned text checked on the phone with the school's public key (cached: works
 * offline; an unauthorised attempt is reported to the API), the person shown, then the departure with the code;
 * offline it is queued with verified_at and sent when back online. The desktop's PickupScan (antd) and the phone's
 * scan sheet use it.
 */
export function usePickupScan({ studentsFor, noneMessage, onDone }: PickupScanOptions) {
  const pt = pickupStrings.use();
  const [error, setError] = useState<string | null>(null);
  const [scanned, setScanned] = useState<Scanned | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);

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

  /** a text read from a code (camera, photo, WeChat's scanner, typed): checked for the children it would collect */
  const onText = async (text: string | null) => {
    if (!text) return refuse(pt('pickup.scan_none'));
    const students = studentsFor(text.trim());
    if (students.length === 0) return refuse(noneMessage ?? pt('pickup.r.not_this_child'));
    const ids = students.map((s) => s.id);
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
    setScanned({ code: text.trim(), at: new Date().toISOString(), person: local.person, students });
  };

  /** records the departure of `ids` (default: every child of the scan); answers whether it was recorded or queued */
  const confirm = async (ids = scanned?.students.map((s) => s.id) ?? []): Promise<boolean> => {
    if (!scanned || ids.length === 0) return false;
    setBusy(true);
    const eventId = crypto.randomUUID();
    try {
      await post('studentLiyuan', { student_ids: ids, picked_up_by: null, pickup_code: scanned.code, event_id: eventId }, { silent: true });
      markUsed(scanned.code);
      setDone(pt('pickup.done'));
      setScanned(null);
      onDone();
      return true;
    } catch (err) {
      if (isOffline(err)) {
        enqueue({ student_ids: ids, pickup_code: scanned.code, verified_at: scanned.at, event_id: eventId });
        markUsed(scanned.code);
        setDone(pt('pickup.queued'));
        setScanned(null);
        return true;
      }
      refuse((err as ApiError).message);
      return false;
    } finally {
      setBusy(false);
    }
  };

  /** back to scanning (a new code) */
  const reset = () => {
    setScanned(null);
    setError(null);
  };

  return { error, scanned, busy, done, setDone, onText, confirm, reset };
}

/**
 * The back camera into the video element of `videoRef` while `active`, each frame read for a QR code (BarcodeDetector,
 * else jsQR): each new text to `onText` (a refused code is not read twice in a row); `noCamera`: the camera could not be used (none, refused, not a
 * secure page).
 */
export function useQrCamera(active: boolean, onText: (text: string) => unknown): { videoRef: RefObject<HTMLVideoElement | null>; noCamera: boolean } {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [noCamera, setNoCamera] = useState(false);
  const handler = useRef(onText);
  useEffect(() => {
    handler.current = onText;
  }, [onText]);
  useEffect(() => {
    if (!active) return;
    let stream: MediaStream | null = null;
    let stop = false;
    void (async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw new Error('none');
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
        const el = videoRef.current;
        if (!el || stop) {
          stream.getTracks().forEach((t) => t.stop());
          return;
        }
        el.srcObject = stream;
        await el.play();
        // a refused code stays in front of the camera: it is read once, the next different one is read again
        let last: string | null = null;
        while (!stop) {
          const text = await decodeQr(el, el.videoWidth, el.videoHeight).catch(() => null);
          if (text && text !== last) {
            last = text;
            await handler.current(text);
          }
          await new Promise((r) => setTimeout(r, 300));
        }
      } catch {
        if (!stop) setNoCamera(true);
      }
    })();
    return () => {
      stop = true;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [active]);
  return { videoRef, noCamera };
}
