/** Reading a QR code from a camera frame or a photo: the browser's BarcodeDetector where it has one, else jsQR (loaded on first use). */

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: CanvasImageSource | ImageData): Promise<DetectedBarcode[]>;
}
interface BarcodeDetectorClass {
  new (opts: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats(): Promise<string[]>;
}

let native: Promise<BarcodeDetectorLike | null> | null = null;

/** The browser's QR detector, or null where there is none (e.g. desktop Chromium on Linux, Firefox). */
function nativeDetector(): Promise<BarcodeDetectorLike | null> {
  native ??= (async () => {
    const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
    if (!Detector) return null;
    try {
      return (await Detector.getSupportedFormats()).includes('qr_code') ? new Detector({ formats: ['qr_code'] }) : null;
    } catch {
      return null;
    }
  })();
  return native;
}

type JsQr = typeof import('jsqr').default;
let fallback: Promise<JsQr> | null = null;
function jsQr(): Promise<JsQr> {
  fallback ??= import('jsqr').then((m) => (m as { default?: JsQr }).default ?? (m as unknown as JsQr));
  return fallback;
}

/** The largest side a frame is scaled down to before jsQR reads it (a phone photo is 4000 px; QR codes need far less). */
const MAX_SIDE = 1024;

/**
 * The text of the first QR code in an image (a video element, a decoded photo, a canvas), or null when none is found.
 * `width` and `height` are the source's own pixels.
 */
export async function decodeQr(source: CanvasImageSource, width: number, height: number): Promise<string | null> {
  if (!width || !height) return null;
  const detector = await nativeDetector();
  if (detector) {
    try {
      const found = await detector.detect(source);
      if (found[0]?.rawValue) return found[0].rawValue;
    } catch {
      // some builds list qr_code but fail on some sources: jsQR reads it below
    }
  }
  const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return null;
  ctx.drawImage(source, 0, 0, w, h);
  const { data } = ctx.getImageData(0, 0, w, h);
  const read = await jsQr();
  return read(data, w, h, { inversionAttempts: 'attemptBoth' })?.data ?? null;
}

/** The QR code in a chosen photo. */
export async function decodeQrFile(file: Blob): Promise<string | null> {
  const bitmap = await createImageBitmap(file);
  try {
    return await decodeQr(bitmap, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}
