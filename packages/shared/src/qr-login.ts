import { QR_TICKET_RE } from './schemas/auth';

/** The path of the phone's scan page that a QR sign-in code points at (`<origin>/qr_scan?ticket=<id>`). */
export const QR_SCAN_PATH = '/qr_scan';

/** The text the desktop's QR carries: the scan page's address with the ticket, so a phone's own camera opens it too. */
export function qrPayload(origin: string, ticket: string): string {
  return `${origin.replace(/\/+$/, '')}${QR_SCAN_PATH}?ticket=${encodeURIComponent(ticket)}`;
}

/**
 * The ticket a scanned text carries, or null when it is not a QR sign-in code: our scan page's address (any host: the
 * ticket is checked by the API the phone is signed in to) with a well-formed ticket, or a bare ticket.
 */
export function ticketOfScan(text: string): string | null {
  const s = text.trim();
  if (QR_TICKET_RE.test(s)) return s;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.pathname !== QR_SCAN_PATH) return null;
  const ticket = url.searchParams.get('ticket') ?? '';
  return QR_TICKET_RE.test(ticket) ? ticket : null;
}

const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/MicroMessenger\/([\d.]+)/, 'WeChat'],
  [/DingTalk\/([\d.]+)/, 'DingTalk'],
  [/QQBrowser\/([\d.]+)/, 'QQ Browser'],
  [/UCBrowser\/([\d.]+)/, 'UC Browser'],
  [/Edg(?:e|A|iOS)?\/([\d.]+)/, 'Edge'],
  [/(?:OPR|Opera)\/([\d.]+)/, 'Opera'],
  [/Firefox\/([\d.]+)/, 'Firefox'],
  [/FxiOS\/([\d.]+)/, 'Firefox'],
  [/CriOS\/([\d.]+)/, 'Chrome'],
  [/HeadlessChrome\/([\d.]+)/, 'Chrome'],
  [/Chrome\/([\d.]+)/, 'Chrome'],
  [/Version\/([\d.]+).*Safari\//, 'Safari'],
];

const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/Windows NT/, 'Windows'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/HarmonyOS|OpenHarmony/, 'HarmonyOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/** The browser (with its major version) and system a user agent names, '' for each it does not. */
export function describeUserAgent(ua: string): { browser: string; os: string } {
  let browser = '';
  for (const [re, name] of BROWSERS) {
    const m = re.exec(ua);
    if (m) {
      browser = `${name} ${m[1].split('.')[0]}`;
      break;
    }
  }
  const os = SYSTEMS.find(([re]) => re.test(ua))?.[1] ?? '';
  return { browser, os };
}
